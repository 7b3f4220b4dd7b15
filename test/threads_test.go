package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The thread programs of test/programs/threads (static and dynamically
// linked): their output does not depend on the schedule, so rvsim's must
// be qemu-riscv64's (which runs guest threads on host threads), with the
// same exit status. Each program runs twice with the same instruction
// count, in timing mode with the same output and count, under another
// quantum with the same output, and (static builds) under --difftest.

var threadPrograms = []struct {
	name   string
	status int
	// stderr is a line rvsim's stderr must hold ("" for none: stderr empty).
	stderr string
}{
	{"basic", 0, ""},
	{"futex", 0, ""},
	{"cancel", 0, ""},
	{"segv", 139, "rvsim: segmentation fault: store to address 0x10 at pc "},
	{"exitgroup", 7, ""},
}

func threadProgram(t *testing.T, variant, name string) string {
	t.Helper()
	p := filepath.Join(testprogs, variant, name)
	needFile(t, p, "make testprogs")
	return p
}

// runCounted runs rvsim with --stats and returns the result and the
// retired instruction count.
func runCounted(t *testing.T, rvsim string, args ...string) (procResult, uint64) {
	t.Helper()
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	r := runProcess(t, dir, []string{}, rvsim, append([]string{"run", "--stats", stats}, args...)...)
	b, err := os.ReadFile(stats)
	require.NoError(t, err, r.Stderr)
	var s struct{ Instructions uint64 }
	require.NoError(t, json.Unmarshal(b, &s))
	require.NotZero(t, s.Instructions)
	return r, s.Instructions
}

func checkThreadRun(t *testing.T, r procResult, status int, stderr string) {
	t.Helper()
	require.Equal(t, status, r.Status, r.Stderr)
	if stderr == "" {
		assert.Empty(t, r.Stderr)
	} else {
		assert.Contains(t, r.Stderr, stderr)
		assert.Equal(t, 1, strings.Count(r.Stderr, "\n"), "one line: %q", r.Stderr)
	}
	assert.Empty(t, failLines(r.Stdout))
}

func TestThreadProgramsAgainstQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"threads", "threads-dyn"} {
		for _, p := range threadPrograms {
			t.Run(variant+"/"+p.name, func(t *testing.T) {
				prog := threadProgram(t, variant, p.name)
				q := runProcess(t, "", []string{}, qemu, "-L", sysroot, prog)
				require.Equal(t, p.status, q.Status, "qemu: %s", q.Stderr)
				r, n := runCounted(t, rvsim, prog)
				checkThreadRun(t, r, p.status, p.stderr)
				assert.Equal(t, q.Stdout, r.Stdout)

				// The same run again: the same count.
				r2, n2 := runCounted(t, rvsim, prog)
				assert.Equal(t, r.Stdout, r2.Stdout)
				assert.Equal(t, n, n2, "instruction count of a second run")

				// Timing mode: the same output and count.
				rt, nt := runCounted(t, rvsim, "--mode", "timing", prog)
				checkThreadRun(t, rt, p.status, p.stderr)
				assert.Equal(t, r.Stdout, rt.Stdout)
				assert.Equal(t, n, nt, "instruction count in timing mode")

				// Another quantum: another interleaving, the same output.
				rq := runProcess(t, "", []string{}, rvsim, "run", "--quantum", "337", prog)
				checkThreadRun(t, rq, p.status, p.stderr)
				assert.Equal(t, r.Stdout, rq.Stdout)
			})
		}
	}
}

// TestThreadProgramsUnderDifftest runs the static thread programs in
// lock-step with Unicorn: each context switch loads the next thread's
// registers into the oracle.
func TestThreadProgramsUnderDifftest(t *testing.T) {
	rvsim := rvsimBinary(t)
	needOracleLib(t)
	for _, p := range threadPrograms {
		t.Run(p.name, func(t *testing.T) {
			prog := threadProgram(t, "threads", p.name)
			plain := runProcess(t, "", []string{}, rvsim, "run", prog)
			d := runProcess(t, "", []string{}, rvsim, "run", "--difftest", prog)
			assert.Contains(t, d.Stderr, "no divergence", "difftest's report")
			assert.Equal(t, plain.Status, d.Status)
			assert.Equal(t, plain.Stdout, d.Stdout)
		})
	}
}

// TestThreadDeadlock: two threads that wait for each other end the run
// with a one-line error naming what each waits for (Linux would hang).
func TestThreadDeadlock(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"threads", "threads-dyn"} {
		prog := threadProgram(t, variant, "deadlock")
		r := runProcess(t, "", []string{}, rvsim, "run", prog)
		assert.Equal(t, 1, r.Status)
		assert.Equal(t, "both hold a lock\n", r.Stdout)
		assert.Regexp(t, `^rvsim: deadlock: every thread is blocked forever \(thread 1000 in futex wait on 0x[0-9a-f]+, thread 1001 in futex wait on 0x[0-9a-f]+\)\n$`, r.Stderr)
	}
}

// TestQuantumFlag: a quantum below the minimum is a one-line usage error.
func TestQuantumFlag(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := threadProgram(t, "threads", "basic")
	r := runProcess(t, "", []string{}, rvsim, "run", "--quantum", "5", prog)
	assert.Equal(t, 2, r.Status)
	assert.Equal(t, "rvsim: --quantum 5: want at least 100 (a switch breaks an LR/SC pair, so a shorter quantum may never let one complete)\n", r.Stderr)
}
