package pipeline

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// stallAt is a retire hook that stalls instruction seq by cycles, charged
// to cause.
type stallAt struct {
	seq, cycles uint64
	cause       int
}

func hookOf(stalls []stallAt) RetireHook {
	return func(r *Commit) uint64 {
		for _, s := range stalls {
			if s.seq == r.D.Seq {
				r.Cause = s.cause
				return s.cycles
			}
		}
		return 0
	}
}

// TestHookCostScenarios: the real cost of retire-hook stalls on tiny
// streams, computed by hand from the common timeline (scenario_test.go:
// a first ALU op issues at 114, is done and commits at 115; the run has
// 116 cycles). A stall of s cycles on an instruction complete at the ROB
// head at cycle t makes it commit at t+s.
func TestHookCostScenarios(t *testing.T) {
	tests := []struct {
		desc   string
		lines  []string
		tweak  func(m *config.Machine)
		stalls []stallAt
		cycles uint64   // with the stalls
		base   uint64   // without them
		real   []uint64 // by cause
	}{
		// Both ops are done at 115; the first commits then, the second at
		// 115+5: nothing hides it.
		{desc: "a stall on the last instruction costs all of it",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			stalls: []stallAt{{1, 5, 0}}, cycles: 121, base: 116, real: []uint64{5}},
		// The addi commits at 125 instead of 115, but the divide (issued
		// at 114, 20 cycles) commits at 134 either way.
		{desc: "a stall hidden behind a divide costs nothing",
			lines:  []string{"addi a3, a3, 1", "div a0, a1, a2"},
			stalls: []stallAt{{0, 10, 0}}, cycles: 135, base: 135, real: nil},
		// The addi commits at 115+25 = 140, the divide (done 134) with it.
		{desc: "a stall longer than the divide costs the difference",
			lines:  []string{"addi a3, a3, 1", "div a0, a1, a2"},
			stalls: []stallAt{{0, 25, 0}}, cycles: 141, base: 135, real: []uint64{6}},
		// ROB of 1: the second op dispatches when the first commits (115
		// without the stall, 120 with it), then issues, is done and
		// commits 2 cycles later. The stall reaches the end only through
		// back pressure: a commit-stage account alone sees the second op
		// done at 122 and committed at 122, on time.
		{desc: "back pressure: a full ROB passes the whole stall on",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.ROB, m.Core.IQ = 1, 1 },
			stalls: []stallAt{{0, 5, 0}}, cycles: 123, base: 118, real: []uint64{5}},
		// #0 commits at 118 (cause 0, lag 3), #1 with it, #2 stalls at 118
		// for 4 and commits at 122 (lag 7: +4 to cause 1).
		{desc: "two causes: each increase of the lag to the latest stall",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1", "addi a2, a2, 1"},
			stalls: []stallAt{{0, 3, 0}, {2, 4, 1}}, cycles: 123, base: 116, real: []uint64{3, 4}},
		// #0 commits at 125 (lag 10, cause 0), #1 at 135 (lag 20: +10 to
		// cause 1), the divide (done 134, 134 without the stalls) at 135
		// too: lag 1. The catch-up takes back the newest 19: cause 1's 10,
		// then 9 of cause 0's.
		{desc: "two causes: the catch-up takes back the newest first",
			lines:  []string{"addi a3, a3, 1", "addi a4, a4, 1", "div a0, a1, a2"},
			stalls: []stallAt{{0, 10, 0}, {1, 10, 1}}, cycles: 136, base: 135, real: []uint64{1}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			if tc.tweak != nil {
				tc.tweak(m)
			}
			insts := straight(t, codeBase, tc.lines...)
			base := feed(t, m, insts, 256, nil)
			require.Equal(t, tc.base, base.Cycles(), "without a hook")
			for _, skip := range []bool{true, false} {
				c := feed(t, m, insts, 256, func(c *Core) {
					c.noSkip = !skip
					c.SetRetireHook(hookOf(tc.stalls), cpu.AllClasses)
				})
				assert.Equal(t, tc.cycles, c.Cycles(), "cycles (skip %v)", skip)
				assert.Equal(t, tc.real, c.HookStallCycles(), "real stall cycles by cause (skip %v)", skip)
				blocked, real, diff := c.HookStallCost()
				want := uint64(0)
				for _, s := range tc.stalls {
					want += s.cycles
				}
				assert.Equal(t, want, blocked, "blocked")
				assert.Equal(t, tc.cycles-tc.base, real, "real = the cycles the stalls added")
				assert.Equal(t, int64(tc.cycles-tc.base), diff)
				checkStack(t, c, real)
				dropped := feed(t, m, insts, 256, func(c *Core) {
					c.noSkip = !skip
					c.SetRetireHook(hookOf(tc.stalls), cpu.AllClasses)
					c.SetDropHookStalls(true)
				})
				assert.Equal(t, tc.base, dropped.Cycles(), "stalls dropped")
				_, dr, _ := dropped.HookStallCost()
				assert.Zero(t, dr)
				assert.Equal(t, want, dropped.commit.cost.dropped)
			}
		})
	}
}

// checkStack: the CPI stack sums to the cycles and its profiler bucket is
// the real cost.
func checkStack(t *testing.T, c *Core, real uint64) {
	t.Helper()
	st := c.Stats()
	stack := st["cpi_stack"].(map[string]uint64)
	sum := uint64(0)
	for _, v := range stack {
		sum += v
	}
	assert.Equal(t, c.Cycles(), sum, "the CPI stack sums to the cycles")
	assert.Equal(t, real, stack["profiler"], "the profiler bucket is the real cost")
	commit := st["pipeline"].(map[string]any)["commit"].(map[string]any)
	assert.Equal(t, real, commit["retire_hook_stall_cycles_real"])
}

// TestHookCostProgram: on a loop with loads and stores, stalls every few
// loads cost exactly the cycles they add to the run (against the run
// with the hook's stalls dropped), less than they ask for, and a hook
// that never stalls costs nothing; the CPI stack of the stalled run is
// the dropped run's with the cost in the profiler bucket.
func TestHookCostProgram(t *testing.T) {
	code := loopProgram(t, "ld a2, 0(sp)", "addi a3, a2, 1", "sd a3, 8(sp)", "mul a5, a5, a3", "addi a4, a4, 1")
	const n = 400
	setup := func(h *cpu.CPU) { h.SetReg(5, n); h.SetReg(2, dataBase) }
	run := func(stall uint64, drop bool) *Core {
		h := newHart(t, code)
		setup(h)
		c, err := New(testMachine())
		require.NoError(t, err)
		c.SetRetireHook(func(r *Commit) uint64 {
			if r.D.Seq%17 == 3 {
				return stall
			}
			return 0
		}, cpu.AllClasses)
		c.SetDropHookStalls(drop)
		runOn(t, h, c)
		require.NoError(t, c.Finish())
		return c
	}
	none := run(0, false)
	_, real, diff := none.HookStallCost()
	assert.Zero(t, real, "no stall, no cost")
	assert.Zero(t, diff)
	for _, stall := range []uint64{1, 3, 40} {
		c, d := run(stall, false), run(stall, true)
		assert.Equal(t, none.Cycles(), d.Cycles(), "dropped stalls change nothing")
		blocked, real, _ := c.HookStallCost()
		assert.Equal(t, c.Cycles()-d.Cycles(), real, "stall %d: real = the cycles added", stall)
		assert.LessOrEqual(t, real, blocked, "stall %d", stall)
		t.Logf("stall %d: blocked %d, real %d", stall, blocked, real)
		checkStack(t, c, real)
		want := d.Stats()["cpi_stack"].(map[string]uint64)
		got := c.Stats()["cpi_stack"].(map[string]uint64)
		want["profiler"] = real
		assert.Equal(t, want, got, "stall %d: the stack is the dropped run's plus the cost", stall)
		var out strings.Builder
		c.Summary(&out)
		if real > 0 { // (an empty bucket is not printed)
			assert.Contains(t, out.String(), fmt.Sprintf("profiler %.1f%%", 100*float64(real)/float64(c.Cycles())), "--summary's cost line")
		} else {
			assert.NotContains(t, out.String(), "profiler 0")
		}
		assert.Contains(t, out.String(), fmt.Sprintf("profiler %d (%d delayed the run)", blocked, real))
	}
}

// TestTwinMatchesDropped: the twin, fed the core's staged slots (intake,
// fetch runs and, without an interval writer, the branch prediction done
// once, by the core: twinRunner), is the general path's model: a core fed
// the records themselves (its own intake and prediction) with the hook's
// stalls dropped. Its cycles and statistics are that core's, on every
// preset, the DISE stream (handler calls, dise.ret) and a stream that
// switches guest threads, in deliveries of random length; with shared
// prediction the core's predictor counts what the dropped run's counts
// (the twin's own is idle), and the cost is the difference of the cycles.
func TestTwinMatchesDropped(t *testing.T) {
	code, setup := mixedProgram(t)
	mixed := record(t, code, setup)
	threads := append([]cpu.DynInst(nil), mixed...)
	for i := range threads {
		threads[i].Tid = uint32(i / 3000 % 2)
	}
	streams := map[string][]cpu.DynInst{"mixed": mixed, "dise": diseProgram(t), "threads": threads}
	for name, s := range streams {
		for len(s) < 2*twinChunk+twinChunk/2 { // several batches, the last one partly filled
			s = append(s[:len(s):len(s)], s...)
		}
		streams[name] = s
	}
	hook := func(r *Commit) uint64 { return r.D.Seq % 89 / 88 * (30 + r.D.Seq%7) }
	costly, runs := 0, 0 // runs, and those whose stalls cost something
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		for sname, insts := range streams {
			if sname == "dise" && preset != "hps" {
				continue
			}
			for _, intervals := range []bool{false, true} {
				desc := fmt.Sprintf("%s/%s intervals %v", preset, sname, intervals)
				run := func(drop bool) *Core {
					c, err := New(m)
					require.NoError(t, err)
					c.SetRetireHook(hook, cpu.AllClasses)
					c.SetDropHookStalls(drop)
					if intervals {
						c.SetIntervalWriter(io.Discard, 5000)
					}
					d := deliverer{insts: insts, rng: rand.New(rand.NewPCG(5, 0))}
					d.run(c, c.CycleAt)
					require.NoError(t, c.Finish())
					return c
				}
				c, d := run(false), run(true)
				r := c.commit.cost.twin
				require.NotNil(t, r, desc)
				require.True(t, r.finished, desc)
				require.Equal(t, !intervals, r.predict, desc)
				require.False(t, c.fetch.pre, "%s: the predictor is the core's after Finish", desc)
				twin := r.core
				require.Equal(t, d.Cycles(), twin.Cycles(), "%s: the twin's cycles", desc)
				_, _, diff := c.HookStallCost()
				require.Equal(t, int64(c.Cycles())-int64(d.Cycles()), diff, desc)
				runs++
				if diff != 0 {
					costly++
				}
				want, got := d.Stats(), twin.Stats()
				delete(want["pipeline"].(map[string]any)["commit"].(map[string]any), "retire_hook_stall_cycles_dropped")
				delete(got["pipeline"].(map[string]any)["commit"].(map[string]any), "retire_hook_stall_cycles_dropped")
				if r.predict {
					require.Equal(t, want["bpred"], c.Stats()["bpred"], "%s: the shared predictor", desc)
					want["bpred"], got["bpred"] = nil, nil
				}
				require.Equal(t, want, got, "%s: the twin's statistics", desc)
			}
		}
	}
	t.Logf("the stalls cost something in %d of %d runs", costly, runs)
	require.NotZero(t, costly, "the stalls cost something")
}

// TestStallCostUnknownMidRun: while the twin runs, the stalls' real cost
// is not known (its account is the twin's), so Stats leaves it out rather
// than give 0; after Finish it is there, and with the stalls dropped (no
// twin) it is there throughout.
func TestStallCostUnknownMidRun(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	realOf := func(c *Core) (any, bool) {
		v, ok := c.Stats()["pipeline"].(map[string]any)["commit"].(map[string]any)["retire_hook_stall_cycles_real"]
		return v, ok
	}
	for _, drop := range []bool{false, true} {
		c, err := New(testMachine())
		require.NoError(t, err)
		c.SetRetireHook(func(r *Commit) uint64 { return r.D.Seq % 5 }, cpu.AllClasses)
		c.SetDropHookStalls(drop)
		c.Retire(insts[:len(insts)/2])
		_, ok := realOf(c)
		assert.Equal(t, drop, ok, "drop %v: mid-run", drop)
		c.Retire(insts[len(insts)/2:])
		require.NoError(t, c.Finish())
		v, ok := realOf(c)
		require.True(t, ok, "drop %v: after Finish", drop)
		_, real, _ := c.HookStallCost()
		assert.Equal(t, real, v)
		if !drop {
			assert.NotZero(t, real, "the stalls cost something")
		}
	}
}

// TestUnmeasuredStalls: a core whose hook's stalls are honoured but not
// measured (SetMeasureHookStalls(false)), inline or on its own goroutine,
// has the cycles and statistics of one that measures them, without a
// twin and without the real cost (left out, not 0).
func TestUnmeasuredStalls(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	hook := func(r *Commit) uint64 { return r.D.Seq % 7 / 6 * 9 }
	run := func(measure, async bool) *Core {
		c, err := New(testMachine())
		require.NoError(t, err)
		c.SetRetireHook(hook, cpu.AllClasses)
		c.SetMeasureHookStalls(measure)
		if async {
			a := NewAsync(c)
			a.Retire(insts)
			require.Equal(t, measure, c.commit.cost.twin != nil, "measure %v: the twin", measure)
			require.NoError(t, a.Finish())
		} else {
			c.Retire(insts)
			require.Equal(t, measure, c.commit.cost.twin != nil, "measure %v: the twin", measure)
			require.NoError(t, c.Finish())
		}
		return c
	}
	commitStats := func(c *Core) map[string]any {
		return c.Stats()["pipeline"].(map[string]any)["commit"].(map[string]any)
	}
	for _, async := range []bool{false, true} {
		measured, unmeasured := run(true, async), run(false, async)
		require.True(t, measured.HookStallsMeasured())
		require.False(t, unmeasured.HookStallsMeasured())
		require.Equal(t, measured.Cycles(), unmeasured.Cycles(), "async %v", async)
		require.NotEmpty(t, measured.HookStallCycles())
		require.Nil(t, unmeasured.HookStallCycles())
		want := commitStats(measured)
		require.NotZero(t, want["retire_hook_stall_cycles_real"], "the stalls cost something")
		delete(want, "retire_hook_stall_cycles_real")
		got := commitStats(unmeasured)
		require.NotContains(t, got, "retire_hook_stall_cycles_real")
		require.Equal(t, want, got, "async %v", async)
	}
}
