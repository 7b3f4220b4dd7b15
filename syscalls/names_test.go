package syscalls

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWellKnownNumbers(t *testing.T) {
	// riscv64 uses the asm-generic numbers.
	tests := []struct {
		desc string
		num  uint64
	}{
		{"read", 63}, {"write", 64}, {"exit", 93}, {"exit_group", 94}, {"brk", 214},
		{"mmap", 222}, {"openat", 56}, {"newfstatat", 79}, {"fstat", 80},
		{"riscv_hwprobe", 258}, {"riscv_flush_icache", 259}, {"clone3", 435},
		{"rseq", 293}, {"statx", 291}, {"faccessat2", 439}, {"getrandom", 278},
	}
	for _, tc := range tests {
		require.Equal(t, tc.desc, Name(tc.num), "number %d", tc.num)
	}
	require.Empty(t, Name(38), "renameat does not exist on riscv64")
	require.Empty(t, Name(1024))
}

// TestNamesMatchHeaders regenerates the name table from the cross
// toolchain's <asm/unistd.h> and compares.
func TestNamesMatchHeaders(t *testing.T) {
	gcc, err := exec.LookPath("riscv64-linux-gnu-gcc")
	if err != nil || testing.Short() {
		t.Skip("riscv64-linux-gnu-gcc not installed")
	}
	cmd := exec.Command(gcc, "-dM", "-E", "-")
	cmd.Stdin = strings.NewReader("#include <asm/unistd.h>\n")
	out, err := cmd.Output()
	require.NoError(t, err)
	macros := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "#define" && strings.HasPrefix(f[1], "__NR") {
			macros[f[1]] = strings.Join(f[2:], " ")
		}
	}
	var eval func(string) (uint64, bool)
	eval = func(v string) (uint64, bool) {
		v = strings.Trim(v, "()")
		if a, b, ok := strings.Cut(v, "+"); ok {
			x, ok1 := eval(strings.TrimSpace(a))
			y, ok2 := eval(strings.TrimSpace(b))
			return x + y, ok1 && ok2
		}
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			return n, true
		}
		if m, ok := macros[v]; ok {
			return eval(m)
		}
		return 0, false
	}
	checked := 0
	for name, v := range macros {
		short, ok := strings.CutPrefix(name, "__NR_")
		if !ok || short == "syscalls" || short == "arch_specific_syscall" {
			continue
		}
		n, ok := eval(v)
		require.True(t, ok, "%s = %s", name, v)
		require.Equal(t, short, Name(n), "number %d", n)
		checked++
	}
	require.Greater(t, checked, 300)
}

func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, info := range Supported() {
		require.NotEmpty(t, info.Name, "number %d has a name", info.Num)
		require.False(t, seen[info.Name], "duplicate %s", info.Name)
		seen[info.Name] = true
	}
	for _, name := range strings.Fields(`read write readv writev openat close lseek pread64 pwrite64
		fstat newfstatat statx readlinkat getcwd chdir faccessat faccessat2 ioctl fcntl dup dup3
		getdents64 unlinkat mkdirat renameat2 ftruncate brk mmap munmap mremap mprotect madvise exit
		exit_group uname set_tid_address set_robust_list rseq prlimit64 getrlimit setrlimit
		rt_sigaction rt_sigprocmask sigaltstack getpid getppid gettid getuid geteuid getgid getegid
		clock_gettime clock_getres gettimeofday nanosleep clock_nanosleep getrandom riscv_hwprobe
		sched_getaffinity sched_yield futex tgkill tkill kill getrusage times sysinfo`) {
		require.True(t, seen[name], "%s is implemented", name)
	}
	require.Equal(t, "partial", Partial.String())
}

// TestPackageDocListsTable keeps the package comment's summary honest: each
// implemented call is named in doc.go.
func TestPackageDocListsTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(".", "doc.go"))
	require.NoError(t, err)
	doc := string(b)
	for _, info := range Supported() {
		require.True(t, strings.Contains(doc, info.Name), "doc.go mentions %s", info.Name)
	}
}
