package sim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/syscalls"
)

// parseGem5 reads a gem5 stats.txt dump back: name -> value text. It
// checks the markers and that every line between them is
// `name value # description`.
func parseGem5(t *testing.T, text string) map[string]string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	in, ended := false, false
	out := map[string]string{}
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "---------- Begin Simulation Statistics ----------":
			require.False(t, in, "two begin markers")
			in = true
		case l == "---------- End Simulation Statistics   ----------":
			require.True(t, in, "end before begin")
			ended = true
			in = false
		case l == "":
		default:
			require.True(t, in, "a line outside the markers: %q", l)
			stat, desc, ok := strings.Cut(l, "#")
			require.True(t, ok, "no description: %q", l)
			require.NotEmpty(t, strings.TrimSpace(desc), l)
			f := strings.Fields(stat)
			require.Len(t, f, 2, "want name and value: %q", l)
			_, dup := out[f[0]]
			require.False(t, dup, "%s twice", f[0])
			out[f[0]] = f[1]
		}
	}
	require.True(t, ended, "no end marker")
	return out
}

// jsonStats is the --stats JSON object of the same statistics, read back
// with its numbers as written.
func jsonStats(t *testing.T, stats map[string]any) map[string]any {
	data, err := json.Marshal(stats)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

func jsonAt(t *testing.T, m map[string]any, path string) string {
	t.Helper()
	var v any = m
	for _, k := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		require.True(t, ok, path)
		v, ok = obj[k]
		require.True(t, ok, "no %s in the JSON", path)
	}
	return v.(json.Number).String()
}

func runNBody(t *testing.T, timing bool) (*Machine, Result) {
	b := benchmark(t, "nbody")
	var out bytes.Buffer
	cfg := Config{Program: b.bin, Args: b.args, CountMix: true,
		Kernel: syscalls.Config{Cwd: b.dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Warn: &out}}
	if timing {
		cfg.Timing = config.Default()
	}
	mc, err := Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	return mc, res
}

// The gem5 dump of a timing run has gem5's names with the JSON's values.
func TestGem5StatsTiming(t *testing.T) {
	mc, res := runNBody(t, true)
	stats := mc.Stats(&res)
	var buf bytes.Buffer
	require.NoError(t, WriteGem5Stats(&buf, stats))
	g := parseGem5(t, buf.String())
	js := jsonStats(t, stats)
	for name, key := range map[string]string{
		"simInsts": "instructions", "system.cpu.committedInsts": "instructions",
		"system.cpu.numCycles": "cycles", "system.cpu.ipc": "ipc", "system.cpu.cpi": "cpi",
		"system.cpu.branchPred.lookups":            "bpred.all.lookups",
		"system.cpu.branchPred.condPredicted":      "bpred.conditional.lookups",
		"system.cpu.branchPred.condIncorrect":      "bpred.conditional.mispredicts",
		"system.cpu.commit.branchMispredicts":      "bpred.all.mispredicts",
		"system.cpu.icache.overallAccesses::total": "caches.l1i.accesses",
		"system.cpu.icache.overallMisses::total":   "caches.l1i.misses",
		"system.cpu.dcache.overallAccesses::total": "caches.l1d.accesses",
		"system.l2.overallAccesses::total":         "caches.l2.accesses",
		"system.l2.overallMisses::total":           "caches.l2.misses",
		"rvsim.stalls.rob_full":                    "stalls.rob_full",
		"rvsim.mix.load":                           "mix.load",
	} {
		require.Contains(t, g, name)
		assert.Equal(t, jsonAt(t, js, key), g[name], name)
	}
	// Independent of the JSON: the run's own counts.
	assert.Equal(t, res.Instructions, mustUint(t, g["simInsts"]))
	assert.Equal(t, res.Cycles, mustUint(t, g["system.cpu.numCycles"]))
	for _, c := range []string{"system.cpu.icache", "system.cpu.dcache", "system.l2"} {
		acc := mustUint(t, g[c+".overallAccesses::total"])
		assert.Positive(t, acc, c)
		assert.Equal(t, acc, mustUint(t, g[c+".overallHits::total"])+mustUint(t, g[c+".overallMisses::total"]), c)
	}
	// gem5 counts a hit on an in-flight fill (rvsim's mshr_hits) as a miss.
	assert.Equal(t, mustUint(t, jsonAt(t, js, "caches.l1d.misses"))+mustUint(t, jsonAt(t, js, "caches.l1d.mshr_hits")),
		mustUint(t, g["system.cpu.dcache.overallMisses::total"]))
	assert.Positive(t, mustUint(t, g["system.cpu.dcache.overallMshrHits::total"]))
	assert.LessOrEqual(t, mustUint(t, g["system.cpu.branchPred.condIncorrect"]), mustUint(t, g["system.cpu.branchPred.condPredicted"]))
	assert.NotContains(t, g, "rvsim.machine", "strings are left out")
}

// A functional run has no cycles: the cycle lines are left out, not 0.
func TestGem5StatsFunctional(t *testing.T) {
	mc, res := runNBody(t, false)
	var buf bytes.Buffer
	require.NoError(t, WriteGem5Stats(&buf, mc.Stats(&res)))
	g := parseGem5(t, buf.String())
	assert.Equal(t, res.Instructions, mustUint(t, g["simInsts"]))
	for _, name := range []string{"system.cpu.numCycles", "system.cpu.ipc", "system.cpu.cpi", "rvsim.cycles",
		"system.cpu.branchPred.lookups", "system.cpu.icache.overallAccesses::total"} {
		assert.NotContains(t, g, name)
	}
	assert.Equal(t, "0", g["rvsim.bare_metal"])
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	var n json.Number = json.Number(s)
	v, err := n.Int64()
	require.NoError(t, err, s)
	return uint64(v)
}
