package compare

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/pipeline"
)

func results() *Results {
	r := &Results{Timing: true, Machine: "hps", Input: "test", Benchmarks: []string{"a", "b"},
		Profilers: []string{Baseline, "p-hps", "p-dise"}, Runs: map[string]map[string]*Run{}}
	add := func(b, p string, cycles uint64, pass bool) {
		if r.Runs[b] == nil {
			r.Runs[b] = map[string]*Run{}
		}
		r.Runs[b][p] = &Run{Benchmark: b, Profiler: p, Cycles: cycles, Replacements: cycles / 100, Pass: pass, Why: map[bool]string{false: "broken"}[pass]}
	}
	add("a", Baseline, 1000, true)
	add("a", "p-hps", 1010, true)
	add("a", "p-dise", 1200, true)
	add("b", Baseline, 2000, true)
	add("b", "p-hps", 2060, true)
	add("b", "p-dise", 9999, false)
	return r
}

func TestOverhead(t *testing.T) {
	r := results()
	o, ok := r.Overhead("a", "p-dise")
	require.True(t, ok)
	assert.InDelta(t, 20.0, o, 1e-9)
	_, ok = r.Overhead("b", "p-dise")
	assert.False(t, ok, "a failed run has no overhead")
	m, n := r.Mean("p-hps")
	assert.Equal(t, 2, n)
	assert.InDelta(t, 2.0, m, 1e-9, "(1% + 3%) / 2")
	m, n = r.Mean("p-dise")
	assert.Equal(t, 1, n)
	assert.InDelta(t, 20.0, m, 1e-9)
	require.Len(t, r.Failed(), 1)
	assert.Equal(t, "p-dise", r.Failed()[0].Profiler)
}

func TestReports(t *testing.T) {
	r := results()
	var text, md, c bytes.Buffer
	r.WriteText(&text)
	assert.Contains(t, text.String(), "timing mode, machine hps")
	assert.Contains(t, text.String(), "20.00%")
	assert.Contains(t, text.String(), "FAIL b/p-dise: broken")
	r.WriteMarkdown(&md)
	assert.Contains(t, md.String(), "| p-hps | 2.00% | 2 |")
	assert.Contains(t, md.String(), "| p-dise | 1200 | 20.00% | 12 |")
	require.NoError(t, r.WriteCSV(&c))
	rows, err := csv.NewReader(&c).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 7)
	assert.Equal(t, "benchmark", rows[0][0])
	assert.Equal(t, []string{"a", "test", "timing", "hps", "p-dise"}, rows[3][:5])
	assert.Equal(t, "20.0000", rows[3][10])
	assert.Equal(t, "", rows[6][10], "failed: no overhead")
	assert.Equal(t, "false", rows[6][16])

	r.Timing = false
	text.Reset()
	r.WriteText(&text)
	assert.Contains(t, text.String(), "cost = retired instructions")
}

func TestResolveProfilers(t *testing.T) {
	dir := filepath.Join("..", "acf")
	cfg := dise.DefaultConfig()
	ps, err := ResolveProfilers([]string{"call-pair", "call-pair-hps", "hps-triggers+hot-method"}, dir, "periodic:100:1", cfg)
	require.NoError(t, err)
	require.Len(t, ps, 3)
	assert.Equal(t, "", ps[0].Trigger, "exhaustive: no trigger")
	assert.Equal(t, "periodic:100:1", ps[1].Trigger)
	assert.Equal(t, []string{filepath.Join(dir, "hps-triggers.acf"), filepath.Join(dir, "hot-method.acf")}, ps[2].ACF)
	assert.Equal(t, "periodic:100:1", ps[2].Trigger)

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
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := ResolveProfilers(tc.names, dir, tc.trigger, cfg)
			require.ErrorContains(t, err, tc.err)
		})
	}
	assert.Contains(t, strings.Join(Shipped(dir), " "), "call-pair-hps")
}

// A profhw preset is a profiler too: its rows gain the error, storage
// bits and analytic overhead of its units, and in timing mode their real
// and requested stall cycles.
func TestProfHWProfilers(t *testing.T) {
	dir := filepath.Join("..", "acf")
	ps, err := ResolveProfilers([]string{"stratified-value", "call-pair-hps"}, dir, "periodic:100:1", dise.DefaultConfig())
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, "stratified-value", ps[0].ProfHW)
	assert.Empty(t, ps[0].ACF)
	assert.Empty(t, ps[1].ProfHW)

	r := results()
	r.Profilers = append(r.Profilers, "stratified-value")
	r.Runs["a"]["stratified-value"] = &Run{Benchmark: "a", Profiler: "stratified-value", Cycles: 1000, Pass: true,
		ProfHW: true, ErrorPercent: 1.5, StorageBits: 16384, AnalyticOverhead: 3.25,
		Breakdown: &pipeline.Breakdown{CPI: map[string]uint64{}}, StallCycles: 7, StallRequested: 40}
	var md, c bytes.Buffer
	r.WriteMarkdown(&md)
	assert.Contains(t, md.String(), "| stratified-value | 1000 | 0.00% | 0 | 0 | 0 | 0 | 1.50% | 16384 | 3.25% | ok |")
	assert.Contains(t, md.String(), "| p-hps | 1010 | 1.00% | 10 | 0 | 0 | 0 | - | - | - | ok |")
	require.NoError(t, r.WriteCSV(&c))
	rows, err := csv.NewReader(&c).ReadAll()
	require.NoError(t, err)
	last := rows[4] // a/stratified-value
	assert.Equal(t, "stratified-value", last[4])
	assert.Equal(t, []string{"1.5000", "16384", "3.2500", "7", "40"}, last[len(last)-5:])
	assert.Equal(t, []string{"error_pct", "storage_bits", "analytic_overhead_pct", "stall_cycles", "stall_cycles_requested"},
		rows[0][len(rows[0])-5:])

	// A unit with no error to report (its summary's error_percent is
	// null) shows none, not the 0 that a perfect profile would show.
	r.Runs["a"]["stratified-value"].ErrorPercent, r.Runs["a"]["stratified-value"].ErrorNone = 0, true
	md.Reset()
	c.Reset()
	r.WriteMarkdown(&md)
	assert.Contains(t, md.String(), "| stratified-value | 1000 | 0.00% | 0 | 0 | 0 | 0 | none | 16384 | 3.25% | ok |")
	require.NoError(t, r.WriteCSV(&c))
	rows, err = csv.NewReader(&c).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, "", rows[4][len(rows[4])-5])
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
	assert.InDelta(t, 0.0, x["execute"], 1e-9)
	assert.InDelta(t, 50.0, x["taken DISE branches"], 1e-9, "30 per 600 application instructions")
	var sum float64
	for _, k := range pipeline.CPIBuckets() {
		sum += x[k]
	}
	o, _ := r.Overhead("a", "p-dise")
	assert.InDelta(t, o, sum, 1e-9, "the buckets sum to the overhead")
	_, n = r.Extra("p-hps")
	assert.Zero(t, n, "no accounting, no programs")

	var text, md, c bytes.Buffer
	r.WriteText(&text)
	assert.Contains(t, text.String(), "where the extra cycles go")
	assert.Regexp(t, `p-dise\s+20\.00%\s+5\.00%`, text.String())
	r.WriteMarkdown(&md)
	assert.Contains(t, md.String(), "| p-dise | 20.00% | 5.00% |")
	require.NoError(t, r.WriteCSV(&c))
	rows, err := csv.NewReader(&c).ReadAll()
	require.NoError(t, err, "every row has every column")
	assert.Equal(t, "cpi_commit", rows[0][18])
	assert.Equal(t, "950", rows[3][18])
	assert.Equal(t, "", rows[2][18], "no accounting")
}

func TestSets(t *testing.T) {
	dir := filepath.Join("..", "acf")
	for name, set := range Sets {
		ps, err := ResolveProfilers([]string{name}, dir, "periodic:100000:1000", dise.DefaultConfig())
		require.NoError(t, err, name)
		require.Len(t, ps, len(set))
		for i, p := range ps {
			assert.Equal(t, set[i], p.Name)
			assert.Equal(t, name == "windows", p.Trigger != "", "%s: only window sampling takes the trigger", p.Name)
		}
	}
	assert.Contains(t, Sets, DefaultSet)
}
