package syscalls

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sockaddrUn encodes a struct sockaddr_un for path.
func sockaddrUn(path string) []byte {
	return append([]byte{afUnix, 0}, append([]byte(path), 0)...)
}

// TestUnixSocketWithoutListener: socket(AF_UNIX) succeeds and connect
// fails as on Linux when nothing listens (ENOENT without the path,
// ECONNREFUSED with one), quietly, as glibc's nscd probe meets it; only a
// real socket at the path, which Linux could reach, gets a warning.
func TestUnixSocketWithoutListener(t *testing.T) {
	x := newTK(t, Config{})
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "file"), []byte("data"), 0o644))
	fd := x.call("socket", afUnix, sockStream|sockCloexec|sockNonblock, 0)
	require.GreaterOrEqual(t, fd, int64(3))
	nscd := sockaddrUn("/var/run/nscd/socket")
	assert.Equal(t, errno(ENOENT), x.call("connect", uint64(fd), x.data(nscd), uint64(len(nscd))))
	file := sockaddrUn("/file")
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(fd), x.data(file), uint64(len(file))))
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(fd), x.data([]byte{afUnix, 0, 0, 'a'}), 4))
	assert.Equal(t, errno(EINVAL), x.call("connect", uint64(fd), x.data([]byte{2, 0, 0, 0}), 4))
	assert.Empty(t, x.warn.String(), "the probe is quiet")

	buf := x.alloc(256)
	assert.Equal(t, errno(ENOTCONN), x.call("read", uint64(fd), buf, 8))
	assert.Equal(t, errno(ENOTCONN), x.call("write", uint64(fd), buf, 8))
	assert.Equal(t, errno(ESPIPE), x.call("lseek", uint64(fd), 0, 0))
	require.Equal(t, int64(0), x.call("fstat", uint64(fd), buf))
	assert.Equal(t, uint32(sIFSOCK|0o777), x.u32(buf+16))
	assert.Equal(t, int64(oRdwr|oNonblock), x.call("fcntl", uint64(fd), 3, 0)) // F_GETFL
	assert.Equal(t, int64(1), x.call("fcntl", uint64(fd), 1, 0))               // F_GETFD: FD_CLOEXEC
	// Every other call on a socket descriptor answers without a panic.
	for _, name := range []string{"pread64", "pwrite64", "readv", "writev", "fstatfs", "fsync", "fdatasync", "ftruncate",
		"fallocate", "fchmod", "fchown", "getdents64", "ioctl", "flock", "fadvise64", "fchdir", "dup", "close"} {
		x.call(name, uint64(fd), buf, 8, 0, 0, 0)
	}
	assert.Equal(t, errno(EBADF), x.call("read", uint64(fd), buf, 8), "closed")
	sfd := x.call("socket", afUnix, sockDgram, 0)
	assert.Equal(t, errno(ENOTCONN), x.call("sendfile", uint64(sfd), uint64(x.open("/file", oRdonly, 0)), 0, 4))
	assert.Equal(t, errno(ENOTSOCK), x.call("connect", uint64(x.open("/file", oRdonly, 0)), x.data(file), uint64(len(file))))

	assert.Equal(t, errno(ESOCKTNOSUPPORT), x.call("socket", afUnix, 3, 0))
	assert.Equal(t, errno(EPROTONOSUPPORT), x.call("socket", afUnix, sockStream, 6))
	assert.Empty(t, x.warn.String())

	// A listening socket on the host: the guest cannot reach it, and says so.
	l, err := net.Listen("unix", filepath.Join(x.root, "sock"))
	require.NoError(t, err)
	defer l.Close()
	sock := sockaddrUn("/sock")
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(sfd), x.data(sock), uint64(len(sock))))
	assert.Equal(t, "rvsim: warning: connect to the socket /sock returns ECONNREFUSED: sockets are not supported (no network)\n", x.warn.String())
	x.warn.Reset()
	assert.Equal(t, errno(ENOSYS), x.call("socket", 16, 3, 0)) // AF_NETLINK
	assert.Equal(t, "rvsim: warning: syscall 198 (socket) returns ENOSYS: only AF_INET and AF_INET6 on the loopback, and AF_UNIX, are supported (no network)\n", x.warn.String())
	x.warn.Reset()
	assert.Equal(t, errno(ENOSYS), x.call("bind", uint64(sfd), x.data(sock), uint64(len(sock))))
	assert.Equal(t, "rvsim: warning: syscall 200 (bind) returns ENOSYS: AF_UNIX sockets cannot be bound (no other process)\n", x.warn.String())
}
