package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rvsim/rvsim/suite"

	"github.com/stretchr/testify/require"
)

// The cells against hand computations: the mean and range over seeds,
// the median of events with "never" above every count.
func TestCells(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		desc string
		got  string
		want string
	}{
		{"mean and range", cell([]float64{1, 2, 4.5}, 2), "2.50 [1.00–4.50]"},
		{"seeds agree", cell([]float64{3, 3, 3}, 1), "3.0"},
		{"a seed without an answer", cell([]float64{1, nan}, 2), "–"},
		{"median of five", eventsCell([]float64{50e3, 150e3, 100e3, 1.2e6, 200e3}), "150K [50K–1.20M]"},
		{"never counts above", eventsCell([]float64{nan, 50e3, nan}), "never [50K–never]"},
		{"median of four", eventsCell([]float64{100e3, 200e3, 300e3, 400e3}), "250K [100K–400K]"},
		{"all never", eventsCell([]float64{nan, nan}), "never"},
	} {
		t.Run(tc.desc, func(t *testing.T) { require.Equal(t, tc.want, tc.got) })
	}
	require.InDelta(t, 1.0, correlation([]float64{1, 2, 3}, []float64{2, 4, 6}), 1e-12)
	require.InDelta(t, -1.0, correlation([]float64{1, 2, 3}, []float64{3, 2, 1}), 1e-12)
}

// Every seed's units on one functional run give each seed the files a run
// of its own writes, byte for byte (the units are independent hardware on
// the same retired stream; the seed suffix of their names is gone from
// the files and summaries), and the seeds do differ.
func TestSeedsTogether(t *testing.T) {
	bs, err := suite.Builtin(filepath.Join("..", "..", "benchmarks"), filepath.Join("..", "..", "build", "benchmarks"))
	require.NoError(t, err)
	bs, err = suite.Select(bs, []string{"lz"})
	require.NoError(t, err)
	if !bs[0].Built() {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built: run 'make benchmarks'", bs[0].Binary)
		}
		t.Skipf("%s is not built (run 'make benchmarks'; RVSIM_REQUIRE_ARTIFACTS=1 makes this a failure)", bs[0].Binary)
	}
	saved := []any{functional, core, sweep, maxInsts}
	defer func() {
		functional, core, sweep, maxInsts = saved[0].(bool), saved[1].(bool), saved[2].(bool), saved[3].(uint64)
	}()
	functional, core, sweep, maxInsts = true, false, false, 300_000
	dir := t.TempDir()
	at := func(run string) func(uint64) string {
		return func(seed uint64) string { return filepath.Join(dir, run, fmt.Sprint(seed)) }
	}
	together := runSeeds(bs[0], "test", 20_000, []uint64{1, 2}, at("together"))
	require.Len(t, together, 2)
	for i, seed := range []uint64{1, 2} {
		alone := runSeeds(bs[0], "test", 20_000, []uint64{seed}, at("alone"))
		require.NoError(t, alone[0].err)
		require.NoError(t, together[i].err)
		require.Equal(t, seed, together[i].seed)
		files, err := os.ReadDir(at("alone")(seed))
		require.NoError(t, err)
		got, err := os.ReadDir(at("together")(seed))
		require.NoError(t, err)
		require.Equal(t, len(files), len(got))
		require.Greater(t, len(files), 30) // 11 units, 3 or 4 files each
		for _, f := range files {
			want, err := os.ReadFile(filepath.Join(at("alone")(seed), f.Name()))
			require.NoError(t, err)
			have, err := os.ReadFile(filepath.Join(at("together")(seed), f.Name()))
			require.NoError(t, err, f.Name())
			require.True(t, bytes.Equal(want, have), "seed %d: %s differs from its own run's", seed, f.Name())
		}
		for u, s := range alone[0].sums {
			require.Equal(t, s.Messages, together[i].sums[u].Messages, u)
			require.Equal(t, s.ErrorPercent, together[i].sums[u].ErrorPercent, u)
		}
	}
	r := name("R256")
	require.NotEqual(t, together[0].sums[r].ErrorPercent, together[1].sums[r].ErrorPercent, "the seeds' random samplers should differ")
}

// The convergence curve's spacing after thinning (hand computed): 50K
// events per point up to 64 points, then doubled while they outnumber 64.
func TestSpacing(t *testing.T) {
	require.Equal(t, uint64(50_000), spacing(3_200_000, 50_000))   // 64 points
	require.Equal(t, uint64(100_000), spacing(3_250_000, 50_000))  // 65 at 50K: 32 at 100K
	require.Equal(t, uint64(100_000), spacing(4_977_636, 50_000))  // a cc1 run's csv: 49 points at 100K
	require.Equal(t, uint64(800_000), spacing(51_200_000, 50_000)) // 64 at 800K
}
