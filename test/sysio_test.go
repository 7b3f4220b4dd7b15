package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSysioMatchesQemu runs test/programs/sysio (file times and owners,
// poll/select, statfs, flock, links, memory locking, priorities, process
// groups, wait, copies, fallocate, membarrier, close_range, memfd,
// eventfd, pipes) under rvsim and qemu-riscv64 in scratch directories:
// the same output, no FAIL line, exit status 0, and the scratch directory
// removed.
func TestSysioMatchesQemu(t *testing.T) {
	prog := filepath.Join(testprogs, "sysio", "sysio")
	needFile(t, prog, "make testprogs")
	qemu := needQemu(t)
	rvsim := rvsimBinary(t)

	rd, qd := t.TempDir(), t.TempDir()
	r := runProcess(t, rd, []string{}, rvsim, "run", prog)
	q := runProcess(t, qd, []string{}, qemu, prog)
	assert.Equal(t, 0, r.Status, "rvsim's stderr: %s", r.Stderr)
	assert.Equal(t, 0, q.Status)
	assert.Empty(t, failLines(r.Stdout), "rvsim's output:\n%s", r.Stdout)
	assert.Greater(t, strings.Count(r.Stdout, "ok   "), 150)
	assert.Equal(t, q.Stdout, r.Stdout)
	assert.Empty(t, r.Stderr, "no warnings: every call is implemented")
	ents, err := os.ReadDir(rd)
	assert.NoError(t, err)
	assert.Empty(t, ents, "the program cleaned up")
}

// TestSysioUnderDifftest: the same program in lock-step with Unicorn (429
// system calls whose results and writes are mirrored).
func TestSysioUnderDifftest(t *testing.T) {
	prog := filepath.Join(testprogs, "sysio", "sysio")
	needFile(t, prog, "make testprogs")
	needOracleLib(t)
	r := runProcess(t, t.TempDir(), []string{}, rvsimBinary(t), "run", "--difftest", prog)
	assert.Equal(t, 0, r.Status, r.Stderr)
	assert.Contains(t, r.Stderr, "no divergence")
	assert.Empty(t, failLines(r.Stdout))
}
