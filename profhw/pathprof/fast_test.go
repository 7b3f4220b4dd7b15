package pathprof_test

import (
	"math/rand"
	"runtime"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordTest records a benchmark's control transfers on its test input.
func recordTest(t *testing.T, name string) ([]cpu.DynInst, uint64) {
	bin, args := benchmark(t, name)
	for i, a := range args {
		if a == "bench.lisp" {
			args[i] = "../../benchmarks/lisp/bench.lisp"
		}
	}
	_, _, rec := runUnit(t, bin, args, nil, nil)
	return rec.recs, rec.first
}

// unitResult is everything a unit computed.
type unitResult struct {
	Summary *profhw.Summary
	HPT     []pathprof.Entry
	Exact   []pathprof.ExactRec
	Stats   pathprof.StackStats
	Stalls  []uint64
	Outputs []profhw.Output
}

// feed runs recs through a unit of cfg (functional: in batches of 256;
// timing: as commits three cycles apart with seeded events) and returns
// what it computed.
func feed(t *testing.T, cfg pathprof.Config, mode profhw.Mode, recs []cpu.DynInst, entry uint64, fast bool, maxLen uint8) unitResult {
	u, err := pathprof.New("u", cfg, profhw.Env{Mode: mode, Entry: entry})
	require.NoError(t, err)
	pathprof.SetFast(u, fast)
	if maxLen > 0 {
		u.Stack().SetMaxLen(maxLen)
	}
	var stalls []uint64
	if mode == profhw.Functional {
		for r := recs; len(r) > 0; {
			n := min(256, len(r))
			u.Retire(r[:n])
			r = r[n:]
		}
	} else {
		rng := rand.New(rand.NewSource(7))
		evs := []pipeline.Events{0, pipeline.EvL1IAccess, pipeline.EvL1DAccess | pipeline.EvL1DMiss, pipeline.EvL2Access | pipeline.EvL2Miss, pipeline.EvMispredict}
		var c pipeline.Commit
		for j := range recs {
			c.D, c.Cycle, c.Ev = &recs[j], uint64(j)*3, evs[rng.Intn(len(evs))]
			stalls = append(stalls, u.Commit(&c))
		}
	}
	n := uint64(0)
	if len(recs) > 0 {
		n = recs[len(recs)-1].Seq + 5
	}
	require.NoError(t, u.Finish(profhw.End{Instructions: n, Cycles: 3 * n}))
	outs, err := u.Outputs(nil)
	require.NoError(t, err)
	return unitResult{Summary: u.Summary(), HPT: u.HPT().Entries(), Exact: u.Exact().Recs, Stats: u.Stack().Stats, Stalls: stalls, Outputs: outs}
}

// TestFastPathMatchesGeneral: the common configuration's fast paths
// compute what the general path computes, on benchmark streams that
// overflow, underflow and split the stack, in both modes.
func TestFastPathMatchesGeneral(t *testing.T) {
	lisp, lispEntry := recordTest(t, "lisp")
	lz, lzEntry := recordTest(t, "lz")
	for _, tc := range []struct {
		desc   string
		recs   []cpu.DynInst
		entry  uint64
		mode   profhw.Mode
		maxLen uint8
		edit   func(c *pathprof.Config)
	}{
		{desc: "lisp, path-bl", recs: lisp, entry: lispEntry},
		{desc: "lz, path-bl", recs: lz, entry: lzEntry},
		{desc: "lisp, depth 4: overflows, underflows, the reference takes over", recs: lisp, entry: lispEntry, edit: func(c *pathprof.Config) { c.Depth = 4 }},
		{desc: "lisp, depth 4, spill", recs: lisp, entry: lispEntry, edit: func(c *pathprof.Config) { c.Depth, c.Overflow = 4, pathprof.Spill }},
		{desc: "lz, paths split at 5 branches", recs: lz, entry: lzEntry, maxLen: 5},
		{desc: "lisp, instructions metric, no windows", recs: lisp, entry: lispEntry, edit: func(c *pathprof.Config) { c.Metric, c.Window = pathprof.Instructions, 0 }},
		{desc: "lisp, 8-bit counters, windows of 1000", recs: lisp, entry: lispEntry, edit: func(c *pathprof.Config) { c.Metric, c.CounterBits, c.Window = pathprof.Instructions, 8, 1000 }},
		{desc: "lisp, timing, depth 4", recs: lisp, entry: lispEntry, mode: profhw.Timing, edit: func(c *pathprof.Config) { c.Depth = 4 }},
		{desc: "lz, timing, power", recs: lz, entry: lzEntry, mode: profhw.Timing, edit: func(c *pathprof.Config) { c.Metric = pathprof.Power }},
		{desc: "lisp, timing, cycles, no queue", recs: lisp, entry: lispEntry, mode: profhw.Timing, edit: func(c *pathprof.Config) { c.Metric, c.Queue = pathprof.Cycles, 0 }},
	} {
		cfg := pathprof.DefaultConfig()
		if tc.edit != nil {
			tc.edit(&cfg)
		}
		general := feed(t, cfg, tc.mode, tc.recs, tc.entry, false, tc.maxLen)
		fast := feed(t, cfg, tc.mode, tc.recs, tc.entry, true, tc.maxLen)
		require.NotEmpty(t, general.Exact, tc.desc)
		assert.Equal(t, general, fast, tc.desc)
	}
}

// TestReferenceInlineOrOffloaded: the reference computes the same with
// its own goroutine and inline (GOMAXPROCS 1), and when its records are
// replayed in batches of any size (records split across batches).
func TestReferenceInlineOrOffloaded(t *testing.T) {
	lisp, entry := recordTest(t, "lisp")
	cfg := pathprof.DefaultConfig()
	cfg.Depth = 4
	offloaded := feed(t, cfg, profhw.Functional, lisp, entry, true, 0)
	prev := runtime.GOMAXPROCS(1)
	inline := feed(t, cfg, profhw.Functional, lisp, entry, true, 0)
	runtime.GOMAXPROCS(prev)
	assert.Equal(t, offloaded, inline)

	u, err := pathprof.New("u", cfg, profhw.Env{Mode: profhw.Functional, Entry: entry})
	require.NoError(t, err)
	var words []uint64
	pathprof.CaptureReference(u, &words)
	u.Retire(lisp)
	require.NoError(t, u.Finish(profhw.End{}))
	for _, batch := range []int{1, 2, 3, 5, 7, 8192} {
		x := pathprof.ReplayReference(u, words, batch)
		assert.Equal(t, offloaded.Exact, x.Recs, "batches of %d words", batch)
	}
}

// TestReferenceRecordsUnpacked: branches and paths whose fields do not
// fit the packed forms (a far target, a block of more than 2^16
// instructions, a path far from the last target, weights other than 1)
// reach the reference intact, on the fast and the general path.
func TestReferenceRecordsUnpacked(t *testing.T) {
	const far = 0x7fff_0000_0000
	in := func(c isa.Class, l uint8) isa.Inst { return isa.Inst{Class: c, Len: l} }
	recs := []cpu.DynInst{
		{Seq: 0, PC: 0x1000, NextPC: 0x2000, Taken: true, Inst: in(isa.Call, 4)},            // the full 1-entry stack: the reference takes over
		{Seq: 70001, PC: 0x2004, NextPC: far, Taken: true, Inst: in(isa.Jal, 4)},            // 70001 instructions, a far target
		{Seq: 70004, PC: far + 8, NextPC: far + 0x40, Taken: true, Inst: in(isa.Branch, 2)}, // a compressed forward branch
		{Seq: 70005, PC: far + 0x44, NextPC: far, Taken: true, Inst: in(isa.Branch, 4)},     // backward: the path from 0x2000 ends
		{Seq: 70011, PC: far + 0x48, NextPC: 0x1004, Taken: true, Inst: in(isa.Return, 4)},  // back to the caller
	}
	cfg := pathprof.DefaultConfig()
	cfg.Depth, cfg.Metric = 1, pathprof.Instructions
	general := feed(t, cfg, profhw.Functional, recs, 0x1000, false, 0)
	fast := feed(t, cfg, profhw.Functional, recs, 0x1000, true, 0)
	assert.Equal(t, general, fast)
	require.Len(t, general.Exact, 2)
	assert.Equal(t, pathprof.Desc{Start: 0x2000, Len: 3, Dirs: 0b111}, general.Exact[0].Desc)
	assert.Equal(t, uint64(70005), general.Exact[0].Insts)
	assert.Equal(t, uint64(70005), general.Exact[0].Weight, "instructions along the path")
	assert.Equal(t, pathprof.Desc{Start: far}, general.Exact[1].Desc)
	assert.Equal(t, uint64(6), general.Exact[1].Insts)
}

// TestAsyncMatchesInline: in functional mode with a second core the
// hardware model runs on the reference's goroutine, fed the control
// tap's records; it computes what it computes on the simulation's
// goroutine, from full records (Retire) or from the control tap's
// (RetireControls), inline or not.
func TestAsyncMatchesInline(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2")
	}
	lisp, entry := recordTest(t, "lisp")
	for _, tc := range []struct {
		desc string
		edit func(c *pathprof.Config)
		recs []cpu.DynInst // (lisp's)
	}{
		{desc: "path-bl"},
		{desc: "depth 4, spill", edit: func(c *pathprof.Config) { c.Depth, c.Overflow = 4, pathprof.Spill }},
		{desc: "depth 2, drop (the reference takes over)", edit: func(c *pathprof.Config) { c.Depth = 2 }},
		{desc: "forward runs longer than a path", recs: longForwardRuns(entry)},
		{desc: "depth 2, forward runs longer than a path", edit: func(c *pathprof.Config) { c.Depth = 2 }, recs: longForwardRuns(entry)},
		{desc: "wpp, instructions", edit: func(c *pathprof.Config) { c.PPCR, c.Metric = pathprof.WPP, pathprof.Instructions }},
		{desc: "extended loops", edit: func(c *pathprof.Config) { c.PPCR = pathprof.Extended(pathprof.ExtendLoops, 2) }},
		{desc: "phase detection", edit: func(c *pathprof.Config) {
			c.Metric, c.Phase = pathprof.Instructions, pathprof.DefaultPhaseConfig()
			c.Phase.Enabled, c.Phase.Interval = true, 100_000
		}},
	} {
		cfg := pathprof.DefaultConfig()
		if tc.edit != nil {
			tc.edit(&cfg)
		}
		lisp := lisp
		if tc.recs != nil {
			lisp = tc.recs
		}
		run := func(inline, controls bool) unitResult {
			u, err := pathprof.New("u", cfg, profhw.Env{Mode: profhw.Functional, Entry: entry})
			require.NoError(t, err)
			if inline {
				pathprof.Inline(u)
			}
			if controls {
				// The core's control tap: the application's control
				// transfers, in batches of another size.
				require.True(t, u.TakesControls())
				var recs []cpu.TapControl
				for i := range lisp {
					if d := &lisp[i]; !d.Injected && !d.Handler && profhw.Control.Has(d.Inst.Class) {
						recs = append(recs, cpu.ControlOf(d))
					}
				}
				for len(recs) > 0 {
					n := min(300, len(recs))
					u.RetireControls(recs[:n])
					recs = recs[n:]
				}
			}
			for r := lisp; len(r) > 0 && !controls; {
				n := min(256, len(r))
				u.Retire(r[:n])
				r = r[n:]
			}
			require.NoError(t, u.Finish(profhw.End{Instructions: lisp[len(lisp)-1].Seq + 5}))
			outs, err := u.Outputs(nil)
			require.NoError(t, err)
			return unitResult{Summary: u.Summary(), HPT: u.HPT().Entries(), Exact: u.Exact().Recs, Stats: u.Stack().Stats, Outputs: outs}
		}
		inline := run(true, false)
		require.NotEmpty(t, inline.HPT, tc.desc)
		assert.Equal(t, inline, run(false, false), tc.desc)
		assert.Equal(t, inline, run(false, true), tc.desc+", control tap")
		assert.Equal(t, inline, run(true, true), tc.desc+", control tap, inline")
	}
}

// longForwardRuns is a stream of calls nested three deep, each callee a
// run of forward branches longer than a path (MaxLen), some taken, and
// the returns: the hardware stack overflows at depth 2 and both stacks'
// top paths fill up in the middle of a run.
func longForwardRuns(entry uint64) []cpu.DynInst {
	var recs []cpu.DynInst
	seq := uint64(0)
	add := func(k isa.Class, pc, next uint64) {
		seq += 3
		d := cpu.DynInst{Seq: seq, PC: pc, NextPC: next, Taken: next != pc+4}
		d.Inst.Class, d.Inst.Len = k, 4
		recs = append(recs, d)
	}
	for rep := range 40 {
		pc := entry
		for k := range 3 {
			add(isa.Call, pc, 0x10000*uint64(k+1))
			pc = 0x10000 * uint64(k+1)
		}
		for b := range pathprof.MaxLen + 5 + rep%7 {
			next := pc + 4
			if (b+rep)%3 == 0 {
				next = pc + 8
			}
			add(isa.Branch, pc, next)
			pc = next
		}
		for k := 3; k > 0; k-- {
			ret := entry + 4
			if k > 1 {
				ret = 0x10000*uint64(k-1) + 4
			}
			add(isa.Return, pc, ret)
			pc = ret + 0x40
		}
		add(isa.Jal, pc, entry)
	}
	return recs
}

// TestControlRange: Commit and the asynchronous Retire test the control
// classes as the range Branch..Return; it must be profhw.Control.
func TestControlRange(t *testing.T) {
	for c := isa.Class(0); c < isa.NumClasses; c++ {
		assert.Equal(t, profhw.Control>>c&1 != 0, c-isa.Branch <= isa.Return-isa.Branch, c.String())
	}
}

// TestCommitWatch: in timing mode only a timed metric needs every
// commit; the others see the control transfers alone.
func TestCommitWatch(t *testing.T) {
	for _, tc := range []struct {
		desc string
		m    pathprof.Metric
		want profhw.ClassMask
	}{
		{"frequency", pathprof.Frequency, profhw.Control},
		{"instructions", pathprof.Instructions, profhw.Control},
		{"cycles: every instruction", pathprof.Cycles, 0},
		{"power: every instruction", pathprof.Power, 0},
	} {
		cfg := pathprof.DefaultConfig()
		cfg.Metric = tc.m
		u, err := pathprof.New("u", cfg, profhw.Env{Mode: profhw.Timing})
		require.NoError(t, err)
		w := u.Watch()
		assert.True(t, w.Committed, tc.desc)
		assert.Equal(t, tc.want, w.CommitClasses, tc.desc)
		require.NoError(t, u.Finish(profhw.End{}))
	}
}
