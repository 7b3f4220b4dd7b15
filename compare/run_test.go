package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

// built skips the test unless the benchmarks and handler runtime are
// built (fails it under RVSIM_REQUIRE_ARTIFACTS=1).
func built(t *testing.T) SuiteSpec {
	t.Helper()
	for _, p := range []string{"../build/benchmarks/lz", "../build/handlers/rvsim-handlers.elf"} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
				t.Fatalf("%s is not built: run make (RVSIM_REQUIRE_ARTIFACTS=1)", p)
			}
			t.Skipf("%s is not built: run make", p)
		}
	}
	return SuiteSpec{Src: "../benchmarks", Bin: "../build/benchmarks"}
}

const handlers = "../build/handlers/rvsim-handlers.elf"

func profilers(t *testing.T, names ...string) []Profiler {
	ps, err := ResolveProfilers(names, "../acf", "", defaultDISE())
	require.NoError(t, err)
	return ps
}

// On a program, the cost column is the profiled run's cycles minus the
// unprofiled run's, each measured here by a run of its own.
func TestCostIsCycleDifference(t *testing.T) {
	ss := built(t)
	m, err := config.Preset("hps")
	require.NoError(t, err)
	const limit = 200000
	cycles := func(units []*profhw.UnitConfig) uint64 {
		res, _ := direct(t, ss, m, limit, units)
		return res.Cycles
	}
	units, err := profhw.LoadPreset("path-bl")
	require.NoError(t, err)
	want := int64(cycles(units)) - int64(cycles(nil))

	opt := Options{Spec: Spec{Profilers: profilers(t, "path-bl"), Suite: ss, Benchmarks: []string{"lz"}, Input: "test",
		Timing: true, Machine: config.Format(m), MachineName: "hps", MaxInsts: limit, Handlers: handlers}, Jobs: 2,
		CacheDir: t.TempDir(), Version: "test"}
	res, err := Compare(opt)
	require.NoError(t, err)
	require.Empty(t, res.Failed())
	got, ok := res.CostCycles("lz", "path-bl")
	require.True(t, ok)
	assert.Equal(t, want, got)
	assert.NotZero(t, got, "the path profiler's commit stalls cost cycles")
	run := res.Runs["lz"]["path-bl"]
	assert.NotZero(t, run.StallRequested)
	assert.LessOrEqual(t, run.StallCycles, run.StallRequested, "a stall costs at most what it asked for")

	// A timing cell's cache key is stable: the rerun comes from the cache.
	before := cellsRun.Load()
	again, err := Compare(opt)
	require.NoError(t, err)
	assert.Equal(t, before, cellsRun.Load())
	c, _ := again.CostCycles("lz", "path-bl")
	assert.Equal(t, want, c)
}

// direct runs lz's test input here, without compare: the independent
// measurement (m nil: functional mode).
func direct(t *testing.T, ss SuiteSpec, m *config.Machine, limit uint64, units []*profhw.UnitConfig) (sim.Result, *sim.Machine) {
	return directRun(t, ss, m, func(cfg *sim.Config) { cfg.MaxInsts, cfg.ProfHW = limit, units })
}

// directRun runs lz's test input as the suite configures it, with setup
// applied to its configuration (m nil: functional mode).
func directRun(t *testing.T, ss SuiteSpec, m *config.Machine, setup func(*sim.Config)) (sim.Result, *sim.Machine) {
	t.Helper()
	all, err := suite.Builtin(ss.Src, ss.Bin)
	require.NoError(t, err)
	bs, err := suite.Select(all, []string{"lz"})
	require.NoError(t, err)
	in, err := bs[0].Input("test")
	require.NoError(t, err)
	prep, err := suite.Prepare(bs[0], in)
	require.NoError(t, err)
	defer prep.Close()
	var out, errb bytes.Buffer
	cfg := prep.Config(&out, &errb)
	setup(&cfg)
	if m != nil {
		cfg.Timing = m
	}
	mc, err := sim.Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.NoError(t, res.TimingErr)
	return res, mc
}

func defaultDISE() dise.Config { return dise.DefaultConfig() }

// Storage by one rule: a unit's own tables (its summary's storage_bits)
// plus, for tuple units, the queue from commit at 136 bits a tuple; the
// path unit's count has its queue already; exact units have none.
func TestStorageRule(t *testing.T) {
	ss := built(t)
	const limit = 100000
	summary := func(preset string) uint64 {
		units, err := profhw.LoadPreset(preset)
		require.NoError(t, err)
		_, mc := direct(t, ss, nil, limit, units)
		return mc.ProfHW().Summaries()[0].StorageBits
	}
	opt := Options{Spec: Spec{Profilers: profilers(t, "stratified-value", "multihash-value", "path-bl", "exact-value"), Suite: ss,
		Benchmarks: []string{"lz"}, Input: "test", MaxInsts: limit}, Jobs: 2}
	res, err := Compare(opt)
	require.NoError(t, err)
	require.Empty(t, res.Failed())
	bits := func(p string) *uint64 { return res.Runs["lz"][p].StorageBits }
	require.NotNil(t, bits("stratified-value"))
	assert.Equal(t, summary("stratified-value")+8*136, *bits("stratified-value"), "queue.size = 8")
	assert.Equal(t, summary("multihash-value")+16*136, *bits("multihash-value"), "queue.size = 16")
	// The path unit: 32 stack entries, a 512-entry HPT of 135-bit entries, 4 queue entries of 129 bits.
	assert.Equal(t, summary("path-bl"), *bits("path-bl"))
	assert.Greater(t, *bits("path-bl"), uint64(512*135+4*129))
	assert.Nil(t, bits("exact-value"), "a reference is not hardware")
	// The exact unit against itself: no error, full recall.
	for _, m := range []string{metrics.Invariance, metrics.FormulaOne} {
		v, ok := res.Runs["lz"]["exact-value"].Score(m)
		require.True(t, ok, m)
		assert.Zero(t, v, m)
	}
	v, _ := res.Runs["lz"]["exact-value"].Score(metrics.TopK)
	assert.Equal(t, 100.0, v)
	// Convergence: the multi-hash net error after the last interval is the
	// unit's own error; the stratified curve is its invariance error.
	units, err := profhw.LoadPreset("multihash-value")
	require.NoError(t, err)
	_, mc := direct(t, ss, nil, limit, units)
	mh := res.Runs["lz"]["multihash-value"]
	require.NotEmpty(t, mh.Convergence)
	assert.InDelta(t, mc.ProfHW().Summaries()[0].ErrorPercent, mh.Convergence[len(mh.Convergence)-1].ErrorPercent, 1e-9)
	assert.Contains(t, mh.ConvergenceMetric, "formula (1)")
	assert.Equal(t, metrics.Invariance, res.Runs["lz"]["stratified-value"].ConvergenceMetric)
	// Functional mode: no cycles anywhere.
	assert.Zero(t, res.Runs["lz"]["path-bl"].Cycles)
	_, ok := res.CostCycles("lz", "path-bl")
	assert.False(t, ok)
}

// The cache reruns only the cells whose inputs changed.
func TestCacheRerunsOnlyChangedCells(t *testing.T) {
	ss := built(t)
	dir := t.TempDir()
	ps := profilers(t, "stratified-value", "path-bl", "call-pair-hps-event")
	opt := Options{Spec: Spec{Profilers: ps, Suite: ss, Benchmarks: []string{"lz", "nbody"}, Input: "test", MaxInsts: 100000,
		Handlers: handlers}, Jobs: 2, CacheDir: dir, Version: "test"}
	ran := func() (*Results, int64) {
		before := cellsRun.Load()
		res, err := Compare(opt)
		require.NoError(t, err)
		require.Empty(t, res.Failed())
		return res, cellsRun.Load() - before
	}
	first, n := ran()
	assert.Equal(t, int64(8), n, "2 programs × (baseline + 3 profilers)")
	second, n := ran()
	assert.Zero(t, n, "everything from the cache")
	var a, b bytes.Buffer
	require.NoError(t, first.WriteCSV(&a))
	require.NoError(t, second.WriteCSV(&b))
	assert.Equal(t, a.String(), b.String(), "cached cells give the same tables")

	// Change one profiler: only its two cells rerun.
	opt.Profilers = append([]Profiler(nil), ps...)
	opt.Profilers[1].Settings = []string{"hpt.entries=128"}
	third, n := ran()
	assert.Equal(t, int64(2), n)
	assert.Less(t, *third.Runs["lz"]["path-bl"].StorageBits, *first.Runs["lz"]["path-bl"].StorageBits, "a smaller HPT")
	// Another version of the simulator reruns everything; so does --no-cache.
	opt.Version = "other"
	_, n = ran()
	assert.Equal(t, int64(8), n)
	opt.NoCache = true
	_, n = ran()
	assert.Equal(t, int64(8), n)
}

// Slurm: emit, run each cell as a task would (--cell N), merge: the
// tables equal a local run's byte for byte apart from the provenance line.
func TestSlurmRoundTrip(t *testing.T) {
	ss := built(t)
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := Spec{Profilers: profilers(t, "stratified-value", "path-bl", "call-pair-hps-event"), Suite: ss,
		Benchmarks: []string{"lz", "nbody"}, Input: "test", MaxInsts: 100000, Handlers: handlers, Command: "rvsim compare (local)"}
	sw, err := ParseSweep("hpt.entries=128,512", spec.Profilers, false)
	require.NoError(t, err)
	spec.Sweep = sw
	m, err := EmitSlurm(&spec, dir, "rvsim")
	require.NoError(t, err)
	require.Len(t, m.Cells, 2*5)
	script, err := os.ReadFile(filepath.Join(dir, "job.sbatch"))
	require.NoError(t, err)
	assert.Contains(t, string(script), "#SBATCH --array=0-9\n")
	assert.Contains(t, string(script), `compare --cell "$SLURM_ARRAY_TASK_ID" `)

	_, err = Merge(dir, "rvsim compare --merge")
	require.ErrorContains(t, err, "cells 0, 1, 2")
	for i := range m.Cells {
		_, err := RunCell(dir, i)
		require.NoError(t, err)
	}
	_, err = RunCell(dir, 10)
	require.ErrorContains(t, err, "has cells 0 to 9")
	merged, err := Merge(dir, "rvsim compare --merge "+dir)
	require.NoError(t, err)
	local, err := Compare(Options{Spec: spec, Jobs: 2})
	require.NoError(t, err)
	require.Empty(t, local.Failed())

	for _, w := range []func(*Results, *bytes.Buffer){
		func(r *Results, b *bytes.Buffer) { r.WriteText(b) },
		func(r *Results, b *bytes.Buffer) { r.WriteMarkdown(b) },
		func(r *Results, b *bytes.Buffer) { require.NoError(t, r.WriteCSV(b)) },
		func(r *Results, b *bytes.Buffer) { require.NoError(t, r.WriteJSON(b)) },
	} {
		var a, b bytes.Buffer
		w(local, &a)
		w(merged, &b)
		la, lb := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
		require.Equal(t, len(la), len(lb))
		differ := 0
		for i := range la {
			if la[i] != lb[i] {
				differ++
				assert.Contains(t, la[i], "rvsim compare (local)", "only the provenance line differs")
				assert.Contains(t, lb[i], "merged by: rvsim compare --merge")
			}
		}
		assert.LessOrEqual(t, differ, 1)
	}
	assert.Contains(t, merged.Runs["lz"], "path-bl [hpt.entries=128]")

	// The report (index.html and every figure) is the same byte for byte.
	localDir, mergedDir := filepath.Join(t.TempDir(), "local"), filepath.Join(t.TempDir(), "merged")
	lf, err := local.WriteReport(localDir)
	require.NoError(t, err)
	mf, err := merged.WriteReport(mergedDir)
	require.NoError(t, err)
	require.Equal(t, lf, mf)
	assert.Contains(t, lf, "index.html")
	assert.Contains(t, lf, "plots/overhead-per-program.png")
	for _, f := range lf {
		a, err := os.ReadFile(filepath.Join(localDir, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(mergedDir, f))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "%s differs between the local run and the merge", f)
	}
}
