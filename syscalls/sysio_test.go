package syscalls

import (
	"cmp"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/require"
)

// Unit tests of the system calls real tools use beyond open/read/write
// (fileops.go, pipe.go, poll.go, flock.go, memctl.go, proc.go). The C
// program test/programs/sysio checks the same calls against qemu-riscv64.

// sandboxed gives a kernel whose root holds a writable work/ (the host
// cwd) and a read-only ro/ with one file.
func sandboxed(t *testing.T) *tk {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tree(t, root, "work/", "ro/file=secret")
	t.Chdir(filepath.Join(root, "work"))
	return newTK(t, Config{Root: root})
}

func (x *tk) fds2(addr uint64) (uint64, uint64) { return uint64(x.u32(addr)), uint64(x.u32(addr + 4)) }

func TestPipe2(t *testing.T) {
	x := workdir(t)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, oCloexec))
	r, w := x.fds2(fds)
	require.Equal(t, []uint64{3, 4}, []uint64{r, w})
	require.Equal(t, int64(fdCloexec), x.call("fcntl", r, fGetfd))
	require.Equal(t, int64(oRdonly), x.call("fcntl", r, fGetfl))
	require.Equal(t, int64(oWronly), x.call("fcntl", w, fGetfl))

	msg := x.str("through the pipe")
	require.Equal(t, int64(16), x.call("write", w, msg, 16))
	buf := x.alloc(64)
	require.Equal(t, int64(7), x.call("read", r, buf, 7))
	require.Equal(t, "through", string(x.peek(buf, 7)))
	x.requireWrites(Range{buf, 7})
	require.Equal(t, int64(9), x.call("read", r, buf, 64), "a read returns what is there")
	require.Equal(t, errno(EBADF), x.call("write", r, msg, 1), "the read end")
	require.Equal(t, errno(ESPIPE), x.call("lseek", r, 0, 0))
	require.Equal(t, errno(ESPIPE), x.call("pread64", r, buf, 1, 0))

	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", r, st))
	require.Equal(t, uint32(sIFIFO|0o600), x.u32(st+statModeOff))
	require.Zero(t, x.call("fstat", w, st+0))
	ino := x.u64(st + statInoOff)
	require.NotZero(t, ino)
	link := x.alloc(64)
	n := x.call("readlinkat", fdcwd, x.str("/proc/self/fd/3"), link, 64)
	require.Equal(t, "pipe:["+itoa(ino)+"]", string(x.peek(link, uint64(n))))

	// An empty pipe with a writer: nothing can write while the process
	// waits in read, so it is EINTR with a warning (or EAGAIN nonblocking).
	require.Equal(t, errno(EINTR), x.call("read", r, buf, 1))
	require.Contains(t, x.warn.String(), "pipe read would wait forever")
	require.Zero(t, x.call("fcntl", r, fSetfl, oNonblock))
	require.Equal(t, errno(EAGAIN), x.call("read", r, buf, 1))

	// Capacity: 64 KiB, then EAGAIN (nonblocking) or a short write.
	big := x.alloc(70000)
	require.Zero(t, x.call("fcntl", w, fSetfl, oNonblock))
	require.Equal(t, int64(pipeCapacity), x.call("write", w, big, 70000))
	require.Equal(t, errno(EAGAIN), x.call("write", w, big, 1))
	cnt := x.alloc(4)
	require.Zero(t, x.call("ioctl", r, fionread, cnt))
	require.Equal(t, uint32(pipeCapacity), x.u32(cnt))
	require.Equal(t, int64(pipeCapacity), x.call("fcntl", r, fGetPipeSz))
	// F_SETPIPE_SZ: not below what the pipe holds; rounded up to a power
	// of two of pages; the new size bounds writes.
	require.Equal(t, errno(EBUSY), x.call("fcntl", w, fSetPipeSz, 4096))
	require.Equal(t, int64(pipeCapacity), x.call("read", r, big, 70000))
	require.Equal(t, int64(8192), x.call("fcntl", w, fSetPipeSz, 5000))
	require.Equal(t, int64(8192), x.call("fcntl", r, fGetPipeSz))
	require.Equal(t, int64(8192), x.call("write", w, big, 70000))
	require.Equal(t, errno(EAGAIN), x.call("write", w, big, 1))
	require.Equal(t, errno(EINVAL), x.call("fcntl", w, fSetPipeSz, neg(-1)))
	require.Equal(t, errno(EBUSY), x.call("fcntl", w, fSetPipeSz, 0), "8192 bytes are in it")
	require.Equal(t, int64(8192), x.call("read", r, big, 70000))
	require.Equal(t, int64(4096), x.call("fcntl", w, fSetPipeSz, 0), "at least a page")
	require.Equal(t, int64(pipeCapacity), x.call("fcntl", w, fSetPipeSz, pipeCapacity))
	require.Equal(t, int64(pipeCapacity), x.call("write", w, big, 70000))

	// Closing the write end: end of file after the data.
	require.Zero(t, x.call("close", w))
	require.Equal(t, int64(pipeCapacity), x.call("read", r, big, 70000))
	require.Zero(t, x.call("read", r, buf, 1), "EOF")

	// Closing the read end: EPIPE and SIGPIPE (default: the process dies).
	require.Zero(t, x.call("pipe2", fds, 0))
	r, w = x.fds2(fds)
	require.Zero(t, x.call("close", r))
	require.Equal(t, errno(EPIPE), x.call("write", w, msg, 1))
	code, ok := x.k.Exited()
	require.True(t, ok)
	require.Equal(t, 128+sigPIPE, code)

	x = workdir(t)
	require.Equal(t, errno(EINVAL), x.call("pipe2", x.alloc(8), oAppend))
	require.Equal(t, errno(EFAULT), x.call("pipe2", 0, 0))
	open := 0
	for _, f := range x.k.fds {
		if f != nil {
			open++
		}
	}
	require.Equal(t, 3, open, "no descriptors leak from a failed pipe2")
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestEventfd(t *testing.T) {
	x := workdir(t)
	fd := uint64(x.call("eventfd2", 3, oNonblock))
	require.Equal(t, uint64(3), fd)
	v := x.alloc(8)
	require.Equal(t, int64(8), x.call("write", fd, x.u64s(4), 8))
	require.Equal(t, int64(8), x.call("read", fd, v, 8))
	require.Equal(t, uint64(7), x.u64(v))
	require.Equal(t, errno(EAGAIN), x.call("read", fd, v, 8), "empty")
	require.Equal(t, errno(EINVAL), x.call("read", fd, v, 4), "fewer than 8 bytes")
	require.Equal(t, errno(EINVAL), x.call("write", fd, x.u64s(^uint64(0)), 8))
	require.Equal(t, int64(8), x.call("write", fd, x.u64s(eventfdMax), 8))
	require.Equal(t, errno(EAGAIN), x.call("write", fd, x.u64s(1), 8), "would overflow")
	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", fd, st))
	require.Equal(t, uint32(0o600), x.u32(st+statModeOff), "an anonymous inode")
	require.Zero(t, x.call("lseek", fd, 5, 0), "noop_llseek")

	sem := uint64(x.call("eventfd2", 2, efdSemaphore))
	require.Equal(t, int64(8), x.call("read", sem, v, 8))
	require.Equal(t, uint64(1), x.u64(v))
	require.Equal(t, int64(8), x.call("read", sem, v, 8))
	require.Equal(t, errno(EINTR), x.call("read", sem, v, 8), "blocking on an empty counter")
	require.Equal(t, errno(EINVAL), x.call("eventfd2", 0, 8))
}

func TestMemfd(t *testing.T) {
	x := workdir(t)
	fd := uint64(x.call("memfd_create", x.str("buf"), mfdAllowSealing))
	require.Equal(t, uint64(3), fd)
	require.Equal(t, int64(5), x.call("write", fd, x.str("hello"), 5))
	buf := x.alloc(16)
	require.Equal(t, int64(3), x.call("pread64", fd, buf, 3, 2))
	require.Equal(t, "llo", string(x.peek(buf, 3)))
	link := x.alloc(64)
	n := x.call("readlinkat", fdcwd, x.str("/proc/self/fd/3"), link, 64)
	require.Equal(t, "/memfd:buf (deleted)", string(x.peek(link, uint64(n))))
	ents, err := os.ReadDir(x.root)
	require.NoError(t, err)
	require.Empty(t, ents, "nothing appears in the guest's file system")
	require.Zero(t, x.call("fchmod", fd, 0o600), "the sandbox does not apply")

	require.Zero(t, x.call("fcntl", fd, fGetSeals))
	require.Zero(t, x.call("fcntl", fd, fAddSeals, fSealGrow|fSealShrink))
	require.Equal(t, errno(EPERM), x.call("ftruncate", fd, 100))
	require.Equal(t, errno(EPERM), x.call("ftruncate", fd, 1))
	require.Zero(t, x.call("ftruncate", fd, 5))
	require.Equal(t, errno(EPERM), x.call("fallocate", fd, 0, 0, 100))
	require.Zero(t, x.call("fcntl", fd, fAddSeals, fSealWrite|fSealSeal))
	require.Equal(t, errno(EPERM), x.call("write", fd, x.str("x"), 1))
	require.Equal(t, errno(EPERM), x.call("fcntl", fd, fAddSeals, fSealGrow), "sealed seals")

	plain := uint64(x.call("memfd_create", x.str("p"), 0))
	require.Equal(t, int64(fSealSeal), x.call("fcntl", plain, fGetSeals))
	require.Equal(t, errno(EINVAL), x.call("memfd_create", x.str("p"), 4), "MFD_HUGETLB")
	require.Equal(t, errno(EINVAL), x.call("fcntl", 0, fGetSeals), "not a memfd")
}

func TestUtimensat(t *testing.T) {
	x := workdir(t, "f=data", "dir/")
	require.NoError(t, os.Symlink("f", filepath.Join(x.root, "l")))
	mtime := func(name string) (time.Time, time.Time) {
		var st syscall.Stat_t
		require.NoError(t, syscall.Lstat(filepath.Join(x.root, name), &st))
		return time.Unix(st.Atim.Sec, st.Atim.Nsec), time.Unix(st.Mtim.Sec, st.Mtim.Nsec)
	}
	ts := func(a, an, m, mn uint64) uint64 { return x.u64s(a, an, m, mn) }

	require.Zero(t, x.call("utimensat", fdcwd, x.str("f"), ts(1000, 5, 2000, 6), 0))
	a, m := mtime("f")
	require.Equal(t, time.Unix(1000, 5), a)
	require.Equal(t, time.Unix(2000, 6), m)

	require.Zero(t, x.call("utimensat", fdcwd, x.str("f"), ts(0, utimeOmit, 3000, 0), 0))
	a, m = mtime("f")
	require.Equal(t, time.Unix(1000, 5), a, "UTIME_OMIT")
	require.Equal(t, time.Unix(3000, 0), m)

	// UTIME_NOW and NULL: the guest's deterministic clock.
	x.k.SetInstret(7e9)
	require.Zero(t, x.call("utimensat", fdcwd, x.str("f"), 0, 0))
	_, m = mtime("f")
	require.Equal(t, time.Unix(epochSec+7, 0), m)

	// futimens: a NULL path is the descriptor itself.
	fd := x.open("f", oRdonly, 0)
	require.Zero(t, x.call("utimensat", fd, 0, ts(10, 0, 20, 0), 0))
	_, m = mtime("f")
	require.Equal(t, time.Unix(20, 0), m)
	require.Equal(t, errno(EINVAL), x.call("utimensat", fd, 0, ts(10, 0, 20, 0), atSymlinkNofollow))

	// AT_SYMLINK_NOFOLLOW changes the link, not its target.
	require.Zero(t, x.call("utimensat", fdcwd, x.str("l"), ts(0, utimeOmit, 4444, 0), atSymlinkNofollow))
	_, lm := mtime("l")
	_, fm := mtime("f")
	require.Equal(t, time.Unix(4444, 0), lm)
	require.Equal(t, time.Unix(20, 0), fm)

	// AT_EMPTY_PATH with "": the descriptor.
	dir := x.open("dir", oRdonly|oDirectory, 0)
	require.Zero(t, x.call("utimensat", dir, x.str(""), ts(1, 0, 2, 0), atEmptyPath))
	_, dm := mtime("dir")
	require.Equal(t, time.Unix(2, 0), dm)

	tests := []struct {
		desc  string
		args  []uint64
		errno Errno
	}{
		{"nsec out of range", []uint64{fdcwd, x.str("f"), ts(0, 1e9, 0, 0), 0}, EINVAL},
		{"negative nsec", []uint64{fdcwd, x.str("f"), ts(0, neg(-1), 0, 0), 0}, EINVAL},
		{"missing", []uint64{fdcwd, x.str("nope"), 0, 0}, ENOENT},
		{"both omitted: still looked up", []uint64{fdcwd, x.str("nope"), ts(0, utimeOmit, 0, utimeOmit), 0}, ENOENT},
		{"bad flags", []uint64{fdcwd, x.str("f"), 0, 0x1}, EINVAL},
		{"empty path without AT_EMPTY_PATH", []uint64{fdcwd, x.str(""), 0, 0}, ENOENT},
		{"bad descriptor", []uint64{77, 0, 0, 0}, EBADF},
	}
	for _, tc := range tests {
		require.Equal(t, errno(tc.errno), x.call("utimensat", tc.args...), tc.desc)
	}
}

func TestUtimensatAndChownSandbox(t *testing.T) {
	x := sandboxed(t)
	ts := x.u64s(1, 0, 2, 0)
	require.Equal(t, errno(EACCES), x.call("utimensat", fdcwd, x.str("/ro/file"), ts, 0))
	require.Equal(t, errno(EACCES), x.call("fchownat", fdcwd, x.str("/ro/file"), neg(-1), neg(-1), 0))
	fd := x.open("/ro/file", oRdonly, 0)
	require.Equal(t, errno(EACCES), x.call("utimensat", fd, 0, ts, 0))
	require.Equal(t, errno(EACCES), x.call("fchown", fd, neg(-1), neg(-1)))
	require.Equal(t, "rvsim: sandbox: refused write access to /ro/file\n", x.warn.String(), "one warning per path")
	fi, err := os.Stat(filepath.Join(x.root, "ro/file"))
	require.NoError(t, err)
	require.NotEqual(t, int64(2), fi.ModTime().Unix(), "untouched")
	require.Zero(t, x.call("utimensat", fdcwd, x.str("/dev/null"), ts, 0), "devices: no times kept")
}

func TestFchown(t *testing.T) {
	x := workdir(t, "f=data")
	require.NoError(t, os.Symlink("f", filepath.Join(x.root, "l")))
	uid, gid := uint64(os.Getuid()), uint64(os.Getgid())
	fd := x.open("f", oRdonly, 0)
	require.Zero(t, x.call("fchown", fd, uid, gid))
	require.Zero(t, x.call("fchown", fd, neg(-1), neg(-1)), "-1: unchanged")
	require.Zero(t, x.call("fchownat", fdcwd, x.str("f"), uid, gid, 0))
	require.Zero(t, x.call("fchownat", fdcwd, x.str("l"), uid, gid, atSymlinkNofollow))
	require.Zero(t, x.call("fchownat", fd, x.str(""), uid, gid, atEmptyPath))
	if os.Geteuid() != 0 {
		require.Equal(t, errno(EPERM), x.call("fchownat", fdcwd, x.str("f"), 0, 0, 0), "giving a file away")
	}
	require.Equal(t, errno(ENOENT), x.call("fchownat", fdcwd, x.str("nope"), uid, gid, 0))
	require.Equal(t, errno(EINVAL), x.call("fchownat", fdcwd, x.str("f"), uid, gid, 1))
	require.Equal(t, errno(EBADF), x.call("fchown", 99, uid, gid))
	require.Zero(t, x.call("fchown", 1, uid, gid), "stdout: not a host file")
}

func TestStatfs(t *testing.T) {
	x := workdir(t, "f=data")
	buf := x.alloc(statfsSize)
	require.Zero(t, x.call("statfs", x.str("f"), buf))
	var host syscall.Statfs_t
	require.NoError(t, syscall.Statfs(x.root, &host))
	require.Equal(t, uint64(host.Type), x.u64(buf), "f_type")
	require.Equal(t, uint64(host.Bsize), x.u64(buf+8), "f_bsize")
	require.Equal(t, uint64(host.Namelen), x.u64(buf+statfsNamelenOff))
	// Sizes, free counts and fsid are the guest's, the same on any host
	// and in every run: 64 GiB, half free; 4Mi inodes, half free; the
	// fsid from the type.
	bs := cmp.Or(uint64(host.Frsize), uint64(host.Bsize))
	require.Equal(t, []uint64{64 << 30 / bs, 32 << 30 / bs, 32 << 30 / bs, 4 << 20, 2 << 20},
		[]uint64{x.u64(buf + 16), x.u64(buf + 24), x.u64(buf + 32), x.u64(buf + 40), x.u64(buf + 48)}, "blocks, bfree, bavail, files, ffree")
	require.Equal(t, uint64(host.Type), uint64(x.u32(buf+statfsFsidOff))|uint64(x.u32(buf+statfsFsidOff+4))<<32, "f_fsid")
	fd := x.open("f", oRdonly, 0)
	buf2 := x.alloc(statfsSize)
	require.Zero(t, x.call("fstatfs", fd, buf2))
	require.Equal(t, x.peek(buf, statfsSize), x.peek(buf2, statfsSize), "statfs and fstatfs agree")
	x.requireWrites(Range{buf2, statfsSize})

	require.Zero(t, x.call("statfs", x.str("/dev/null"), buf))
	require.Equal(t, uint64(tmpfsMagic), x.u64(buf))
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	require.Zero(t, x.call("fstatfs", uint64(x.u32(fds)), buf))
	require.Equal(t, uint64(pipefsMagic), x.u64(buf))
	efd := uint64(x.call("eventfd2", 0, 0))
	require.Zero(t, x.call("fstatfs", efd, buf))
	require.Equal(t, uint64(anonInodeMagic), x.u64(buf))
	require.Equal(t, errno(ENOENT), x.call("statfs", x.str("nope"), buf))
	require.Equal(t, errno(EBADF), x.call("fstatfs", 99, buf))
	require.Equal(t, errno(EFAULT), x.call("statfs", x.str("f"), 0))
}

func TestFlock(t *testing.T) {
	x := workdir(t, "f=data")
	a := x.open("f", oRdonly, 0)
	b := x.open("f", oRdonly, 0)
	dup := uint64(x.call("dup", a))
	tests := []struct {
		desc  string
		fd    uint64
		op    uint64
		errno Errno
	}{
		{"exclusive", a, lockEx, 0},
		{"another description: conflict", b, lockEx | lockNb, EAGAIN},
		{"shared against exclusive", b, lockSh | lockNb, EAGAIN},
		{"the same description through dup", dup, lockEx | lockNb, 0},
		{"downgrade", a, lockSh, 0},
		{"two shared", b, lockSh | lockNb, 0},
		{"upgrade against a shared holder", a, lockEx | lockNb, EAGAIN},
		{"unlock b", b, lockUn, 0},
		{"now the upgrade works", a, lockEx | lockNb, 0},
		{"blocking against a holder: nothing will release it", b, lockEx, EINTR},
		{"bad operation", a, 0, EINVAL},
		{"both", a, lockSh | lockEx, EINVAL},
		{"bad descriptor", 77, lockSh, EBADF},
	}
	for _, tc := range tests {
		require.Equal(t, errno(tc.errno), x.call("flock", tc.fd, tc.op), tc.desc)
	}
	// The last close of a's description (a and dup) releases its lock.
	require.Zero(t, x.call("close", a))
	require.Equal(t, errno(EAGAIN), x.call("flock", b, lockEx|lockNb), "dup still holds it")
	require.Zero(t, x.call("close", dup))
	require.Zero(t, x.call("flock", b, lockEx|lockNb))
	require.Contains(t, x.warn.String(), "flock would wait forever")
}

func TestLinkat(t *testing.T) {
	x := workdir(t, "f=data", "d/")
	require.NoError(t, os.Symlink("f", filepath.Join(x.root, "l")))
	require.Zero(t, x.call("linkat", fdcwd, x.str("f"), fdcwd, x.str("g"), 0))
	var a, b syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(x.root, "f"), &a))
	require.NoError(t, syscall.Stat(filepath.Join(x.root, "g"), &b))
	require.Equal(t, a.Ino, b.Ino)
	require.Equal(t, uint64(2), uint64(a.Nlink))

	require.Zero(t, x.call("linkat", fdcwd, x.str("l"), fdcwd, x.str("lf"), atSymlinkFollow))
	require.NoError(t, syscall.Lstat(filepath.Join(x.root, "lf"), &b))
	require.Equal(t, a.Ino, b.Ino, "AT_SYMLINK_FOLLOW links the target")
	require.Zero(t, x.call("linkat", fdcwd, x.str("l"), fdcwd, x.str("ll"), 0))
	fi, err := os.Lstat(filepath.Join(x.root, "ll"))
	require.NoError(t, err)
	require.True(t, fi.Mode()&os.ModeSymlink != 0, "without it, the link itself")

	tests := []struct {
		desc  string
		args  []uint64
		errno Errno
	}{
		{"exists", []uint64{fdcwd, x.str("f"), fdcwd, x.str("g"), 0}, EEXIST},
		{"a directory", []uint64{fdcwd, x.str("d"), fdcwd, x.str("d2"), 0}, EPERM},
		{"missing", []uint64{fdcwd, x.str("nope"), fdcwd, x.str("n2"), 0}, ENOENT},
		{"bad flags", []uint64{fdcwd, x.str("f"), fdcwd, x.str("n3"), 1}, EINVAL},
		{"empty path, unprivileged", []uint64{3, x.str(""), fdcwd, x.str("n4"), atEmptyPath}, ENOENT},
		{"into a missing directory", []uint64{fdcwd, x.str("f"), fdcwd, x.str("no/n5"), 0}, ENOENT},
	}
	if os.Geteuid() == 0 {
		tests = tests[:4]
	}
	for _, tc := range tests {
		require.Equal(t, errno(tc.errno), x.call("linkat", tc.args...), tc.desc)
	}
}

func TestLinkatSandbox(t *testing.T) {
	x := sandboxed(t)
	// A link in the writable directory to a file outside it would let the
	// guest write that file: refused.
	require.Equal(t, errno(EACCES), x.call("linkat", fdcwd, x.str("/ro/file"), fdcwd, x.str("mine"), 0))
	require.Equal(t, "rvsim: sandbox: refused write access to /ro/file\n", x.warn.String())
	_, err := os.Lstat(filepath.Join(x.root, "work/mine"))
	require.True(t, os.IsNotExist(err))
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "work/own"), []byte("x"), 0o644))
	require.Equal(t, errno(EACCES), x.call("linkat", fdcwd, x.str("own"), fdcwd, x.str("/ro/own"), 0))
}

func TestFallocate(t *testing.T) {
	x := workdir(t)
	fd := x.open("f", oRdwr|oCreat, 0o644)
	require.Zero(t, x.call("fallocate", fd, 0, 0, 8192))
	fi, err := os.Stat(filepath.Join(x.root, "f"))
	require.NoError(t, err)
	require.Equal(t, int64(8192), fi.Size())
	require.Zero(t, x.call("fallocate", fd, 1, 8192, 4096), "FALLOC_FL_KEEP_SIZE")
	fi, _ = os.Stat(filepath.Join(x.root, "f"))
	require.Equal(t, int64(8192), fi.Size())
	ro := x.open("f", oRdonly, 0)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	tests := []struct {
		desc          string
		fd, off, size uint64
		errno         Errno
	}{
		{"zero length", fd, 0, 0, EINVAL},
		{"negative offset", fd, neg(-1), 10, EINVAL},
		{"read-only", ro, 0, 10, EBADF},
		{"a pipe", uint64(x.u32(fds + 4)), 0, 10, ESPIPE},
		{"/dev/null", x.open("/dev/null", oWronly, 0), 0, 10, ENODEV},
		{"too large", fd, 1 << 62, 1 << 62, EFBIG},
	}
	for _, tc := range tests {
		require.Equal(t, errno(tc.errno), x.call("fallocate", tc.fd, 0, tc.off, tc.size), tc.desc)
	}
}

func TestCopyFileRangeAndSendfile(t *testing.T) {
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	x := workdir(t)
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "src"), data, 0o644))
	in := x.open("src", oRdonly, 0)
	out := x.open("dst", oRdwr|oCreat, 0o644)
	require.Equal(t, int64(70000), x.call("copy_file_range", in, 0, out, 0, 70000, 0))
	require.Equal(t, int64(70000), x.call("lseek", in, 0, 1))
	offIn, offOut := x.u64s(90000), x.u64s(5)
	require.Equal(t, int64(10000), x.call("copy_file_range", in, offIn, out, offOut, 50000, 0), "stops at EOF")
	require.Equal(t, uint64(100000), x.u64(offIn))
	require.Equal(t, uint64(10005), x.u64(offOut))
	require.Equal(t, int64(70000), x.call("lseek", in, 0, 1), "positions unchanged")
	require.Zero(t, x.call("copy_file_range", in, offIn, out, 0, 10, 0), "at EOF")
	got, err := os.ReadFile(filepath.Join(x.root, "dst"))
	require.NoError(t, err)
	require.Equal(t, data[:5], got[:5])
	require.Equal(t, data[90000:], got[5:10005])
	require.Equal(t, data[10005:70000], got[10005:70000])

	dir := x.open(".", oRdonly|oDirectory, 0)
	app := x.open("dst", oWronly|oAppend, 0)
	cfr := []struct {
		desc  string
		args  []uint64
		errno Errno
	}{
		{"flags", []uint64{in, 0, out, 0, 1, 1}, EINVAL},
		{"a directory", []uint64{dir, 0, out, 0, 1, 0}, EISDIR},
		{"O_APPEND output", []uint64{in, 0, app, 0, 1, 0}, EBADF},
		{"write-only input", []uint64{app, 0, out, 0, 1, 0}, EBADF},
		{"not regular", []uint64{x.open("/dev/zero", oRdonly, 0), 0, out, 0, 1, 0}, EINVAL},
		{"overlap in one file", []uint64{out, x.u64s(0), out, x.u64s(10), 100, 0}, EINVAL},
		{"negative offset", []uint64{in, x.u64s(neg(-1)), out, 0, 1, 0}, EINVAL},
	}
	for _, tc := range cfr {
		require.Equal(t, errno(tc.errno), x.call("copy_file_range", tc.args...), tc.desc)
	}

	// sendfile to a file, a pipe and stdout.
	sink := x.open("sink", oWronly|oCreat|oTrunc, 0o644)
	off := x.u64s(1000)
	require.Equal(t, int64(3000), x.call("sendfile", sink, in, off, 3000))
	require.Equal(t, uint64(4000), x.u64(off))
	require.Equal(t, int64(70000), x.call("lseek", in, 0, 1))
	require.Equal(t, int64(5), x.call("sendfile", sink, in, 0, 5))
	require.Equal(t, int64(70005), x.call("lseek", in, 0, 1))
	got, err = os.ReadFile(filepath.Join(x.root, "sink"))
	require.NoError(t, err)
	require.Equal(t, append(append([]byte{}, data[1000:4000]...), data[70000:70005]...), got)
	require.Equal(t, int64(4), x.call("sendfile", 1, in, x.u64s(0), 4))
	require.Equal(t, data[:4], x.out.Bytes())
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, w := x.fds2(fds)
	require.Equal(t, int64(6), x.call("sendfile", w, x.open("/dev/zero", oRdonly, 0), 0, 6))
	buf := x.alloc(8)
	require.Equal(t, int64(6), x.call("read", r, buf, 8))
	require.Equal(t, make([]byte, 6), x.peek(buf, 6))
	require.Equal(t, errno(EINVAL), x.call("sendfile", sink, r, 0, 1), "from a pipe")
	require.Equal(t, errno(EINVAL), x.call("sendfile", app, in, 0, 1), "O_APPEND output")
	require.Equal(t, errno(EBADF), x.call("sendfile", in, in, 0, 1), "read-only output")
}

func TestCloseRange(t *testing.T) {
	x := workdir(t, "f=x")
	fd := x.open("f", oRdonly, 0)
	for _, n := range []uint64{10, 11, 12, 20} {
		require.Equal(t, int64(n), x.call("dup3", fd, n, 0))
	}
	require.Zero(t, x.call("close_range", 11, 12, closeRangeCloexec))
	require.Equal(t, int64(fdCloexec), x.call("fcntl", 11, fGetfd))
	require.Zero(t, x.call("fcntl", 10, fGetfd))
	require.Zero(t, x.call("close_range", 10, 12, 0))
	for _, n := range []uint64{10, 11, 12} {
		require.Equal(t, errno(EBADF), x.call("fcntl", n, fGetfd))
	}
	require.Zero(t, x.call("close_range", 13, 0xffffffff, 0))
	require.Equal(t, errno(EBADF), x.call("fcntl", 20, fGetfd))
	require.Zero(t, x.call("fcntl", fd, fGetfd), "below the range")
	require.Equal(t, errno(EINVAL), x.call("close_range", 5, 4, 0))
	require.Equal(t, errno(EINVAL), x.call("close_range", 0, 1, 1))
}

func TestPollAndSelect(t *testing.T) {
	x := workdir(t, "f=x")
	f := x.open("f", oRdonly, 0)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, w := x.fds2(fds)
	pfd := func(recs ...[2]uint64) uint64 {
		b := make([]byte, pollfdSize*len(recs))
		for i, rec := range recs {
			put32(b, 8*i, uint32(rec[0]))
			put16(b, 8*i+4, uint16(rec[1]))
		}
		return x.data(b)
	}
	rev := func(p uint64, i int) uint16 { return uint16(x.u32(p+uint64(8*i)+4) >> 16) }

	p := pfd([2]uint64{r, pollIn}, [2]uint64{w, pollOut}, [2]uint64{f, pollIn | pollOut}, [2]uint64{neg(-1), pollIn}, [2]uint64{99, pollIn})
	zero := x.u64s(0, 0)
	require.Equal(t, int64(3), x.call("ppoll", p, 5, zero, 0, 8))
	require.Equal(t, []uint16{0, pollOut, pollIn | pollOut, 0, pollNval}, []uint16{rev(p, 0), rev(p, 1), rev(p, 2), rev(p, 3), rev(p, 4)})

	// Nothing ready: the timeout passes on the deterministic clock, and
	// ppoll writes back the time left.
	p1 := pfd([2]uint64{r, pollIn})
	tmo := x.u64s(0, 20e6)
	before, _ := x.k.now(clockMonotonic)
	require.Zero(t, x.call("ppoll", p1, 1, tmo, 0, 8))
	after, _ := x.k.now(clockMonotonic)
	require.Equal(t, int64(20e6), after-before)
	require.Equal(t, []uint64{0, 0}, []uint64{x.u64(tmo), x.u64(tmo + 8)})
	require.Equal(t, errno(EINTR), x.call("ppoll", p1, 1, 0, 0, 8), "no timeout: forever")
	require.Contains(t, x.warn.String(), "ppoll waits forever")

	require.Equal(t, int64(1), x.call("write", w, x.str("z"), 1))
	require.Equal(t, int64(1), x.call("ppoll", p1, 1, 0, 0, 8))
	require.Equal(t, uint16(pollIn), rev(p1, 0))
	require.Zero(t, x.call("close", w))
	require.Equal(t, int64(1), x.call("ppoll", p1, 1, zero, 0, 8))
	require.Equal(t, uint16(pollIn|pollHup), rev(p1, 0))
	require.Equal(t, errno(EINVAL), x.call("ppoll", p1, 1, zero, x.u64s(0), 16), "sigsetsize")
	require.Equal(t, errno(EINVAL), x.call("ppoll", p1, 1<<20, zero, 0, 8), "more than RLIMIT_NOFILE")
	require.Equal(t, errno(EINVAL), x.call("ppoll", p1, 1, x.u64s(0, 1e9), 0, 8), "bad timeout")

	// pselect6: bit sets in, results out.
	set := func(fds ...uint64) uint64 {
		var v uint64
		for _, fd := range fds {
			v |= 1 << fd
		}
		return x.u64s(v)
	}
	rs, ws := set(r, f), set(f)
	require.Equal(t, int64(3), x.call("pselect6", 64, rs, ws, 0, zero, 0))
	require.Equal(t, uint64(1<<r|1<<f), x.u64(rs))
	require.Equal(t, uint64(1<<f), x.u64(ws))
	require.Equal(t, errno(EBADF), x.call("pselect6", 64, set(50), 0, 0, zero, 0))
	require.Zero(t, x.call("pselect6", 64, set(), 0, set(f), zero, 0), "no exceptional conditions")
	require.Zero(t, x.call("pselect6", 200, x.u64s(0, 0, 0, 1<<(150-128)), 0, 0, zero, 0),
		"bits past the descriptor table are ignored")
	require.Equal(t, errno(EINVAL), x.call("pselect6", neg(-1), 0, 0, 0, zero, 0))
	mask := x.u64s(x.u64s(1<<(sigUSR1-1)), 8)
	require.Zero(t, x.call("pselect6", 0, 0, 0, 0, x.u64s(0, 1000), mask))
	m := x.alloc(8)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, 0, m, 8))
	require.Zero(t, x.u64(m), "the temporary mask is gone")
}

func TestMemoryControl(t *testing.T) {
	x := workdir(t)
	const base = 0x20000000
	require.NoError(t, x.m.Map(base, 3*PageSize, mem.RW, "area"))
	tests := []struct {
		desc  string
		name  string
		args  []uint64
		errno Errno
	}{
		{"msync", "msync", []uint64{base, 3 * PageSize, msSync}, 0},
		{"msync part of a page", "msync", []uint64{base, 10, msAsync | msInvalidate}, 0},
		{"msync unaligned", "msync", []uint64{base + 1, 10, msSync}, EINVAL},
		{"msync both", "msync", []uint64{base, 10, msSync | msAsync}, EINVAL},
		{"msync bad flag", "msync", []uint64{base, 10, 8}, EINVAL},
		{"msync unmapped", "msync", []uint64{base, 4 * PageSize, msSync}, ENOMEM},
		{"mlock unaligned is rounded", "mlock", []uint64{base + 10, PageSize}, 0},
		{"mlock unmapped", "mlock", []uint64{base, 4 * PageSize}, ENOMEM},
		{"mlock2", "mlock2", []uint64{base, PageSize, 1}, 0},
		{"mlock2 bad flag", "mlock2", []uint64{base, PageSize, 2}, EINVAL},
		{"munlock", "munlock", []uint64{base, 3 * PageSize}, 0},
		{"mlockall", "mlockall", []uint64{mclCurrent | mclFuture}, 0},
		{"mlockall 0", "mlockall", []uint64{0}, EINVAL},
		{"mlockall onfault alone", "mlockall", []uint64{mclOnfault}, EINVAL},
		{"munlockall", "munlockall", nil, 0},
		{"mincore unaligned", "mincore", []uint64{base + 1, 1, x.alloc(4)}, EINVAL},
		{"mincore unmapped", "mincore", []uint64{base, 4 * PageSize, x.alloc(4)}, ENOMEM},
		{"mincore bad vector", "mincore", []uint64{base, PageSize, 0}, EFAULT},
	}
	for _, tc := range tests {
		require.Equal(t, errno(tc.errno), x.call(tc.name, tc.args...), tc.desc)
	}
	vec := x.alloc(3)
	require.Zero(t, x.call("mincore", base, 2*PageSize+1, vec))
	require.Equal(t, []byte{1, 1, 1}, x.peek(vec, 3))
	x.requireWrites(Range{vec, 3})

	// RLIMIT_MEMLOCK counts locked pages (unless root).
	if os.Geteuid() != 0 {
		require.Zero(t, x.call("setrlimit", rlimitMemlock, x.u64s(2*PageSize, 8<<20)))
		require.Zero(t, x.call("mlock", base, 2*PageSize))
		require.Zero(t, x.call("mlock", base, PageSize), "already locked: not counted twice")
		require.Equal(t, errno(ENOMEM), x.call("mlock", base+2*PageSize, PageSize))
		require.Zero(t, x.call("munlock", base, PageSize))
		require.Zero(t, x.call("mlock", base+2*PageSize, PageSize))
	}
}

func TestProcessCalls(t *testing.T) {
	x := newTK(t, Config{})
	require.Equal(t, int64(20), x.call("getpriority", prioProcess, 0), "20 - nice")
	require.Zero(t, x.call("setpriority", prioProcess, 0, 5))
	require.Equal(t, int64(15), x.call("getpriority", prioPgrp, 0))
	require.Zero(t, x.call("setpriority", prioUser, 0, 100), "clamped to 19")
	require.Equal(t, int64(1), x.call("getpriority", prioProcess, fixedPID))
	if os.Geteuid() != 0 {
		require.Equal(t, errno(EACCES), x.call("setpriority", prioProcess, 0, 0), "lowering needs privilege")
	}
	require.Equal(t, errno(ESRCH), x.call("getpriority", prioProcess, 4242))
	require.Equal(t, errno(EINVAL), x.call("setpriority", 3, 0, 0))

	require.Equal(t, int64(fixedPID), x.call("getpgid", 0))
	require.Equal(t, int64(fixedSID), x.call("getsid", 0))
	require.Equal(t, errno(EPERM), x.call("setsid"), "a process-group leader")
	require.Zero(t, x.call("setpgid", 0, 0))
	require.Zero(t, x.call("setpgid", fixedPID, fixedPPID), "into the parent's group")
	require.Equal(t, int64(fixedPPID), x.call("getpgid", 0))
	require.Equal(t, errno(ESRCH), x.call("kill", neg(-fixedPID), 0), "no longer in group 1000")
	require.Equal(t, errno(ESRCH), x.call("kill", neg(-1), 0), "-1 is everyone else (nobody), not group 1")
	require.Equal(t, int64(fixedPID), x.call("setsid"), "no longer a leader")
	require.Equal(t, errno(EPERM), x.call("setpgid", 0, 77))
	require.Equal(t, errno(EINVAL), x.call("setpgid", 0, neg(-1)))
	require.Equal(t, errno(ESRCH), x.call("setpgid", 4242, 0))

	require.Equal(t, errno(ECHILD), x.call("wait4", neg(-1), 0, 0, 0))
	require.Equal(t, errno(ECHILD), x.call("wait4", neg(-1), 0, wNohang, 0))
	require.Equal(t, errno(EINVAL), x.call("wait4", neg(-1), 0, 0x100, 0))
	require.Equal(t, errno(ECHILD), x.call("waitid", 0, 0, x.alloc(siginfoSize), wExited, 0))
	require.Equal(t, errno(EINVAL), x.call("waitid", 0, 0, 0, 0, 0), "no event asked for")
	require.Equal(t, errno(EINVAL), x.call("waitid", 9, 0, 0, wExited, 0))

	require.Equal(t, int64(mbSupported), x.call("membarrier", mbQuery, 0, 0))
	require.Zero(t, x.call("membarrier", mbGlobal, 0, 0))
	require.Equal(t, errno(EPERM), x.call("membarrier", mbPrivateExpedited, 0, 0), "not registered")
	require.Zero(t, x.call("membarrier", mbRegisterPrivateExpedited, 0, 0))
	require.Zero(t, x.call("membarrier", mbPrivateExpedited, 0, 0))
	require.Equal(t, errno(EINVAL), x.call("membarrier", 1<<12, 0, 0))
	require.Equal(t, errno(EINVAL), x.call("membarrier", mbGlobal, 1, 0))
}
