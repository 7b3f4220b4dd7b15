package test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// The exit status of a bare-metal ISA test (test/programs/isa/env.h):
// 0 passes; n names the failing test by its source line; an unexpected
// trap sets unexpectedTrap with the cause in bits 24-29.
const unexpectedTrap = 1 << 30

// isaLimit bounds a run, so a test that loops forever fails instead of
// hanging. The largest test retires about 10,000 instructions.
const isaLimit = 5_000_000

// run runs a program in-process and returns the result with what it wrote
// to stdout and stderr (warnings included).
func run(t testing.TB, path string, args ...string) (sim.Result, *sim.Machine, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	mc, err := sim.Load(sim.Config{
		Program:  path,
		Args:     args,
		MaxInsts: isaLimit,
		Kernel: syscalls.Config{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr,
		},
	})
	require.NoError(t, err)
	res := mc.Run()
	return res, mc, stdout.String(), stderr.String()
}

// sourceLine returns line n of file (trimmed), or "" if it has none.
func sourceLine(file string, n int) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.TrimSpace(sc.Text())
		}
	}
	return ""
}

// describeISAFailure explains a failing exit status in terms of the test
// source: the line of the failing test, or the unexpected trap.
func describeISAFailure(src string, code int, mc *sim.Machine) string {
	base := filepath.Base(src)
	if code&unexpectedTrap != 0 {
		cause, n := code>>24&0x3f, code&0xffffff
		mepc, _ := mc.CPU.MachineCSR(0x341)
		mtval, _ := mc.CPU.MachineCSR(0x343)
		return fmt.Sprintf("unexpected trap (mcause %d, mepc %#x, mtval %#x) in the test at %s:%d: %s",
			cause, mepc, mtval, base, n, sourceLine(src, n))
	}
	return fmt.Sprintf("the check at %s:%d failed: %s", base, code, sourceLine(src, code))
}

// TestISA runs every bare-metal ISA test in build/testprogs/isa and
// requires each to pass.
func TestISA(t *testing.T) {
	dir := filepath.Join(testprogs, "isa")
	names := programsIn(t, dir, "make testprogs")
	// Every source must have been built: a test that failed to assemble
	// must not silently drop out.
	srcs, err := filepath.Glob(filepath.Join(srcDir, "isa", "*.S"))
	require.NoError(t, err)
	for _, s := range srcs {
		needFile(t, filepath.Join(dir, strings.TrimSuffix(filepath.Base(s), ".S")), "make testprogs")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, mc, stdout, stderr := run(t, filepath.Join(dir, name))
			require.True(t, res.BareMetal, "not run bare-metal: no tohost symbol?")
			require.Equal(t, sim.StopExit, res.Stop, "%s (after %d instructions)", res.Message, res.Instructions)
			if res.ExitCode != 0 {
				t.Fatalf("%s: %s", name, describeISAFailure(filepath.Join(srcDir, "isa", name+".S"), res.ExitCode, mc))
			}
			assert.Empty(t, stdout)
			assert.Empty(t, stderr)
			// A pass that skipped its checks would prove nothing: each
			// check retires at least three instructions.
			checks := countChecks(t, filepath.Join(srcDir, "isa", name+".S"))
			assert.GreaterOrEqual(t, res.Instructions, uint64(3*checks), "%d checks", checks)
		})
	}
}

// countChecks counts the test-macro invocations in an ISA test source.
func countChecks(t *testing.T, src string) int {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "TEST_") || strings.HasPrefix(l, "EXPECT_TRAP") {
			n++
		}
	}
	require.NotZero(t, n, "%s has no checks", src)
	return n
}

// TestISAUserMode runs the Linux builds of the ISA tests (the same checks
// without the M-mode parts) under rvsim's user-mode environment.
func TestISAUserMode(t *testing.T) {
	dir := filepath.Join(testprogs, "isa-user")
	for _, name := range programsIn(t, dir, "make testprogs") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, _, stdout, stderr := run(t, filepath.Join(dir, name))
			require.False(t, res.BareMetal)
			require.Equal(t, sim.StopExit, res.Stop, res.Message)
			require.Equal(t, 0, res.ExitCode, "%s wrote %q: see that line of %s.S", name, stdout, name)
			assert.Empty(t, stdout)
			assert.Empty(t, stderr)
		})
	}
}

// TestISAExpectationsOnQemu runs the Linux builds of the ISA tests on
// qemu-riscv64, an independent implementation: the hand-computed expected
// values (results and fflags) must hold there too.
func TestISAExpectationsOnQemu(t *testing.T) {
	dir := filepath.Join(testprogs, "isa-user")
	names := programsIn(t, dir, "make testprogs")
	qemu := needQemu(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runProcess(t, "", []string{}, qemu, filepath.Join(dir, name))
			require.Equal(t, 0, r.Status, "%s on qemu-riscv64 wrote %q %q", name, r.Stdout, r.Stderr)
			assert.Empty(t, r.Stdout)
		})
	}
}

// markedLine returns the number of the first line of file containing mark.
func markedLine(t *testing.T, file, mark string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, mark) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, mark)
	return 0
}

// TestISAHarnessReportsFailures checks the harness itself with two
// programs that must fail: a wrong expected value, and an unexpected trap.
func TestISAHarnessReportsFailures(t *testing.T) {
	dir := filepath.Join(testprogs, "canary")
	needFile(t, filepath.Join(dir, "fail"), "make testprogs")
	needFile(t, filepath.Join(dir, "trap"), "make testprogs")

	src := filepath.Join(srcDir, "canary", "fail.S")
	res, mc, _, _ := run(t, filepath.Join(dir, "fail"))
	require.Equal(t, sim.StopExit, res.Stop)
	line := markedLine(t, src, "// fails")
	assert.Equal(t, line, res.ExitCode)
	assert.Equal(t, fmt.Sprintf("the check at fail.S:%d failed: TEST_CASE(x14, 2, li x14, 3)            "+
		"// fails: the exit status is this line, 8", line), describeISAFailure(src, res.ExitCode, mc))

	src = filepath.Join(srcDir, "canary", "trap.S")
	res, mc, _, _ = run(t, filepath.Join(dir, "trap"))
	require.Equal(t, sim.StopExit, res.Stop)
	line = markedLine(t, src, "TEST_CASE(")
	assert.Equal(t, unexpectedTrap|cpu.CauseIllegalInst<<24|line, res.ExitCode)
	// The bad word follows the test's "li gp, N" at test_start.
	start, ok := mc.Prog.Lookup("test_start")
	require.True(t, ok, "no test_start symbol")
	assert.Equal(t, fmt.Sprintf("unexpected trap (mcause 2, mepc %#x, mtval 0xfe000033) in the test at trap.S:%d: "+
		"TEST_CASE(x14, 0, .word 0xfe000033; li x14, 0)", start.Value+4, line), describeISAFailure(src, res.ExitCode, mc))
}

// TestBareMetalHello runs a bare-metal C program that prints through HTIF
// putchar and through the syscall proxy's write.
func TestBareMetalHello(t *testing.T) {
	path := filepath.Join(testprogs, "baremetal", "hello")
	needFile(t, path, "make testprogs")
	res, _, stdout, stderr := run(t, path)
	require.True(t, res.BareMetal)
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	assert.Equal(t, 0, res.ExitCode, "exit 1: the proxied write returned the wrong count")
	assert.Equal(t, "hello from HTIF putchar\nhello from the syscall proxy\n", stdout)
	assert.Empty(t, stderr)
}

// TestBareMetalCLINT runs test/programs/baremetal/clint: the CLINT's
// mtime against the time CSR, the timer interrupt at mtimecmp (waited for
// in wfi), masking by MIE, the software interrupt from msip, and a write
// of mtime. Its exit code names the check that failed. The interrupts
// follow the instruction count, so every mode retires the same
// instructions.
func TestBareMetalCLINT(t *testing.T) {
	path := filepath.Join(testprogs, "baremetal", "clint")
	needFile(t, path, "make testprogs")
	counts := map[string]uint64{}
	// The DISE runs pad every load with forty no-ops: most deadlines then
	// fall inside a replacement sequence, where the interrupt waits for
	// the sequence's end; a run that let it wait longer (an unbounded
	// budget past mtimecmp) spins in the program's wfi loop until
	// isaLimit.
	pad := filepath.Join("testdata", "pad-loads.acf")
	for _, mode := range []struct {
		name   string
		jit    bool
		timing bool
		acf    string
	}{{"interpreted", false, false, ""}, {"translated", true, false, ""}, {"timing", false, true, ""},
		{"DISE", true, false, pad}, {"DISE timing", false, true, pad}} {
		t.Run(mode.name, func(t *testing.T) {
			cfg := sim.Config{Program: path, MaxInsts: isaLimit, JIT: mode.jit,
				Kernel: syscalls.Config{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}}
			if mode.timing {
				cfg.Timing = config.Default()
			}
			if mode.acf != "" {
				cfg.DISE = &sim.DISEOptions{ACF: []string{mode.acf}}
			}
			mc, err := sim.Load(cfg)
			require.NoError(t, err)
			res := mc.Run()
			require.Equal(t, sim.StopExit, res.Stop, res.Message)
			require.Zero(t, res.ExitCode, "the check that failed (test/programs/baremetal/clint.c)")
			counts[mode.name] = res.Instructions
		})
	}
	assert.Len(t, counts, 5)
	assert.Equal(t, counts["interpreted"], counts["translated"])
	assert.Equal(t, counts["interpreted"], counts["timing"])
	assert.Equal(t, counts["DISE"], counts["DISE timing"])
	assert.Greater(t, counts["DISE"], counts["interpreted"], "the padding ran")
}

// TestBareMetalDifftest runs every bare-metal program (the ISA tests, hello,
// clint, signature) in lock-step with Unicorn: no divergence, the run's
// outcome as without the oracle, and the M-mode state the oracle does not
// model (CSRs, traps, mret, the CLINT, the HTIF mailbox) copied from rvsim
// and counted. A register corrupted after an ordinary instruction is caught.
func TestBareMetalDifftest(t *testing.T) {
	needOracleLib(t)
	var progs []string
	for _, name := range programsIn(t, filepath.Join(testprogs, "isa"), "make testprogs") {
		progs = append(progs, filepath.Join(testprogs, "isa", name))
	}
	for _, p := range []string{"hello", "clint", "signature"} {
		path := filepath.Join(testprogs, "baremetal", p)
		needFile(t, path, "make testprogs")
		progs = append(progs, path)
	}
	load := func(t *testing.T, path string) *sim.Machine {
		mc, err := sim.Load(sim.Config{Program: path, MaxInsts: isaLimit,
			Kernel: syscalls.Config{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}})
		require.NoError(t, err)
		return mc
	}
	for _, path := range progs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			plain := load(t, path).Run()
			rep, err := difftest.Run(load(t, path), difftest.Options{MaxInsts: isaLimit})
			require.NoError(t, err)
			require.Nil(t, rep.Divergence, "%v", rep.Divergence)
			assert.True(t, rep.Done)
			assert.Equal(t, plain.Stop, rep.Result.Stop, rep.Result.Message)
			assert.Equal(t, plain.ExitCode, rep.Result.ExitCode)
			assert.Equal(t, plain.Instructions, rep.Result.Instructions)
			if filepath.Base(path) != "signature" { // (stores and a halt only)
				assert.Positive(t, rep.Unchecked[difftest.GapBareMetal], "CSRs, traps or the CLINT were met")
			}
		})
	}
	t.Run("a corrupted register", func(t *testing.T) {
		path := filepath.Join(testprogs, "isa", "rv64ui")
		rep, err := difftest.Run(load(t, path), difftest.Options{MaxInsts: isaLimit, Corrupt: func(seq uint64, c *cpu.CPU) {
			if seq == 500 {
				c.X[5] ^= 1 << 40
			}
		}})
		require.NoError(t, err)
		require.NotNil(t, rep.Divergence)
		assert.Equal(t, uint64(500), rep.Divergence.Seq)
	})
}
