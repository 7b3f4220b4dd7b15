package syscalls

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sandbox builds a guest root with a secret file outside it, makes the host
// cwd <root>/home/user (so the guest cwd is /home/user and only that
// directory and <root>/data are writable), and returns the kernel and the
// outside directory.
func sandbox(t *testing.T) (*tk, string) {
	outside := t.TempDir()
	tree(t, outside, "secret.txt=TOP SECRET", "sub/secret2.txt=SECRET 2")
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	up := strings.Repeat("../", 12)
	tree(t, root,
		"etc/passwd=guest passwd",
		"home/user/file.txt=hello",
		"data/",
		"home/user/rel -> ../../etc/passwd",
		"abs -> /etc/passwd",
		"out_abs -> "+filepath.Join(outside, "secret.txt"),
		"out_rel -> "+up+strings.TrimPrefix(filepath.Join(outside, "secret.txt"), "/"),
		"out_dir -> "+outside,
		"home/user/dotdot -> "+up,
		"lnkdir -> home/user",
		"loop1 -> loop2",
		"loop2 -> loop1",
		"self -> self",
		"dangling -> nowhere/file",
		"etc/to_home -> /home/user/via_link.txt",
		"home/user/evil -> /etc/passwd",
		"home/user/evil_dir -> /etc",
	)
	// a chain of 40 links works; 41 is one too many
	for i := 1; i <= 41; i++ {
		require.NoError(t, os.Symlink("c"+strconv.Itoa(i-1), filepath.Join(root, "c"+strconv.Itoa(i))))
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "c0"), []byte("end of chain"), 0o644))
	t.Chdir(filepath.Join(root, "home/user"))
	x := newTK(t, Config{Root: root, AllowWrite: []string{filepath.Join(root, "data")}, ExePath: "/bin/prog"})
	require.Equal(t, "/home/user", x.k.cwd)
	return x, outside
}

func TestSandboxReads(t *testing.T) {
	x, outside := sandbox(t)
	tests := []struct {
		desc string
		path string
		want string // file content, or "" when an errno is expected
		err  Errno
	}{
		{"plain relative", "file.txt", "hello", 0},
		{"plain absolute", "/etc/passwd", "guest passwd", 0},
		{"dotdot to root", "../../etc/passwd", "guest passwd", 0},
		{"dotdot above root stays at root", "../../../../../../etc/passwd", "guest passwd", 0},
		{"absolute dotdot above root", "/../../../etc/passwd", "guest passwd", 0},
		{"relative symlink inside", "rel", "guest passwd", 0},
		{"absolute symlink is inside root", "/abs", "guest passwd", 0},
		{"absolute symlink in a subdirectory restarts at root", "evil", "guest passwd", 0},
		{"absolute dir symlink in a subdirectory", "evil_dir/passwd", "guest passwd", 0},
		{"symlinked directory", "/lnkdir/file.txt", "hello", 0},
		{"symlink to many dotdots", "dotdot/etc/passwd", "guest passwd", 0},
		{"host absolute path", outside + "/secret.txt", "", ENOENT},
		{"absolute symlink to host path", "/out_abs", "", ENOENT},
		{"relative symlink climbing out", "/out_rel", "", ENOENT},
		{"directory symlink to host dir", "/out_dir/secret.txt", "", ENOENT},
		{"dotdot through dir symlink", "/out_dir/../secret.txt", "", ENOENT},
		{"symlink loop", "/loop1", "", ELOOP},
		{"self loop", "/self", "", ELOOP},
		{"loop in the middle", "/loop1/x", "", ELOOP},
		{"40 links", "/c40", "end of chain", 0},
		{"41 links", "/c41", "", ELOOP},
		{"dangling", "/dangling", "", ENOENT},
		{"file as directory", "/etc/passwd/x", "", ENOTDIR},
		{"missing", "/nope", "", ENOENT},
		{"missing directory", "/nope/x", "", ENOENT},
		{"trailing slash on file", "/etc/passwd/", "", ENOTDIR},
	}
	for _, tc := range tests {
		fd := x.call("openat", fdcwd, x.str(tc.path), oRdonly, 0)
		if tc.err != 0 {
			require.Equal(t, errno(tc.err), fd, tc.desc)
			continue
		}
		require.GreaterOrEqual(t, fd, int64(3), tc.desc)
		require.Equal(t, tc.want, x.readAll(uint64(fd)), tc.desc)
		require.Zero(t, x.call("close", uint64(fd)), tc.desc)
	}
	require.Empty(t, x.warn.String(), "reads never warn")
}

func TestSandboxNameLimits(t *testing.T) {
	x, _ := sandbox(t)
	require.Equal(t, errno(ENAMETOOLONG), x.call("openat", fdcwd, x.str(strings.Repeat("a", 256)), oRdonly, 0))
	require.Equal(t, errno(ENAMETOOLONG), x.call("openat", fdcwd, x.str(strings.Repeat("a/", 2100)), oRdonly, 0))
	require.Equal(t, errno(ENOENT), x.call("openat", fdcwd, x.str(""), oRdonly, 0))
	require.Equal(t, errno(EFAULT), x.call("openat", fdcwd, 0, oRdonly, 0))
}

func TestSandboxDirfd(t *testing.T) {
	x, _ := sandbox(t)
	home := x.open("/home", oRdonly|oDirectory, 0)
	tests := []struct {
		desc  string
		dirfd uint64
		path  string
		want  string
		err   Errno
	}{
		{"relative to dirfd", home, "user/file.txt", "hello", 0},
		{"dotdot from dirfd", home, "../../../etc/passwd", "guest passwd", 0},
		{"absolute ignores dirfd", home, "/etc/passwd", "guest passwd", 0},
		{"AT_FDCWD", fdcwd, "file.txt", "hello", 0},
		{"bad dirfd", 99, "file.txt", "", EBADF},
		{"negative dirfd", neg(-5), "file.txt", "", EBADF},
	}
	for _, tc := range tests {
		fd := x.call("openat", tc.dirfd, x.str(tc.path), oRdonly, 0)
		if tc.err != 0 {
			require.Equal(t, errno(tc.err), fd, tc.desc)
			continue
		}
		require.GreaterOrEqual(t, fd, int64(3), tc.desc)
		require.Equal(t, tc.want, x.readAll(uint64(fd)), tc.desc)
	}
	file := x.open("/etc/passwd", oRdonly, 0)
	require.Equal(t, errno(ENOTDIR), x.call("openat", file, x.str("x"), oRdonly, 0), "dirfd is a file")
	require.Equal(t, errno(ENOTDIR), x.call("openat", fdcwd, x.str("/etc/passwd"), oRdonly|oDirectory, 0))
}

func TestSandboxWrites(t *testing.T) {
	x, outside := sandbox(t)
	w := uint64(oWronly | oCreat | oTrunc)
	tests := []struct {
		desc  string
		path  string
		flags uint64
		err   Errno
		host  string // file that must exist afterwards (relative to root), if any
	}{
		{"create in cwd", "new.txt", w, 0, "home/user/new.txt"},
		{"create in allow-write dir", "/data/out.txt", w, 0, "data/out.txt"},
		{"link from read-only dir into cwd", "/etc/to_home", w, 0, "home/user/via_link.txt"},
		{"create outside", "/etc/new", w, EACCES, ""},
		{"truncate outside", "/etc/passwd", oRdonly | oTrunc, EACCES, ""},
		{"write-only outside", "/etc/passwd", oWronly, EACCES, ""},
		{"read-write outside", "/etc/passwd", oRdwr, EACCES, ""},
		{"symlink in cwd pointing out", "evil", oWronly, EACCES, ""},
		{"dir symlink in cwd pointing out", "evil_dir/passwd", oRdwr, EACCES, ""},
		{"create through dir symlink out", "evil_dir/new", w, EACCES, ""},
		{"host path outside root", outside + "/secret.txt", oWronly, ENOENT, ""},
		{"O_CREAT on existing read-only file, no write", "/etc/passwd", oRdonly | oCreat, 0, ""},
		{"O_EXCL on existing", "file.txt", oWronly | oCreat | oExcl, EEXIST, ""},
		{"O_EXCL does not follow symlinks", "rel", oWronly | oCreat | oExcl, EEXIST, ""},
		{"O_NOFOLLOW on symlink", "rel", oRdonly | oNofollow, ELOOP, ""},
		{"open directory for writing", "/data", oWronly, EISDIR, ""},
	}
	for _, tc := range tests {
		fd := x.call("openat", fdcwd, x.str(tc.path), tc.flags, 0o644)
		if tc.err != 0 {
			require.Equal(t, errno(tc.err), fd, tc.desc)
			continue
		}
		require.GreaterOrEqual(t, fd, int64(3), tc.desc)
		x.call("close", uint64(fd))
		if tc.host != "" {
			_, err := os.Stat(filepath.Join(x.root, tc.host))
			require.NoError(t, err, tc.desc)
		}
	}
	b, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	require.Equal(t, "TOP SECRET", string(b), "outside file untouched")
	b, err = os.ReadFile(filepath.Join(x.root, "etc/passwd"))
	require.NoError(t, err)
	require.Equal(t, "guest passwd", string(b), "read-only guest file untouched")
	_, err = os.Stat(filepath.Join(x.root, "etc/new"))
	require.True(t, os.IsNotExist(err))

	// One warning per refused path, naming the resolved guest path.
	lines := strings.Split(strings.TrimSpace(x.warn.String()), "\n")
	require.Equal(t, []string{
		"rvsim: sandbox: refused write access to /etc/new",
		"rvsim: sandbox: refused write access to /etc/passwd",
	}, lines)
}

func TestSandboxModifications(t *testing.T) {
	x, _ := sandbox(t)
	tests := []struct {
		desc string
		call func() int64
		want int64
	}{
		{"unlink outside", func() int64 { return x.call("unlinkat", fdcwd, x.str("/etc/passwd"), 0) }, errno(EACCES)},
		{"mkdir outside", func() int64 { return x.call("mkdirat", fdcwd, x.str("/etc/d"), 0o755) }, errno(EACCES)},
		{"mkdir inside", func() int64 { return x.call("mkdirat", fdcwd, x.str("d"), 0o755) }, 0},
		{"mkdir existing", func() int64 { return x.call("mkdirat", fdcwd, x.str("d"), 0o755) }, errno(EEXIST)},
		{"rename out of read-only", func() int64 {
			return x.call("renameat2", fdcwd, x.str("/etc/passwd"), fdcwd, x.str("stolen"), 0)
		}, errno(EACCES)},
		{"rename into read-only", func() int64 {
			return x.call("renameat2", fdcwd, x.str("file.txt"), fdcwd, x.str("/etc/file.txt"), 0)
		}, errno(EACCES)},
		{"rename inside", func() int64 {
			return x.call("renameat2", fdcwd, x.str("file.txt"), fdcwd, x.str("d/moved.txt"), 0)
		}, 0},
		{"truncate outside", func() int64 { return x.call("truncate", x.str("/etc/passwd"), 0) }, errno(EACCES)},
		{"chmod outside", func() int64 { return x.call("fchmodat", fdcwd, x.str("/etc/passwd"), 0o777) }, errno(EACCES)},
		{"unlink symlink in cwd (the link, not the target)", func() int64 {
			return x.call("unlinkat", fdcwd, x.str("evil"), 0)
		}, 0},
		{"rmdir inside", func() int64 { return x.call("unlinkat", fdcwd, x.str("d"), atRemovedir) }, errno(ENOTEMPTY)},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.call(), tc.desc)
	}
	_, err := os.Stat(filepath.Join(x.root, "home/user/d/moved.txt"))
	require.NoError(t, err)
	_, err = os.Lstat(filepath.Join(x.root, "home/user/evil"))
	require.True(t, os.IsNotExist(err), "the link is gone")
	b, err := os.ReadFile(filepath.Join(x.root, "etc/passwd"))
	require.NoError(t, err)
	require.Equal(t, "guest passwd", string(b), "the link's target is untouched")
	require.Contains(t, x.warn.String(), "refused write access to /etc/passwd")
	require.Contains(t, x.warn.String(), "refused write access to /etc/d")
}

func TestSandboxWritableViaFd(t *testing.T) {
	x, _ := sandbox(t)
	ro := x.open("/etc/passwd", oRdonly, 0)
	require.Equal(t, errno(EACCES), x.call("fchmod", ro, 0o777))
	require.Equal(t, errno(EINVAL), x.call("ftruncate", ro, 0), "not open for writing")
	require.Equal(t, errno(EBADF), x.call("write", ro, x.str("x"), 1))
}

func TestProcSelf(t *testing.T) {
	x, _ := sandbox(t)
	buf := x.alloc(256)
	tests := []struct {
		desc string
		path string
		size uint64
		want string
		err  Errno
	}{
		{"exe", "/proc/self/exe", 256, "/bin/prog", 0},
		{"exe by pid", "/proc/1000/exe", 256, "/bin/prog", 0},
		{"truncated", "/proc/self/exe", 4, "/bin", 0},
		{"cwd", "/proc/self/cwd", 256, "/home/user", 0},
		{"fd of a file", "/proc/self/fd/3", 256, "/etc/passwd", 0},
		{"a generated /proc/self file is no link", "/proc/self/maps", 256, "", EINVAL},
		{"other /proc/self", "/proc/self/limits", 256, "", ENOENT},
		{"/proc/self itself", "/proc/self", 256, "1000", 0},
		{"a symlink", "rel", 256, "../../etc/passwd", 0},
		{"not a symlink", "file.txt", 256, "", EINVAL},
		{"zero size", "rel", 0, "", EINVAL},
		{"missing", "nope", 256, "", ENOENT},
	}
	x.open("/etc/passwd", oRdonly, 0) // fd 3
	for _, tc := range tests {
		n := x.call("readlinkat", fdcwd, x.str(tc.path), buf, tc.size)
		if tc.err != 0 {
			require.Equal(t, errno(tc.err), n, tc.desc)
			continue
		}
		require.Equal(t, int64(len(tc.want)), n, tc.desc)
		require.Equal(t, tc.want, string(x.peek(buf, uint64(n))), tc.desc)
		x.requireWrites(Range{buf, uint64(n)})
	}
}

func TestDevFiles(t *testing.T) {
	x, _ := sandbox(t)
	buf := x.alloc(64)
	null := x.open("/dev/null", oRdwr, 0)
	require.Zero(t, x.call("read", null, buf, 64))
	require.Equal(t, int64(5), x.call("write", null, x.str("hello"), 5))
	zero := x.open("/dev/zero", oRdonly, 0)
	require.NoError(t, x.m.WriteBytes(buf, []byte(strings.Repeat("x", 64))))
	require.Equal(t, int64(64), x.call("read", zero, buf, 64))
	require.Equal(t, make([]byte, 64), x.peek(buf, 64))
	require.Equal(t, errno(ENXIO), x.call("openat", fdcwd, x.str("/dev/tty"), oRdwr, 0))
	full := x.open("/dev/full", oWronly, 0)
	require.Equal(t, errno(ENOSPC), x.call("write", full, buf, 1))

	// /dev/urandom gives the same bytes in every fresh kernel
	rnd := x.open("/dev/urandom", oRdonly, 0)
	require.Equal(t, int64(16), x.call("read", rnd, buf, 16))
	first := x.peek(buf, 16)
	y, _ := sandbox(t)
	fd := y.open("/dev/urandom", oRdonly, 0)
	b2 := y.alloc(16)
	require.Equal(t, int64(16), y.call("read", fd, b2, 16))
	require.Equal(t, first, y.peek(b2, 16))
	require.NotEqual(t, make([]byte, 16), first)

	st := x.alloc(statSize)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/dev/null"), st, 0))
	require.Equal(t, uint32(sIFCHR|0o666), x.u32(st+statModeOff))
	require.Equal(t, makedev(1, 3), x.u64(st+statRdevOff))
}

func TestNewRootAndCwd(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree(t, root, "a/b/")
	t.Chdir(filepath.Join(root, "a/b"))
	x := newTK(t, Config{Root: root})
	require.Equal(t, "/a/b", x.k.cwd, "host cwd inside the root")

	other := t.TempDir()
	t.Chdir(other)
	y := newTK(t, Config{Root: root})
	require.Equal(t, "/", y.k.cwd, "host cwd outside the root")

	z := newTK(t, Config{Root: root, Cwd: "/a"})
	require.Equal(t, "/a", z.k.cwd)

	_, err = New(x.m, Config{Root: root, Cwd: "/missing"})
	require.Error(t, err)
	_, err = New(x.m, Config{Root: root, Cwd: "relative"})
	require.Error(t, err)
	_, err = New(x.m, Config{Root: filepath.Join(root, "nope")})
	require.Error(t, err)
	_, err = New(x.m, Config{Root: root, AllowWrite: []string{filepath.Join(root, "nope")}})
	require.Error(t, err)
	_, err = New(nil, Config{})
	require.Error(t, err)

	host := newTK(t, Config{Root: "/"})
	wd, err := os.Getwd()
	require.NoError(t, err)
	wd, err = filepath.EvalSymlinks(wd)
	require.NoError(t, err)
	require.Equal(t, wd, host.k.cwd, "root / maps the host cwd to itself")
}

func TestSymlinkat(t *testing.T) {
	x, _ := sandbox(t)
	require.Zero(t, x.call("symlinkat", x.str("/etc/passwd"), fdcwd, x.str("mylink")))
	target, err := os.Readlink(filepath.Join(x.root, "home/user/mylink"))
	require.NoError(t, err)
	require.Equal(t, "/etc/passwd", target, "stored as given")
	require.Equal(t, "guest passwd", x.readAll(x.open("mylink", oRdonly, 0)), "followed inside the root")
	require.Equal(t, errno(EACCES), x.call("openat", fdcwd, x.str("mylink"), oWronly, 0), "still not writable")
	require.Equal(t, errno(EEXIST), x.call("symlinkat", x.str("x"), fdcwd, x.str("mylink")))
	require.Equal(t, errno(ENOENT), x.call("symlinkat", x.str(""), fdcwd, x.str("other")))
	require.Equal(t, errno(EACCES), x.call("symlinkat", x.str("x"), fdcwd, x.str("/etc/lnk")))
	_, err = os.Lstat(filepath.Join(x.root, "etc/lnk"))
	require.True(t, os.IsNotExist(err))
}

func TestExeFallsBackToArgv0(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree(t, root, "w/")
	t.Chdir(filepath.Join(root, "w"))
	x := newTK(t, Config{Root: root})
	_, err = x.k.SetupProcess(Image{}, []string{"../bin/prog"}, nil)
	require.NoError(t, err)
	buf := x.alloc(64)
	n := x.call("readlinkat", fdcwd, x.str("/proc/self/exe"), buf, 64)
	require.Equal(t, "/bin/prog", string(x.peek(buf, uint64(max(n, 0)))))
	name := x.alloc(16)
	require.Zero(t, x.call("prctl", prGetName, name))
	require.Equal(t, "prog\x00", string(x.peek(name, 5)))
}

func TestGuestPath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree(t, root, "bin/prog=x", "w/")
	t.Chdir(filepath.Join(root, "w"))
	x := newTK(t, Config{Root: root})
	tests := []struct {
		desc string
		host string
		want string
		ok   bool
	}{
		{"absolute inside", filepath.Join(root, "bin/prog"), "/bin/prog", true},
		{"relative to the host cwd", "../bin/prog", "/bin/prog", true},
		{"the root itself", root, "/", true},
		{"outside", t.TempDir(), "", false},
	}
	for _, tc := range tests {
		g, ok := x.k.GuestPath(tc.host)
		require.Equal(t, tc.ok, ok, tc.desc)
		require.Equal(t, tc.want, g, tc.desc)
	}
	x.k.SetExePath("/bin/prog")
	_, err = x.k.SetupProcess(Image{}, []string{"whatever"}, nil)
	require.NoError(t, err)
	buf := x.alloc(32)
	require.Equal(t, int64(9), x.call("readlinkat", fdcwd, x.str("/proc/self/exe"), buf, 32))
	require.Equal(t, "x", x.readAll(x.open("/proc/self/exe", oRdonly, 0)))
}

// TestMknodatAndFchmodat2 checks mknodat (mkfifo's call) and fchmodat2
// (chmod -R's, with AT_SYMLINK_NOFOLLOW) against Linux's answers, in and
// out of the writable directories.
func TestMknodatAndFchmodat2(t *testing.T) {
	x, _ := sandbox(t)
	x.call("umask", 0o022)
	host := func(name string) os.FileMode {
		fi, err := os.Lstat(filepath.Join(x.root, name))
		require.NoError(t, err, name)
		return fi.Mode()
	}
	mknod := []struct {
		desc string
		path string
		mode uint64
		want Errno
	}{
		{"fifo", "/data/fifo", sIFIFO | 0o666, 0},
		{"regular file", "/data/reg", sIFREG | 0o640, 0},
		{"no type is a regular file", "/data/plain", 0o600, 0},
		{"exists", "/data/fifo", sIFIFO | 0o666, EEXIST},
		{"character device", "/data/null", sIFCHR | 0o666, EPERM},
		{"block device", "/data/sda", sIFBLK | 0o666, EPERM},
		{"directory", "/data/dir", sIFDIR | 0o755, EPERM},
		{"bad type", "/data/bad", 0o170000 | 0o644, EINVAL},
		{"outside the writable directories", "/etc/fifo", sIFIFO | 0o666, EACCES},
		{"missing directory", "/data/no/fifo", sIFIFO | 0o666, ENOENT},
	}
	for _, tc := range mknod {
		require.Equal(t, errno(tc.want), x.call("mknodat", fdcwd, x.str(tc.path), tc.mode, 0), tc.desc)
	}
	require.Equal(t, os.ModeNamedPipe|0o644, host("data/fifo"), "umask applies")
	require.Equal(t, os.FileMode(0o640), host("data/reg"))
	require.Equal(t, os.FileMode(0o600), host("data/plain"))
	_, err := os.Lstat(filepath.Join(x.root, "data/null"))
	require.True(t, os.IsNotExist(err), "no device node made")

	require.NoError(t, os.Symlink("reg", filepath.Join(x.root, "data/link")))
	fd := x.open("/data/plain", oPath, 0)
	chmod := []struct {
		desc  string
		dirfd uint64
		path  string
		mode  uint64
		flags uint64
		want  Errno
		check string // file whose mode is then want mode
		mode2 os.FileMode
	}{
		{"plain", fdcwd, "/data/reg", 0o600, 0, 0, "data/reg", 0o600},
		{"nofollow on a file", fdcwd, "/data/reg", 0o604, atSymlinkNofollow, 0, "data/reg", 0o604},
		{"nofollow on a link", fdcwd, "/data/link", 0o600, atSymlinkNofollow, EOPNOTSUPP, "data/reg", 0o604},
		{"follows a link", fdcwd, "/data/link", 0o640, 0, 0, "data/reg", 0o640},
		{"sticky kept, setuid dropped", fdcwd, "/data/reg", 0o5755, 0, 0, "data/reg", 0o755 | os.ModeSticky},
		{"AT_EMPTY_PATH on an O_PATH fd", fd, "", 0o700, atEmptyPath, 0, "data/plain", 0o700},
		{"empty path without the flag", fd, "", 0o700, 0, ENOENT, "data/plain", 0o700},
		{"unknown flag", fdcwd, "/data/reg", 0o600, 0x200, EINVAL, "data/reg", 0o755 | os.ModeSticky},
		{"outside the writable directories", fdcwd, "/etc/passwd", 0o600, 0, EACCES, "etc/passwd", 0o644},
		{"missing", fdcwd, "/data/nope", 0o600, 0, ENOENT, "data/reg", 0o755 | os.ModeSticky},
	}
	for _, tc := range chmod {
		require.Equal(t, errno(tc.want), x.call("fchmodat2", tc.dirfd, x.str(tc.path), tc.mode, tc.flags), tc.desc)
		require.Equal(t, tc.mode2, host(tc.check)&^os.ModeType, tc.desc)
	}
	require.Equal(t, errno(EBADF), x.call("fchmod", fd, 0o600), "fchmod takes no O_PATH descriptor")
}
