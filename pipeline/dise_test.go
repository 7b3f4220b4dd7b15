package pipeline

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Scenario tests of the DISE costs (hps-phase-aware-remote-profiling.md
// §3.1–3.3) on testMachine, with hand-computed cycles.

// injected builds the records of a replacement sequence at the replaced
// instruction's pc: each line is an injected instruction (it keeps pc;
// "$dN" names DISE register N), or "T.INSN" for the original, given as
// orig (which goes where its own record says). The first element carries
// Replaced.
func injected(t testing.TB, pc uint64, orig cpu.DynInst, lines ...string) []cpu.DynInst {
	t.Helper()
	var out []cpu.DynInst
	for _, l := range lines {
		if l == "T.INSN" {
			orig.PC = pc
			out = append(out, orig)
			continue
		}
		// Assemble with x24+N standing for $dN, then rename those fields.
		text, dregs := l, map[uint8]uint8{}
		for n := uint8(0); n < isa.NumDISERegs; n++ {
			name := fmt.Sprintf("$d%d", n)
			if strings.Contains(text, name) {
				text = strings.ReplaceAll(text, name, fmt.Sprintf("x%d", 24+n))
				dregs[24+n] = isa.DISEReg0 + n
			}
		}
		in, err := isa.Assemble(text)
		require.NoError(t, err, l)
		for _, r := range []*uint8{&in.Rd, &in.Rs1, &in.Rs2} {
			if d, ok := dregs[*r]; ok {
				*r = d
			}
		}
		out = append(out, cpu.DynInst{PC: pc, NextPC: pc, Inst: in, Injected: true})
	}
	out[0].Replaced = true
	for i := range out {
		out[i].Seq = uint64(i)
	}
	return out
}

// cat joins streams and renumbers them.
func cat(parts ...[]cpu.DynInst) []cpu.DynInst {
	var out []cpu.DynInst
	for _, p := range parts {
		out = append(out, p...)
	}
	for i := range out {
		out[i].Seq = uint64(i)
	}
	return out
}

// TestScenarioDISERegisters: the DISE registers $d0–$d7 (integer operands
// 33–40) have their own rename entries; they are not x1–x8. Before the
// fix, the timing model indexed its register tables with the operand
// number mod 32, so $d0 was ra.
//
// Timeline: everything arrives in one fetch block (a cold miss, delivered
// at 111). The div (20 cycles) is decoded at 111, dispatched at 113,
// issues at 114 and is done at 134. The replacement's first element pays
// the 1-cycle DISE stall: decoded at 112, dispatched at 114, so it may
// issue at 115.
func TestScenarioDISERegisters(t *testing.T) {
	const at = codeBase + 4 // the replaced instruction
	orig := straight(t, at, "addi a0, a0, 1")[0]
	div := straight(t, codeBase, "div ra, a1, a2")
	for _, tc := range []struct {
		desc  string
		insts []cpu.DynInst
		which int    // the record whose completion is checked
		done  uint64 // its completion cycle
	}{
		{desc: "beqz $d0 does not wait for the last write of ra",
			insts: cat(div, injected(t, at, orig, "beqz $d0, .+8", "T.INSN")),
			which: 1, done: 115 + 1},
		{desc: "a read of ra waits for the last write of ra, not for a div writing $d0",
			insts: cat(straight(t, codeBase, "addi ra, a1, 1"), injected(t, at, orig, "div $d0, a1, a2", "addi a3, ra, 1")),
			// addi ra issues at 114 (done 115); addi a3 dispatches at 114.
			which: 2, done: 115 + 1},
		{desc: "$d7 is not x8 (s0)",
			insts: cat(straight(t, codeBase, "div s0, a1, a2"), injected(t, at, orig, "addi $d7, $d7, 1", "T.INSN")),
			which: 1, done: 115 + 1},
		{desc: "a read of $d0 waits for the write of $d0 (a true dependence)",
			insts: cat(straight(t, codeBase, "addi a5, a5, 1"), injected(t, at, orig, "div $d0, a1, a2", "beqz $d0, .+8")),
			// the div issues at 115 and is done at 135; the branch issues then.
			which: 2, done: 135 + 1},
		{desc: "$d0 and $d1 are distinct",
			insts: cat(straight(t, codeBase, "addi a5, a5, 1"), injected(t, at, orig, "div $d0, a1, a2", "beqz $d1, .+8")),
			which: 2, done: 115 + 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c := feed(t, testMachine(), tc.insts, 256, nil)
			u := &c.win[uint64(tc.which)&c.mask]
			assert.Equal(t, tc.done, u.doneAt, "completion of record %d (%s)", tc.which, u.op)
		})
	}
	assert.Equal(t, "$d0", regName(regD0))
	assert.Equal(t, uint8(regD0+7), regNum(isa.XReg, isa.DISEReg0+7))
	assert.True(t, isIntReg(regD0+7), "a $d register takes an integer rename register")
}

// TestScenarioDISEBranch: a branch inside a replacement sequence is
// predicted not-taken at decode and resolved in execute; a taken one stops
// decode until it resolves, plus dise_redirect_penalty.
//
// Timeline (testMachine: decode_stages 2, DISE penalty 1): the block with
// the replaced instruction arrives at 111 (a cold miss). The sequence's
// first element, `beqz $d0`, pays the DISE stall and is decoded at 112,
// dispatched at 114, issues at 115 and resolves at 116. Not taken, the
// rest of the sequence was decoded with it: the original (addi) issues at
// 115 too and commits at 116: 117 cycles. Taken, decode waits: it resumes
// at 116 + penalty, the original is dispatched 2 cycles later, issues, is
// done and commits: 116 + penalty + 2 + 1 + 1 + 1 cycles.
func TestScenarioDISEBranch(t *testing.T) {
	orig := straight(t, codeBase, "addi a1, a1, 1")[0]
	for _, tc := range []struct {
		desc    string
		taken   bool
		penalty int // dise_redirect_penalty; -1: redirect_penalty (2)
		cycles  uint64
		stall   uint64 // decode's dise_branch stall: from 113 to the restart
	}{
		{desc: "not taken: free", taken: false, penalty: -1, cycles: 117},
		{desc: "taken, default penalty (redirect_penalty 2)", taken: true, penalty: -1, cycles: 116 + 2 + 5, stall: 116 + 2 - 113},
		{desc: "taken, penalty 0", taken: true, penalty: 0, cycles: 116 + 5, stall: 116 - 113},
		{desc: "taken, penalty 7", taken: true, penalty: 7, cycles: 116 + 7 + 5, stall: 116 + 7 - 113},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.Core.DISERedirectPenalty = tc.penalty
			var insts []cpu.DynInst
			if tc.taken {
				insts = injected(t, codeBase, orig, "beqz $d0, .+8", "T.INSN")
				insts[0].Taken = true
			} else {
				insts = injected(t, codeBase, orig, "beqz $d0, .+8", "addi a0, a0, 1", "T.INSN")
			}
			for _, skip := range []bool{true, false} {
				c := feed(t, m, insts, 256, func(c *Core) { c.noSkip = !skip })
				assert.Equal(t, tc.cycles, c.Cycles(), "cycles (skip %v)", skip)
				st := c.Stats()["stalls"].(map[string]uint64)
				assert.Equal(t, tc.stall, st["dise_branch"], "dise_branch stall (skip %v)", skip)
				assert.Equal(t, b2u(tc.taken), c.decode.diseTaken)
				assert.Zero(t, c.fetch.redirects, "the branch predictor never sees a DISE branch")
			}
		})
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TestScenarioDISEHandlerCall: the call into a handler is a front-end
// redirect made in decode, and dise.ret a return predicted by the RAS.
//
// The stream: a replacement [call(h, one argument); T.INSN] at codeBase,
// as the core records it: the argument store (the first element), the
// injected jump to the handler at codeBase+0x800 (another I-cache line, a
// cold miss), the handler (one addi and dise.ret), then the original.
//
// Timeline (testMachine, redirect penalty p): the store and the jump arrive
// at 111; the store pays the DISE stall; both are decoded at 112, which
// redirects fetch: it fetches the handler at R = 112+p, a miss delivered
// at R+111. The dise.ret is predicted (it ends the block); in the next
// fetch cycle, R+111, the original comes from the DISE engine, ready a
// cycle later: decoded at R+112, dispatched at R+114, issued at R+115,
// done and committed at R+116: R+117 cycles.
//
// Without a return address stack the dise.ret is mispredicted: decoded at
// R+111, it issues at R+114 and resolves at R+115; fetch restarts at
// R+115+p, and the original is ready a cycle later: R+121+p cycles.
func TestScenarioDISEHandlerCall(t *testing.T) {
	const handler = codeBase + 0x800
	store := straight(t, codeBase, "sd a0, 0(a1) @0x1000000")[0]
	store.Injected, store.Replaced, store.NextPC = true, true, codeBase
	gate := straight(t, codeBase, "j .+0")[0]
	gate.Injected, gate.Taken, gate.NextPC = true, true, handler
	body := straight(t, handler, "addi s2, s2, 1", "dise.ret")
	body[1].NextPC = codeBase // back into the sequence
	orig := straight(t, codeBase, "addi a1, a1, 1")
	insts := cat([]cpu.DynInst{store, gate}, body, orig)
	for _, tc := range []struct {
		desc              string
		penalty, rasDepth int
		bpred             string
		cycles            uint64
		retMisses         uint64
	}{
		{desc: "predicted dise.ret, penalty 2", penalty: 2, rasDepth: 16, bpred: "tournament", cycles: 112 + 2 + 117},
		{desc: "predicted dise.ret, penalty 0", penalty: 0, rasDepth: 16, bpred: "tournament", cycles: 112 + 117},
		{desc: "predicted dise.ret, penalty 7", penalty: 7, rasDepth: 16, bpred: "tournament", cycles: 112 + 7 + 117},
		{desc: "perfect prediction", penalty: 2, rasDepth: 16, bpred: "perfect", cycles: 112 + 2 + 117},
		{desc: "no RAS: dise.ret mispredicted", penalty: 2, rasDepth: 0, bpred: "tournament",
			cycles: 112 + 2 + 121 + 2, retMisses: 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.Core.RedirectPenalty = tc.penalty
			m.BPred.Kind, m.BPred.RASDepth = tc.bpred, tc.rasDepth
			for _, skip := range []bool{true, false} {
				c := feed(t, m, insts, 256, func(c *Core) { c.noSkip = !skip })
				assert.Equal(t, tc.cycles, c.Cycles(), "cycles (skip %v)", skip)
				assert.Equal(t, uint64(1), c.fetch.handlerEntries)
				assert.Equal(t, uint64(1), c.fetch.diseReturns)
				assert.Equal(t, tc.retMisses, c.fetch.diseReturnMisses)
				assert.Equal(t, tc.retMisses, c.fetch.redirects)
				assert.Zero(t, c.fetch.traps)
				st := c.Stats()["stalls"].(map[string]uint64)
				assert.Equal(t, 112+uint64(tc.penalty)-1, st["dise_call"], "fetch waits from cycle 1 for the call's redirect (skip %v)", skip)
				// Blocks: the replaced instruction's, the handler's; the
				// original comes from the DISE engine (a block of its own).
				assert.Equal(t, uint64(2), c.fetch.blocks)
			}
		})
	}
}

// diseProgram is the mixed test program (loads, stores, branches, calls,
// mul/div, FP) run under a real DISE engine with a DISE-only ACF: every
// conditional branch is replaced and every 10th calls a handler (which
// makes a call of its own, so the RAS holds the handler's entry under
// another); every call is replaced by a sequence whose branch is always
// taken. It returns the recorded stream.
func diseProgram(t testing.TB) []cpu.DynInst {
	const (
		handlerBase = 0x400000
		mailbox     = 0x500000
	)
	code, setup := mixedProgram(t)
	h := newHart(t, code)
	setup(h)
	require.NoError(t, h.Mem.Map(handlerBase, mem.PageSize, mem.RX, "handler"))
	require.NoError(t, h.Mem.Map(mailbox, mem.PageSize, mem.RW, "mailbox"))
	// The handler preserves every register the program uses (s10, s11 are free).
	require.NoError(t, h.Mem.Poke(handlerBase, assemble(t, "mv s10, ra", "jal ra, sub", "mv ra, s10",
		"addi s11, s11, 1", "ebreak", "sub:", "ret")))
	// (ebreak stands in for dise.ret, which the assembler does not know.)
	var ret [4]byte
	binary.LittleEndian.PutUint32(ret[:], 0x0000300b)
	require.NoError(t, h.Mem.Poke(handlerBase+16, ret[:]))
	src := `
dise_reg $d1 = 10
P1: T.OPCLASS == branch -> R1
R1: {
	addi $d1, $d1, -1
	bnez $d1, skip
	li $d1, 10
	call(H, T.PC)
skip:
	T.INSN
}
P2: T.OPCLASS == call -> R2
R2: {
	beqz $d0, go
	addi $d2, $d2, 1
go:
	T.INSN
}
`
	f, err := dise.ParseFile("t.acf", []byte(src))
	require.NoError(t, err)
	prog, err := dise.Compile(dise.DefaultConfig(), f)
	require.NoError(t, err)
	rt := &dise.Runtime{Mailbox: mailbox, File: "test", Names: []string{"H"},
		Lookup: func(name string) (uint64, bool) { return handlerBase, name == "H" }}
	e, err := dise.New(prog, rt)
	require.NoError(t, err)
	e.Attach(h)
	var r recorder
	runOn(t, h, &r)
	return r.insts
}

// TestDISEStream: on a real DISE stream the timing model finds every DISE
// control transfer the editor made, predicts every dise.ret, and gives
// the same cycles whatever the batching and with or without idle-cycle
// skipping.
func TestDISEStream(t *testing.T) {
	insts := diseProgram(t)
	var taken, gates, rets uint64
	for i := range insts {
		d := &insts[i]
		switch {
		case d.Injected && d.Taken && d.Inst.Class == isa.Branch:
			taken++
		case d.Injected && d.Inst.Class == isa.Jal:
			gates++
		case d.Inst.Op == isa.DISE_RET:
			rets++
		}
	}
	require.Greater(t, taken, uint64(1000))
	require.Greater(t, gates, uint64(100))
	require.Equal(t, gates, rets)
	for _, preset := range []string{"default", "hps"} {
		t.Run(preset, func(t *testing.T) {
			m, err := config.Preset(preset)
			require.NoError(t, err)
			ref := feed(t, m, insts, 256, nil)
			assert.Equal(t, taken, ref.decode.diseTaken, "taken DISE branches")
			assert.Equal(t, gates, ref.fetch.handlerEntries, "handler entries")
			assert.Equal(t, rets, ref.fetch.diseReturns)
			assert.Zero(t, ref.fetch.diseReturnMisses, "the RAS predicts every dise.ret")
			refStats := ref.Stats()
			for _, tc := range []struct {
				desc  string
				batch int
				skip  bool
			}{
				{"batches of 1", 1, true},
				{"batches of 7", 7, true},
				{"one batch", len(insts), true},
				{"every cycle simulated", 256, false},
			} {
				c := feed(t, m, insts, tc.batch, func(c *Core) { c.noSkip = !tc.skip })
				require.Equal(t, ref.Cycles(), c.Cycles(), tc.desc)
				require.True(t, reflect.DeepEqual(refStats, c.Stats()), "%s: statistics differ", tc.desc)
			}
			// Without the DISE control transfers' costs the same stream is
			// faster: they are charged.
			m.Core.DISERedirectPenalty = 0
			free := feed(t, m, insts, 256, nil)
			assert.Less(t, free.Cycles(), ref.Cycles())
		})
	}
}
