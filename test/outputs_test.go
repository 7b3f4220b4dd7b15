package test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/outfile/outfiletest"
	"github.com/rvsim/rvsim/sim"
)

// Every write error of every output is one line that still gives the
// run's own outcome, and the exit status is 2: a full device, and a file
// that stops growing part way (RLIMIT_FSIZE, as a full file system stops
// a trace after its first blocks).
func TestCLIWriteErrors(t *testing.T) {
	rvsim := rvsimBinary(t)
	hello := linuxProg(t, "linux", "hello")
	handlersELF := filepath.Join(repoRoot, "build", "handlers", "rvsim-handlers.elf")
	needFile(t, handlersELF, "make -C toolchain/handlers")
	full := outfiletest.FullDevice(t)
	tmp := t.TempDir()
	helloOut := "argv[0] = " + hello + "\nsqrt(2) = 1.414214\n"
	for _, tc := range []struct {
		desc   string
		args   []string
		stdout string
		stderr string
	}{
		{"--trace", []string{"--trace", full}, helloOut,
			"rvsim: --trace " + full + ": write: no space left on device (the program exited with status 3)\n"},
		{"--stats of a stopped run", []string{"--stats", full, "--max-insts", "100"}, "",
			"rvsim: instruction limit reached (100 instructions)\n" +
				"rvsim: --stats " + full + ": write: no space left on device (--max-insts stopped the run: status 124)\n"},
		{"--profile-out", []string{"--acf", filepath.Join(repoRoot, "acf", "call-pair.acf"), "--handlers", handlersELF, "--profile-out", full}, helloOut,
			"rvsim: --profile-out " + full + ": write: no space left on device (the program exited with status 3)\n"},
		{"two outputs, one line each", []string{"--stats", full, "--trace", full}, helloOut,
			"rvsim: --trace " + full + ": write: no space left on device (the program exited with status 3)\n" +
				"rvsim: --stats " + full + ": write: no space left on device (the program exited with status 3)\n"},
		{"--interval-out", []string{"--mode", "timing", "--interval", "1000", "--interval-out", full}, helloOut,
			"rvsim: --interval-out " + full + ": write: no space left on device (the program exited with status 3)\n"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, tmp, nil, rvsim, append(append([]string{"run"}, tc.args...), hello)...)
			assert.Equal(t, 2, r.Status)
			assert.Equal(t, tc.stdout, r.Stdout)
			assert.Equal(t, tc.stderr, r.Stderr)
		})
	}

	t.Run("a run a signal ended", func(t *testing.T) {
		needErrorPrograms(t)
		prog := filepath.Join(testprogs, "errors", "illegal")
		r := runProcess(t, tmp, nil, rvsim, "run", "--stats", full, prog)
		assert.Equal(t, 2, r.Status)
		assert.Equal(t, "before the illegal instruction\n", r.Stdout)
		assert.Equal(t, fmt.Sprintf("rvsim: illegal instruction 0xfe000033 at pc %#x\n", symbolValue(t, prog, "bad_insn"))+
			"rvsim: --stats "+full+": write: no space left on device (a signal ended the program: status 132)\n", r.Stderr)
	})

	// A trace larger than the file-size limit: the kernel refuses the write
	// that would pass it (EFBIG; rvsim ignores SIGXFSZ, as Go programs do).
	t.Run("a file that cannot grow", func(t *testing.T) {
		trace := filepath.Join(tmp, "t.log")
		r := runProcess(t, tmp, nil, "/bin/sh", "-c", `ulimit -f 64 && exec "$0" "$@"`, rvsim, "run", "--trace", trace, hello)
		assert.Equal(t, 2, r.Status)
		assert.Equal(t, helloOut, r.Stdout)
		assert.Equal(t, "rvsim: --trace "+trace+": write: file too large (the program exited with status 3)\n", r.Stderr)
		fi, err := os.Stat(trace)
		require.NoError(t, err)
		assert.LessOrEqual(t, fi.Size(), int64(64<<10))
	})
}

// A program execve would refuse is refused in one line with exit status
// 126, as a shell reports it: not a regular file, no execute permission;
// its dynamic linker too. A file larger than any program is refused
// before it is read (exit status 2). Nothing hangs on a FIFO.
func TestCLIProgramFiles(t *testing.T) {
	rvsim := rvsimBinary(t)
	hello := linuxProg(t, "linux", "hello")
	tmp := t.TempDir()
	copyFile := func(src, dst string, mode os.FileMode) {
		in, err := os.Open(src)
		require.NoError(t, err)
		defer in.Close()
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
		require.NoError(t, err)
		_, err = io.Copy(out, in)
		require.NoError(t, err)
		require.NoError(t, out.Close())
		require.NoError(t, os.Chmod(dst, mode))
	}
	noExec := filepath.Join(tmp, "noexec")
	copyFile(hello, noExec, 0o644)
	fifo := filepath.Join(tmp, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o755))
	huge := filepath.Join(tmp, "huge")
	f, err := os.OpenFile(huge, os.O_WRONLY|os.O_CREATE, 0o755)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(2<<30)) // sparse: no disk, and never read
	require.NoError(t, f.Close())

	cases := []struct {
		desc   string
		args   []string
		status int
		stderr string
	}{
		{"a character device", []string{"/dev/zero"}, 126, "rvsim: /dev/zero: not a regular file\n"},
		{"a FIFO", []string{fifo}, 126, "rvsim: " + fifo + ": not a regular file\n"},
		{"a directory", []string{tmp}, 126, "rvsim: " + tmp + ": is a directory\n"},
		{"no execute permission", []string{noExec}, 126, "rvsim: " + noExec + ": permission denied (no execute permission)\n"},
		{"larger than any program", []string{huge}, 2,
			"rvsim: " + huge + ": 2147483648 bytes, larger than any program rvsim loads (at most 1024 MiB)\n"},
		{"a handler runtime that is a device", []string{"--acf", filepath.Join(repoRoot, "acf", "call-pair.acf"), "--handlers", "/dev/zero", hello}, 2,
			"rvsim: handler runtime: /dev/zero: not a regular file\n"},
	}
	if _, err := os.Stat(filepath.Join(needSysroot(t), "lib", "ld-linux-riscv64-lp64d.so.1")); err == nil {
		// A sysroot whose dynamic linker has no execute permission.
		sysroot := filepath.Join(tmp, "sysroot")
		ld, err := filepath.EvalSymlinks(filepath.Join(sim.DefaultSysroot, "lib", "ld-linux-riscv64-lp64d.so.1"))
		require.NoError(t, err)
		copyFile(ld, filepath.Join(sysroot, "lib", "ld-linux-riscv64-lp64d.so.1"), 0o644)
		dyn := linuxProg(t, "linux-dyn", "hello")
		cases = append(cases, struct {
			desc   string
			args   []string
			status int
			stderr string
		}{"a dynamic linker without execute permission", []string{"--sysroot", sysroot, dyn}, 126,
			"rvsim: " + dyn + ": dynamic linker /lib/ld-linux-riscv64-lp64d.so.1: " + filepath.Join(sysroot, "lib", "ld-linux-riscv64-lp64d.so.1") +
				": permission denied (no execute permission)\n"})
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, tmp, nil, rvsim, append([]string{"run"}, tc.args...)...)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.stderr, r.Stderr)
			assert.Empty(t, r.Stdout)
			assert.Equal(t, 1, strings.Count(r.Stderr, "\n"))
		})
	}
}
