package syscalls

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestXattr checks the extended-attribute calls on a file system that
// keeps none: the path or descriptor is checked as stat checks it, then
// lists are empty, gets and removes find nothing and sets are refused, with
// the errors ext4 gives for names outside its namespaces (checked on the
// host with python's os.getxattr). No call warns.
func TestXattr(t *testing.T) {
	x, _ := sandbox(t)
	file := x.open("/home/user/file.txt", oRdonly, 0) // fd 3
	opath := x.open("/home/user/file.txt", oPath, 0)
	buf := x.alloc(256)
	long := x.str("user." + strings.Repeat("a", 251)) // 256 bytes: one too many
	tests := []struct {
		desc   string
		call   string
		target string // a path, or "fd N"
		name   uint64
		want   Errno
	}{
		{"get user", "getxattr", "/home/user/file.txt", x.str("user.mime"), ENODATA},
		{"get trusted", "getxattr", "file.txt", x.str("trusted.x"), ENODATA},
		{"get security", "getxattr", "/etc/passwd", x.str("security.selinux"), ENODATA},
		{"get an ACL", "getxattr", "/etc", x.str("system.posix_acl_access"), ENODATA},
		{"get no namespace", "getxattr", "/etc/passwd", x.str("mime"), EOPNOTSUPP},
		{"get other system name", "getxattr", "/etc/passwd", x.str("system.foo"), EOPNOTSUPP},
		{"get bare prefix", "getxattr", "/etc/passwd", x.str("user."), EINVAL},
		{"get empty name", "getxattr", "/etc/passwd", x.str(""), ERANGE},
		{"get name too long", "getxattr", "/etc/passwd", long, ERANGE},
		{"get name faults", "getxattr", "/etc/passwd", 8, EFAULT},
		{"get missing file", "getxattr", "/nope", x.str("user.a"), ENOENT},
		{"get lookup before name", "getxattr", "/nope", x.str(""), ENOENT},
		{"get through a file", "getxattr", "/etc/passwd/x", x.str("user.a"), ENOTDIR},
		{"get empty path", "getxattr", "", x.str("user.a"), ENOENT},
		{"get follows a link", "getxattr", "/home/user/rel", x.str("user.a"), ENODATA},
		{"get dangling link", "getxattr", "/dangling", x.str("user.a"), ENOENT},
		{"lget dangling link", "lgetxattr", "/dangling", x.str("user.a"), ENODATA},
		{"get loop", "getxattr", "/loop1", x.str("user.a"), ELOOP},
		{"lget loop", "lgetxattr", "/loop1", x.str("user.a"), ENODATA},
		{"get /dev/null", "getxattr", "/dev/null", x.str("user.a"), ENODATA},
		{"get /proc/self/exe", "getxattr", "/proc/self/exe", x.str("user.a"), ENOENT}, // /bin/prog is not in the root
		{"lget /proc/self/exe", "lgetxattr", "/proc/self/exe", x.str("user.a"), ENODATA},
		{"fget", "fgetxattr", "fd 3", x.str("user.a"), ENODATA},
		{"fget closed", "fgetxattr", "fd 99", x.str("user.a"), EBADF},
		{"fget O_PATH", "fgetxattr", "fd 4", x.str("user.a"), EBADF},
		{"list", "listxattr", "/etc/passwd", 0, 0},
		{"list missing", "listxattr", "/nope", 0, ENOENT},
		{"llist dangling", "llistxattr", "/dangling", 0, 0},
		{"list dangling", "listxattr", "/dangling", 0, ENOENT},
		{"flist", "flistxattr", "fd 3", 0, 0},
		{"flist closed", "flistxattr", "fd 99", 0, EBADF},
		{"set", "setxattr", "/home/user/file.txt", x.str("user.a"), EOPNOTSUPP},
		{"set missing", "setxattr", "/nope", x.str("user.a"), ENOENT},
		{"set name before lookup", "setxattr", "/nope", x.str(""), ERANGE},
		{"lset", "lsetxattr", "/dangling", x.str("user.a"), EOPNOTSUPP},
		{"fset", "fsetxattr", "fd 3", x.str("user.a"), EOPNOTSUPP},
		{"fset closed", "fsetxattr", "fd 99", x.str("user.a"), EBADF},
		{"remove", "removexattr", "/etc/passwd", x.str("user.a"), ENODATA},
		{"remove an absent ACL", "removexattr", "/etc/passwd", x.str("system.posix_acl_default"), 0},
		{"remove no namespace", "removexattr", "/etc/passwd", x.str("a"), EOPNOTSUPP},
		{"remove name before lookup", "removexattr", "/nope", x.str(""), ERANGE},
		{"remove missing", "removexattr", "/nope", x.str("user.a"), ENOENT},
		{"lremove", "lremovexattr", "/dangling", x.str("user.a"), ENODATA},
		{"fremove", "fremovexattr", "fd 3", x.str("user.a"), ENODATA},
		{"fremove closed", "fremovexattr", "fd 99", x.str("user.a"), EBADF},
	}
	require.Equal(t, uint64(3), file)
	require.Equal(t, uint64(4), opath)
	val := x.str("v")
	for _, tc := range tests {
		var target uint64
		if fd, ok := strings.CutPrefix(tc.target, "fd "); ok {
			n, err := strconv.Atoi(fd)
			require.NoError(t, err)
			target = uint64(n)
		} else {
			target = x.str(tc.target)
		}
		var got int64
		switch {
		case strings.Contains(tc.call, "list"):
			got = x.call(tc.call, target, buf, 256)
		case strings.Contains(tc.call, "set"):
			got = x.call(tc.call, target, tc.name, val, 1, 0)
		case strings.Contains(tc.call, "get"):
			got = x.call(tc.call, target, tc.name, buf, 256)
		default:
			got = x.call(tc.call, target, tc.name)
		}
		require.Equal(t, errno(tc.want), got, tc.desc)
		x.requireWrites() // nothing written, not even by a list
	}
	// setxattr checks its flags, value size and value before the lookup.
	name := x.str("user.a")
	require.Equal(t, errno(EINVAL), x.call("setxattr", x.str("/nope"), name, val, 1, 4), "unknown flag")
	require.Equal(t, errno(E2BIG), x.call("setxattr", x.str("/nope"), name, val, xattrSizeMax+1, 0))
	require.Equal(t, errno(EFAULT), x.call("setxattr", x.str("/nope"), name, 8, 1, 0))
	require.Equal(t, errno(ENOENT), x.call("setxattr", x.str("/nope"), name, 0, 0, xattrCreate|xattrReplace))
	require.Empty(t, x.warn.String())
}
