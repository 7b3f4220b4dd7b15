package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run --stats-format gem5 writes a gem5 stats.txt dump whose counts are
// those --stats writes as JSON for the same (deterministic) run.
func TestRunStatsFormatGem5(t *testing.T) {
	needBuilt(t, "build/benchmarks/nbody")
	argText, err := os.ReadFile(rel("benchmarks/nbody/test.args"))
	require.NoError(t, err)
	dir := t.TempDir()
	run := func(file string, format ...string) []byte {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"--mode", "timing", "--stats", file}, format...), rel("build/benchmarks/nbody"))
		status, err := runCmd(append(args, strings.Fields(string(argText))...), strings.NewReader(""), &stdout, &stderr)
		require.NoError(t, err)
		require.Equal(t, 0, status, stderr.String())
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		return data
	}
	js := run(filepath.Join(dir, "s.json"))
	g5 := run(filepath.Join(dir, "stats.txt"), "--stats-format", "gem5")
	var st struct {
		Instructions, Cycles uint64
		Caches               map[string]struct{ Accesses uint64 }
		Bpred                struct {
			Conditional struct{ Lookups, Mispredicts uint64 }
		}
	}
	require.NoError(t, json.Unmarshal(js, &st))
	gem5 := map[string]string{}
	for _, l := range strings.Split(string(g5), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[2] == "#" {
			gem5[f[0]] = f[1]
		}
	}
	require.Contains(t, string(g5), "---------- Begin Simulation Statistics ----------\n")
	require.Contains(t, string(g5), "---------- End Simulation Statistics   ----------\n")
	for name, want := range map[string]uint64{
		"simInsts": st.Instructions, "system.cpu.numCycles": st.Cycles,
		"system.cpu.icache.overallAccesses::total": st.Caches["l1i"].Accesses,
		"system.cpu.dcache.overallAccesses::total": st.Caches["l1d"].Accesses,
		"system.l2.overallAccesses::total":         st.Caches["l2"].Accesses,
		"system.cpu.branchPred.condPredicted":      st.Bpred.Conditional.Lookups,
		"system.cpu.branchPred.condIncorrect":      st.Bpred.Conditional.Mispredicts,
	} {
		assert.Equal(t, want, mustParseUint(t, gem5[name]), name)
	}

	var stdout, stderr bytes.Buffer
	status, err := runCmd([]string{"--stats-format", "yaml", rel("build/benchmarks/nbody")}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.EqualError(t, err, `--stats-format "yaml": want json or gem5`)
}

func mustParseUint(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "%q", s)
	return v
}

// A functional run's --summary and --stats say how much ran translated;
// --jit off drops both, and so does a timing run (nothing of it can run
// translated).
func TestRunReportsTranslatedShare(t *testing.T) {
	needBuilt(t, "build/benchmarks/nbody")
	argText, err := os.ReadFile(rel("benchmarks/nbody/test.args"))
	require.NoError(t, err)
	for _, jit := range []string{"on", "off", "timing"} {
		file := filepath.Join(t.TempDir(), "s.json")
		var stdout, stderr bytes.Buffer
		flags := []string{"--jit", jit}
		if jit == "timing" {
			flags = []string{"--mode", "timing", "--max-insts", "200000"}
		}
		args := append(append(flags, "--summary", "--stats", file, rel("build/benchmarks/nbody")), strings.Fields(string(argText))...)
		status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
		require.NoError(t, err)
		if jit == "timing" {
			require.Equal(t, 124, status, stderr.String()) // (--max-insts)
		} else {
			require.Equal(t, 0, status, stderr.String())
		}
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var st struct {
			JIT *struct {
				Share   float64
				Retired uint64
			}
		}
		require.NoError(t, json.Unmarshal(data, &st))
		if jit != "on" || runtime.GOARCH != "amd64" { // (the translator's host)
			assert.Nil(t, st.JIT, jit)
			assert.NotContains(t, stderr.String(), "translator:", jit)
			continue
		}
		require.NotNil(t, st.JIT)
		assert.Greater(t, st.JIT.Share, 0.9, "nbody runs translated, class mix counted")
		assert.Contains(t, stderr.String(), "rvsim: translator: "+strconv.FormatFloat(100*st.JIT.Share, 'f', 1, 64)+"% of the instructions ran translated\n")
	}
}
