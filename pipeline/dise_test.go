package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
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
