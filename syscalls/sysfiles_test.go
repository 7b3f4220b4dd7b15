package syscalls

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSystemFiles: /proc and /sys describe the simulated machine, the
// same as the system calls do, whatever the host is; other processes'
// /proc directories do not exist.
func TestSystemFiles(t *testing.T) {
	x := newTK(t, Config{})
	read := func(p string) string {
		t.Helper()
		return x.readAll(x.open(p, oRdonly, 0))
	}
	require.Equal(t, "0\n", read("/sys/devices/system/cpu/online"))
	require.Equal(t, "0\n", read("/sys/devices/system/cpu/possible"))
	cpu := read("/proc/cpuinfo")
	require.Equal(t, 1, strings.Count(cpu, "processor\t:"), "one hart")
	require.Contains(t, cpu, "isa\t\t: rv64imafdc")
	require.Equal(t, release+"\n", read("/proc/sys/kernel/osrelease"))
	require.True(t, strings.HasPrefix(read("/proc/version"), "Linux version "+release+" "))

	si := x.alloc(sysinfoSize)
	require.Zero(t, x.call("sysinfo", si))
	require.Contains(t, read("/proc/meminfo"), fmt.Sprintf("MemTotal:       %8d kB\n", x.u64(si+sysinfoTotalramOff)>>10),
		"the memory sysinfo reports")

	// Time passes on the deterministic clock: uptime and the CPU ticks
	// follow it, as times() does.
	x.k.instret = 3_456_000_000 // 3.456 s of CPU time at one instruction per ns
	tms := x.alloc(tmsSize)
	x.call("times", tms)
	require.Equal(t, "3.45 0.00\n", read("/proc/uptime"))
	require.Contains(t, read("/proc/stat"), fmt.Sprintf("cpu  %d 0 0 0 ", x.u64(tms)))
	require.Contains(t, read("/proc/stat"), "btime 1704067200\n", "the realtime clock's start")
	require.Equal(t, "0.00 0.00 0.00 1/1 1000\n", read("/proc/loadavg"))

	st := x.alloc(128)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/proc/cpuinfo"), st, 0))
	require.Equal(t, uint32(sIFREG|0o444), x.u32(st+16))
	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"another process", x.call("openat", fdcwd, x.str("/proc/1/status"), oRdonly, 0), ENOENT},
		{"its directory", x.call("newfstatat", fdcwd, x.str("/proc/2"), st, 0), ENOENT},
		{"its link", x.call("readlinkat", fdcwd, x.str("/proc/77/exe"), st, 64), ENOENT},
		{"its access", x.call("faccessat", fdcwd, x.str("/proc/1"), 0), ENOENT},
		{"write", x.call("openat", fdcwd, x.str("/proc/meminfo"), oWronly, 0), EACCES},
		{"not a link", x.call("readlinkat", fdcwd, x.str("/proc/cpuinfo"), st, 64), EINVAL},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, x.call("faccessat", fdcwd, x.str("/proc/stat"), 4))
	require.GreaterOrEqual(t, x.call("openat", fdcwd, x.str("/proc/1000/status"), oRdonly, 0), int64(3), "this process")
}

// TestProcListing: /proc lists this process and the generated files, not
// the other processes its directory holds on the host.
func TestProcListing(t *testing.T) {
	x := workdir(t, "proc/1/", "proc/42/status=x", "proc/cpuinfo=host's", "proc/bus/", "proc/self -> 42")
	fd := x.open("/proc", oRdonly|oDirectory, 0)
	buf := x.alloc(4096)
	n := x.call("getdents64", fd, buf, 4096)
	require.Greater(t, n, int64(0))
	var names []string
	for off := uint64(0); off < uint64(n); {
		rec := x.peek(buf+off, 19)
		reclen := uint64(rec[16]) | uint64(rec[17])<<8
		name := x.peek(buf+off+19, reclen-19)
		names = append(names, strings.TrimRight(string(name), "\x00"))
		off += reclen
	}
	require.Equal(t, []string{".", "..", "1000", "bus", "cpuinfo", "loadavg", "meminfo", "mounts", "self", "stat",
		"thread-self", "uptime", "version"}, names)
	require.Contains(t, x.readAll(x.open("/proc/cpuinfo", oRdonly, 0)), "rv64", "the generated file, not the root's")
}

// TestProcStdioLinks: /proc/self/fd/0..2 are links as the others are: a
// pipe by the inode fstat reports, another stream by its /dev name.
func TestProcStdioLinks(t *testing.T) {
	x := newTK(t, Config{})
	buf, st := x.alloc(64), x.alloc(128)
	for fd := uint64(0); fd <= 2; fd++ {
		p := x.str(fmt.Sprintf("/proc/self/fd/%d", fd))
		require.Zero(t, x.call("fstat", fd, st))
		mode, ino := x.u32(st+16), x.u64(st+8)
		n := x.call("readlinkat", fdcwd, p, buf, 64)
		require.Greater(t, n, int64(0), "fd %d", fd)
		want := map[uint64]string{0: "/dev/stdin", 1: "/dev/stdout", 2: "/dev/stderr"}[fd]
		if mode&sIFMT == sIFIFO {
			want = fmt.Sprintf("pipe:[%d]", ino)
		}
		require.Equal(t, want, string(x.peek(buf, uint64(n))), "fd %d", fd)
		require.Zero(t, x.call("newfstatat", fdcwd, p, st, atSymlinkNofollow))
		require.Equal(t, uint32(sIFLNK), x.u32(st+16)&sIFMT, "lstat of fd %d", fd)
		require.Zero(t, x.call("newfstatat", fdcwd, p, st, 0))
		require.Equal(t, ino, x.u64(st+8), "stat of fd %d follows the link", fd)
	}
}
