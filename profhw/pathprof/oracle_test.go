package pathprof_test

import (
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The path oracle: an independent reference that rebuilds the paths from
// the committed instruction stream, written from the definitions of
// hardware-path-profiling.md and docs/PROFHW.md, sharing no code with
// pathprof.Stack (nor its classification: it reads the opcodes and the
// link registers itself).
//
//   - §2, Table 1 (BL paths): a path starts at the program's entry, at a
//     procedure's entry (a call's target), after a backward or indirect
//     branch (at its target) and after a return (at its target, in the
//     caller, where the caller's path resumes: the caller's path is the
//     one that was interrupted by the call). A path ends at a backward
//     branch, an indirect branch (both recorded in it) and at a return. A
//     call adds its block to the caller's path without a direction bit.
//   - Table 2 (WPP subpaths): calls and returns end the path as well; the
//     next starts at their target.
//   - §3: a path longer than 32 branches is split after its 32nd; the rest
//     starts at that branch's target.
//   - §3 overflow (drop policy): a push onto a full stack of depth entries
//     loses the bottom one; a return that empties the stack starts an
//     incomplete path at its target, which is ignored when it ends.
//   - docs/PROFHW.md, the longjmp repair: a return whose target is not the
//     return address of the call that opened the top frame lands in the
//     newest frame whose callee was called from the target, or where a
//     return last landed at the target (setjmp returned there once); the
//     frames between are abandoned (their paths are not recorded).
type oracle struct {
	wpp    bool
	depth  int // 0: unbounded
	frames []oFrame
	next   uint64 // the sequence number after the last control transfer
	paths  map[pathprof.Desc]oRec

	drops, repairs, unmatched, abandoned uint64
	jumpTables, indirectCalls            uint64          // indirect jumps (jr) and calls through a register (jalr ra)
	seq                                  []pathprof.Desc // the complete paths in order (when not nil)
}

type oFrame struct {
	start   uint64
	n       int
	dirs    uint32
	insts   uint64
	lost    bool
	link    uint64 // the return address of the call that opened the frame (0: none)
	lastRet uint64 // where a return last landed in this frame
}

type oRec struct{ freq, insts uint64 }

func newOracle(entry uint64, wpp bool, depth int) *oracle {
	return &oracle{wpp: wpp, depth: depth, frames: []oFrame{{start: entry}}, paths: map[pathprof.Desc]oRec{}}
}

// oKind is the oracle's own reading of a control transfer (the RISC-V
// manual's link-register hints for JAL and JALR, Table 2.1).
type oKind int

const (
	oNone oKind = iota
	oCall
	oReturn
	oIndirect
	oForward
	oBackward
)

func oClassify(d *cpu.DynInst) oKind {
	link := func(r uint8) bool { return r == 1 || r == 5 }
	dir := func() oKind {
		if d.Taken && d.NextPC <= d.PC {
			return oBackward
		}
		return oForward
	}
	switch d.Inst.Op {
	case isa.JAL:
		if link(d.Inst.Rd) {
			return oCall
		}
		return dir()
	case isa.JALR:
		switch {
		case link(d.Inst.Rd):
			return oCall
		case link(d.Inst.Rs1):
			return oReturn
		}
		return oIndirect
	case isa.BEQ, isa.BNE, isa.BLT, isa.BGE, isa.BLTU, isa.BGEU:
		return dir()
	}
	return oNone
}

func (o *oracle) top() *oFrame { return &o.frames[len(o.frames)-1] }

func (o *oracle) record(f *oFrame) {
	if f.lost {
		return
	}
	d := pathprof.Desc{Start: f.start, Len: uint8(f.n), Dirs: f.dirs}
	if o.seq != nil {
		o.seq = append(o.seq, d)
	}
	r := o.paths[d]
	r.freq++
	r.insts += f.insts
	o.paths[d] = r
}

// restart ends the top frame's path and starts the next at target, in the
// same frame.
func (o *oracle) restart(target uint64) {
	t := o.top()
	o.record(t)
	*t = oFrame{start: target, link: t.link, lastRet: t.lastRet}
}

func (o *oracle) push(f oFrame) {
	if o.depth > 0 && len(o.frames) == o.depth {
		o.drops++
		o.frames = append(o.frames[:0], o.frames[1:]...)
	}
	o.frames = append(o.frames, f)
}

// branch adds a direction bit; a path of 32 branches is split.
func (o *oracle) branch(taken bool, target uint64) (full bool) {
	t := o.top()
	if taken {
		t.dirs |= 1 << t.n
	}
	t.n++
	return t.n == 32
}

func (o *oracle) retire(d *cpu.DynInst) {
	if d.Injected || d.Handler {
		return
	}
	k := oClassify(d)
	if k == oNone {
		return
	}
	if d.Inst.Op == isa.JALR {
		switch k {
		case oIndirect:
			o.jumpTables++
		case oCall:
			o.indirectCalls++
		}
	}
	insts := d.Seq + 1 - o.next
	o.next = d.Seq + 1
	target := d.NextPC
	switch k {
	case oCall:
		o.top().insts += insts
		if o.wpp {
			o.restart(target)
			return
		}
		o.push(oFrame{start: target, link: d.PC + uint64(d.Inst.Len)})
	case oReturn:
		if o.wpp {
			o.top().insts += insts
			o.restart(target)
			return
		}
		if t := o.top(); t.link != 0 && !t.lost && t.link != target {
			o.repair(target)
		}
		t := o.top()
		t.insts += insts
		o.record(t)
		o.frames = o.frames[:len(o.frames)-1]
		if len(o.frames) == 0 {
			o.frames = append(o.frames, oFrame{start: target, lost: true})
		} else {
			o.top().lastRet = target
		}
	case oForward:
		o.top().insts += insts
		if o.branch(d.Taken, target) {
			o.restart(target)
		}
	case oBackward, oIndirect:
		o.top().insts += insts
		o.branch(d.Taken, target)
		o.restart(target)
	}
}

func (o *oracle) repair(target uint64) {
	fs := o.frames
	for j := len(fs) - 2; j >= 0; j-- {
		if fs[j+1].link == target || fs[j].lastRet == target {
			o.repairs++
			o.abandoned += uint64(len(fs) - 2 - j)
			top := fs[len(fs)-1]
			o.frames = append(fs[:j+1], top)
			return
		}
	}
	o.unmatched++
}

// oracleObserver feeds the oracles every retired instruction.
type oracleObserver struct {
	first   uint64
	started bool
	os      []*oracle
	entry   func(uint64) []*oracle
}

func (r *oracleObserver) Retire(b []cpu.DynInst) {
	for i := range b {
		if !r.started {
			r.started = true
			r.os = r.entry(b[i].PC)
		}
		for _, o := range r.os {
			o.retire(&b[i])
		}
	}
}

func guestProgram(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built (make testprogs)", path)
		}
		t.Skipf("%s is not built (make testprogs)", path)
	}
	return path
}

// TestExactAgainstOracle: on programs whose recursion is deeper than the
// 32-entry path stack (overflows, underflows), that longjmp out of deep
// and shallow recursion (and out of signal handlers), and that dispatch
// through jump tables and call through function pointers, (1) the unit's
// exact profile is the oracle's unbounded one, path by path, in frequency
// and instructions; (2) the hardware stack's complete paths (an HPT large
// enough to keep them all) are the oracle's with the same 32-entry drop
// policy, and so are its overflow, repair and unmatched-return counts;
// (3) with the spill policy the hardware paths are the unbounded ones;
// (4) the same holds for WPP subpaths.
func TestExactAgainstOracle(t *testing.T) {
	progs := []string{
		guestProgram(t, "../../build/testprogs/pathprof/paths"),
		guestProgram(t, "../../build/testprogs/signals/segv_jmp"),
	}
	for _, prog := range progs {
		for _, tc := range []struct {
			desc  string
			vals  map[string]any
			wpp   bool
			spill bool
		}{
			{"bl drop", map[string]any{}, false, false},
			{"bl spill", map[string]any{"stack.overflow": "spill"}, false, true},
			{"wpp", map[string]any{"paths": "wpp"}, true, false},
		} {
			desc := prog + " " + tc.desc
			tc.vals["hpt.entries"] = int64(1 << 16)
			tc.vals["hpt.ways"] = int64(16)
			var unb, hw *oracle
			obs := &oracleObserver{entry: func(pc uint64) []*oracle {
				unb = newOracle(pc, tc.wpp, 0)
				depth := 32
				if tc.spill {
					depth = 0
				}
				hw = newOracle(pc, tc.wpp, depth)
				return []*oracle{unb, hw}
			}}
			uc := profhw.NewUnitConfig("p", "path", tc.vals)
			mc, err := sim.Load(sim.Config{Program: prog, ProfHW: []*profhw.UnitConfig{uc}, Observers: []cpu.Observer{obs},
				Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
			require.NoError(t, err)
			res := mc.Run()
			require.NoError(t, res.ProfHWErr)
			require.Contains(t, []sim.StopKind{sim.StopExit, sim.StopSignal}, res.Stop, res.Message)
			u := mc.ProfHW().Units()[0].(*pathprof.Unit)
			s := u.Summary().Extra

			// (1) the exact profile.
			got := map[pathprof.Desc]oRec{}
			for _, r := range u.Exact().Recs {
				got[r.Desc] = oRec{r.Freq, r.Insts}
				assert.Equal(t, r.Freq, r.Weight, "%s: frequency metric", desc)
			}
			assert.Equal(t, len(unb.paths), len(got), desc)
			assert.Equal(t, unb.paths, got, "%s: exact profile against the oracle", desc)

			// (2), (3) the hardware's paths.
			require.Equal(t, uint64(0), s["hpt_replacements"], "%s: the HPT keeps every path", desc)
			hwFreq := map[pathprof.Desc]uint64{}
			for d, r := range hw.paths {
				hwFreq[d] = r.freq
			}
			assert.Equal(t, hwFreq, u.HPT().Weights(), "%s: hardware paths against the bounded oracle", desc)
			if tc.spill {
				assert.Greater(t, s["spill_writes"], uint64(0), "%s: entries spilled", desc)
			} else {
				assert.Equal(t, hw.drops, s["stack_overflows"], "%s: overflows", desc)
			}
			assert.Equal(t, hw.repairs, s["longjmp_repairs"], "%s: repairs", desc)
			assert.Equal(t, hw.unmatched, s["returns_unmatched"], "%s: unmatched returns", desc)
			assert.Equal(t, hw.abandoned, s["entries_abandoned"], "%s: abandoned entries", desc)
			t.Logf("%s: %d distinct paths exact, %d hardware; overflows %d, repairs %d (unbounded %d), unmatched %d",
				desc, len(unb.paths), len(hw.paths), hw.drops, hw.repairs, unb.repairs, hw.unmatched)
			if !tc.wpp && !tc.spill {
				// The programs do what they are here for.
				assert.Greater(t, hw.drops, uint64(0), "%s: the stack overflows", desc)
				assert.Greater(t, unb.repairs, uint64(0), "%s: longjmp repairs", desc)
				unbFreq := map[pathprof.Desc]uint64{}
				for d, r := range unb.paths {
					unbFreq[d] = r.freq
				}
				assert.NotEqual(t, unbFreq, hwFreq, "%s: the bounded stack loses paths", desc)
				if prog == progs[0] {
					assert.Greater(t, unb.jumpTables, uint64(2000), "%s: jump-table dispatches", desc)
					assert.Greater(t, unb.indirectCalls, uint64(3000), "%s: calls through pointers", desc)
				}
			}
		}
	}
}

// TestSummaryHasNoAnalyticOverhead: the path profiler has no analytic
// delivery model (its cost is commit stalls), so its summary has no
// analytic overhead fields rather than a 0 that reads as free; the
// common fields it has are there.
func TestSummaryHasNoAnalyticOverhead(t *testing.T) {
	prog := guestProgram(t, "../../build/testprogs/pathprof/paths")
	uc := profhw.NewUnitConfig("p", "path", nil)
	mc, err := sim.Load(sim.Config{Program: prog, ProfHW: []*profhw.UnitConfig{uc},
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
	require.NoError(t, err)
	res := mc.Run()
	require.NoError(t, res.ProfHWErr)
	data, err := json.Marshal(mc.ProfHW().Units()[0].Summary())
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	assert.NotContains(t, m, "overhead_percent_analytic")
	assert.NotContains(t, m, "overhead_cycles_analytic")
	for _, k := range []string{"unit", "kind", "events", "stall_cycles", "storage_bits", "error_percent", "run_cycles", "overlap_complete_percent"} {
		assert.Contains(t, m, k)
	}
}

// TestWPPGrammar: with wpp.grammar the unit's grammar generates exactly
// the sequence of complete WPP subpaths, which the oracle rebuilds
// independently (the subpaths in order, as a sequence of ids), and it is
// smaller than the sequence.
func TestWPPGrammar(t *testing.T) {
	prog := guestProgram(t, "../../build/testprogs/pathprof/paths")
	var o *oracle
	obs := &oracleObserver{entry: func(pc uint64) []*oracle {
		o = newOracle(pc, true, 0)
		o.seq = []pathprof.Desc{}
		return []*oracle{o}
	}}
	uc := profhw.NewUnitConfig("p", "path", map[string]any{"paths": "wpp", "wpp.grammar": true})
	mc, err := sim.Load(sim.Config{Program: prog, ProfHW: []*profhw.UnitConfig{uc}, Observers: []cpu.Observer{obs},
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
	require.NoError(t, err)
	res := mc.Run()
	require.NoError(t, res.ProfHWErr)
	u := mc.ProfHW().Units()[0].(*pathprof.Unit)
	g := u.Grammar()
	require.NotNil(t, g)
	// The grammar's terminals number the subpaths in order of first
	// appearance: renumber the oracle's sequence the same way.
	ids := map[pathprof.Desc]uint32{}
	var want []uint32
	for _, d := range o.seq {
		id, ok := ids[d]
		if !ok {
			id = uint32(len(ids))
			ids[d] = id
		}
		want = append(want, id)
	}
	got := g.Expand()
	require.Equal(t, len(want), len(got))
	assert.Equal(t, want, got)
	s := u.Summary().Extra
	assert.Equal(t, uint64(len(want)), s["wpp_subpaths"])
	assert.Greater(t, s["wpp_compression_ratio"].(float64), 2.0)
	t.Logf("%d subpaths, %d rules, %d symbols", len(want), g.Rules(), g.Symbols())

	assert.Equal(t, false, s["wpp_grammar_full"])

	// A bound on the grammar: it stops growing, the rest is counted, and
	// what it holds is the sequence's beginning.
	uc = profhw.NewUnitConfig("p", "path", map[string]any{"paths": "wpp", "wpp.grammar": true, "wpp.max_symbols": int64(1000)})
	mc, err = sim.Load(sim.Config{Program: prog, ProfHW: []*profhw.UnitConfig{uc},
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
	require.NoError(t, err)
	require.NoError(t, mc.Run().ProfHWErr)
	u = mc.ProfHW().Units()[0].(*pathprof.Unit)
	s = u.Summary().Extra
	assert.Equal(t, true, s["wpp_grammar_full"])
	assert.Equal(t, uint64(len(want)), s["wpp_subpaths"])
	n := s["wpp_subpaths_compressed"].(uint64)
	assert.Less(t, n, uint64(len(want)))
	assert.LessOrEqual(t, u.Grammar().Symbols(), 1001)
	assert.Equal(t, want[:n], u.Grammar().Expand())

	_, err = pathprof.ReadConfig(profhw.NewUnitConfig("p", "path", map[string]any{"wpp.grammar": true}), profhw.Functional)
	assert.ErrorContains(t, err, `wpp.grammar: needs paths = "wpp"`)
}
