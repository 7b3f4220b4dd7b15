package compare

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/pipeline"
)

func f64(v float64) *float64 { return &v }
func pu64(v uint64) *uint64  { return &v }

// results is a small timing-mode comparison built from cells, as Compare
// and Merge build theirs: programs a and b; an HPS and a DISE ACF
// profiler (code region) and a stratified preset (value).
func results() *Results {
	s := &Spec{Timing: true, MachineName: "hps", Input: "test", Benchmarks: []string{"a", "b"}, Command: "rvsim compare (test)",
		Profilers: []Profiler{
			{Name: "p-hps", Source: SourceACF, Type: "code region"},
			{Name: "p-dise", Source: SourceACF, Type: "code region"},
			{Name: "strat", Source: SourcePreset, Type: "value"},
		}}
	cells := s.Cells()
	runs := make([]*Run, len(cells))
	for i, c := range cells {
		r := &Run{Benchmark: c.Benchmark, Profiler: Baseline, Label: c.Label(), Type: "-", Source: "-", Pass: true, Output: OutputSame}
		if c.Profiler != nil {
			r.Profiler, r.Type, r.Source = c.Profiler.Name, c.Profiler.Type, c.Profiler.Source
		}
		runs[i] = r
	}
	set := func(b, label string, cycles uint64, f func(*Run)) {
		for i, c := range cells {
			if c.Benchmark == b && c.Label() == label {
				runs[i].Cycles, runs[i].Instructions = cycles, cycles/2
				if f != nil {
					f(runs[i])
				}
			}
		}
	}
	region := func(v float64) func(*Run) {
		return func(r *Run) {
			r.HandlerInstructions = 700
			r.Scores = []Score{{Metric: metrics.RegionMetric, Value: f64(v)}, {Metric: metrics.HotMetric, Why: "none"}}
		}
	}
	strat := func(inv float64, delivery uint64) func(*Run) {
		return func(r *Run) {
			r.Messages, r.Interrupts, r.StorageBits, r.DeliveryAnalytic = 300, 3, pu64(17472), pu64(delivery)
			r.StallCycles, r.StallRequested = 7, 40
			r.Scores = []Score{{Metric: metrics.Invariance, Value: f64(inv)}, {Metric: metrics.FormulaOne, Value: f64(2 * inv)},
				{Metric: metrics.TopK, Why: "empty exact profile"}}
			r.Convergence, r.ConvergenceMetric = []ConvPoint{{Events: 100, ErrorPercent: 9}, {Events: 200, ErrorPercent: inv}}, metrics.Invariance
		}
	}
	set("a", Baseline, 1000, nil)
	set("a", "p-hps", 1010, region(4))
	set("a", "p-dise", 1200, region(4))
	set("a", "strat", 1000, strat(1.5, 9000))
	set("b", Baseline, 2000, nil)
	set("b", "p-hps", 1960, region(6))
	set("b", "p-dise", 9999, func(r *Run) { r.Pass, r.Why, r.Output = false, "broken", "" })
	set("b", "strat", 2100, strat(2.5, 18000))
	return build(s, cells, runs)
}

func TestOverheadAndMeans(t *testing.T) {
	r := results()
	o, ok := r.Overhead("a", "p-dise")
	require.True(t, ok)
	assert.InDelta(t, 20.0, o, 1e-9)
	_, ok = r.Overhead("b", "p-dise")
	assert.False(t, ok, "a failed run has no overhead")
	c, ok := r.CostCycles("b", "p-hps")
	require.True(t, ok)
	assert.Equal(t, int64(-40), c, "profiling can make a run shorter")
	// Geometric mean of 1010/1000 and 1960/2000, minus 1.
	m, n := r.Mean("p-hps")
	assert.Equal(t, 2, n)
	assert.InDelta(t, 100*(math.Sqrt(1.01*0.98)-1), m, 1e-9)
	m, n = r.Mean("p-dise")
	assert.Equal(t, 1, n)
	assert.InDelta(t, 20.0, m, 1e-9)
	// strat: (1000 + 9000) / 1000 and (2100 + 18000) / 2000.
	m, n = r.MeanTotal("strat")
	assert.Equal(t, 2, n)
	assert.InDelta(t, 100*(math.Sqrt(10*10.05)-1), m, 1e-9)
	v, n := r.MeanScore("strat", metrics.Invariance)
	assert.Equal(t, 2, n)
	assert.InDelta(t, 2.0, v, 1e-12)
	_, n = r.MeanScore("strat", metrics.TopK)
	assert.Zero(t, n, "no value, no mean")
	require.Len(t, r.Failed(), 1)
	assert.Equal(t, "p-dise", r.Failed()[0].Profiler)
	// Rows: the baseline, then value before code region.
	var labels []string
	for _, row := range r.Rows {
		labels = append(labels, row.Label)
	}
	assert.Equal(t, []string{Baseline, "strat", "p-hps", "p-dise"}, labels)
	assert.Equal(t, []string{metrics.Invariance, metrics.FormulaOne, metrics.TopK, metrics.RegionMetric, metrics.HotMetric}, r.Metrics())
}

func TestReports(t *testing.T) {
	r := results()
	var text bytes.Buffer
	r.WriteText(&text)
	out := text.String()
	assert.Contains(t, out, "command: rvsim compare (test)")
	assert.Contains(t, out, "timing mode, machine hps")
	assert.Contains(t, out, "FAIL b/p-dise: broken")
	assert.Contains(t, out, colTotal)
	// b/strat: cost 100 cycles, 18000 analytic, 18100 in all.
	assert.Regexp(t, `strat\s+value\s+2100\s+5\.00%\s+100\s+18000\s+18100\s+7\s+40\s+2\.50\s+5\.00\s+-\s+n/a\s+n/a\s+17472\s+300\s+3\s+-\s+unchanged`, out)

	// Functional mode says it has no cycles.
	r.Spec.Timing = false
	text.Reset()
	r.WriteText(&text)
	assert.Contains(t, text.String(), "no cycles and no cycle overhead")
	assert.Contains(t, text.String(), "mean extra instructions")
	assert.NotContains(t, text.String(), "cost cycles")
}

func TestCSVColumns(t *testing.T) {
	r := results()
	var c bytes.Buffer
	require.NoError(t, r.WriteCSV(&c))
	rows, err := csv.NewReader(&c).ReadAll()
	require.NoError(t, err, "every row has every column")
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	require.Len(t, rows, 9)
	strat := rows[2] // a/strat
	assert.Equal(t, "strat", strat[col["profiler"]])
	assert.Equal(t, "0", strat[col["cost_cycles"]])
	assert.Equal(t, "9000", strat[col["total_cost_cycles"]])
	assert.Equal(t, "1.5000", strat[col[metrics.Invariance]])
	assert.Equal(t, "", strat[col[metrics.TopK]], "no value: empty")
	assert.Equal(t, "", rows[8][col["overhead_pct"]], "failed: no overhead")
	assert.Equal(t, "false", rows[8][col["pass"]])
}

// The cycle accounting: each CPI-stack bucket's extra cycles in percent of
// the baseline's, averaged over the programs; they sum to the overhead.
func TestExtra(t *testing.T) {
	r := results()
	bd := func(commit, frontend, taken uint64) *pipeline.Breakdown {
		return &pipeline.Breakdown{CPI: map[string]uint64{"commit": commit, "frontend": frontend}, DISETakenBranches: taken}
	}
	r.Runs["a"][Baseline].Breakdown = bd(900, 100, 0)
	r.Runs["a"]["p-dise"].Breakdown = bd(950, 250, 30) // +5% commit, +15% frontend: the 20% overhead
	r.Runs["a"]["p-dise"].AppInstructions = 600
	r.Runs["b"][Baseline].Breakdown = bd(1900, 100, 0)
	r.Runs["b"]["p-dise"].Breakdown = bd(5000, 4999, 0) // failed: not counted
	x, n := r.Extra("p-dise")
	require.Equal(t, 1, n)
	assert.InDelta(t, 5.0, x["commit"], 1e-9)
	assert.InDelta(t, 15.0, x["frontend"], 1e-9)
	assert.InDelta(t, 50.0, x["taken DISE branches"], 1e-9, "30 per 600 application instructions")
	_, n = r.Extra("p-hps")
	assert.Zero(t, n, "no accounting, no programs")
	var text bytes.Buffer
	r.WriteText(&text)
	assert.Regexp(t, `p-dise\s+20\.00%\s+5\.00%`, text.String())
}

func TestResolveProfilers(t *testing.T) {
	dir := filepath.Join("..", "acf")
	cfg := dise.DefaultConfig()
	toml := filepath.Join(t.TempDir(), "my-paths.toml")
	text, err := os.ReadFile(filepath.Join("..", "profhw", "presets", "path-bl.toml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(toml, text, 0o644))
	ps, err := ResolveProfilers([]string{"call-pair", "call-pair-hps", "hps-triggers+hot-method", "stratified-value",
		"multihash-edge", "stratified-edge-call", toml, "phase-tracker"}, dir, "periodic:100:1", cfg)
	require.NoError(t, err)
	require.Len(t, ps, 8)
	assert.Equal(t, "", ps[0].Trigger, "exhaustive: no trigger")
	assert.Equal(t, "periodic:100:1", ps[1].Trigger)
	assert.Equal(t, []string{filepath.Join(dir, "hps-triggers.acf"), filepath.Join(dir, "hot-method.acf")}, ps[2].ACF)
	var got [][3]string
	for _, p := range ps {
		got = append(got, [3]string{p.Name, p.Source, p.Type})
	}
	assert.Equal(t, [][3]string{
		{"call-pair", SourceACF, "call pair"}, {"call-pair-hps", SourceACF, "call pair"}, {"hps-triggers+hot-method", SourceACF, "method"},
		{"stratified-value", SourcePreset, "value"}, {"multihash-edge", SourcePreset, "edge"}, {"stratified-edge-call", SourcePreset, "edge"},
		{"my-paths", SourceFile, "path"}, {"phase-tracker", SourcePreset, "phase"},
	}, got)

	for _, tc := range []struct {
		desc    string
		names   []string
		trigger string
		err     string
	}{
		{"unknown", []string{"nope"}, "", "no ACF " + filepath.Join(dir, "nope.acf")},
		{"baseline", []string{"none"}, "", "always included"},
		{"twice", []string{"call-pair", "call-pair"}, "", "listed twice"},
		{"sampled needs a trigger", []string{"call-pair-dise"}, "", "give --trigger"},
		{"empty", []string{""}, "", "no profilers"},
		{"missing file", []string{"nope.toml"}, "", "nope.toml"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := ResolveProfilers(tc.names, dir, tc.trigger, cfg)
			require.ErrorContains(t, err, tc.err)
		})
	}
	assert.Contains(t, strings.Join(Shipped(dir), " "), "call-pair-hps")
}

func TestSets(t *testing.T) {
	dir := filepath.Join("..", "acf")
	for name, set := range Sets {
		ps, err := ResolveProfilers([]string{name}, dir, "periodic:100000:1000", dise.DefaultConfig())
		require.NoError(t, err, name)
		require.Len(t, ps, len(set))
		for i, p := range ps {
			assert.Equal(t, set[i], p.Name)
			if name == "windows" {
				assert.NotEmpty(t, p.Trigger, "%s: window sampling takes the trigger", p.Name)
			} else {
				assert.Empty(t, p.Trigger, "%s", p.Name)
			}
		}
	}
	assert.Contains(t, Sets, DefaultSet)
	// families covers every family: DISE/HPS, stratified, path, multi-hash, phase.
	ps, err := ResolveProfilers([]string{"families"}, dir, "", dise.DefaultConfig())
	require.NoError(t, err)
	types := map[string]bool{}
	for _, p := range ps {
		types[p.Type] = true
	}
	for _, typ := range []string{"value", "edge", "path", "code region", "method", "call pair", "phase"} {
		assert.True(t, types[typ], typ)
	}
}

func TestSweep(t *testing.T) {
	ps := []Profiler{{Name: "path-bl", Source: SourcePreset, ProfHW: "path-bl", Type: "path"},
		{Name: "stratified-value", Source: SourcePreset, ProfHW: "stratified-value", Type: "value"},
		{Name: "x", Source: SourceACF, Type: "call pair"}}
	sw, err := ParseSweep("hpt.entries=128,512", ps, false)
	require.NoError(t, err)
	assert.False(t, sw.Machine)
	s := &Spec{Benchmarks: []string{"a"}, Profilers: ps, Sweep: sw}
	var labels []string
	for _, c := range s.Cells() {
		labels = append(labels, c.Label())
	}
	assert.Equal(t, []string{"none", "path-bl [hpt.entries=128]", "path-bl [hpt.entries=512]", "stratified-value", "x"}, labels)
	p := s.profiler(&s.Cells()[1])
	assert.Equal(t, []string{"hpt.entries=128"}, p.Settings)
	cfgs, err := p.units()
	require.NoError(t, err)
	assert.Equal(t, int64(128), cfgs[0].Int("hpt.entries", 0, 0, 1<<20))

	// sampler.rate rewrites a stratified compressor's sampling rate.
	sw, err = ParseSweep("sampler.rate=64,1024", ps, false)
	require.NoError(t, err)
	s = &Spec{Benchmarks: []string{"a"}, Profilers: ps, Sweep: sw}
	cells := s.Cells()
	require.Len(t, cells, 1+1+2+1)
	assert.Equal(t, "stratified-value [sampler.rate=1024]", cells[3].Label())
	cfgs, err = s.profiler(&cells[3]).units()
	require.NoError(t, err)
	assert.Equal(t, "H[P1024]2048", cfgs[0].String("compressor", ""))
	_, err = (&Profiler{Name: "x", Source: SourcePreset, ProfHW: "stratified-value", Settings: []string{"sampler.rate=0"}}).units()
	require.ErrorContains(t, err, "want a sampling rate")

	// An out-of-range machine value is one line naming the point, not a
	// line of the generated configuration.
	_, err = ParseSweep("l2.size=1099511627776", ps, true)
	require.EqualError(t, err, "--sweep l2.size=1099511627776: 1099511627776 is out of range [64, 1073741824]")

	sw, err = ParseSweep("l2.size=262144,1048576", ps, true)
	require.NoError(t, err)
	assert.True(t, sw.Machine)
	s = &Spec{Benchmarks: []string{"a"}, Profilers: ps[:1], Sweep: sw, Timing: true, MachineName: "m"}
	s.Machine = defaultMachineText(t)
	cells = s.Cells()
	require.Len(t, cells, 4, "each point has its baseline")
	m, err := s.machine(&cells[1])
	require.NoError(t, err)
	assert.Equal(t, 262144, m.L2.Size)
	m, err = s.machine(&cells[3])
	require.NoError(t, err)
	assert.Equal(t, 1048576, m.L2.Size)
	res := build(s, cells, []*Run{{}, {}, {}, {}})
	assert.Equal(t, "none [l2.size=1048576]", res.rowOf("path-bl [l2.size=1048576]").Base)

	for _, tc := range []struct{ desc, arg, err string }{
		{"no values", "hpt.entries=", "want KEY=V1,V2"},
		{"repeated", "hpt.entries=1,1", "repeated value"},
		{"unknown", "nope.key=1", "no profhw profiler's configuration has it"},
		{"machine in functional mode", "l2.size=1024", "needs --mode timing"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := ParseSweep(tc.arg, ps, false)
			require.ErrorContains(t, err, tc.err)
		})
	}
	_, err = ParseSweep("l2.size=12345", ps, true)
	require.Error(t, err, "the machine validates the value")
}

func defaultMachineText(t *testing.T) string {
	t.Helper()
	return config.Format(config.Default())
}
