package test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
	"github.com/rvsim/rvsim/syscalls"
)

// Tests of Linux-process behaviour: dynamically linked programs, the guest
// memory limit, and faults under --difftest. The programs are
// test/programs/linux/*.c, built static (build/testprogs/linux) and
// dynamic (build/testprogs/linux-dyn), and the benchmarks' dynamic builds
// (build/benchmarks-dyn).

// needSysroot returns the sysroot the dynamic programs need (Debian's
// libc6-riscv64-cross), or calls missing.
func needSysroot(t testing.TB) string {
	t.Helper()
	ld := filepath.Join(sim.DefaultSysroot, "lib", "ld-linux-riscv64-lp64d.so.1")
	if _, err := os.Stat(ld); err != nil {
		missing(t, "%s is missing: run 'make setup' (libc6-riscv64-cross)", ld)
	}
	return sim.DefaultSysroot
}

func linuxProg(t testing.TB, variant, name string) string {
	t.Helper()
	p := filepath.Join(testprogs, variant, name)
	needFile(t, p, "make testprogs")
	return p
}

// TestDynamicBenchmarks runs every benchmark's dynamically linked build on
// its test input (the interpreter and libc.so.6/libm.so.6 come from the
// default sysroot) and requires qemu-riscv64 -L's stdout, stderr and exit
// status, and the committed expected output. Each run is made twice and
// must repeat its instruction count; the dynamic build runs more
// instructions than the static one (ld.so's work). The three shortest run
// in timing mode too, with the same results and instruction count.
func TestDynamicBenchmarks(t *testing.T) {
	sysroot := needSysroot(t)
	qemu := needQemu(t)
	bs, err := suite.Discover(filepath.Join(repoRoot, "benchmarks"), filepath.Join(repoRoot, "build", "benchmarks-dyn"))
	require.NoError(t, err)
	for _, b := range bs {
		if !b.Built() {
			missing(t, "%s is not built: run 'make benchmarks'", relPath(b.Binary))
		}
	}
	static, _, staticOuts := benchmarks(t)
	require.Equal(t, len(static), len(bs))
	ins := make([]suite.Input, len(bs))
	for i, b := range bs {
		in, err := b.Input("test")
		require.NoError(t, err)
		ins[i] = in
	}
	first := runBenchmarks(bs, ins)
	again := runBenchmarks(bs, ins)

	qs := make([]procResult, len(bs))
	qerrs := make([]error, len(bs))
	sem := make(chan struct{}, benchJobs)
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, b suite.Benchmark) {
			defer func() { <-sem; wg.Done() }()
			qs[i], qerrs[i] = startProcess(b.Dir, []string{}, qemu, append([]string{"-L", sysroot, "-0", "/" + b.Name, b.Binary}, ins[i].Args...)...)
		}(i, b)
	}
	wg.Wait()

	for i, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			o, q := first[i], qs[i]
			require.NoError(t, qerrs[i])
			require.NotZero(t, o.Result.Instructions, "did not run: %s", o.Why)
			assert.True(t, o.Pass, "against %s/test.stdout: %s", b.Name, o.Why)
			assert.Equal(t, q.Status, o.Result.ExitCode, "exit status (rvsim: %s)", o.Result.Message)
			if d := suite.FirstDifference([]byte(q.Stdout), o.Stdout); d != "" {
				t.Errorf("stdout differs from qemu-riscv64 -L's: %s", d)
			}
			assert.Equal(t, q.Stderr, string(o.Stderr), "stderr")
			assert.Equal(t, o.Result.Instructions, again[i].Result.Instructions, "instruction count repeats")
			assert.Equal(t, o.Stdout, again[i].Stdout)
			require.Equal(t, b.Name, static[i].Name)
			assert.Greater(t, o.Result.Instructions, staticOuts[i].Result.Instructions, "ld.so runs before main")
			t.Logf("%d instructions dynamic, %d static", o.Result.Instructions, staticOuts[i].Result.Instructions)
		})
	}

	// Timing mode on the three shortest runs.
	idx := make([]int, len(bs))
	for i := range idx {
		idx[i] = i
	}
	for i := range idx {
		for j := i + 1; j < len(idx); j++ {
			if first[idx[j]].Result.Instructions < first[idx[i]].Result.Instructions {
				idx[i], idx[j] = idx[j], idx[i]
			}
		}
	}
	for _, i := range idx[:min(3, len(idx))] {
		t.Run("timing/"+bs[i].Name, func(t *testing.T) {
			o := suite.Run(bs[i], ins[i], suite.Options{Timing: config.Default()})
			require.Nil(t, o.Result.TimingErr)
			assert.True(t, o.Pass, o.Why)
			assert.Equal(t, first[i].Result.Instructions, o.Result.Instructions, "instruction count in timing mode")
			assert.Equal(t, first[i].Stdout, o.Stdout)
			assert.NotEqual(t, o.Result.Instructions, o.Result.Cycles, "cycles come from the model")
		})
	}
}

// qemuInstructions counts the instructions qemu-riscv64 executes, one
// translation block per instruction (-singlestep) with every executed
// block logged; ok is false if this qemu cannot do it.
func qemuInstructions(t *testing.T, qemu string, args ...string) (n uint64, out procResult, ok bool) {
	log := filepath.Join(t.TempDir(), "exec.log")
	for _, one := range []string{"-one-insn-per-tb", "-singlestep"} {
		r, err := startProcess("", []string{}, qemu, append([]string{one, "-d", "nochain,exec", "-D", log}, args...)...)
		if err != nil || strings.Contains(r.Stderr, "invalid option") || strings.Contains(r.Stderr, "unknown option") {
			continue
		}
		data, err := os.ReadFile(log)
		if err != nil {
			continue
		}
		return uint64(bytes.Count(data, []byte("\nTrace ")) + btoi(bytes.HasPrefix(data, []byte("Trace ")))), r, true
	}
	return 0, procResult{}, false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDynamicInstructionCountNearQemu counts the instructions of a small
// program, static and dynamic (ld.so, libc.so.6, libm.so.6), under rvsim
// and under qemu-riscv64 (-singlestep with every executed block logged).
// They cannot be equal: qemu answers set_robust_list with ENOSYS where
// Linux and rvsim succeed, and lays out argv and the auxiliary vector's
// strings at other alignments, so string functions take other paths. The
// difference must stay that small (a broken library search or relocation
// would cost thousands), and it must be about the same for both builds.
func TestDynamicInstructionCountNearQemu(t *testing.T) {
	sysroot := needSysroot(t)
	qemu := needQemu(t)
	counts := map[string][2]uint64{}
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "hello")
		var stdout, stderr bytes.Buffer
		mc, err := sim.Load(sim.Config{Program: prog, Args: []string{"one", "two"}, Kernel: syscalls.Config{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}})
		require.NoError(t, err)
		res := mc.Run()
		q, qout, ok := qemuInstructions(t, qemu, "-L", sysroot, prog, "one", "two")
		if !ok {
			t.Skip("this qemu-riscv64 cannot log one instruction per block (-one-insn-per-tb / -singlestep)")
		}
		assert.Equal(t, qout.Status, res.ExitCode, variant)
		assert.Equal(t, qout.Stdout, stdout.String(), variant)
		counts[variant] = [2]uint64{res.Instructions, q}
		t.Logf("%s: rvsim %d, qemu %d instructions", variant, res.Instructions, q)
		assert.InDelta(t, float64(q), float64(res.Instructions), 64, "%s: rvsim %d, qemu %d", variant, res.Instructions, q)
	}
	s, d := counts["linux"], counts["linux-dyn"]
	assert.Greater(t, d[0], s[0]+50000, "the dynamic linker's work")
	assert.InDelta(t, float64(d[1]-s[1]), float64(d[0]-s[0]), 64, "what dynamic linking adds, rvsim against qemu")
}

// TestDynamicDifftest runs a dynamic program in lock-step with Unicorn: ld.so
// mapping and relocating the libraries, then the program, without a
// divergence, with the plain run's output and exit status.
func TestDynamicDifftest(t *testing.T) {
	needSysroot(t)
	prog := linuxProg(t, "linux-dyn", "hello")
	rvsim := rvsimBinary(t)
	plain := runProcess(t, "", nil, rvsim, "run", "--clear-env", prog, "x")
	dt := runProcess(t, "", nil, rvsim, "run", "--clear-env", "--difftest", prog, "x")
	require.Equal(t, 3, plain.Status, plain.Stderr)
	assert.Equal(t, plain.Status, dt.Status, dt.Stderr)
	assert.Equal(t, plain.Stdout, dt.Stdout)
	assert.Regexp(t, `^difftest: \d+ instructions in lock-step, no divergence \(`, dt.Stderr)
}

// TestSysroot checks where the interpreter comes from and the one-line
// errors when it cannot be found.
func TestSysroot(t *testing.T) {
	sysroot := needSysroot(t)
	prog := linuxProg(t, "linux-dyn", "hello")
	static := linuxProg(t, "linux", "hello")
	rvsim := rvsimBinary(t)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	empty := filepath.Join(tmp, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	noEnv := []string{}
	notFound := func(where string) string {
		return "rvsim: " + prog + ": dynamic linker /lib/ld-linux-riscv64-lp64d.so.1: not found in " + where +
			"; give --sysroot DIR (or set QEMU_LD_PREFIX)\n"
	}
	tests := []struct {
		desc   string
		env    []string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"default sysroot", noEnv, []string{prog}, 3, "argv[0] = " + prog + "\nsqrt(2) = 1.414214\n", ""},
		{"--sysroot", noEnv, []string{"--sysroot", sysroot, prog}, 3, "argv[0] = " + prog + "\nsqrt(2) = 1.414214\n", ""},
		{"QEMU_LD_PREFIX", []string{"QEMU_LD_PREFIX=" + sysroot}, []string{prog}, 3, "argv[0] = " + prog + "\nsqrt(2) = 1.414214\n", ""},
		{"--sysroot without the interpreter", noEnv, []string{"--sysroot", empty, prog}, 2, "", notFound("the sysroot " + empty + " or the guest root")},
		{"QEMU_LD_PREFIX without the interpreter", []string{"QEMU_LD_PREFIX=" + empty}, []string{prog}, 2, "", notFound("the sysroot " + empty + " or the guest root")},
		{"--sysroot wins over QEMU_LD_PREFIX", []string{"QEMU_LD_PREFIX=" + empty}, []string{"--sysroot", sysroot, prog}, 3, "argv[0] = " + prog + "\nsqrt(2) = 1.414214\n", ""},
		{"--root without the libraries", noEnv, []string{"--root", empty, prog}, 2, "", notFound("the guest root")},
		{"--sysroot missing", noEnv, []string{"--sysroot", filepath.Join(tmp, "nope"), prog}, 2, "",
			"rvsim: " + prog + ": sysroot " + filepath.Join(tmp, "nope") + ": no such file or directory\n"},
		{"--sysroot is a file", noEnv, []string{"--sysroot", file, prog}, 2, "", "rvsim: " + prog + ": sysroot " + file + ": not a directory\n"},
		{"--sysroot outside --root", noEnv, []string{"--root", empty, "--sysroot", sysroot, prog}, 2, "",
			"rvsim: " + prog + ": sysroot " + sysroot + " is outside the guest root " + empty + ": the guest could not read its libraries\n"},
		{"a static program needs no sysroot", noEnv, []string{"--sysroot", empty, static}, 3, "argv[0] = " + static + "\nsqrt(2) = 1.414214\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, "", tc.env, rvsim, append([]string{"run"}, tc.args...)...)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.stdout, r.Stdout)
			assert.Equal(t, tc.stderr, r.Stderr)
		})
	}
}

var outOfMemory = regexp.MustCompile(`^rvsim: out of memory: the guest memory limit of (\d+ [KMG]iB) \(--mem-limit\) cannot back address 0x[0-9a-f]+ touched (at pc 0x[0-9a-f]+|in system call \w+)\n`)

// TestMemLimit runs a guest that mallocs and touches more than a small
// limit (malloc returns NULL and the program carries on, as under Linux's
// strict overcommit), and guests whose touches cannot be backed (stack,
// read-only mappings: not charged when mapped), which end with one line
// and exit status 137, with and without --difftest.
func TestMemLimit(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		if variant == "linux-dyn" {
			needSysroot(t)
		}
		prog := linuxProg(t, variant, "memhog")
		t.Run(variant, func(t *testing.T) {
			r := runProcess(t, "", nil, rvsim, "run", "--mem-limit", "16M", prog, "malloc", "64")
			require.Equal(t, 0, r.Status, r.Stderr)
			var got int
			_, err := fmt.Sscanf(r.Stdout, "malloc: got %d of 64 MiB\n", &got)
			require.NoError(t, err, r.Stdout)
			assert.True(t, got >= 8 && got < 16, "got %d MiB under a 16 MiB limit", got)
			assert.Empty(t, r.Stderr)

			r = runProcess(t, "", nil, rvsim, "run", prog, "malloc", "64")
			assert.Equal(t, "malloc: got 64 of 64 MiB\n", r.Stdout, "the host's default limit allows it")

			for _, tc := range []struct {
				desc, limit string
				args        []string
			}{
				{"stack", "4M", []string{"stack", "6000"}},
				{"read-only mapping", "16M", []string{"read", "64"}},
			} {
				t.Run(tc.desc, func(t *testing.T) {
					args := append([]string{"run", "--mem-limit", tc.limit, prog}, tc.args...)
					r := runProcess(t, "", nil, rvsim, args...)
					assert.Equal(t, sim.ExitMemLimit, r.Status)
					assert.Empty(t, r.Stdout)
					m := outOfMemory.FindStringSubmatch(r.Stderr)
					require.NotNil(t, m, "stderr: %q", r.Stderr)
					assert.Equal(t, strings.Replace(tc.limit, "M", " MiB", 1), m[1])
					assert.Equal(t, r.Stderr, runProcess(t, "", nil, rvsim, args...).Stderr, "the same address and pc every run")

					dargs := append([]string{"run", "--difftest", "--mem-limit", tc.limit, prog}, tc.args...)
					d := runProcess(t, "", nil, rvsim, dargs...)
					assert.Equal(t, sim.ExitMemLimit, d.Status)
					assert.True(t, strings.HasPrefix(d.Stderr, r.Stderr), "difftest reports the limit as a plain run does: %q", d.Stderr)
					assert.Contains(t, d.Stderr, "no divergence")
				})
			}
		})
	}
	t.Run("bad values", func(t *testing.T) {
		for _, tc := range []struct{ arg, msg string }{
			{"12Q", `rvsim: --mem-limit "12Q": want a size in bytes with an optional K, M, G or T suffix` + "\n"},
			{"0", `rvsim: --mem-limit "0": the size must be more than zero` + "\n"},
			{"-5M", `rvsim: --mem-limit "-5M": want a size in bytes with an optional K, M, G or T suffix` + "\n"},
		} {
			r := runProcess(t, "", nil, rvsim, "run", "--mem-limit", tc.arg, "prog")
			assert.Equal(t, 2, r.Status)
			assert.Equal(t, tc.msg, r.Stderr)
		}
	})
	t.Run("too small to load", func(t *testing.T) {
		prog := linuxProg(t, "linux", "memhog")
		r := runProcess(t, "", nil, rvsim, "run", "--mem-limit", "8K", prog, "malloc", "1")
		assert.Equal(t, 2, r.Status)
		assert.Equal(t, "rvsim: "+prog+": loading the program needs more than the guest memory limit of 8 KiB (--mem-limit)\n", r.Stderr)
	})
}

// TestFaultsUnderDifftest: a jump to unmapped memory, csrr mstatus and wfi
// in user mode end the process as under Linux and qemu-riscv64 (139, 132,
// 132), and --difftest reports the same fault and status: both models
// refused the instruction, which is agreement.
func TestFaultsUnderDifftest(t *testing.T) {
	prog := linuxProg(t, "linux", "faults")
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	tests := []struct {
		mode, msg string
		status    int
		symbol    string
	}{
		{"jump", "rvsim: segmentation fault: instruction fetch from address 0x12340000 at pc 0x12340000\n", 139, ""},
		{"csr", "rvsim: illegal instruction 0x30002573 at pc %#x\n", 132, "bad_csr"},
		{"wfi", "rvsim: illegal instruction 0x10500073 at pc %#x\n", 132, "bad_wfi"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			want := tc.msg
			if tc.symbol != "" {
				want = fmt.Sprintf(tc.msg, symbolValue(t, prog, tc.symbol))
			}
			q := runProcess(t, "", []string{}, qemu, prog, tc.mode)
			assert.Equal(t, tc.status, q.Status, "qemu-riscv64")
			r := runProcess(t, "", nil, rvsim, "run", prog, tc.mode)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, "before the fault\n", r.Stdout)
			assert.Equal(t, want, r.Stderr)
			d := runProcess(t, "", nil, rvsim, "run", "--difftest", prog, tc.mode)
			assert.Equal(t, tc.status, d.Status, d.Stderr)
			assert.Equal(t, "before the fault\n", d.Stdout)
			require.True(t, strings.HasPrefix(d.Stderr, want), "difftest stderr: %q", d.Stderr)
			assert.Regexp(t, `^difftest: \d+ instructions in lock-step, no divergence`, strings.TrimPrefix(d.Stderr, want))
		})
	}
}

// TestCLICorruptELF runs every file of the ELF corruption corpus
// (elf/testdata/corrupt, whose exact messages the elf package's tests
// check) through the command line: one line naming the file, exit status
// 2, nothing run.
func TestCLICorruptELF(t *testing.T) {
	rvsim := rvsimBinary(t)
	files, err := filepath.Glob(filepath.Join(repoRoot, "elf", "testdata", "corrupt", "*.elf"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := runProcess(t, "", nil, rvsim, "run", f)
			assert.Equal(t, 2, r.Status)
			assert.Empty(t, r.Stdout)
			assert.True(t, strings.HasPrefix(r.Stderr, "rvsim: "+f+": "), r.Stderr)
			assert.Equal(t, 1, strings.Count(r.Stderr, "\n"), "one line: %q", r.Stderr)
		})
	}
}
