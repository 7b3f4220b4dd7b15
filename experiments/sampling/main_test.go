package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/experiments/internal/suitetest"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sampling"
	"github.com/rvsim/rvsim/suite"
)

func TestReadIntervals(t *testing.T) {
	in := "interval,end_instruction,instructions,cycles,cpi,branches\n" +
		"0,1000,1000,1500,1.5000,3\n" +
		"1,2004,1004,502,0.5000,1\n" +
		"2,2100,96,192,2.0000,0\n"
	var f fullRun
	require.NoError(t, f.readIntervals(strings.NewReader(in)))
	require.Equal(t, []uint64{1000, 1004, 96}, f.IntervalInsts)
	require.Equal(t, []uint64{1500, 502, 192}, f.IntervalCycles)

	for _, bad := range []string{
		"interval,end_instruction,cycles,instructions\n", // columns swapped
		"interval,end_instruction,instructions,cycles\n0,1,x,2\n",
		"interval,end_instruction,instructions,cycles\n0,1,0,2\n", // an empty interval
	} {
		var f fullRun
		err := f.readIntervals(strings.NewReader(bad))
		require.Error(t, err, bad)
		require.NotContains(t, err.Error(), "\n")
	}
}

// The ideal CPI weighs the full run's CPIs of the representatives as the
// sampled estimate weighs the windows' (hand-computed), also when the
// full run's intervals are finer than the plan's.
func TestIdealCPI(t *testing.T) {
	plan := &sampling.Plan{Interval: 10, Points: []sampling.Point{
		{Interval: 1, Weight: 0.25}, {Interval: 3, Weight: 0.75},
	}}
	f := &fullRun{Interval: 10, IntervalInsts: []uint64{10, 10, 10, 10, 10},
		IntervalCycles: []uint64{90, 20, 90, 10, 90}}
	require.InDelta(t, 0.25*2+0.75*1, idealCPI(plan, f), 1e-12)
	// Intervals of 5: the plan's interval 1 is the fine 2 and 3.
	fine := &fullRun{Interval: 5, IntervalInsts: []uint64{5, 5, 5, 5, 5, 5, 4, 6},
		IntervalCycles: []uint64{1, 1, 10, 30, 1, 1, 2, 8}}
	require.InDelta(t, 0.25*40.0/10+0.75*10.0/10, idealCPI(plan, fine), 1e-12)
	plan.Points[1].Interval = 5 // past the end
	require.True(t, math.IsNaN(idealCPI(plan, f)))
	// The run's partial last interval: the fine intervals it has.
	fine.IntervalInsts, fine.IntervalCycles = fine.IntervalInsts[:7], fine.IntervalCycles[:7]
	plan.Points[1].Interval = 3
	require.InDelta(t, 0.25*40.0/10+0.75*2.0/4, idealCPI(plan, fine), 1e-12)
	plan.Points[1].Interval = 3
	plan.Interval = 15 // not a multiple of the recorded intervals
	require.True(t, math.IsNaN(idealCPI(plan, f)))
}

// A whole measurement on a small program: the full run's saved intervals
// cover it, their CPIs weighted by length give its CPI, and the two
// parts of the error add up to it.
func TestMeasureSplitsTheError(t *testing.T) {
	if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "" {
		if _, err := os.Stat("../../build/testprogs/linux/hello"); err != nil {
			t.Skip("make testprogs builds the test programs")
		}
	}
	dir := t.TempDir()
	file := suitetest.Write(t, "../..", dir)
	all, err := suite.Named(file, "benchmarks", "", ".")
	require.NoError(t, err)
	all, err = suite.Select(all, []string{"hello"})
	require.NoError(t, err)
	clock = "wall"
	const interval = 5000
	full := filepath.Join(dir, "full.json")
	r := measure(all[0], "test", interval, 500, []string{"on"}, 3, full, false)
	require.Empty(t, r.why)
	var saved fullRun
	data, err := os.ReadFile(full)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &saved))
	require.Equal(t, uint64(interval), saved.Interval)
	require.Len(t, saved.IntervalInsts, int((r.insts+interval-1)/interval))
	var n, c uint64
	for i := range saved.IntervalInsts {
		n, c = n+saved.IntervalInsts[i], c+saved.IntervalCycles[i]
	}
	require.Equal(t, r.insts, n)
	require.InDelta(t, r.fullCPI, float64(c)/float64(n), 1e-12)
	require.False(t, math.IsNaN(r.idealCPI))
	require.Greater(t, r.idealCPI, 0.0)
	// A reused full run keeps its intervals.
	again := measure(all[0], "test", interval, 500, []string{"on"}, 3, full, true)
	require.Equal(t, r.idealCPI, again.idealCPI)
	require.Equal(t, r.fullCPI, again.fullCPI)

	// -k-sweep's plan at the same largest k is the measured one.
	k := sweepK(all[0], "test", interval, []int{1, 3}, full)
	require.Empty(t, k.why)
	require.Equal(t, []int{1, r.points}, k.points)
	require.InDelta(t, (r.idealCPI-r.fullCPI)/r.fullCPI, k.errs[1], 1e-12)
	// Its centre column is the plan -pick centre measures.
	pick = simpoint.Centre
	centre := measure(all[0], "test", interval, 500, []string{"on"}, 3, full, true)
	pick = simpoint.Typical
	require.InDelta(t, (centre.idealCPI-centre.fullCPI)/centre.fullCPI, k.centreErrs[1], 1e-12)
	require.True(t, k.corr >= -1 && k.corr <= 1, "correlation %v", k.corr)
	for _, rank := range k.centreRank {
		require.True(t, rank >= 0 && rank < 1, "rank %v", rank)
	}
	md := string(kTable([]kRow{k, {name: "gone", why: "no saved full run"}}, []int{1, 3}, "Caption."))
	require.Contains(t, md, "| benchmark | instructions | full CPI | breadth–CPI | k ≤ 1: points | typical | centre | rank | k ≤ 3: points | typical | centre | rank |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	require.Contains(t, md, fmt.Sprintf("| hello | %d | %.4f | %+.2f | 1 | %+.2f%% | %+.2f%% | %.0f%% | %d |", r.insts, r.fullCPI, k.corr, 100*k.errs[0], 100*k.centreErrs[0], 100*k.centreRank[0], r.points))
	require.Contains(t, md, "| gone | failed: no saved full run |||||||||||\n")
	// Without a saved full run it says so.
	require.Contains(t, sweepK(all[0], "test", interval, []int{1}, full+".none").why, "no saved full run")
}

// breadthCPI and breadthRank on hand-made data: breadths 1, 2, 3, 4 with
// CPIs 2, 4, 6, 8 (two recorded intervals each) correlate exactly, and
// falling CPIs inversely; a point whose cluster holds breadths 1, 2 and 4
// and which has breadth 4 has two of three members narrower.
func TestBreadthMeasures(t *testing.T) {
	f := &fullRun{Interval: 10, IntervalInsts: []uint64{10, 10, 10, 10, 10, 10, 10, 10}, IntervalCycles: []uint64{20, 20, 40, 40, 60, 60, 80, 80}}
	bbv := &sampling.BBVs{Interval: 20, Breadth: []int{1, 2, 3, 4}}
	require.InDelta(t, 1, breadthCPI(bbv, f), 1e-12)
	bbv.Breadth = []int{4, 3, 2, 1}
	require.InDelta(t, -1, breadthCPI(bbv, f), 1e-12)
	require.Equal(t, 6.0, f.cpi(20, 2))
	require.True(t, math.IsNaN(f.cpi(20, 4)), "past the end")
	require.True(t, math.IsNaN(f.cpi(15, 0)), "an interval the recorded ones do not divide")
	bbv.Breadth = []int{1, 2, 3, 4}
	r := simpoint.Result{K: 2, Labels: []int{0, 0, 1, 0}}
	plan := &sampling.Plan{Points: []sampling.Point{{Interval: 3, Cluster: 0, Weight: 0.75}, {Interval: 2, Cluster: 1, Weight: 0.25}}}
	require.InDelta(t, 0.75*2.0/3, breadthRank(plan, bbv, r), 1e-12)
}

// With -clock cpu every run's model runs on the run's own thread, whose
// CPU time the clock reads (a full run's model would otherwise run on a
// thread of its own, outside it); with -clock wall the run is as rvsim's.
func TestCPUClockRunsInline(t *testing.T) {
	if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "" {
		if _, err := os.Stat("../../build/testprogs/linux/hello"); err != nil {
			t.Skip("make testprogs builds the test programs")
		}
	}
	file := suitetest.Write(t, "../..", t.TempDir())
	all, err := suite.Named(file, "benchmarks", "", ".")
	require.NoError(t, err)
	all, err = suite.Select(all, []string{"hello"})
	require.NoError(t, err)
	in, err := all[0].Input("test")
	require.NoError(t, err)
	defer func(c string) { clock = c }(clock)
	for c, want := range map[string]int{"cpu": 1, "wall": 0} {
		clock = c
		cfg, done, err := timingConfig(all[0], in)()
		require.NoError(t, err)
		done()
		require.Equal(t, want, cfg.TimingThreads, "-clock %s", c)
	}
}
