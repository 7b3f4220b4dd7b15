package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run --mode timing --cycle-profile: the profile's columns add up to the
// run's statistics (cycles, each CPI-stack bucket, instructions, L1D and
// L2 misses, mispredicts); go tool pprof -top names hot_loop the top
// function, with main and warm on its stack, and -list finds its source
// lines; a second run writes the same bytes.
func TestRunCycleProfile(t *testing.T) {
	bin := hotGuest(t)
	dir := t.TempDir()
	pb, js := filepath.Join(dir, "c.pb.gz"), filepath.Join(dir, "s.json")
	runOK(t, "--mode", "timing", "--cycle-profile", pb, "--stats", js, bin)
	var stats struct {
		Cycles, Instructions uint64
		CPIStack             map[string]uint64 `json:"cpi_stack"`
		Caches               map[string]struct{ Misses uint64 }
		Bpred                struct {
			All struct{ Mispredicts uint64 }
		}
	}
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &stats))
	p := readPprof(t, pb)
	require.Equal(t, "cycles", p.DefaultSampleType)
	sum := func(typ string) uint64 {
		i := column(t, p, typ)
		var n int64
		for _, s := range p.Sample {
			n += s.Value[i]
		}
		return uint64(n)
	}
	require.Positive(t, stats.Cycles)
	assert.Equal(t, stats.Cycles, sum("cycles"))
	for b, n := range stats.CPIStack {
		assert.Equal(t, n, sum("cycles_"+b), "cycles_%s", b)
	}
	assert.Equal(t, stats.Instructions, sum("instructions"))
	assert.Equal(t, stats.Caches["l1d"].Misses, sum("l1d_misses"))
	assert.Equal(t, stats.Caches["l1i"].Misses, sum("l1i_misses"))
	// An instruction has one L2-miss event (pipeline.Events): a load
	// that starts a fetch block and whose fetch and load both miss the L2
	// counts once.
	assert.LessOrEqual(t, sum("l2_misses"), stats.Caches["l2"].Misses)
	assert.GreaterOrEqual(t, sum("l2_misses"), stats.Caches["l2"].Misses*95/100)
	assert.Equal(t, stats.Bpred.All.Mispredicts, sum("mispredicts"))

	top := goTool(t, "-top", pb)
	rows := strings.Split(top, "flat  flat%")
	require.Len(t, rows, 2, top)
	byName := map[string][]string{}
	var first string
	for _, l := range strings.Split(strings.TrimSpace(rows[1]), "\n")[1:] {
		f := strings.Fields(l)
		if first == "" {
			first = f[len(f)-1]
		}
		byName[f[len(f)-1]] = f
	}
	assert.Equal(t, "hot_loop", first, top)
	for _, fn := range []string{"main", "warm"} { // hot_loop's callers: their cumulative share holds it
		require.Contains(t, byName, fn, top)
		cum, err := strconv.ParseFloat(strings.TrimSuffix(byName[fn][4], "%"), 64)
		require.NoError(t, err)
		hot, _ := strconv.ParseFloat(strings.TrimSuffix(byName["hot_loop"][1], "%"), 64)
		assert.GreaterOrEqual(t, cum, hot, "%s's cum%%\n%s", fn, top)
	}
	list := goTool(t, "-list", "hot_loop", pb)
	assert.Contains(t, list, "hot.c")
	assert.Contains(t, list, "s += i * i ^ (s >> 3);")
	// By bucket: -sample_index picks one.
	assert.Contains(t, goTool(t, "-top", "-sample_index=cycles_commit", pb), "hot_loop")

	again := filepath.Join(dir, "again.pb.gz")
	runOK(t, "--mode", "timing", "--cycle-profile", again, bin)
	a, err := os.ReadFile(pb)
	require.NoError(t, err)
	b, err := os.ReadFile(again)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(a, b), "two runs' cycle profiles differ")
}

// --cycle-profile in functional mode is refused in one line.
func TestRunCycleProfileFunctional(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status, err := runCmd([]string{"--cycle-profile", filepath.Join(t.TempDir(), "c.pb.gz"), "prog"}, strings.NewReader(""), &stdout, &stderr)
	require.Error(t, err)
	assert.Equal(t, exitUsage, status)
	assert.Equal(t, "--cycle-profile needs --mode timing (a functional run has no cycles to profile)", err.Error())
}

// run --mode timing --callgrind writes the cycle profile's events and
// calls; callgrind_annotate reads it: the program's total cycles are the
// run's, hot_loop has most of them, and inclusively main holds hot_loop's.
func TestRunCallgrindCycles(t *testing.T) {
	ann := callgrindAnnotate(t)
	bin := hotGuest(t)
	dir := t.TempDir()
	cg, js := filepath.Join(dir, "callgrind.out"), filepath.Join(dir, "s.json")
	runOK(t, "--mode", "timing", "--callgrind", cg, "--stats", js, bin)
	var stats struct{ Cycles, Instructions uint64 }
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &stats))
	// fn: "FILE:FUNCTION [PROGRAM]" rows; the first column is Cycles.
	rows := func(args ...string) map[string]uint64 {
		out, err := exec.Command(ann, append(args, cg)...).CombinedOutput()
		require.NoError(t, err, "%s", out)
		m := map[string]uint64{}
		for _, l := range strings.Split(strings.ReplaceAll(string(out), ",", ""), "\n") {
			f := strings.Fields(l)
			if len(f) < 3 {
				continue
			}
			n, err := strconv.ParseUint(f[0], 10, 64)
			if err != nil {
				continue
			}
			name := f[len(f)-2]
			if l := strings.LastIndexByte(name, ':'); l >= 0 {
				name = name[l+1:]
			}
			if strings.HasSuffix(l, "PROGRAM TOTALS") {
				name = "TOTALS"
			}
			m[name] = n
		}
		return m
	}
	self := rows()
	assert.Equal(t, stats.Cycles, self["TOTALS"])
	assert.Greater(t, self["hot_loop"], self["TOTALS"]/2, "hot_loop has most cycles: %v", self)
	incl := rows("--inclusive=yes")
	assert.GreaterOrEqual(t, incl["main"], incl["hot_loop"], "%v", incl)
	assert.GreaterOrEqual(t, incl["warm"], incl["hot_loop"], "%v", incl)
	assert.Greater(t, incl["main"], self["main"], "main's calls' cycles are in its inclusive cost")
}

// With a DISE profiler, its handlers' cycles are named by the handler
// runtime's symbols (the profiler's overhead, under the application
// function that paid it), and the columns still add up to the run's
// cycles and committed instructions (application and handler).
func TestRunCycleProfileDISE(t *testing.T) {
	needBuilt(t, "build/handlers/rvsim-handlers.elf")
	bin := hotGuest(t)
	dir := t.TempDir()
	pb, js := filepath.Join(dir, "c.pb.gz"), filepath.Join(dir, "s.json")
	runOK(t, "--mode", "timing", "--acf", rel("acf/hot-method-dise-event.acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
		"--cycle-profile", pb, "--stats", js, bin)
	var stats struct {
		Cycles   uint64
		Pipeline struct{ Commit struct{ Instructions uint64 } }
	}
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &stats))
	p := readPprof(t, pb)
	cyc, insts := column(t, p, "cycles"), column(t, p, "instructions")
	var sumC, sumI, handler int64
	for _, s := range p.Sample {
		sumC += s.Value[cyc]
		sumI += s.Value[insts]
		if fn := s.Location[0].Line[0].Function.Name; strings.HasPrefix(fn, "hot_method") || strings.HasPrefix(fn, "HotMethod") {
			handler += s.Value[insts]
			// The handler runs on the application's stack.
			require.Greater(t, len(s.Location), 1, "handler %s at the root", fn)
		}
	}
	assert.Equal(t, int64(stats.Cycles), sumC)
	assert.Equal(t, int64(stats.Pipeline.Commit.Instructions), sumI)
	assert.Positive(t, handler, "no handler function named in the profile")
}

// With a fast-forward and a warm-up the profile holds the timed part:
// its cycles and instructions are the run's timed figures.
func TestRunCycleProfileSampled(t *testing.T) {
	bin := hotGuest(t)
	dir := t.TempDir()
	pb, js := filepath.Join(dir, "c.pb.gz"), filepath.Join(dir, "s.json")
	runOK(t, "--mode", "timing", "--fast-forward", "20000", "--warmup", "5000", "--cycle-profile", pb, "--stats", js, bin)
	var stats struct {
		Cycles uint64
		Timed  uint64 `json:"timed_instructions"`
	}
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &stats))
	require.Positive(t, stats.Timed)
	p := readPprof(t, pb)
	cyc, insts := column(t, p, "cycles"), column(t, p, "instructions")
	var sumC, sumI int64
	for _, s := range p.Sample {
		sumC += s.Value[cyc]
		sumI += s.Value[insts]
	}
	assert.Equal(t, int64(stats.Cycles), sumC)
	assert.Equal(t, int64(stats.Timed), sumI)
}
