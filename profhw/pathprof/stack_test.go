package pathprof

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// br is one scripted control transfer: its class, PC, successor and the
// instructions of its block (since the previous branch, itself included).
type br struct {
	class  isa.Class
	pc, to uint64
	taken  bool
	insts  uint64
}

// dyn turns a script into the functional core's records (4-byte
// instructions, sequence numbers from the block sizes).
func dyn(script []br) []cpu.DynInst {
	var out []cpu.DynInst
	var seq uint64
	for _, b := range script {
		seq += b.insts
		out = append(out, cpu.DynInst{Seq: seq - 1, PC: b.pc, NextPC: b.to, Taken: b.taken,
			Inst: isa.Inst{Class: b.class, Len: 4}})
	}
	return out
}

// run feeds a script to a stack through Classify and returns the paths
// it emitted.
func run(t *testing.T, s *Stack, script []br) []Path {
	t.Helper()
	var out []Path
	for _, d := range dyn(script) {
		ty, ok := Classify(&d)
		require.True(t, ok)
		s.Branch(ty, d.PC, d.NextPC, d.PC+4, d.Taken, 0, 0)
		out = append(out, s.Out()...)
	}
	return out
}

// runInsts feeds a script with each block's instructions as its events.
func runInsts(s *Stack, script []br) []Path {
	var out []Path
	var prev uint64
	for _, d := range dyn(script) {
		ty, _ := Classify(&d)
		n := d.Seq + 1 - prev
		prev = d.Seq + 1
		s.Branch(ty, d.PC, d.NextPC, d.PC+4, d.Taken, n, n)
		out = append(out, s.Out()...)
	}
	return out
}

// fig5 is our version of the paper's Fig. 5 (the figure's drawing is not
// in the text we have; its caption fixes B1 and B4 without branches and
// B2 ending in an unconditional jump to B3): a procedure with a loop
//
//	B1 0x1000: 2 insts (falls into B2)
//	B2 0x1008: 1 inst; j B3            (0x100c, forward, always taken)
//	B3 0x1018: 1 inst; beq B5          (0x101c, forward)
//	B4 0x1020: 2 insts (falls into B5)
//	B5 0x1028: 1 inst; bne B2          (0x102c, backward: the loop)
//	B6 0x1030: ret
//
// called from 0x1ffc (the program starts at 0x1ff0); the caller then runs
// beq 0x2004 -> 0x2010 and an indirect jump at 0x2010 to 0x3000. The loop
// runs three iterations: B4 executed, skipped, executed.
var fig5 = []br{
	{isa.Call, 0x1ffc, 0x1000, true, 4},
	{isa.Jal, 0x100c, 0x1018, true, 4},     // iteration 1: B1 B2
	{isa.Branch, 0x101c, 0x1020, false, 2}, // B3, falls into B4
	{isa.Branch, 0x102c, 0x1008, true, 4},  // B4 B5, back to B2
	{isa.Jal, 0x100c, 0x1018, true, 2},     // iteration 2
	{isa.Branch, 0x101c, 0x1028, true, 2},  // skips B4
	{isa.Branch, 0x102c, 0x1008, true, 2},
	{isa.Jal, 0x100c, 0x1018, true, 2}, // iteration 3
	{isa.Branch, 0x101c, 0x1020, false, 2},
	{isa.Branch, 0x102c, 0x1030, false, 4}, // the loop exits (a backward branch not taken is forward)
	{isa.Return, 0x1030, 0x2000, true, 1},
	{isa.Branch, 0x2004, 0x2010, true, 2},
	{isa.Jalr, 0x2010, 0x3000, true, 1},
}

func p(start uint64, n uint8, dirs uint32, insts uint64) Path {
	return Path{Desc: Desc{Start: start, Len: n, Dirs: dirs}, Insts: insts, Events: insts}
}

// TestFig5 checks the paths each PPCR preset detects on the Fig. 5
// program, computed by hand (direction bits: first branch is bit 0).
func TestFig5(t *testing.T) {
	for _, tc := range []struct {
		desc string
		ppcr PPCR
		want []Path
	}{
		{"BL paths (Table 1): the first iteration with the loop entry, one path per iteration, the last with the exit and return; the caller's path spans the call", BL, []Path{
			p(0x1000, 3, 0b101, 10), // B1 B2 B3 B4 B5: T N T
			p(0x1008, 3, 0b111, 6),  // B2 B3 B5: T T T
			p(0x1008, 3, 0b001, 9),  // B2 B3 B4 B5 B6: T N N, ends at the return
			p(0x1ff0, 2, 0b11, 7),   // the caller: call (counted, not recorded), beq T, jalr T
		}},
		{"WPP subpaths (Table 2): calls and returns also end paths", WPP, []Path{
			p(0x1ff0, 0, 0, 4), // the caller up to the call
			p(0x1000, 3, 0b101, 10),
			p(0x1008, 3, 0b111, 6),
			p(0x1008, 3, 0b001, 9),
			p(0x2000, 2, 0b11, 3), // from the return address
		}},
		{"extended loop paths (one backward branch): the first two iterations form one path", Extended(ExtendLoops, 1), []Path{
			p(0x1000, 6, 0b111101, 16), // T N T | T T T
			p(0x1008, 3, 0b001, 9),
			p(0x1ff0, 2, 0b11, 7),
		}},
		{"extended procedure paths (one call): the caller's path runs into the callee up to its loop's back edge; the caller resumes with a new path at the return address", Extended(ExtendProcedures, 1), []Path{
			p(0x1ff0, 4, 0b1011, 14), // call T, j T, beq N, bne T
			p(0x1008, 3, 0b111, 6),
			p(0x1008, 3, 0b001, 9),
			p(0x2000, 2, 0b11, 3),
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s := NewStack(tc.ppcr, DropBottom, 8, 32, 0x1ff0)
			got := runInsts(s, fig5)
			assert.Equal(t, tc.want, got)
			var insts uint64
			for _, b := range fig5 {
				insts += b.insts
			}
			assert.Equal(t, insts, s.Stats.CompleteInsts+s.OpenInsts(), "every instruction lies on one path")
		})
	}
}

// TestExtendedReturn: a path extended into a leaf comes back across the
// leaf's return into the caller (the extension counter goes up at the
// call and down at the return).
func TestExtendedReturn(t *testing.T) {
	leaf := []br{
		{isa.Call, 0x1004, 0x5000, true, 2},
		{isa.Branch, 0x5004, 0x5008, false, 2},
		{isa.Return, 0x5008, 0x1008, true, 1},
		{isa.Branch, 0x100c, 0x1000, true, 2},
	}
	s := NewStack(Extended(ExtendProcedures, 1), DropBottom, 8, 32, 0x1000)
	assert.Equal(t, []Path{p(0x1000, 4, 0b1101, 7)}, runInsts(s, leaf))
	assert.Equal(t, 1, s.Depth())
	s = NewStack(BL, DropBottom, 8, 32, 0x1000)
	assert.Equal(t, []Path{p(0x5000, 1, 0, 3), p(0x1000, 1, 1, 4)}, runInsts(s, leaf))
}

// TestSplit: a path reaching the descriptor's limit is popped and a new
// one starts at the branch's target (§3).
func TestSplit(t *testing.T) {
	s := NewStack(BL, DropBottom, 8, 32, 0x100)
	s.SetMaxLen(2)
	got := runInsts(s, []br{
		{isa.Branch, 0x104, 0x110, true, 2},
		{isa.Branch, 0x114, 0x118, false, 2}, // the second: the path is full
		{isa.Branch, 0x11c, 0x120, false, 2},
		{isa.Branch, 0x124, 0x100, true, 2}, // backward: ends the second path
	})
	assert.Equal(t, []Path{p(0x100, 2, 0b01, 4), p(0x118, 2, 0b10, 4)}, got)
	assert.Equal(t, uint64(1), s.Stats.Splits)
}

// recursion: 0x2000 calls f (0x1000) which calls itself three times,
// then the four returns, then the caller's loop branch.
var recursion = []br{
	{isa.Call, 0x2000, 0x1000, true, 1},
	{isa.Call, 0x1004, 0x1000, true, 2},
	{isa.Call, 0x1004, 0x1000, true, 2},
	{isa.Call, 0x1004, 0x1000, true, 2},
	{isa.Return, 0x1010, 0x1008, true, 3},
	{isa.Return, 0x1010, 0x1008, true, 3},
	{isa.Return, 0x1010, 0x1008, true, 3},
	{isa.Return, 0x1010, 0x2004, true, 3},
	{isa.Branch, 0x2008, 0x2000, true, 2},
}

// TestOverflow: a 2-entry stack under both policies (§3).
func TestOverflow(t *testing.T) {
	t.Run("drop: the bottom entries are lost; their underflows make incomplete entries, ignored when popped", func(t *testing.T) {
		s := NewStack(BL, DropBottom, 2, 32, 0x2000)
		got := runInsts(s, recursion)
		// the innermost call's path (its return's block), then its caller's (call block + return block)
		assert.Equal(t, []Path{p(0x1000, 0, 0, 3), p(0x1000, 0, 0, 5)}, complete(got))
		assert.Equal(t, 3, incomplete(got))
		assert.Equal(t, uint64(3), s.Stats.Overflows)
		assert.Equal(t, uint64(3), s.Stats.Underflows)
		assert.Equal(t, uint64(2), s.Stats.CompletePaths)
		assert.Equal(t, uint64(3), s.Stats.IncompletePaths)
		// dropped entries' instructions are on the incomplete paths: 1+2+2 dropped, 3+3+2 after the underflows (21-3-5)
		assert.Equal(t, uint64(13), s.Stats.IncompleteInsts)
		assert.Equal(t, uint64(21), s.Stats.CompleteInsts+s.Stats.IncompleteInsts+s.OpenInsts())
	})
	t.Run("spill: the oldest entries go to memory and come back; the paths are the unbounded stack's", func(t *testing.T) {
		s := NewStack(BL, Spill, 2, 32, 0x2000)
		got := runInsts(s, recursion)
		ref := runInsts(NewStack(BL, Unbounded, 0, 32, 0x2000), recursion)
		assert.Equal(t, ref, got)
		assert.Equal(t, []Path{p(0x1000, 0, 0, 3), p(0x1000, 0, 0, 5), p(0x1000, 0, 0, 5), p(0x1000, 0, 0, 5), p(0x2000, 1, 1, 3)}, got)
		assert.Equal(t, uint64(3), s.Stats.SpillWrites)
		assert.Equal(t, uint64(3), s.Stats.SpillReads)
		assert.Equal(t, 5, s.Stats.MaxDepth)
	})
}

func complete(ps []Path) []Path {
	var out []Path
	for _, q := range ps {
		if !q.Incomplete {
			out = append(out, q)
		}
	}
	return out
}

func incomplete(ps []Path) int { return len(ps) - len(complete(ps)) }

// TestLongjmp: a return whose target is not the top entry's call site is
// repaired: the frames it skips are abandoned (§3 leaves this to the OS).
func TestLongjmp(t *testing.T) {
	script := []br{
		{isa.Call, 0x2000, 0x4000, true, 1},   // setjmp(buf)
		{isa.Return, 0x4004, 0x2004, true, 2}, // returns once normally
		{isa.Call, 0x2008, 0x1000, true, 2},   // f()
		{isa.Call, 0x1004, 0x3000, true, 2},   // f calls g
		{isa.Return, 0x3008, 0x2004, true, 3}, // g longjmps back to setjmp's return address
		{isa.Branch, 0x2010, 0x2000, true, 4}, // main's loop
	}
	s := NewStack(BL, DropBottom, 8, 32, 0x2000)
	got := runInsts(s, script)
	assert.Equal(t, []Path{p(0x4000, 0, 0, 2), p(0x3000, 0, 0, 3), p(0x2000, 1, 1, 7)}, got)
	assert.Equal(t, uint64(1), s.Stats.Repairs)
	assert.Equal(t, uint64(1), s.Stats.Abandoned, "f's frame")
	assert.Equal(t, uint64(2), s.Stats.IncompleteInsts)
	assert.Equal(t, 1, s.Depth())

	s = NewStack(BL, DropBottom, 8, 32, 0x2000)
	run(t, s, []br{
		{isa.Call, 0x2000, 0x1000, true, 1},
		{isa.Return, 0x1004, 0x7777, true, 1}, // a return nobody called
	})
	assert.Equal(t, uint64(0), s.Stats.Repairs)
	assert.Equal(t, uint64(1), s.Stats.Unmatched)
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		class  isa.Class
		pc, to uint64
		taken  bool
		want   BranchType
		ok     bool
	}{
		{"call", isa.Call, 0x100, 0x500, true, Call, true},
		{"return", isa.Return, 0x100, 0x50, true, Return, true},
		{"jalr that is neither is indirect", isa.Jalr, 0x100, 0x50, true, Indirect, true},
		{"taken branch down is backward", isa.Branch, 0x100, 0x80, true, Backward, true},
		{"taken branch to itself is backward", isa.Branch, 0x100, 0x100, true, Backward, true},
		{"backward branch not taken is forward", isa.Branch, 0x100, 0x104, false, Forward, true},
		{"taken branch up is forward", isa.Branch, 0x100, 0x180, true, Forward, true},
		{"jump down is backward", isa.Jal, 0x100, 0x40, true, Backward, true},
		{"jump up is forward", isa.Jal, 0x100, 0x140, true, Forward, true},
		{"a load is not a branch", isa.Load, 0x100, 0x104, false, 0, false},
	} {
		d := cpu.DynInst{PC: tc.pc, NextPC: tc.to, Taken: tc.taken, Inst: isa.Inst{Class: tc.class}}
		got, ok := Classify(&d)
		assert.Equal(t, tc.ok, ok, tc.desc)
		assert.Equal(t, tc.want, got, tc.desc)
	}
}

func TestPPCRCheck(t *testing.T) {
	bad := BL
	bad.Ops[Forward] = OpUpdate | OpUpdateCount
	assert.ErrorContains(t, bad.Check(), "forward: update and update-count are exclusive")
	assert.NoError(t, BL.Check())
	assert.NoError(t, WPP.Check())
	e := Extended(ExtendLoops, 0)
	assert.ErrorContains(t, e.Check(), "max_extension")
	o, err := ParseOps([]string{"update-count", "push"})
	require.NoError(t, err)
	assert.Equal(t, OpUpdateCount|OpPush, o)
	_, err = ParseOps([]string{"jump"})
	assert.ErrorContains(t, err, `"jump" is not an operation`)
}

// TestUnitExactSurvivesOverflow: the unit's exact profile is the
// unbounded stack's even when the hardware stack drops entries; the HPT
// sees only the complete paths of the hardware stack.
func TestUnitExactSurvivesOverflow(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Depth = 2
	u, err := New("o", cfg, profhw.Env{Mode: profhw.Functional, Entry: 0x2000})
	require.NoError(t, err)
	u.Retire(dyn(recursion))
	require.NoError(t, u.Finish(profhw.End{Instructions: 21}))
	f := Desc{Start: 0x1000}
	assert.Equal(t, map[Desc]uint64{f: 4, {Start: 0x2000, Len: 1, Dirs: 1}: 1}, u.Exact().Weights())
	assert.Equal(t, map[Desc]uint64{f: 2}, u.HPT().Weights())
	s := u.Summary().Extra
	assert.Equal(t, uint64(2), s["paths_completed"])
	assert.Equal(t, uint64(3), s["paths_incomplete"])
	assert.Equal(t, uint64(21), s["instructions_on_paths"].(uint64)+s["instructions_open_at_exit"].(uint64))
	assert.InDelta(t, 80, s["overlap_complete_percent"], 1e-9, "HPT f 2/2, exact f 4/5: min(1, 4/5)")
}

// TestRandomMappings is a property test over random legal PPCR mappings,
// extension modes, small stacks and random branch streams: every
// instruction lies on exactly one path (complete, incomplete, open at the
// end, or in a block no operation took), and a spilling stack emits
// exactly the unbounded stack's paths.
func TestRandomMappings(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	classes := []isa.Class{isa.Branch, isa.Branch, isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Call, isa.Return, isa.Return}
	for trial := 0; trial < 400; trial++ {
		var p PPCR
		for ty := range p.Ops {
			o := Op(rng.Intn(16))
			if o&OpUpdate != 0 && o&OpUpdateCount != 0 {
				o &^= OpUpdateCount
			}
			p.Ops[ty] = o
		}
		p.Extend = Extension(rng.Intn(3))
		if p.Extend != ExtendNone {
			p.MaxExt = uint8(1 + rng.Intn(3))
		}
		require.NoError(t, p.Check())
		depth := 1 + rng.Intn(4)
		var script []br
		var total uint64
		for i := 0; i < 300; i++ {
			c := classes[rng.Intn(len(classes))]
			pc := uint64(0x1000 + 4*rng.Intn(64))
			to := uint64(0x1000 + 4*rng.Intn(64))
			taken := c != isa.Branch || rng.Intn(2) == 0
			if !taken {
				to = pc + 4
			}
			n := uint64(1 + rng.Intn(6))
			total += n
			script = append(script, br{c, pc, to, taken, n})
		}
		desc := fmt.Sprintf("trial %d: %v extend %s/%d depth %d", trial, p.Ops, p.Extend, p.MaxExt, depth)
		for _, pol := range []Overflow{DropBottom, Spill} {
			s := NewStack(p, pol, depth, 8, 0x1000)
			if trial%3 == 0 {
				s.SetMaxLen(uint8(1 + rng.Intn(4)))
			}
			got := runInsts(s, script)
			st := s.Stats
			require.Equal(t, total, st.CompleteInsts+st.IncompleteInsts+s.OpenInsts()+st.UnattributedInsts, "%s, %s", desc, pol)
			if pol == Spill {
				ref := NewStack(p, Unbounded, 0, 8, 0x1000)
				ref.SetMaxLen(s.maxLen)
				want := runInsts(ref, script)
				for i := range want {
					want[i].Events = min(want[i].Events, 255)
				}
				require.Equal(t, want, got, "%s: spill against unbounded", desc)
			}
		}
	}
}

// TestRandomMappingsUnit: the same random mappings through the unit in
// both modes (HPT, exact profile, windows, phase detection): no failure,
// and the summary's instruction accounting adds up.
func TestRandomMappingsUnit(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	classes := []isa.Class{isa.Branch, isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return}
	for trial := 0; trial < 60; trial++ {
		cfg := DefaultConfig()
		for ty := range cfg.PPCR.Ops {
			o := Op(rng.Intn(16))
			if o&OpUpdate != 0 && o&OpUpdateCount != 0 {
				o &^= OpUpdate
			}
			cfg.PPCR.Ops[ty] = o
		}
		cfg.PPCR.Extend = Extension(rng.Intn(3))
		if cfg.PPCR.Extend != ExtendNone {
			cfg.PPCR.MaxExt = 1 + uint8(rng.Intn(2))
		}
		cfg.Depth = 1 + rng.Intn(3)
		cfg.Overflow = Overflow(rng.Intn(2))
		cfg.HPTEntries, cfg.HPTWays = 8, 2
		cfg.Window = 200
		cfg.Phase.Enabled, cfg.Phase.Interval, cfg.Phase.MaxK = true, 1000, 3
		cfg.Queue = []int{0, 2, 4, 8}[rng.Intn(4)]
		var script []br
		for i := 0; i < 2000; i++ {
			c := classes[rng.Intn(len(classes))]
			pc, to := uint64(0x1000+4*rng.Intn(32)), uint64(0x1000+4*rng.Intn(32))
			taken := c != isa.Branch || rng.Intn(2) == 0
			if !taken {
				to = pc + 4
			}
			script = append(script, br{c, pc, to, taken, uint64(1 + rng.Intn(5))})
		}
		recs := dyn(script)
		total := recs[len(recs)-1].Seq + 1
		for _, mode := range []profhw.Mode{profhw.Functional, profhw.Timing} {
			u, err := New("r", cfg, profhw.Env{Mode: mode, Entry: 0x1000})
			require.NoError(t, err)
			if mode == profhw.Functional {
				u.Retire(recs)
			} else {
				for i := range recs {
					u.Commit(&pipeline.Commit{D: &recs[i], Cycle: uint64(3 * i)})
				}
			}
			require.NoError(t, u.Finish(profhw.End{Instructions: total, Cycles: total}))
			s := u.Summary().Extra
			sum := s["instructions_on_paths"].(uint64) + s["instructions_open_at_exit"].(uint64) + s["instructions_unattributed"].(uint64)
			require.Equal(t, total, sum, "trial %d %s: %v", trial, mode, cfg.PPCR)
			o := s["overlap_complete_percent"].(float64)
			require.True(t, o >= 0 && o <= 100+1e-9, "trial %d: overlap %v", trial, o)
			_, err = u.Outputs(nil)
			require.NoError(t, err)
		}
	}
}
