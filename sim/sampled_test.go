package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/syscalls"
)

// sampledRun runs benchmark b in timing mode with a fast-forward of ff
// (0: none) and a warm-up of warm; with mark > 0 (and no fast-forward) the
// timing model records the cycle at which instruction mark committed.
func sampledRun(t *testing.T, b bench, ff, warm, mark uint64) (Result, *Machine, string) {
	t.Helper()
	var out, errOut strings.Builder
	mc, err := Load(Config{Program: b.bin, Args: b.args, Timing: config.Default(), FastForward: ff, Warmup: warm,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}})
	require.NoError(t, err)
	if mark > 0 {
		mc.Timing().SetMark(mark)
	}
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	return res, mc, out.String()
}

// TestSampledRun: a fast-forwarded run retires the same instructions and
// prints the same output as a full timing run; its timed cycles are close
// to the full run's cycles over the same instructions (taken from the full
// run's commit of instruction ff+warm: Core.SetMark), closer with a
// warm-up than without; and two sampled runs are identical.
func TestSampledRun(t *testing.T) {
	b := benchmark(t, "lz")
	full, _, fullOut := sampledRun(t, b, 0, 0, 0)
	require.Equal(t, string(b.stdout), fullOut)
	// lz's test input retires 6.0M instructions; time its second half.
	const ff, warm = 2_000_000, 1_000_000
	start := uint64(ff + warm)
	require.Greater(t, full.Instructions, start+1_000_000)
	ref, rmc, _ := sampledRun(t, b, 0, 0, start)
	at, ok := rmc.Timing().MarkCycle()
	require.True(t, ok)
	require.Equal(t, full.Cycles, ref.Cycles, "a mark changes nothing")
	want := ref.Cycles - at // the full run's cycles for instructions start..end
	timed := full.Instructions - start

	warmRes, wmc, warmOut := sampledRun(t, b, ff, warm, 0)
	assert.Equal(t, fullOut, warmOut)
	assert.Equal(t, full.Instructions, warmRes.Instructions)
	require.NotNil(t, warmRes.Sampled)
	assert.Equal(t, SampledCounts{FastForward: uint64(ff), Warmup: warm, Timed: timed, Cycles: warmRes.Cycles}, totals(warmRes.Sampled))

	coldRes, _, coldOut := sampledRun(t, b, start, 0, 0)
	assert.Equal(t, fullOut, coldOut)
	assert.Equal(t, SampledCounts{FastForward: start, Timed: timed, Cycles: coldRes.Cycles}, totals(coldRes.Sampled))

	relErr := func(got uint64) float64 { return float64(int64(got)-int64(want)) / float64(want) }
	warmErr, coldErr := relErr(warmRes.Cycles), relErr(coldRes.Cycles)
	t.Logf("lz: %d instructions, %d full-run cycles (%d after instruction %d); timed %d instructions: warm-up %d cycles (%+.3f%%), cold %d cycles (%+.3f%%)",
		full.Instructions, full.Cycles, want, start, timed, warmRes.Cycles, 100*warmErr, coldRes.Cycles, 100*coldErr)
	assert.Less(t, math.Abs(warmErr), 0.005, "warmed timed part within 0.5%% of the full run's")
	assert.Less(t, math.Abs(warmErr), math.Abs(coldErr), "a warm-up makes the timed part closer than a cold start")
	assert.Greater(t, coldRes.Cycles, want, "a cold start (empty caches, untrained predictors) costs cycles")

	st := wmc.Stats(&warmRes)
	assert.Equal(t, warmRes.Cycles, st["cycles"])
	assert.Equal(t, uint64(ff), st["fast_forward_instructions"])
	assert.Equal(t, uint64(warm), st["warmup_instructions"])
	assert.Equal(t, timed, st["timed_instructions"])
	assert.InDelta(t, float64(timed)/float64(warmRes.Cycles), st["ipc"], 1e-12)
	assert.Equal(t, full.Instructions, st["instructions"])
	// A warm-up over the whole prefix but the first instruction leaves
	// nothing cold: the timed part's cycles are the full run's exactly.
	whole, _, _ := sampledRun(t, b, 1, start-1, 0)
	assert.Equal(t, want, whole.Cycles, "warm-up over the whole prefix")

	again, _, _ := sampledRun(t, b, ff, warm, 0)
	assert.Equal(t, *warmRes.Sampled, *again.Sampled, "determinism")
}

// TestSampledConfigErrors: settings that make no sense are refused.
func TestSampledConfigErrors(t *testing.T) {
	b := benchmark(t, "lz")
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Warmup: 10}, "a warm-up needs a fast-forward"},
		{Config{FastForward: 10}, "a fast-forward needs the timing model (timing mode)"},
		{Config{FastForward: 10, Timing: config.Default(), Windows: []Window{{Start: 10}}}, "a fast-forward cannot be combined with sampling windows"},
		{Config{Timing: config.Default(), Windows: []Window{{Start: 10, Warmup: 11}}}, "sampling window 0: its warm-up of 11 instructions starts before the run (it starts at instruction 10)"},
		{Config{Timing: config.Default(), Windows: []Window{{Start: 10, Length: 5}, {Start: 12, Length: 5}}}, "sampling window 1: starts at instruction 12, before window 0 ends (15): windows must be in order and not overlap"},
		{Config{Timing: config.Default(), Windows: []Window{{Start: 10}, {Start: 20, Length: 5}}}, "sampling window 0: only the last window may run to the end"},
		{Config{Timing: config.Default(), Windows: []Window{{Start: 10, Length: 5, Parts: 6}}}, "sampling window 0: 6 parts for 5 instructions"},
	} {
		tc.cfg.Program = b.bin
		_, err := Load(tc.cfg)
		assert.EqualError(t, err, tc.want)
	}
}

// TestSampledEndsInFastForward: a program that exits before the
// fast-forward ends has no timed part (and no timing model ran).
func TestSampledEndsInFastForward(t *testing.T) {
	b := benchmark(t, "lz")
	res, _, out := sampledRun(t, b, 1<<62, 0, 0)
	assert.Equal(t, string(b.stdout), out)
	assert.Equal(t, SampledCounts{FastForward: res.Instructions}, totals(res.Sampled))
	assert.Zero(t, res.Cycles)
}

// totals is a sampled run's counts without the per-window detail.
func totals(sc *SampledCounts) SampledCounts {
	t := *sc
	t.Windows = nil
	return t
}
