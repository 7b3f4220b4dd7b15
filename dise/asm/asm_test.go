package asm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
)

// excluded are ops replacement code may not contain.
func excluded(op isa.Op) bool {
	switch op.Info().Class {
	case isa.Jal, isa.Jalr, isa.Call, isa.Return:
		return true
	}
	switch op {
	case isa.ECALL, isa.EBREAK, isa.MRET, isa.SRET, isa.WFI, isa.SFENCE_VMA, isa.DISE_RET:
		return true
	}
	return false
}

// randomText builds a random instance of op and the text that writes it,
// in the syntax both this package and isa.Assemble accept.
func randomText(r *rand.Rand, op isa.Op) (isa.Inst, string) {
	info := op.Info()
	in := isa.Inst{Op: op}
	reg := func(kind isa.RegKind) (uint8, string) {
		n := uint8(r.IntN(32))
		if kind == isa.FReg {
			if r.IntN(2) == 0 {
				return n, isa.FRegNames[n]
			}
			return n, fmt.Sprintf("f%d", n)
		}
		if r.IntN(2) == 0 {
			return n, isa.XRegNames[n]
		}
		return n, fmt.Sprintf("x%d", n)
	}
	var ops []string
	add := func(s string) { ops = append(ops, s) }
	rm := func() {
		if !info.RM {
			return
		}
		for {
			k := uint8(r.IntN(8))
			if isa.RoundingModeNames[k] != "" {
				in.Rm = k
				add(isa.RoundingModeNames[k])
				return
			}
		}
	}
	var s string
	switch info.Format {
	case isa.FmtR, isa.FmtR2, isa.FmtR4:
		in.Rd, s = reg(info.Rd)
		add(s)
		in.Rs1, s = reg(info.Rs1)
		add(s)
		if info.Format != isa.FmtR2 {
			in.Rs2, s = reg(info.Rs2)
			add(s)
		}
		if info.Format == isa.FmtR4 {
			in.Rs3, s = reg(info.Rs3)
			add(s)
		}
		rm()
	case isa.FmtI, isa.FmtShift, isa.FmtShiftW:
		in.Rd, s = reg(isa.XReg)
		add(s)
		in.Rs1, s = reg(isa.XReg)
		add(s)
		switch info.Format {
		case isa.FmtShift:
			in.Imm = int64(r.IntN(64))
		case isa.FmtShiftW:
			in.Imm = int64(r.IntN(32))
		default:
			in.Imm = int64(r.IntN(4096)) - 2048
		}
		add(fmt.Sprint(in.Imm))
	case isa.FmtLoad:
		in.Rd, s = reg(info.Rd)
		add(s)
		in.Imm = int64(r.IntN(4096)) - 2048
		in.Rs1, s = reg(isa.XReg)
		add(fmt.Sprintf("%d(%s)", in.Imm, s))
	case isa.FmtStore:
		in.Rs2, s = reg(info.Rs2)
		add(s)
		in.Imm = int64(r.IntN(4096)) - 2048
		in.Rs1, s = reg(isa.XReg)
		add(fmt.Sprintf("%d(%s)", in.Imm, s))
	case isa.FmtU:
		in.Rd, s = reg(isa.XReg)
		add(s)
		v := r.IntN(1 << 20)
		in.Imm = int64(int32(uint32(v) << 12))
		add(fmt.Sprintf("%#x", v))
	case isa.FmtAMO, isa.FmtLR:
		in.Rd, s = reg(isa.XReg)
		add(s)
		if info.Format == isa.FmtAMO {
			in.Rs2, s = reg(isa.XReg)
			add(s)
		}
		in.Rs1, s = reg(isa.XReg)
		add("(" + s + ")")
	case isa.FmtCSR, isa.FmtCSRI:
		in.Rd, s = reg(isa.XReg)
		add(s)
		in.Csr = uint16(r.IntN(0x1000))
		add(fmt.Sprint(in.Csr))
		if info.Format == isa.FmtCSR {
			in.Rs1, s = reg(isa.XReg)
			add(s)
		} else {
			in.Imm = int64(r.IntN(32))
			add(fmt.Sprint(in.Imm))
		}
	case isa.FmtFence:
		in.Rm, in.Imm = 0xff, 0xff
	}
	mn := info.Name
	if info.AqRl {
		in.Rm = uint8(r.IntN(4))
		mn += []string{"", ".rl", ".aq", ".aqrl"}[in.Rm]
	}
	return in, strings.TrimSpace(mn + " " + strings.Join(ops, ", "))
}

// Every 32-bit operation replacement code may use assembles, from the op
// table's formats, to the word isa.Encode gives and isa.Assemble (an
// independent assembler) agrees; decoding the word gives the fields back.
func TestRoundTripEveryOp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	covered := 0
	for op := isa.Op(1); op < isa.NumOps; op++ {
		if op.Compressed() || excluded(op) || op.Info().Format == isa.FmtBranch {
			continue
		}
		covered++
		for k := 0; k < 20; k++ {
			want, text := randomText(r, op)
			tmpl, err := AssembleText(text, nil)
			require.NoError(t, err, text)
			wantWord, err := isa.Encode(want)
			require.NoError(t, err, text)
			got, err := isa.Encode(tmpl.Inst)
			require.NoError(t, err, text)
			require.Equal(t, wantWord, got, "%s: %08x vs %08x", text, wantWord, got)
			ref, err := isa.Assemble(text)
			require.NoError(t, err, "isa.Assemble(%q)", text)
			refWord, _ := isa.Encode(ref)
			require.Equal(t, refWord, got, "%s: isa.Assemble disagrees", text)
			dec, err := isa.Decode(got)
			require.NoError(t, err)
			require.Equal(t, op, dec.Op, text)
			require.Equal(t, dec.Class, tmpl.Inst.Class, "%s: class", text)
			require.Equal(t, uint8(4), tmpl.Inst.Len)
		}
	}
	assert.GreaterOrEqual(t, covered, 185, "ops covered")
}

// Branches go to labels of the sequence; their registers round-trip.
func TestBranches(t *testing.T) {
	for _, tc := range []struct {
		desc, text string
		op         isa.Op
		rs1, rs2   uint8
	}{
		{"beq", "beq a0, a1, out", isa.BEQ, 10, 11},
		{"bgeu", "bgeu x5, t1, out", isa.BGEU, 5, 6},
		{"beqz", "beqz $d0, out", isa.BEQ, isa.DISEReg0, 0},
		{"bnez", "bnez s1, out", isa.BNE, 9, 0},
		{"bgt swaps", "bgt a0, a1, out", isa.BLT, 11, 10},
		{"blez", "blez a2, out", isa.BGE, 0, 12},
		{"j is beq zero, zero", "j out", isa.BEQ, 0, 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tm, err := AssembleText(tc.text, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.op, tm.Inst.Op)
			assert.Equal(t, isa.Branch, tm.Inst.Class)
			assert.Equal(t, tc.rs1, tm.Inst.Rs1)
			assert.Equal(t, tc.rs2, tm.Inst.Rs2)
			assert.Equal(t, "out", tm.Label)
		})
	}
}

// Directives and DISE registers, instantiated from an original.
func TestInstantiate(t *testing.T) {
	orig, err := isa.Assemble("ld a5, -24(s0)") // rd 15, rs1 8, imm -24
	require.NoError(t, err)
	origRaw, _ := isa.Encode(orig)
	orig.Raw = origRaw
	br, err := isa.Assemble("bltu a3, a4, .-16") // rs1 13, rs2 14
	require.NoError(t, err)
	const pc, target = 0x1000, 0x2000
	names := func(n string) (int, bool) {
		if n == "FLAG" {
			return 5, true
		}
		return 0, false
	}
	for _, tc := range []struct {
		desc, text string
		orig       *isa.Inst
		want       isa.Inst
	}{
		{"T.RD T.RS1 T.IMM", "addi T.RD, T.RS1, T.IMM", &orig, isa.Inst{Op: isa.ADDI, Rd: 15, Rs1: 8, Imm: -24}},
		{"T.IMM with an addend", "addi $d0, zero, T.IMM+8", &orig, isa.Inst{Op: isa.ADDI, Rd: isa.DISEReg0, Imm: -16}},
		{"T.PC on the 64-bit IL path", "li $d1, T.PC", &orig, isa.Inst{Op: isa.ADDI, Rd: isa.DISEReg0 + 1, Imm: pc}},
		{"T.TARGET", "addi $d2, zero, T.TARGET-4", &orig, isa.Inst{Op: isa.ADDI, Rd: isa.DISEReg0 + 2, Imm: target - 4}},
		{"T.INSN", "li $d3, T.INSN", &orig, isa.Inst{Op: isa.ADDI, Rd: isa.DISEReg0 + 3, Imm: int64(origRaw)}},
		{"the original's address", "ld $d4, T.IMM(T.RS1)", &orig, isa.Inst{Op: isa.LD, Rd: isa.DISEReg0 + 4, Rs1: 8, Imm: -24}},
		{"store of T.RD", "sd T.RD, 8($d6)", &orig, isa.Inst{Op: isa.SD, Rs2: 15, Rs1: isa.DISEReg0 + 6, Imm: 8}},
		{"named DISE register", "addi FLAG, FLAG, 1", &orig, isa.Inst{Op: isa.ADDI, Rd: isa.DISEReg0 + 5, Rs1: isa.DISEReg0 + 5, Imm: 1}},
		{"T.RS2 of a branch", "add $d0, T.RS1, T.RS2", &br, isa.Inst{Op: isa.ADD, Rd: isa.DISEReg0, Rs1: 13, Rs2: 14}},
		{"T.OP copies the branch", "T.OP T.RS1, T.RS2, taken", &br, isa.Inst{Op: isa.BLTU, Rs1: 13, Rs2: 14}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tm, err := AssembleText(tc.text, names)
			require.NoError(t, err)
			got := tm.Instantiate(tc.orig, pc, target)
			assert.Equal(t, tc.want.Op, got.Op)
			assert.Equal(t, tc.want.Rd, got.Rd, "rd")
			assert.Equal(t, tc.want.Rs1, got.Rs1, "rs1")
			assert.Equal(t, tc.want.Rs2, got.Rs2, "rs2")
			if tm.Label == "" {
				assert.Equal(t, tc.want.Imm, got.Imm, "imm")
			}
			assert.Equal(t, tc.want.Op.Info().Class, got.Class)
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		desc, text string
		operand    int
		msg        string
	}{
		{"unknown", "frob a0", -1, `unknown mnemonic "frob"`},
		{"compressed", "c.addi a0, 1", -1, "16-bit instruction"},
		{"count", "add a0, a1", -1, "add takes 3 operands, found 2"},
		{"jal", "jal ra, out", -1, "jal cannot appear in replacement code"},
		{"ecall", "ecall", -1, "ecall cannot appear"},
		{"dise.ret", "dise.ret", -1, "dise.ret cannot appear"},
		{"branch to an offset", "beq a0, a1, 8", 2, "expected a label of the replacement sequence, found 8"},
		{"branch to a register", "beq a0, a1, a2", 2, "expected a label"},
		{"imm range", "addi a0, a0, 2048", 2, "imm 2048 out of range -2048..2047"},
		{"shift range", "slli a0, a0, 64", 2, "shift amount 64 out of range"},
		{"store offset", "sd a0, 4096(sp)", 1, "offset 4096 out of range"},
		{"li range", "li a0, 4096", 1, "li immediate 4096 needs more than one instruction"},
		{"$d in FP", "fmv.d.x $d0, a0", 0, "expected a floating-point register, found $d0"},
		{"no such $d", "addi $d8, zero, 1", 0, "no DISE register $d8"},
		{"FP name as int", "add fa0, a0, a1", 0, `expected an integer register, $d register or T.RD/T.RS1/T.RS2, found "fa0"`},
		{"value directive as register", "add T.PC, a0, a1", 0, "expected a register, found T.PC"},
		{"register directive as immediate", "addi a0, a0, T.RS1", 2, "expected an immediate, found T.RS1"},
		{"register directive addend", "add T.RD+1, a0, a1", 0, "takes no addend"},
		{"rounding mode", "fadd.d fa0, fa1, fa2, up", 3, "expected a rounding mode"},
		{"amo offset", "amoadd.d a0, a1, 8(a2)", 2, "takes an address without offset"},
		{"csr", "csrrw a0, nosuch, a1", 1, "expected a CSR name or number"},
		{"T.OP non-branch operands", "T.OP a0, a1", -1, "T.OP takes 3 operands"},
		{"T.INSN as mnemonic", "T.INSN a0", -1, "expected a mnemonic or T.OP, found T.INSN"},
		{"mem without parens", "ld a0, sp", 1, "expected offset(register)"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			mn, rest, _ := strings.Cut(tc.text, " ")
			ops, err := ParseOperands(rest)
			require.NoError(t, err)
			_, aerr := Assemble(mn, ops, nil)
			require.NotNil(t, aerr)
			assert.Contains(t, aerr.Msg, tc.msg)
			assert.Equal(t, tc.operand, aerr.Operand)
		})
	}
}

func TestDirectiveNames(t *testing.T) {
	for d := DirRD; d < NumDirectives; d++ {
		got, ok := DirectiveByName(d.String())
		require.True(t, ok, d.String())
		assert.Equal(t, d, got)
		got, ok = DirectiveByName("t." + strings.ToLower(d.String()[2:]))
		require.True(t, ok)
		assert.Equal(t, d, got)
	}
	_, ok := DirectiveByName("T.NOPE")
	assert.False(t, ok)
	_, ok = DirectiveByName("X.PC")
	assert.False(t, ok)
}
