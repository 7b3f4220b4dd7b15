package syscalls

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// workdir gives a kernel whose guest root is a temp dir that is also the
// host cwd (so everything in it is writable).
func workdir(t *testing.T, entries ...string) *tk {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree(t, root, entries...)
	t.Chdir(root)
	return newTK(t, Config{Root: root, ExePath: "prog"})
}

func TestReadWriteLseek(t *testing.T) {
	x := workdir(t, "in.txt=0123456789")
	fd := x.open("in.txt", oRdwr, 0)
	buf := x.alloc(64)

	require.Equal(t, int64(4), x.call("read", fd, buf, 4))
	require.Equal(t, "0123", string(x.peek(buf, 4)))
	x.requireWrites(Range{buf, 4})

	require.Equal(t, int64(8), x.call("lseek", fd, 8, 0))
	require.Equal(t, int64(2), x.call("read", fd, buf, 64), "short read at end of file")
	require.Equal(t, "89", string(x.peek(buf, 2)))
	require.Zero(t, x.call("read", fd, buf, 64), "EOF")
	x.requireWrites()

	require.Equal(t, int64(3), x.call("pread64", fd, buf, 3, 5))
	require.Equal(t, "567", string(x.peek(buf, 3)))
	require.Equal(t, int64(10), x.call("lseek", fd, 0, 1), "pread leaves the position")

	require.Equal(t, int64(2), x.call("pwrite64", fd, x.str("AB"), 2, 1))
	require.Equal(t, int64(3), x.call("write", fd, x.str("xyz"), 3), "append at position 10")
	b, err := os.ReadFile("in.txt")
	require.NoError(t, err)
	require.Equal(t, "0AB3456789xyz", string(b))

	require.Equal(t, int64(13), x.call("lseek", fd, 0, 2), "SEEK_END")
	require.Equal(t, errno(EINVAL), x.call("lseek", fd, neg(-100), 0))
	require.Equal(t, errno(EINVAL), x.call("lseek", fd, 0, 7))
	require.Equal(t, errno(EINVAL), x.call("pread64", fd, buf, 1, neg(-1)))
	require.Equal(t, errno(ESPIPE), x.call("lseek", 1, 0, 0), "stdout is a pipe")
	require.Equal(t, errno(ESPIPE), x.call("pread64", 0, buf, 1, 0))
	require.Equal(t, errno(EBADF), x.call("read", 77, buf, 1))
	require.Equal(t, errno(EBADF), x.call("read", 1, buf, 1), "stdout is write-only")
	require.Zero(t, x.call("close", fd))
	require.Equal(t, errno(EBADF), x.call("close", fd))
}

func TestReadFaults(t *testing.T) {
	x := workdir(t, "in.txt=abcdefgh")
	fd := x.open("in.txt", oRdonly, 0)
	require.Equal(t, errno(EFAULT), x.call("read", fd, 0x1000, 4), "unmapped buffer")
	x.requireWrites()
	require.Zero(t, x.call("lseek", fd, 0, 1), "nothing consumed by the failed read")

	// A buffer that ends after 3 bytes: partial read, position advanced by 3.
	end := uint64(scratch + scratchSize - 3)
	require.Equal(t, int64(3), x.call("read", fd, end, 8))
	require.Equal(t, "abc", string(x.peek(end, 3)))
	x.requireWrites(Range{end, 3})
	require.Equal(t, int64(3), x.call("lseek", fd, 0, 1))

	// Read-only memory cannot be a read buffer.
	require.NoError(t, x.m.Map(0x20000000, 4096, 1 /* R */, "ro"))
	require.Equal(t, errno(EFAULT), x.call("read", fd, 0x20000000, 4))

	out := x.open("out.txt", oWronly|oCreat, 0o644)
	require.Equal(t, errno(EFAULT), x.call("write", out, 0x1000, 4))
	require.Equal(t, int64(3), x.call("write", out, end, 8), "write stops at the end of readable memory")
}

func TestStdio(t *testing.T) {
	x := newTK(t, Config{Stdin: strings.NewReader("line one\nline two\n")})
	buf := x.alloc(64)
	require.Equal(t, int64(6), x.call("write", 1, x.str("hello\n"), 6))
	require.Equal(t, int64(4), x.call("write", 2, x.str("err!"), 4))
	require.Equal(t, "hello\n", x.out.String())
	require.Equal(t, "err!", x.err.String())
	require.Equal(t, int64(18), x.call("read", 0, buf, 64))
	require.Equal(t, "line one\nline two\n", string(x.peek(buf, 18)))
	require.Zero(t, x.call("read", 0, buf, 64))
	require.Equal(t, errno(EBADF), x.call("write", 0, buf, 1), "stdin is read-only")

	// writev gathers; readv scatters
	iov := x.u64s(x.str("ab"), 2, x.str("cde"), 3, 0, 0, x.str("f"), 1)
	require.Equal(t, int64(6), x.call("writev", 1, iov, 4))
	require.Equal(t, "hello\nabcdef", x.out.String())
	require.Equal(t, errno(EINVAL), x.call("writev", 1, iov, 1025))
	require.Equal(t, errno(EFAULT), x.call("writev", 1, 0x1000, 1))

	// fstat of a captured stream reports a pipe
	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", 1, st))
	require.Equal(t, uint32(sIFIFO), x.u32(st+statModeOff)&sIFMT)
	require.Equal(t, uint32(4096), x.u32(st+statBlksizeOff))
	x.requireWrites(Range{st, statSize})

	// not a terminal
	require.Equal(t, errno(ENOTTY), x.call("ioctl", 1, tcgets, buf))
	require.Equal(t, errno(ENOTTY), x.call("ioctl", 0, tiocgwinsz, buf))
	x.requireWrites()
}

func TestReadv(t *testing.T) {
	x := workdir(t, "in.txt=0123456789")
	fd := x.open("in.txt", oRdonly, 0)
	a, b := x.alloc(16), x.alloc(16)
	iov := x.u64s(a, 3, b, 4)
	require.Equal(t, int64(7), x.call("readv", fd, iov, 2))
	require.Equal(t, "012", string(x.peek(a, 3)))
	require.Equal(t, "3456", string(x.peek(b, 4)))
	x.requireWrites(Range{a, 3}, Range{b, 4})
	require.Equal(t, int64(3), x.call("preadv", fd, iov, 2, 7), "short at end of file")
	require.Equal(t, "789", string(x.peek(a, 3)))
}

func TestFstatAndNewfstatat(t *testing.T) {
	x := workdir(t, "f.txt=12345", "d/", "ln -> f.txt")
	// older than the run, so the host's mtime passes through (ident.go)
	old := time.Unix(epochSec-3600, 0)
	require.NoError(t, os.Chtimes("f.txt", old, old))
	fi, err := os.Stat("f.txt")
	require.NoError(t, err)
	hst := fi.Sys().(*syscall.Stat_t)
	st := x.alloc(statSize)
	fd := x.open("f.txt", oRdonly, 0)

	check := func(desc string, mode uint32, size uint64) {
		t.Helper()
		require.Equal(t, mode, x.u32(st+statModeOff)&sIFMT, desc)
		if size > 0 {
			require.Equal(t, size, x.u64(st+statSizeOff), desc)
		}
		x.requireWrites(Range{st, statSize})
	}
	require.Zero(t, x.call("fstat", fd, st))
	check("fstat", sIFREG, 5)
	require.Equal(t, uint64(firstGuestIno), x.u64(st+statInoOff), "the first host file the guest observes (ident.go)")
	require.Equal(t, makedev(8, 0), x.u64(st+statDevOff))
	require.Equal(t, uint32(hst.Mode), x.u32(st+statModeOff))
	require.Equal(t, uint64(hst.Mtim.Sec), x.u64(st+statMtimeOff))

	require.Zero(t, x.call("newfstatat", fdcwd, x.str("ln"), st, 0))
	check("follows symlink", sIFREG, 5)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("ln"), st, atSymlinkNofollow))
	check("AT_SYMLINK_NOFOLLOW", sIFLNK, 5)
	require.Zero(t, x.call("newfstatat", fd, x.str(""), st, atEmptyPath))
	check("AT_EMPTY_PATH", sIFREG, 5)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("d"), st, 0))
	check("directory", sIFDIR, 0)
	require.Equal(t, errno(ENOENT), x.call("newfstatat", fd, x.str(""), st, 0))
	require.Equal(t, errno(EINVAL), x.call("newfstatat", fdcwd, x.str("f.txt"), st, 0x4))
	require.Equal(t, errno(ENOENT), x.call("newfstatat", fdcwd, x.str("nope"), st, 0))
	require.Equal(t, errno(EFAULT), x.call("newfstatat", fdcwd, x.str("f.txt"), 0x1000, 0))
	require.Equal(t, errno(EBADF), x.call("fstat", 55, st))

	stx := x.alloc(statxSize)
	require.Zero(t, x.call("statx", fdcwd, x.str("f.txt"), 0, statxBasicStats, stx))
	require.Equal(t, uint32(statxBasicStats), x.u32(stx+statxMaskOff))
	require.Equal(t, uint64(5), x.u64(stx+statxSizeOff))
	require.Equal(t, uint64(firstGuestIno), x.u64(stx+statxInoOff))
	require.Equal(t, uint32(sIFREG|0o644), uint32(leN(x.peek(stx+statxModeOff, 2), 2)))
	x.requireWrites(Range{stx, statxSize})
	require.Zero(t, x.call("statx", fd, 0, atEmptyPath, statxBasicStats, stx), "NULL path with AT_EMPTY_PATH")
	require.Equal(t, errno(EINVAL), x.call("statx", fdcwd, x.str("f.txt"), atStatxSyncType, 0, stx))
	require.Equal(t, errno(EINVAL), x.call("statx", fdcwd, x.str("f.txt"), 0, statxReserved, stx))
}

func TestGetdents64(t *testing.T) {
	x := workdir(t, "d/b=1", "d/a=2", "d/c=3", "d/sub/", "d/ln -> a")
	fd := x.open("d", oRdonly|oDirectory, 0)
	buf := x.alloc(4096)

	type ent struct {
		name string
		typ  uint8
	}
	decode := func(n int64) []ent {
		var out []ent
		b := x.peek(buf, uint64(n))
		for off := 0; off < len(b); {
			reclen := int(leN(b[off+direntReclenOff:], 2))
			require.Zero(t, reclen%8, "reclen aligned")
			name := b[off+direntNameOff : off+reclen]
			name = name[:strings.IndexByte(string(name), 0)]
			out = append(out, ent{string(name), b[off+direntTypeOff]})
			off += reclen
		}
		return out
	}
	n := x.call("getdents64", fd, buf, 4096)
	require.Greater(t, n, int64(0))
	x.requireWrites(Range{buf, uint64(n)})
	want := []ent{{".", dtDir}, {"..", dtDir}, {"a", dtReg}, {"b", dtReg}, {"c", dtReg}, {"ln", dtLnk}, {"sub", dtDir}}
	require.Equal(t, want, decode(n))
	require.Zero(t, x.call("getdents64", fd, buf, 4096), "end of directory")

	// rewind and read one entry at a time with a small buffer
	require.Zero(t, x.call("lseek", fd, 0, 0))
	require.Equal(t, errno(EINVAL), x.call("getdents64", fd, buf, 10), "buffer too small for one entry")
	var got []ent
	for {
		n := x.call("getdents64", fd, buf, 24)
		require.GreaterOrEqual(t, n, int64(0))
		if n == 0 {
			break
		}
		got = append(got, decode(n)...)
	}
	require.Equal(t, want, got)

	// the d_ino of "a" is its guest inode, as stat gives it
	st := x.alloc(statSize)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("d/a"), st, atSymlinkNofollow))
	require.Zero(t, x.call("lseek", fd, 0, 0))
	n = x.call("getdents64", fd, buf, 4096)
	b := x.peek(buf, uint64(n))
	off := 0
	for i := 0; i < 2; i++ {
		off += int(leN(b[off+direntReclenOff:], 2))
	}
	require.Equal(t, x.u64(st+statInoOff), le64(b[off:]))
	require.Equal(t, uint64(3), le64(b[off+direntOffOff:]), "d_off is the next entry's index")

	// seekdir to a d_off cookie, on a fresh descriptor
	fd2 := x.open("d", oRdonly|oDirectory, 0)
	require.Equal(t, int64(5), x.call("lseek", fd2, 5, 0))
	require.Equal(t, want[5:], decode(x.call("getdents64", fd2, buf, 4096)))
	require.Equal(t, int64(7), x.call("lseek", fd2, 0, 1))

	file := x.open("d/a", oRdonly, 0)
	require.Equal(t, errno(ENOTDIR), x.call("getdents64", file, buf, 4096))
	require.Equal(t, errno(EISDIR), x.call("read", fd, buf, 10))
}

func TestCwdCalls(t *testing.T) {
	x := workdir(t, "a/b/f=x")
	buf := x.alloc(64)
	require.Equal(t, int64(2), x.call("getcwd", buf, 64), "length includes the NUL")
	require.Equal(t, "/\x00", string(x.peek(buf, 2)))
	require.Zero(t, x.call("chdir", x.str("a/b")))
	require.Equal(t, int64(5), x.call("getcwd", buf, 64))
	require.Equal(t, "/a/b\x00", string(x.peek(buf, 5)))
	x.requireWrites(Range{buf, 5})
	require.Equal(t, errno(ERANGE), x.call("getcwd", buf, 4))
	require.Equal(t, "x", x.readAll(x.open("f", oRdonly, 0)))
	require.Equal(t, errno(ENOTDIR), x.call("chdir", x.str("f")))
	require.Equal(t, errno(ENOENT), x.call("chdir", x.str("nope")))
	d := x.open("/a", oRdonly|oDirectory, 0)
	require.Zero(t, x.call("fchdir", d))
	require.Equal(t, int64(3), x.call("getcwd", buf, 64))
	require.Equal(t, errno(ENOTDIR), x.call("fchdir", x.open("b/f", oRdonly, 0)))
}

func TestFaccessat(t *testing.T) {
	x := workdir(t, "f=x", "ln -> f", "dangling -> nope")
	tests := []struct {
		desc  string
		name  string
		path  string
		mode  uint64
		flags uint64
		want  int64
	}{
		{"exists", "faccessat", "f", 0, 0, 0},
		{"readable", "faccessat", "f", rOK, 0, 0},
		{"writable in cwd", "faccessat", "f", wOK, 0, 0},
		{"not executable", "faccessat", "f", xOK, 0, errno(EACCES)},
		{"missing", "faccessat", "nope", 0, 0, errno(ENOENT)},
		{"dangling followed", "faccessat", "dangling", 0, 0, errno(ENOENT)},
		{"dangling not followed", "faccessat2", "dangling", 0, atSymlinkNofollow, 0},
		{"bad mode", "faccessat", "f", 8, 0, errno(EINVAL)},
		{"bad flag", "faccessat2", "f", 0, 1, errno(EINVAL)},
		{"dev null", "faccessat", "/dev/null", rOK | wOK, 0, 0},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, x.call(tc.name, fdcwd, x.str(tc.path), tc.mode, tc.flags), tc.desc)
	}
	// W_OK outside the writable area
	y, _ := sandbox(t)
	require.Equal(t, errno(EACCES), y.call("faccessat", fdcwd, y.str("/etc/passwd"), wOK, 0))
	require.Zero(t, y.call("faccessat", fdcwd, y.str("/etc/passwd"), rOK, 0))
}

func TestFcntlDup(t *testing.T) {
	x := workdir(t, "f=0123456789")
	fd := x.open("f", oRdwr|oCloexec, 0)
	require.Equal(t, int64(oRdwr|oLargefile), x.call("fcntl", fd, fGetfl))
	require.Equal(t, int64(fdCloexec), x.call("fcntl", fd, fGetfd))
	require.Zero(t, x.call("fcntl", fd, fSetfd, 0))
	require.Zero(t, x.call("fcntl", fd, fGetfd))
	require.Zero(t, x.call("fcntl", fd, fSetfl, oAppend|oNonblock|oRdonly))
	require.Equal(t, int64(oRdwr|oLargefile|oAppend|oNonblock), x.call("fcntl", fd, fGetfl), "access mode unchanged")
	require.Zero(t, x.call("fcntl", fd, fSetfl, 0))

	d := x.call("fcntl", fd, fDupfd, 10)
	require.Equal(t, int64(10), d, "F_DUPFD takes the lowest free fd >= arg")
	require.Zero(t, x.call("fcntl", uint64(d), fGetfd), "F_DUPFD clears close-on-exec")
	d2 := x.call("fcntl", fd, fDupfdCloexec, 10)
	require.Equal(t, int64(11), d2)
	require.Equal(t, int64(fdCloexec), x.call("fcntl", uint64(d2), fGetfd))
	require.Equal(t, errno(EINVAL), x.call("fcntl", fd, fDupfd, neg(-1)))
	require.Equal(t, errno(EINVAL), x.call("fcntl", fd, 999))

	// dup'd descriptors share the file offset
	buf := x.alloc(8)
	require.Equal(t, int64(3), x.call("read", fd, buf, 3))
	dup := x.call("dup", fd)
	require.Equal(t, int64(4), dup, "lowest free")
	require.Equal(t, int64(3), x.call("lseek", uint64(dup), 0, 1))
	require.Zero(t, x.call("close", fd))
	require.Equal(t, int64(2), x.call("read", uint64(dup), buf, 2), "still open after closing the original")
	require.Equal(t, "34", string(x.peek(buf, 2)))

	require.Equal(t, int64(7), x.call("dup3", uint64(dup), 7, oCloexec))
	require.Equal(t, int64(fdCloexec), x.call("fcntl", 7, fGetfd))
	require.Equal(t, errno(EINVAL), x.call("dup3", 7, 7, 0))
	require.Equal(t, errno(EINVAL), x.call("dup3", 7, 8, 1))
	require.Equal(t, errno(EBADF), x.call("dup3", 99, 8, 0))
	require.Equal(t, int64(1), x.call("dup3", 7, 1, 0), "replaces stdout")
	require.Equal(t, int64(1), x.call("write", 1, x.str("Z"), 1))
	b, _ := os.ReadFile("f")
	require.Equal(t, "01234Z6789", string(b))

	// F_GETLK reports no lock
	fl := x.data(make([]byte, flockSize))
	require.Zero(t, x.call("fcntl", 7, fGetlk, fl))
	require.Equal(t, uint64(fUnlck), leN(x.peek(fl, 2), 2))
	require.Zero(t, x.call("fcntl", 7, fSetlk, fl))
}

func TestEMFILE(t *testing.T) {
	x := workdir(t, "f=x")
	lim := x.u64s(5, 5)
	require.Zero(t, x.call("prlimit64", 0, rlimitNofile, lim, 0))
	require.Equal(t, int64(3), x.call("dup", 0))
	require.Equal(t, int64(4), x.call("dup", 0))
	require.Equal(t, errno(EMFILE), x.call("dup", 0))
	require.Equal(t, errno(EMFILE), x.call("openat", fdcwd, x.str("f"), oRdonly, 0))
	require.Equal(t, errno(EBADF), x.call("dup3", 0, 5, 0))
}

func TestIoctl(t *testing.T) {
	x := workdir(t, "f=0123456789")
	fd := x.open("f", oRdonly, 0)
	n := x.alloc(4)
	require.Zero(t, x.call("ioctl", fd, fionread, n))
	require.Equal(t, uint32(10), x.u32(n))
	require.Equal(t, errno(ENOTTY), x.call("ioctl", fd, tcgets, n))
	require.Zero(t, x.call("ioctl", fd, fioclex))
	require.Equal(t, int64(fdCloexec), x.call("fcntl", fd, fGetfd))
	require.Zero(t, x.call("ioctl", fd, fionclex))
	require.Zero(t, x.call("fcntl", fd, fGetfd))
	one := x.data([]byte{1, 0, 0, 0})
	require.Zero(t, x.call("ioctl", fd, fionbio, one))
	require.Equal(t, int64(oNonblock), x.call("fcntl", fd, fGetfl)&oNonblock)
	require.Equal(t, errno(ENOTTY), x.call("ioctl", fd, 0x1234, 0))
	require.Equal(t, errno(EBADF), x.call("ioctl", 99, tcgets, n))
}

func TestDirectoryModifications(t *testing.T) {
	x := workdir(t, "d/f=x", "e/", "f2=y", "g=z")
	tests := []struct {
		desc string
		call func() int64
		want int64
	}{
		{"mkdir", func() int64 { return x.call("mkdirat", fdcwd, x.str("new"), 0o750) }, 0},
		{"mkdir existing", func() int64 { return x.call("mkdirat", fdcwd, x.str("new"), 0o750) }, errno(EEXIST)},
		{"mkdir missing parent", func() int64 { return x.call("mkdirat", fdcwd, x.str("a/b"), 0o750) }, errno(ENOENT)},
		{"rmdir non-empty", func() int64 { return x.call("unlinkat", fdcwd, x.str("d"), atRemovedir) }, errno(ENOTEMPTY)},
		{"rmdir file", func() int64 { return x.call("unlinkat", fdcwd, x.str("f2"), atRemovedir) }, errno(ENOTDIR)},
		{"unlink dir", func() int64 { return x.call("unlinkat", fdcwd, x.str("e"), 0) }, errno(EISDIR)},
		{"rmdir dot", func() int64 { return x.call("unlinkat", fdcwd, x.str("e/."), atRemovedir) }, errno(EINVAL)},
		{"rmdir empty", func() int64 { return x.call("unlinkat", fdcwd, x.str("e"), atRemovedir) }, 0},
		{"unlink missing", func() int64 { return x.call("unlinkat", fdcwd, x.str("nope"), 0) }, errno(ENOENT)},
		{"unlink bad flag", func() int64 { return x.call("unlinkat", fdcwd, x.str("f2"), 1) }, errno(EINVAL)},
		{"rename noreplace", func() int64 {
			return x.call("renameat2", fdcwd, x.str("f2"), fdcwd, x.str("g"), renameNoreplace)
		}, errno(EEXIST)},
		{"rename exchange unsupported", func() int64 {
			return x.call("renameat2", fdcwd, x.str("f2"), fdcwd, x.str("g"), renameExchange)
		}, errno(EINVAL)},
		{"rename dir over file", func() int64 {
			return x.call("renameat2", fdcwd, x.str("d"), fdcwd, x.str("g"), 0)
		}, errno(ENOTDIR)},
		{"rename file over dir", func() int64 {
			return x.call("renameat2", fdcwd, x.str("g"), fdcwd, x.str("new"), 0)
		}, errno(EISDIR)},
		{"rename replaces", func() int64 {
			return x.call("renameat2", fdcwd, x.str("f2"), fdcwd, x.str("g"), 0)
		}, 0},
		{"rename missing", func() int64 {
			return x.call("renameat2", fdcwd, x.str("f2"), fdcwd, x.str("h"), 0)
		}, errno(ENOENT)},
		{"unlink file", func() int64 { return x.call("unlinkat", fdcwd, x.str("d/f"), 0) }, 0},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.call(), tc.desc)
	}
	fi, err := os.Stat("new")
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o750)&^0o022, fi.Mode().Perm()&0o750, "mode with umask")
	b, err := os.ReadFile("g")
	require.NoError(t, err)
	require.Equal(t, "y", string(b))
	_, err = os.Stat("d/f")
	require.True(t, os.IsNotExist(err))
}

func TestTruncateUmaskChmod(t *testing.T) {
	x := workdir(t, "f=0123456789")
	fd := x.open("f", oRdwr, 0)
	require.Zero(t, x.call("ftruncate", fd, 4))
	require.Zero(t, x.call("truncate", x.str("f"), 2))
	b, _ := os.ReadFile("f")
	require.Equal(t, "01", string(b))
	require.Equal(t, errno(EINVAL), x.call("ftruncate", fd, neg(-1)))
	require.Equal(t, errno(EINVAL), x.call("ftruncate", 1, 0), "not a regular file")

	require.Equal(t, int64(0o022), x.call("umask", 0o077))
	nfd := x.open("g", oWronly|oCreat, 0o666)
	x.call("close", nfd)
	fi, err := os.Stat("g")
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	require.Zero(t, x.call("fchmodat", fdcwd, x.str("g"), 0o640))
	fi, _ = os.Stat("g")
	require.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	require.Zero(t, x.call("fchmod", fd, 0o604))
	fi, _ = os.Stat("f")
	require.Equal(t, os.FileMode(0o604), fi.Mode().Perm())
	require.Zero(t, x.call("fadvise64", fd, 0, 0, 2))
	require.Equal(t, errno(EINVAL), x.call("fadvise64", fd, 0, 0, 9))
	require.Equal(t, errno(ESPIPE), x.call("fadvise64", 1, 0, 0, 0))
	require.Zero(t, x.call("fsync", fd))
	require.Equal(t, errno(EBADF), x.call("fsync", 99))
}

func TestOpenFlags(t *testing.T) {
	x := workdir(t, "f=0123", "d/")
	fd := x.open("f", oWronly|oAppend, 0)
	require.Equal(t, int64(2), x.call("write", fd, x.str("ab"), 2))
	b, _ := os.ReadFile("f")
	require.Equal(t, "0123ab", string(b), "O_APPEND")
	fd = x.open("f", oWronly|oTrunc, 0)
	b, _ = os.ReadFile("f")
	require.Empty(t, b, "O_TRUNC")
	require.Equal(t, errno(EINVAL), x.call("openat", fdcwd, x.str("f"), 3, 0), "bad access mode")
	require.Equal(t, errno(EOPNOTSUPP), x.call("openat", fdcwd, x.str("d"), oTmpfile|oRdwr, 0o600))
	require.Equal(t, errno(EISDIR), x.call("openat", fdcwd, x.str("newdir/"), oCreat|oWronly, 0o600))
	p := x.open("f", oPath, 0)
	require.Equal(t, errno(EBADF), x.call("read", p, x.alloc(4), 4), "O_PATH cannot read")
	require.Equal(t, int64(oPath|oLargefile), x.call("fcntl", p, fGetfl))
	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", p, st), "O_PATH can fstat")
	require.Equal(t, int64(1), x.call("write", fd, x.str("q"), 1))
}

func TestStdioPaths(t *testing.T) {
	x := newTK(t, Config{})
	fd := x.open("/dev/stdout", oWronly, 0)
	require.Equal(t, int64(2), x.call("write", fd, x.str("hi"), 2))
	fd = x.open("/proc/self/fd/2", oWronly, 0)
	require.Equal(t, int64(3), x.call("write", fd, x.str("err"), 3))
	require.Equal(t, "hi", x.out.String())
	require.Equal(t, "err", x.err.String())
}

func TestStdinRegularFile(t *testing.T) {
	x0 := workdir(t, "input=abcdefgh")
	f, err := os.Open(filepath.Join(x0.root, "input"))
	require.NoError(t, err)
	defer f.Close()
	x := newTK(t, Config{Root: x0.root, Stdin: f})
	buf := x.alloc(16)
	require.Equal(t, int64(3), x.call("pread64", 0, buf, 3, 2), "a redirected file is seekable")
	require.Equal(t, "cde", string(x.peek(buf, 3)))
	require.Equal(t, int64(6), x.call("lseek", 0, 6, 0))
	require.Equal(t, int64(2), x.call("read", 0, buf, 16))
	require.Equal(t, "gh", string(x.peek(buf, 2)))
	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", 0, st))
	require.Equal(t, uint64(8), x.u64(st+statSizeOff))
}

func TestPwritev(t *testing.T) {
	x := workdir(t, "f=0123456789")
	fd := x.open("f", oWronly, 0)
	iov := x.u64s(x.str("ab"), 2, x.str("cd"), 2)
	require.Equal(t, int64(4), x.call("pwritev", fd, iov, 2, 3))
	require.Equal(t, errno(EINVAL), x.call("pwritev", fd, iov, 2, neg(-1)))
	b, _ := os.ReadFile("f")
	require.Equal(t, "012abcd789", string(b))
	require.Zero(t, x.call("lseek", fd, 0, 1), "position unchanged")
}

func TestFallbackStat(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "f=hello", "d/", "l -> f")
	tests := []struct {
		desc string
		name string
		mode uint32
	}{
		{"file", "f", sIFREG | 0o644},
		{"dir", "d", sIFDIR | 0o755},
		{"link", "l", sIFLNK | 0o777},
	}
	for _, tc := range tests {
		fi, err := os.Lstat(filepath.Join(dir, tc.name))
		require.NoError(t, err)
		s := fallbackStat(fi)
		require.Equal(t, tc.mode, s.mode, tc.desc)
		require.Equal(t, fi.Size(), s.size, tc.desc)
		require.Equal(t, fi.ModTime().Unix(), s.mtime.sec, tc.desc)
		require.Equal(t, hostStat(fi).mode&sIFMT, s.mode&sIFMT, tc.desc)
	}
}
