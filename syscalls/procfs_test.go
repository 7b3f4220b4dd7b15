package syscalls

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProcSelfFiles checks the generated /proc/self files against lines
// computed by hand in the kernel's formats, and the file operations on
// them (Linux: read-only, size 0, not mappable, not a link).
func TestProcSelfFiles(t *testing.T) {
	x := newTK(t, Config{})
	tree(t, x.root, "data")
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "data"), make([]byte, 3*PageSize), 0o644))
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(x.root, "data"), &st))
	x.k.SetExePath("/bin/prog")
	sp, err := x.k.SetupProcess(Image{Entry: 0x10078, Phnum: 2}, []string{"prog", "a b", ""}, []string{"E=1"})
	require.NoError(t, err)

	fd := x.open("/data", oRdonly, 0)
	addr := x.call("mmap", 0x20000000, 2*PageSize, protRead, mapPrivate|mapFixed, fd, PageSize)
	require.Equal(t, int64(0x20000000), addr)
	require.Equal(t, int64(0), x.call("mprotect", 0x20001000, PageSize, protRead|protWrite))
	anon := x.call("mmap", 0x30000000, PageSize, protRead|protWrite, mapPrivate|mapAnonymous|mapFixed, neg(-1), 0)
	require.Equal(t, int64(0x30000000), anon)

	// named pads the line to 72 columns and adds a space and the name.
	named := func(l, name string) string {
		for len(l) < 72 {
			l += " "
		}
		return l + " " + name + "\n"
	}
	file := func(lo, hi uint64, perms string, off uint64) string {
		// the guest's identity of the file (ident.go): the first it observes
		return named(fmt.Sprintf("%08x-%08x %s %08x 08:00 %d ", lo, hi, perms, off, firstGuestIno), "/data")
	}
	want := named("10000000-10100000 rw-p 00000000 00:00 0 ", "scratch") + // the test's scratch memory: no file in the root
		file(0x20000000, 0x20001000, "r--p", PageSize) +
		file(0x20001000, 0x20002000, "rw-p", 2*PageSize) +
		"30000000-30001000 rw-p 00000000 00:00 0 \n" +
		named(fmt.Sprintf("%08x-%08x rw-p 00000000 00:00 0 ", StackBase, StackTop), "[stack]")
	maps := x.readAll(x.open("/proc/self/maps", oRdonly, 0))
	assert.Equal(t, want, maps)

	assert.Equal(t, "prog\x00a b\x00\x00", x.readAll(x.open("/proc/self/cmdline", oRdonly, 0)))
	assert.Equal(t, "prog\x00a b\x00\x00", x.readAll(x.open("/proc/1000/cmdline", oRdonly, 0)))

	// auxv: the pairs on the initial stack after argc, argv, NULL, envp, NULL.
	auxvAt := sp + 8*(1+3+1+1+1)
	auxv := x.readAll(x.open("/proc/self/auxv", oRdonly, 0))
	require.Zero(t, len(auxv)%16)
	assert.Equal(t, string(x.peek(auxvAt, uint64(len(auxv)))), auxv)
	assert.Equal(t, make([]byte, 16), []byte(auxv[len(auxv)-16:]), "ends with AT_NULL")

	// Operations: read-only, stat size 0, no mmap, not a symbolic link.
	assert.Equal(t, errno(EACCES), x.call("openat", fdcwd, x.str("/proc/self/status"), oWronly, 0))
	assert.Equal(t, errno(EACCES), x.call("faccessat", fdcwd, x.str("/proc/self/maps"), wOK, 0))
	assert.Equal(t, int64(0), x.call("faccessat", fdcwd, x.str("/proc/self/maps"), rOK, 0))
	assert.Equal(t, errno(EINVAL), x.call("readlinkat", fdcwd, x.str("/proc/self/maps"), x.alloc(64), 64))
	assert.Equal(t, errno(ENOENT), x.call("openat", fdcwd, x.str("/proc/self/environ2"), oRdonly, 0))
	sfd := x.open("/proc/self/status", oRdonly, 0)
	assert.Equal(t, errno(ENODEV), x.call("mmap", 0, PageSize, protRead, mapPrivate, sfd, 0))
	buf := x.alloc(256)
	require.Equal(t, int64(0), x.call("fstat", sfd, buf))
	assert.Equal(t, uint32(sIFREG|0o444), x.u32(buf+16)) // st_mode
	assert.Equal(t, uint64(0), x.u64(buf+48))            // st_size
	n := x.call("pread64", sfd, buf, 10, 0)
	assert.Equal(t, "Name:\tprog", string(x.peek(buf, uint64(n))))
	link := x.alloc(64)
	n = x.call("readlinkat", fdcwd, x.str(fmt.Sprintf("/proc/self/fd/%d", sfd)), link, 64)
	assert.Equal(t, "/proc/self/status", string(x.peek(link, uint64(max(n, 0)))))
}

// TestProcSelfLinks checks that exe, cwd, fd/N and /proc/mounts are
// symbolic links to lstat (proc_pid_make_inode, proc_fd_link: modes and
// sizes as a Linux host shows them) and their targets to stat, and that
// readlink, open and access agree.
func TestProcSelfLinks(t *testing.T) {
	x, _ := sandbox(t)
	tree(t, x.root, "bin/prog=ELF")
	x.open("/etc/passwd", oRdonly, 0)         // fd 3
	x.open("/home/user/file.txt", oWronly, 0) // fd 4
	x.open("/home/user/file.txt", oRdwr, 0)   // fd 5
	x.call("pipe2", x.alloc(8), 0)            // fds 6, 7
	st := x.alloc(statSize)
	stat := func(p string, flags uint64) (uint32, uint64, int64) {
		r := x.call("newfstatat", fdcwd, x.str(p), st, flags)
		return x.u32(st + statModeOff), x.u64(st + statSizeOff), r
	}
	_, passwdSize, _ := stat("/etc/passwd", 0)
	tests := []struct {
		desc  string
		path  string
		flags uint64
		mode  uint32
		size  uint64
		err   Errno
	}{
		{"exe link", "/proc/self/exe", atSymlinkNofollow, sIFLNK | 0o777, 0, 0},
		{"exe target", "/proc/self/exe", 0, sIFREG | 0o644, 3, 0},
		{"exe by pid", "/proc/1000/exe", atSymlinkNofollow, sIFLNK | 0o777, 0, 0},
		{"cwd link", "/proc/self/cwd", atSymlinkNofollow, sIFLNK | 0o777, 0, 0},
		{"cwd target", "/proc/thread-self/cwd", 0, sIFDIR | 0o755, 0, 0},
		{"fd read", "/proc/self/fd/3", atSymlinkNofollow, sIFLNK | 0o500, 64, 0},
		{"fd write", "/proc/self/fd/4", atSymlinkNofollow, sIFLNK | 0o300, 64, 0},
		{"fd read-write", "/proc/self/fd/5", atSymlinkNofollow, sIFLNK | 0o700, 64, 0},
		{"fd target", "/proc/self/fd/3", 0, sIFREG | 0o644, passwdSize, 0},
		{"fd pipe", "/proc/self/fd/6", 0, sIFIFO | 0o600, 0, 0},
		{"fd closed", "/proc/self/fd/9", atSymlinkNofollow, 0, 0, ENOENT},
		{"fd leading zero", "/proc/self/fd/03", 0, 0, 0, ENOENT},
		{"fd not a number", "/proc/self/fd/x", 0, 0, 0, ENOENT},
		{"mounts link", "/proc/mounts", atSymlinkNofollow, sIFLNK | 0o777, 11, 0},
		{"mounts", "/proc/mounts", 0, sIFREG | 0o444, 0, 0},
		{"self mounts", "/proc/self/mounts", atSymlinkNofollow, sIFREG | 0o444, 0, 0},
		{"a generated file", "/proc/self/maps", atSymlinkNofollow, sIFREG | 0o444, 0, 0},
		{"root link", "/proc/self/root", atSymlinkNofollow, sIFLNK | 0o777, 0, 0},
		{"root target", "/proc/self/root", 0, sIFDIR | 0o755, 0, 0},
		{"other", "/proc/self/nosuch", 0, 0, 0, ENOENT},
	}
	for _, tc := range tests {
		mode, size, r := stat(tc.path, tc.flags)
		if tc.err != 0 {
			require.Equal(t, errno(tc.err), r, tc.desc)
			continue
		}
		require.Zero(t, r, tc.desc)
		require.Equal(t, tc.mode, mode, "%s: mode %o", tc.desc, mode)
		if mode&sIFMT != sIFDIR {
			require.Equal(t, tc.size, size, tc.desc)
		}
	}
	link := x.alloc(64)
	readlink := func(p string) string {
		n := x.call("readlinkat", fdcwd, x.str(p), link, 64)
		require.Greater(t, n, int64(0), p)
		return string(x.peek(link, uint64(n)))
	}
	require.Equal(t, "self/mounts", readlink("/proc/mounts"))
	require.Equal(t, "/home/user/file.txt", readlink("/proc/self/fd/4"))
	require.Equal(t, "/", readlink("/proc/self/root"))
	rootIno := func(p string) uint64 {
		st := x.alloc(statSize)
		require.Zero(t, x.call("newfstatat", fdcwd, x.str(p), st, 0), p)
		return x.u64(st + statInoOff)
	}
	require.Equal(t, rootIno("/"), rootIno("/proc/self/root"), "ischroot's test: the root is PID 1's")
	require.Equal(t, rootIno("/home"), rootIno("/proc/self/root/home"), "a walk through the link")

	// open and access follow exe, cwd and fd/N; O_NOFOLLOW meets the link.
	buf := x.alloc(16)
	fd := x.open("/proc/self/fd/3", oRdonly, 0)
	require.Equal(t, int64(5), x.call("read", fd, buf, 5))
	require.Equal(t, "guest", string(x.peek(buf, 5)))
	require.Equal(t, errno(ELOOP), x.call("openat", fdcwd, x.str("/proc/self/exe"), oRdonly|oNofollow, 0))
	require.GreaterOrEqual(t, x.call("openat", fdcwd, x.str("/proc/self/cwd"), oRdonly|oDirectory, 0), int64(3))
	require.Zero(t, x.call("faccessat", fdcwd, x.str("/proc/self/cwd"), xOK, 0))
	require.Equal(t, errno(EACCES), x.call("faccessat", fdcwd, x.str("/proc/self/fd/3"), wOK, 0), "outside the writable directories")
	require.Equal(t, errno(ENOENT), x.call("openat", fdcwd, x.str("/proc/self/fd/6"), oRdonly, 0), "a pipe has no name to reopen")
}

// TestProcMounts checks that the mount tables list the root alone, with
// the device stat reports for "/" and the flags statfs reports for it.
func TestProcMounts(t *testing.T) {
	x := newTK(t, Config{})
	st := x.alloc(statSize)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/"), st, 0))
	dev := x.u64(st + statDevOff)
	sfs := x.alloc(statfsSize)
	require.Zero(t, x.call("statfs", x.str("/"), sfs))
	flags := x.u64(sfs + statfsFlagsOff)
	typ := x.u64(sfs)
	name := fsNames[typ]
	if name == "" {
		name = "rootfs"
	}
	opts := "rw"
	if flags&stRdonly != 0 {
		opts = "ro"
	}
	for _, f := range []struct {
		bit  uint64
		name string
	}{{stNosuid, "nosuid"}, {stNodev, "nodev"}, {stNoexec, "noexec"}, {stNoatime, "noatime"}, {stNodiratime, "nodiratime"}, {stRelatime, "relatime"}} {
		if flags&f.bit != 0 {
			opts += "," + f.name
		}
	}
	want := fmt.Sprintf("/dev/root / %s %s 0 0\n", name, opts)
	assert.Equal(t, want, x.readAll(x.open("/proc/self/mounts", oRdonly, 0)))
	assert.Equal(t, want, x.readAll(x.open("/proc/mounts", oRdonly, 0)))
	assert.Equal(t, fmt.Sprintf("21 1 %d:%d / / %s shared:1 - %s /dev/root %s\n", dev>>8&0xfff, dev&0xff, opts, name, opts[:2]),
		x.readAll(x.open("/proc/self/mountinfo", oRdonly, 0)))
}
