package sim

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/syscalls"
)

// stallRun runs benchmark b in timing mode on machine m with the units of
// text, their commit stalls honoured or dropped.
func stallRun(t *testing.T, b bench, m *config.Machine, text string, drop bool) (Result, *Machine) {
	t.Helper()
	cfgs, err := profhw.Parse("test.toml", []byte(text))
	require.NoError(t, err)
	var out, errOut strings.Builder
	mc, err := Load(Config{Program: b.bin, Args: b.args, ProfHW: cfgs, Timing: m, DropProfHWStalls: drop,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	require.NoError(t, res.ProfHWErr)
	require.Equal(t, string(b.stdout), out.String())
	return res, mc
}

const (
	pathUnit = "[[unit]]\nname = \"path\"\nkind = \"path\"\n[unit.queue]\nentries = %d\n"
	mhUnit   = "[[unit]]\nname = \"mh\"\nkind = \"multihash\"\n[unit.queue]\nsize = 2\nthroughput = 0.5\n[unit.select]\ntuples = [\"value\"]\n"
)

// TestStallCycles: a unit's stall_cycles are the cycles its commit stalls
// really cost, against independent truth: the cycles of the same run
// with the stalls dropped (DropProfHWStalls; the units see the same
// instructions and ask for their stalls, which the core ignores). With
// several units the parts add up to it. stall_cycles_requested is what
// the units asked for, at least the real cost; the CPI stack's profiler
// bucket is the real cost.
func TestStallCycles(t *testing.T) {
	hpp, err := config.Preset("hpp")
	require.NoError(t, err)
	for _, tc := range []struct {
		desc, bench string
		m           *config.Machine
		units       string
	}{
		{"path, 2-entry branch queue", "lz", hpp, fmt.Sprintf(pathUnit, 2)},
		{"multihash, 2-tuple queue at half a tuple a cycle", "exprc", config.Default(), mhUnit},
		{"both: parts of one lag", "lz", config.Default(), fmt.Sprintf(pathUnit, 0) + mhUnit},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			b := benchmark(t, tc.bench)
			res, mc := stallRun(t, b, tc.m, tc.units, false)
			base, mb := stallRun(t, b, tc.m, tc.units, true)
			require.Equal(t, base.Instructions, res.Instructions, "timing never changes what executes")
			require.Greater(t, res.Cycles, base.Cycles)
			var real, req uint64
			for i, u := range mc.ProfHW().Units() {
				s := u.Summary()
				real += s.StallCyc
				req += s.StallReq
				assert.Positive(t, s.StallReq, "%s asked for stalls", s.Unit)
				ds := mb.ProfHW().Units()[i].Summary()
				assert.Zero(t, ds.StallCyc, "%s: dropped stalls cost nothing", s.Unit)
				assert.Positive(t, ds.StallReq, "%s: it still asked", s.Unit)
				t.Logf("%s: stall_cycles %d, requested %d", s.Unit, s.StallCyc, s.StallReq)
			}
			assert.Equal(t, res.Cycles-base.Cycles, real, "the real stall cycles are the cycles the stalls added")
			assert.GreaterOrEqual(t, req, real)
			t.Logf("%d cycles, %d with the stalls dropped: real %d, requested %d (%.2f%% vs %.2f%% of the run)",
				res.Cycles, base.Cycles, real, req, 100*float64(real)/float64(res.Cycles), 100*float64(req)/float64(res.Cycles))

			st := mc.Stats(&res)
			stack := st["cpi_stack"].(map[string]uint64)
			sum := uint64(0)
			for _, v := range stack {
				sum += v
			}
			assert.Equal(t, res.Cycles, sum, "the CPI stack sums to the cycles")
			assert.Equal(t, real, stack["profiler"], "the CPI stack's profiler bucket is the real cost")
			data, err := json.Marshal(st["profhw"])
			require.NoError(t, err)
			var ph map[string]map[string]any
			require.NoError(t, json.Unmarshal(data, &ph))
			for _, u := range mc.ProfHW().Units() {
				s := u.Summary()
				assert.EqualValues(t, s.StallCyc, ph[s.Unit]["stall_cycles"], "--stats")
				assert.EqualValues(t, s.StallReq, ph[s.Unit]["stall_cycles_requested"], "--stats")
			}
		})
	}
}
