package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run --fast-forward and --warmup: bad values are one-line usage errors.
func TestRunFastForwardUsage(t *testing.T) {
	for _, tc := range []struct{ args, err string }{
		{"--mode timing --fast-forward -1", `invalid value "-1" for flag --fast-forward`},
		{"--mode timing --fast-forward many", `invalid value "many" for flag --fast-forward`},
		{"--mode timing --fast-forward 10 --warmup -5", `invalid value "-5" for flag --warmup`},
		{"--mode timing --fast-forward 0", "--fast-forward 0: want at least 1"},
		{"--mode timing --warmup 100", "--warmup needs --fast-forward N or --simpoints FILE"},
		{"--mode timing --simpoints a", "--simpoints FILE and --weights FILE go together"},
		{"--mode timing --fast-forward 5 --functional-warming yes", `--functional-warming "yes": want on, off or an instruction count`},
		{"--mode timing --fast-forward 5 --functional-warming 1.5M", `--functional-warming "1.5M": want on, off or an instruction count`},
		{"--mode timing --functional-warming on", "--functional-warming needs --fast-forward N or --simpoints FILE"},
		{"--simpoints a --weights b", "--simpoints needs --mode timing"},
		{"--mode timing --simpoints a --weights b --fast-forward 5", "--simpoints cannot be combined with --fast-forward"},
		{"--mode timing --simpoints a --weights b --interval 5 --interval-out x", "--interval-out cannot be combined with --simpoints"},
		{"--fast-forward 100", "--fast-forward needs --mode timing"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"run"}, strings.Fields(tc.args)...), "prog")
			status := run(args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, exitUsage, status)
			assert.Contains(t, stderr.String(), tc.err)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		})
	}
}

// run --mode timing --fast-forward N --warmup M --stats: the same output
// as a full run, the instructions divided into the three parts, cycles
// and IPC of the timed part.
func TestRunFastForwardStats(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	dir := t.TempDir()
	args, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	want, err := os.ReadFile(rel("benchmarks/lz/test.stdout"))
	require.NoError(t, err)
	stats := filepath.Join(dir, "s.json")
	var stdout, stderr bytes.Buffer
	status := run(append([]string{"run", "--mode", "timing", "--fast-forward", "2000000", "--warmup", "500000",
		"--stats", stats, "--clear-env", rel("build/benchmarks/lz")}, strings.Fields(string(args))...),
		strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, status, stderr.String())
	assert.Equal(t, string(want), stdout.String())
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(data, &s))
	insts, timed := s["instructions"].(float64), s["timed_instructions"].(float64)
	assert.Equal(t, 2000000.0, s["fast_forward_instructions"])
	assert.Equal(t, 500000.0, s["warmup_instructions"])
	assert.Equal(t, insts-2500000, timed)
	assert.InDelta(t, timed/s["cycles"].(float64), s["ipc"], 1e-9)
}

// run --simpoints --weights: a file's error is one line naming the file
// and line; a good plan's stats carry sampled.cpi, its error estimate and
// the points, and the output is the full run's.
func TestRunSimpoints(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	dir := t.TempDir()
	args, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	want, err := os.ReadFile(rel("benchmarks/lz/test.stdout"))
	require.NoError(t, err)
	sp, wt := filepath.Join(dir, "p.simpoints"), filepath.Join(dir, "p.weights")
	runIt := func(simpoints, weights string) (int, string, map[string]any) {
		require.NoError(t, os.WriteFile(sp, []byte(simpoints), 0o644))
		require.NoError(t, os.WriteFile(wt, []byte(weights), 0o644))
		stats := filepath.Join(dir, "s.json")
		os.Remove(stats)
		var stdout, stderr bytes.Buffer
		status := run(append([]string{"run", "--mode", "timing", "--simpoints", sp, "--weights", wt, "--interval", "1000000",
			"--warmup", "100000", "--stats", stats, "--clear-env", rel("build/benchmarks/lz")}, strings.Fields(string(args))...),
			strings.NewReader(""), &stdout, &stderr)
		var s map[string]any
		if data, err := os.ReadFile(stats); err == nil {
			require.NoError(t, json.Unmarshal(data, &s))
		}
		if status == 0 {
			assert.Equal(t, string(want), stdout.String())
		}
		return status, stderr.String(), s
	}
	status, msg, _ := runIt("1 0\n3 1\n", "0.5 0\n0.4 1\n")
	assert.Equal(t, exitUsage, status)
	assert.Equal(t, "rvsim: "+wt+":2: the weights sum to 0.9, not 1 (within 0.01)\n", msg)
	status, msg, _ = runIt("1 0\n70 1\n", "0.5 0\n0.5 1\n")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, msg, sp+":2: interval 70 starts at instruction 70000000, past the program's end")
	assert.Equal(t, 1, strings.Count(msg, "\n"), msg)
	status, msg, s := runIt("1 0\n3 1\n", "0.25 0\n0.75 1\n")
	require.Equal(t, 0, status, msg)
	pts := s["sampled.points"].([]any)
	require.Len(t, pts, 2)
	p0, p1 := pts[0].(map[string]any), pts[1].(map[string]any)
	assert.InDelta(t, 0.25*p0["cpi"].(float64)+0.75*p1["cpi"].(float64), s["sampled.cpi"], 1e-12)
	assert.Equal(t, 100000.0, p1["warmup_instructions"])
	assert.Equal(t, 2000000.0, s["timed_instructions"])
	assert.Equal(t, 2200000.0, s["sampled.detailed_instructions"])
	assert.Greater(t, s["sampled.cpi_error_estimate"], 0.0)
}

// compare --sampled needs timing mode and whole runs.
func TestCompareSampledUsage(t *testing.T) {
	for _, args := range []string{"--sampled", "--sampled --mode timing --max-insts 1000", "--sampled --mode timing --sample-interval 10"} {
		var stdout, stderr bytes.Buffer
		status := run(append([]string{"compare", "--profilers", "call-pair", "--benchmarks", "lz"}, strings.Fields(args)...), strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, exitUsage, status, args)
		assert.Contains(t, stderr.String(), "--sampled needs --mode timing, no --max-insts, and --sample-interval of at least 1000", args)
	}
}

// compare --sampled --functional-warming: a bad value is a one-line usage
// error.
func TestCompareSampledWarmingUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"compare", "--profilers", "call-pair", "--benchmarks", "lz", "--sampled", "--mode", "timing", "--functional-warming", "lots"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, stderr.String(), `--functional-warming "lots": want on, off or an instruction count`)
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
}

// compare --sampled --sample-pick: a bad value is a one-line usage error.
func TestCompareSamplePickUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"compare", "--profilers", "call-pair", "--benchmarks", "lz", "--sampled", "--mode", "timing", "--sample-pick", "median"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, stderr.String(), `--sample-pick "median": want typical or centre`)
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
}
