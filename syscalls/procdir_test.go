package syscalls

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// listing reads directory fd through getdents64: names and d_types.
func (x *tk) listing(fd uint64) (names []string, types map[string]uint8) {
	x.t.Helper()
	buf := x.alloc(8192)
	types = map[string]uint8{}
	for {
		n := x.call("getdents64", fd, buf, 8192)
		require.GreaterOrEqual(x.t, n, int64(0))
		if n == 0 {
			return names, types
		}
		for off := uint64(0); off < uint64(n); {
			rec := x.peek(buf+off, 19)
			reclen := uint64(rec[16]) | uint64(rec[17])<<8
			name := strings.TrimRight(string(x.peek(buf+off+19, reclen-19)), "\x00")
			names = append(names, name)
			types[name] = rec[18]
			off += reclen
		}
	}
}

// TestProcDirectories: in a root without /proc, /proc, the process's
// directory, its fd and task directories list what the guest can open in
// them (every entry is checked by opening it as its type says), and the
// links /proc/self and /proc/thread-self read and stat as Linux's do.
func TestProcDirectories(t *testing.T) {
	x := workdir(t, "etc/hostname=x")
	st, buf := x.alloc(128), x.alloc(256)
	readlink := func(p string) string {
		n := x.call("readlinkat", fdcwd, x.str(p), buf, 256)
		require.Greater(t, n, int64(0), "readlink %s", p)
		return string(x.peek(buf, uint64(n)))
	}
	require.Equal(t, "1000", readlink("/proc/self"))
	require.Equal(t, "1000/task/1000", readlink("/proc/thread-self"))
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/proc/self"), st, atSymlinkNofollow))
	require.Equal(t, uint32(sIFLNK), x.u32(st+16)&sIFMT, "lstat /proc/self")
	require.Equal(t, uint64(4), x.u64(st+48), "its size: the target's length")

	modes := map[string]uint32{"/proc": sIFDIR | 0o555, "/proc/self": sIFDIR | 0o555, "/proc/self/": sIFDIR | 0o555,
		"/proc/1000/fd": sIFDIR | 0o500, "/proc/thread-self/fd": sIFDIR | 0o500, "/proc/self/task": sIFDIR | 0o555,
		"/proc/self/task/1000": sIFDIR | 0o555}
	for p, want := range modes {
		require.Zero(t, x.call("newfstatat", fdcwd, x.str(p), st, 0), p)
		require.Equal(t, want, x.u32(st+16), "stat %s", p)
	}

	// Every entry of every generated directory opens as its type says.
	dirs := []string{"/proc", "/proc/self", "/proc/self/fd", "/proc/self/task", "/proc/self/task/1000", "/proc/thread-self"}
	seen := map[string][]string{}
	for len(dirs) > 0 {
		d := dirs[0]
		dirs = dirs[1:]
		fd := x.open(d, oRdonly|oDirectory, 0)
		require.Zero(t, x.call("fstat", fd, st))
		require.Equal(t, uint32(sIFDIR), x.u32(st+16)&sIFMT, "fstat of %s", d)
		names, types := x.listing(fd)
		require.Equal(t, []string{".", ".."}, names[:2], d)
		seen[d] = names[2:]
		for _, n := range names[2:] {
			p := d + "/" + n
			switch types[n] {
			case dtDir:
				if _, done := seen[p]; !done && len(dirs) < 20 {
					dirs = append(dirs, p)
				}
			case dtReg:
				f := x.open(p, oRdonly, 0)
				x.readAll(f)
				require.Zero(t, x.call("close", f))
			case dtLnk:
				readlink(p)
			default:
				t.Fatalf("%s: d_type %d", p, types[n])
			}
		}
		require.Zero(t, x.call("close", fd))
	}
	require.Equal(t, []string{"1000", "cpuinfo", "loadavg", "meminfo", "mounts", "self", "stat", "thread-self", "uptime", "version"},
		seen["/proc"])
	require.Contains(t, seen["/proc/self"], "task")
	require.NotContains(t, seen["/proc/self/task/1000"], "task", "a thread's directory has none")
	require.Equal(t, []string{"1000"}, seen["/proc/self/task"])

	// fd lists the open descriptors, the directory's own too.
	extra := x.open("/etc/hostname", oRdonly, 0)
	fd := x.open("/proc/self/fd", oRdonly|oDirectory, 0)
	names, _ := x.listing(fd)
	want := []string{".", ".."}
	for i := uint64(0); i <= fd; i++ {
		if x.call("fcntl", i, 1 /* F_GETFD */) >= 0 {
			want = append(want, strconv.FormatUint(i, 10))
		}
	}
	require.Equal(t, want, names)
	require.Contains(t, names, strconv.FormatUint(extra, 10))

	// Paths relative to a generated directory's descriptor resolve in it.
	self := x.open("/proc/self", oRdonly|oDirectory, 0)
	f := x.call("openat", self, x.str("comm"), oRdonly, 0)
	require.GreaterOrEqual(t, f, int64(3))
	require.Equal(t, "prog\n", x.readAll(uint64(f)))

	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"write a directory", x.call("openat", fdcwd, x.str("/proc/self"), oWronly, 0), EISDIR},
		{"no-follow of the link", x.call("openat", fdcwd, x.str("/proc/self"), oRdonly|oDirectory|oNofollow, 0), ELOOP},
		{"another thread's directory", x.call("newfstatat", fdcwd, x.str("/proc/self/task/1001"), st, 0), ENOENT},
		{"a thread's task directory", x.call("newfstatat", fdcwd, x.str("/proc/self/task/1000/task"), st, 0), ENOENT},
		{"readlink of a directory", x.call("readlinkat", fdcwd, x.str("/proc/1000"), buf, 64), EINVAL},
		{"write access", x.call("faccessat", fdcwd, x.str("/proc/self/fd"), 2), EACCES},
		{"chdir by descriptor", x.call("fchdir", self), EACCES},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, x.call("faccessat", fdcwd, x.str("/proc/self/task"), 5))
}

// TestProcEnvironAndComm: environ is the environment block as the process
// started with it; comm its name with a newline, as PR_SET_NAME sets it.
func TestProcEnvironAndComm(t *testing.T) {
	x := newTK(t, Config{ExePath: "/bin/prog"})
	_, err := x.k.SetupProcess(Image{Entry: 0x10000}, []string{"prog", "a"}, []string{"A=1", "B=two"})
	require.NoError(t, err)
	require.Equal(t, "A=1\x00B=two\x00", x.readAll(x.open("/proc/self/environ", oRdonly, 0)))
	require.Equal(t, "prog\n", x.readAll(x.open("/proc/self/comm", oRdonly, 0)))
	require.Zero(t, x.call("prctl", prSetName, x.str("worker")))
	require.Equal(t, "worker\n", x.readAll(x.open("/proc/thread-self/comm", oRdonly, 0)))
}

// TestProcTasks: the task directory lists the live threads, each one's
// directory opens, and /proc/thread-self names the running thread's.
func TestProcTasks(t *testing.T) {
	x := newTK(t, Config{})
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0) // 1001
	x.spawn(&r, 0xa000, 0, x.alloc(4), 0) // 1002
	names, _ := x.listing(x.open("/proc/self/task", oRdonly|oDirectory, 0))
	require.Equal(t, []string{".", "..", "1000", "1001", "1002"}, names)
	st, buf := x.alloc(128), x.alloc(64)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/proc/self/task/1002/fd"), st, 0))
	x.ecall(&r, "sched_yield") // 1001 runs
	x.ecall(&r, "readlinkat", fdcwd, x.str("/proc/thread-self"), buf, 64)
	require.Equal(t, "1000/task/1001", string(x.peek(buf, r.X[10])))
	x.ecall(&r, "exit", 0) // 1001 ends
	require.Equal(t, int32(1002), x.k.Tid())
	names, _ = x.listing(x.open("/proc/self/task", oRdonly|oDirectory, 0))
	require.Equal(t, []string{".", "..", "1000", "1002"}, names)
	require.Equal(t, errno(ENOENT), x.call("newfstatat", fdcwd, x.str("/proc/self/task/1001"), st, 0), "an ended thread")
}
