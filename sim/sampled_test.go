package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw"
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

// sampledConfig is benchmark b's timing-mode configuration with windows.
func sampledConfig(b bench, out *strings.Builder, wins []Window) Config {
	return Config{Program: b.bin, Args: b.args, Timing: config.Default(), Windows: wins,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: out, Stderr: out, Warn: out}}
}

func runConfig(t *testing.T, cfg Config) (Result, *Machine) {
	t.Helper()
	mc, err := Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	require.NoError(t, res.ProfHWErr)
	return res, mc
}

// TestSampledProfHW: profiling units over windows. A unit that watches
// commits (multihash's timing-mode queue asks commit for stalls), over one
// window covering the whole run, gives the full timing run's cycles and
// summary exactly; over two windows its profile is the whole run's (it
// sees the functional stream: the same error against the exact profile),
// its stall cost is the windows' models' (SampledCounts.HookStallCycles),
// and the run is deterministic.
func TestSampledProfHW(t *testing.T) {
	b := benchmark(t, "lz")
	units, err := profhw.LoadPreset("multihash-value")
	require.NoError(t, err)
	var out strings.Builder
	fullCfg := sampledConfig(b, &out, nil)
	fullCfg.ProfHW = units
	full, fmc := runConfig(t, fullCfg)
	require.Equal(t, string(b.stdout), out.String())
	fsum := fmc.ProfHW().Summaries()
	require.NotEmpty(t, fsum)
	require.NotZero(t, fsum[0].StallCyc, "the unit stalls commit (else this test shows nothing)")

	out.Reset()
	wholeCfg := sampledConfig(b, &out, []Window{{Start: 0}})
	wholeCfg.ProfHW = units
	whole, wmc := runConfig(t, wholeCfg)
	assert.Equal(t, string(b.stdout), out.String())
	assert.Equal(t, full.Cycles, whole.Cycles)
	assert.Equal(t, fsum, wmc.ProfHW().Summaries())

	wins := []Window{{Start: 500_000, Warmup: 200_000, Length: 2_000_000}, {Start: 3_500_000, Warmup: 200_000}}
	run := func() (Result, []*profhw.Summary) {
		out.Reset()
		cfg := sampledConfig(b, &out, wins)
		cfg.ProfHW = units
		res, mc := runConfig(t, cfg)
		assert.Equal(t, string(b.stdout), out.String())
		return res, mc.ProfHW().Summaries()
	}
	res, sum := run()
	require.Len(t, res.Sampled.Windows, 2)
	for i, w := range res.Sampled.Windows { // (a window's share of the real cost is not known)
		commit := w.Counters["pipeline"].(map[string]any)["commit"].(map[string]any)
		assert.NotContains(t, commit, "retire_hook_stall_cycles_real", "window %d", i)
		assert.Contains(t, commit, "retire_hook_stall_cycles", "window %d", i)
	}
	t.Logf("stalls: full %d (requested %d), sampled %v summary %d (requested %d)", fsum[0].StallCyc, fsum[0].StallReq, res.Sampled.HookStallCycles, sum[0].StallCyc, sum[0].StallReq)
	require.Len(t, res.Sampled.HookStallCycles, 1)
	assert.Equal(t, res.Sampled.HookStallCycles[0], sum[0].StallCyc)
	assert.NotZero(t, sum[0].StallCyc)
	assert.Less(t, sum[0].StallCyc, fsum[0].StallCyc)
	assert.Equal(t, fsum[0].ErrorPercent, sum[0].ErrorPercent, "the profile is the whole run's")
	again, sum2 := run()
	assert.Equal(t, res.Sampled, again.Sampled, "determinism")
	assert.Equal(t, sum, sum2, "determinism")
}

// TestSampledDISE: DISE over windows runs over the whole run (its
// handlers' profile is the full run's) and its cost is timed in the
// windows: with one window covering the run, the cycles are the full
// DISE timing run's exactly; with two, the timed cycles per application
// instruction exceed those without DISE.
func TestSampledDISE(t *testing.T) {
	b := benchmark(t, "lz")
	dopt := func() *DISEOptions { return &DISEOptions{ACF: []string{acf("call-pair")}, Handlers: handlersELF(t)} }
	var out strings.Builder
	fullCfg := sampledConfig(b, &out, nil)
	fullCfg.DISE = dopt()
	full, fmc := runConfig(t, fullCfg)
	require.Equal(t, string(b.stdout), out.String())
	fprof, err := fmc.HandlerCounts()
	require.NoError(t, err)

	out.Reset()
	wholeCfg := sampledConfig(b, &out, []Window{{Start: 0}})
	wholeCfg.DISE = dopt()
	whole, _ := runConfig(t, wholeCfg)
	assert.Equal(t, full.Cycles, whole.Cycles)

	wins := []Window{{Start: 1_000_000, Warmup: 200_000, Length: 1_000_000}, {Start: 4_000_000, Warmup: 200_000, Length: 1_000_000}}
	out.Reset()
	cfg := sampledConfig(b, &out, wins)
	cfg.DISE = dopt()
	res, mc := runConfig(t, cfg)
	assert.Equal(t, string(b.stdout), out.String())
	prof, err := mc.HandlerCounts()
	require.NoError(t, err)
	assert.Equal(t, fprof, prof, "the handlers' profile is the whole run's")
	require.Len(t, res.Sampled.Windows, 2)
	assert.Equal(t, uint64(2_000_000), res.Sampled.Timed, "the windows count application instructions")

	out.Reset()
	plain, _ := runConfig(t, sampledConfig(b, &out, wins))
	assert.Greater(t, res.Sampled.Cycles, plain.Sampled.Cycles, "DISE's cost is timed")
	assert.Equal(t, plain.Sampled.Timed, res.Sampled.Timed)
}

// TestFunctionalWarming: lisp re-reads, after instruction 2M, data it
// built before 1M; a window after a fast-forward with a 1M warm-up misses
// it in the L2, but with functional warming the caches hold it and the
// window's cycles come within 1% of the full run's over the same
// instructions.
func TestFunctionalWarming(t *testing.T) {
	b := benchmark(t, "lisp")
	var out strings.Builder
	const start, length = 2_000_000, 2_000_000
	// The full run's cycles over [start, start+length): marks on its model.
	cfg := sampledConfig(b, &out, nil)
	mc, err := Load(cfg)
	require.NoError(t, err)
	mc.Timing().SetMarks([]uint64{start, start + length}, nil)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop)
	m := mc.Timing().MarkCycles()
	require.Len(t, m, 2)
	want := m[1] - m[0]
	wins := []Window{{Start: start, Warmup: 1_000_000, Length: length}}
	cold, _ := runConfig(t, sampledConfig(b, &out, wins))
	wcfg := sampledConfig(b, &out, wins)
	wcfg.FunctionalWarming = true
	warm, _ := runConfig(t, wcfg)
	relErr := func(got uint64) float64 { return math.Abs(float64(got)-float64(want)) / float64(want) }
	t.Logf("lisp [%d, %d): full run %d cycles; cold %d (%.2f%%), warmed %d (%.2f%%)", start, start+length, want,
		cold.Cycles, 100*relErr(cold.Cycles), warm.Cycles, 100*relErr(warm.Cycles))
	assert.Less(t, relErr(warm.Cycles), 0.01)
	assert.Greater(t, relErr(cold.Cycles), 3*relErr(warm.Cycles))
	l2 := func(r Result) any {
		return r.Sampled.Windows[0].Counters["caches"].(map[string]any)["l2"].(map[string]any)["misses"]
	}
	t.Logf("L2 misses: cold %v, warmed %v", l2(cold), l2(warm))
}

// TestBoundedWarming: warming bounded to the last W instructions before
// each warm-up equals unbounded warming exactly when W covers every gap,
// differs from it (and from no warming) when it does not, and is
// deterministic.
func TestBoundedWarming(t *testing.T) {
	b := benchmark(t, "lisp")
	var out strings.Builder
	// Gaps: 800k before the first warm-up, 1.3M between the windows.
	wins := []Window{{Start: 1_000_000, Warmup: 200_000, Length: 500_000}, {Start: 3_000_000, Warmup: 200_000, Length: 500_000}}
	run := func(warming bool, last uint64) Result {
		cfg := sampledConfig(b, &out, wins)
		cfg.FunctionalWarming, cfg.WarmingLast = warming, last
		res, _ := runConfig(t, cfg)
		require.Len(t, res.Sampled.Windows, 2)
		return res
	}
	cycles := func(r Result) []uint64 {
		return []uint64{r.Sampled.Windows[0].Cycles, r.Sampled.Windows[1].Cycles}
	}
	on, off := run(true, 0), run(false, 0)
	covering := run(true, 1_300_000)
	assert.Equal(t, cycles(on), cycles(covering), "W covering every gap is unbounded warming")
	assert.Equal(t, on.Sampled.Windows[1].Counters, covering.Sampled.Windows[1].Counters)
	short := run(true, 100_000)
	t.Logf("window cycles: on %v, off %v, W=1.3M %v, W=100k %v", cycles(on), cycles(off), cycles(covering), cycles(short))
	assert.NotEqual(t, cycles(on), cycles(short), "W=100k warms less than the whole gap")
	assert.NotEqual(t, cycles(off), cycles(short), "W=100k warms")
	assert.Equal(t, cycles(short), cycles(run(true, 100_000)), "deterministic")
	assert.Equal(t, on.Instructions, short.Instructions)
}

// TestSampledJIT: the translator runs the fast-forward and the parts of
// the gaps that are not warmed (no observer is attached there), and the
// windows' cycles and counters are those of an interpreted run.
func TestSampledJIT(t *testing.T) {
	b := benchmark(t, "lisp")
	var out strings.Builder
	wins := []Window{{Start: 2_000_000, Warmup: 200_000, Length: 500_000}, {Start: 4_500_000, Warmup: 200_000, Length: 500_000}}
	for _, warming := range []struct {
		on   bool
		last uint64
	}{{false, 0}, {true, 300_000}, {true, 0}} {
		run := func(jit bool) (Result, cpu.JITStats) {
			cfg := sampledConfig(b, &out, wins)
			cfg.FunctionalWarming, cfg.WarmingLast, cfg.JIT = warming.on, warming.last, jit
			res, mc := runConfig(t, cfg)
			require.Len(t, res.Sampled.Windows, 2)
			return res, mc.CPU.JITStats()
		}
		interp, _ := run(false)
		jit, st := run(true)
		assert.Equal(t, interp.Instructions, jit.Instructions)
		assert.Equal(t, interp.Cycles, jit.Cycles)
		for i := range interp.Sampled.Windows {
			assert.Equal(t, interp.Sampled.Windows[i].Cycles, jit.Sampled.Windows[i].Cycles, "window %d", i)
			assert.Equal(t, interp.Sampled.Windows[i].Counters, jit.Sampled.Windows[i].Counters, "window %d", i)
		}
		if warming.on && warming.last == 0 {
			// Warming the whole gap observes every instruction up to the
			// last window: only the run's tail after it is translated.
			tail := interp.Instructions - (wins[1].Start + wins[1].Length)
			assert.LessOrEqual(t, st.Retired, tail, "warming on")
			assert.Greater(t, st.Retired, uint64(0), "the tail ran translated")
		} else {
			assert.Greater(t, st.Retired, uint64(1_000_000), "the fast-forward ran translated (warming %v, last %d)", warming.on, warming.last)
		}
	}
}
