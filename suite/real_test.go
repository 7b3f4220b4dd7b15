package suite

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realSuite returns the real suite of this checkout, or skips (fails
// under RVSIM_REQUIRE_ARTIFACTS) when the root or its generated inputs
// are missing.
func realSuite(t *testing.T, repo string) []Benchmark {
	t.Helper()
	s, err := Real(repo)
	require.NoError(t, err)
	require.NotEmpty(t, s.Benchmarks)
	for _, b := range s.Benchmarks {
		if !b.Built() {
			missing(t, "%s: %s is not in the root: run 'make setup'", b.Name, b.ExePath)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "build", "real", "corpus-test.txt.xz")); err != nil {
		missing(t, "the real suite's inputs are not generated: run 'make real-inputs'")
	}
	return s.Benchmarks
}

// Every workload of the real suite passes its test input under rvsim:
// the output is qemu-riscv64's (an expected file, or check.sh's SHA-256
// and, for a compressor, the round trip through the root's decompressor
// under qemu-riscv64). The test inputs stay small: under 100M
// instructions, but for cc1, whose start-up alone is 148M.
func TestRealSuiteTestInputs(t *testing.T) {
	bs := realSuite(t, "..")
	names := map[string]bool{}
	for _, b := range bs {
		names[b.Name] = true
		in, err := b.Input("test")
		require.NoError(t, err, b.Name)
		o := Run(b, in, Options{})
		assert.True(t, o.Pass, "%s: %s (stderr %q)", b.Name, o.Why, o.Stderr)
		limit := uint64(100e6)
		if b.Name == "cc1" {
			limit = 300e6
		}
		assert.Less(t, o.Result.Instructions, limit, "%s: too long for a test input (python3: run 'make real-inputs' for the root's .pyc files)", b.Name)
		t.Logf("%-13s %11d instructions %6.1f MIPS", b.Name, o.Result.Instructions, o.Result.MIPS())
	}
	for _, n := range []string{"python3-oo", "python3-text", "sqlite3", "cc1", "xz", "xz-d", "bzip2", "zstd", "lua5.4"} {
		assert.True(t, names[n], "workload %s", n)
	}
}

// A wrong output fails: check.sh refuses a compressor's output whose
// SHA-256 is not qemu's, and a script's output that differs is named.
func TestRealSuiteCatchesWrongOutput(t *testing.T) {
	bs := realSuite(t, "..")
	all, err := Select(bs, []string{"xz", "lua5.4"})
	require.NoError(t, err)
	xz, lua := all[0], all[1]
	in, err := xz.Input("test")
	require.NoError(t, err)
	in.Args = []string{"-T1", "-5", "-c"} // a different level: a valid stream, but not qemu's bytes
	o := Run(xz, in, Options{})
	assert.False(t, o.Pass)
	assert.Contains(t, o.Why, "check failed: xz.test: output's sha256")
	in, err = lua.Input("test")
	require.NoError(t, err)
	in.Args = []string{"bench.lua", "1"}
	o = Run(lua, in, Options{})
	assert.False(t, o.Pass)
	assert.Contains(t, o.Why, "line 1: want")
}

// Counts do not depend on where the checkout is: argv[0] is the
// program's path inside the root and the run directory's name is fixed,
// so the same input run from a checkout reached by a longer path retires
// the same instructions.
func TestRealSuiteCountsIndependentOfCheckout(t *testing.T) {
	bs := realSuite(t, "..")
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	other := filepath.Join(t.TempDir(), "a-checkout-reached-by-a-much-longer-path")
	require.NoError(t, os.Symlink(repo, other))
	s, err := Real(other)
	require.NoError(t, err)
	var counts []uint64
	for _, list := range [][]Benchmark{bs, s.Benchmarks} {
		sel, err := Select(list, []string{"lua5.4"})
		require.NoError(t, err)
		in, err := sel[0].Input("test")
		require.NoError(t, err)
		o := Run(sel[0], in, Options{})
		require.True(t, o.Pass, o.Why)
		counts = append(counts, o.Result.Instructions)
	}
	assert.Equal(t, counts[0], counts[1])
}

// The real suite is selectable by name and by its file's path, with the
// same workloads either way.
func TestRealSuiteByNameAndPath(t *testing.T) {
	byName, err := Named("real", "", "", "..")
	require.NoError(t, err)
	byPath, err := Named(filepath.Join("..", "suite", "real.toml"), "", "", "..")
	require.NoError(t, err)
	require.Equal(t, len(byName), len(byPath))
	for i := range byName {
		assert.Equal(t, byName[i].Name, byPath[i].Name)
		assert.Equal(t, byName[i].Root, byPath[i].Root)
		assert.Equal(t, byName[i].ExePath, byPath[i].ExePath)
		assert.Equal(t, byName[i].Inputs(), []string{"ref", "test"}, byName[i].Name)
	}
}

// Runs of one input one after the other get the same run directory; a
// run beside another gets the next name, as long, and a warning; a
// directory left by a killed run is taken over; one of unknown origin
// (no lock file) is left alone.
func TestGuestRunDir(t *testing.T) {
	parent := t.TempDir()
	const prefix = "rvsim-run-w-test-"
	var warn bytes.Buffer
	a, la, err := guestRunDir(parent, prefix, &warn)
	require.NoError(t, err)
	assert.Empty(t, warn.String())
	b, lb, err := guestRunDir(parent, prefix, &warn)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(parent, prefix+"0"), a)
	assert.Equal(t, filepath.Join(parent, prefix+"1"), b)
	assert.Contains(t, warn.String(), "another run of this input is using "+prefix+"0")
	require.NoError(t, os.Remove(a))
	unlockRunDir(la)
	c, lc, err := guestRunDir(parent, prefix, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, a, c, "after Close")

	// A killed run: its lock is released by the kernel, its files stay.
	require.NoError(t, os.WriteFile(filepath.Join(c, "left"), []byte("x"), 0o644))
	lc.Close()
	d, ld, err := guestRunDir(parent, prefix, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, a, d, "a leftover is taken over")
	assert.NoFileExists(t, filepath.Join(d, "left"), "emptied")
	unlockRunDir(ld)
	unlockRunDir(lb)
	require.NoError(t, os.Remove(b))

	// A directory without a lock file may belong to a run of older code.
	e, le, err := guestRunDir(parent, prefix, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(parent, prefix+"1"), e, prefix+"0 is still there")
	unlockRunDir(le)

	_, _, err = guestRunDir(filepath.Join(parent, "missing"), "x-", io.Discard)
	assert.Error(t, err)
}

// loadHash folds every load's PC and value into a hash.
type loadHash struct{ h, n uint64 }

func (l *loadHash) Retire(batch []cpu.DynInst) {
	for i := range batch {
		if d := &batch[i]; d.Inst.Class == isa.Load {
			l.h = (l.h^d.PC)*0x100000001b3 ^ d.Result
			l.n++
		}
	}
}

// Two runs of a program load the same values, not only retire the same
// instructions. python3 and sqlite3 load values of their files' metadata
// (python3 stats its script and run directory, sqlite3 keys its locks by
// inode): the host's inode numbers, change and access times differed
// from run to run until the kernel gave the guest its own
// (syscalls/ident.go).
func TestRealSuiteLoadValuesRepeat(t *testing.T) {
	bs := realSuite(t, "..")
	sel, err := Select(bs, []string{"lua5.4", "python3-text", "sqlite3"})
	require.NoError(t, err)
	for _, b := range sel {
		in, err := b.Input("test")
		require.NoError(t, err)
		var hs []loadHash
		for range 2 {
			lh := &loadHash{}
			o := Run(b, in, Options{Observers: func() []cpu.Observer { return []cpu.Observer{lh} }})
			require.True(t, o.Pass, o.Why)
			hs = append(hs, *lh)
		}
		assert.NotZero(t, hs[0].n, b.Name)
		assert.Equal(t, hs[0], hs[1], b.Name)
	}
}
