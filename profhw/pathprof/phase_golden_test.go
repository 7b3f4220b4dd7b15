package pathprof_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathPhaseGolden: the path-phase preset's phase report and summary
// on lz (test input, 100k-instruction intervals) are those recorded
// before its accumulator tables moved to profhw/phase (testdata/, written
// by this test with RVSIM_UPDATE_GOLDEN=1 on commit 53ab6c5's pathprof,
// the detectors still in pathprof): the one implementation changed nothing.
func TestPathPhaseGolden(t *testing.T) {
	bin, args := benchmark(t, "lz")
	cfgs, err := profhw.LoadPreset("path-phase")
	require.NoError(t, err)
	require.Len(t, cfgs, 1)
	cfgs[0].Set("phase.interval", int64(100000))
	// The program's guest path is fixed: AT_EXECFN is on the initial
	// stack, so a checkout-dependent path would move the stack and the
	// instruction count with it.
	mc, err := sim.Load(sim.Config{Program: bin, Args: args, ProfHW: cfgs, Kernel: syscalls.Config{ExePath: "/bench/lz"}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	require.NoError(t, res.ProfHWErr)
	u := mc.ProfHW().Units()[0]
	outs, err := u.Outputs(nil)
	require.NoError(t, err)
	var phase []byte
	for _, o := range outs {
		if o.Suffix == "phase.json" {
			phase = o.Data
		}
	}
	sum, err := json.Marshal(u.Summary())
	require.NoError(t, err)
	if os.Getenv("RVSIM_UPDATE_GOLDEN") == "1" {
		require.NoError(t, os.WriteFile("testdata/path-phase-lz.phase.json", phase, 0o644))
		require.NoError(t, os.WriteFile("testdata/path-phase-lz.summary.json", sum, 0o644))
	}
	want, err := os.ReadFile("testdata/path-phase-lz.phase.json")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(phase))
	wantSum, err := os.ReadFile("testdata/path-phase-lz.summary.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(wantSum), string(sum))
}
