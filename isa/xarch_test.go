package isa

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/arch/riscv64/riscv64asm"
)

// The golang.org/x/arch riscv64asm decoder is the independent oracle here.

var sweep = flag.Int("isa.sweep", 0, "random words per (opcode, funct3, funct7) in the 32-bit x/arch sweep (0 = quick default of ~110K words; 64 is ~3.7M words, ~35 s)")

// notInXArch lists our ops x/arch does not decode: the comparison skips them
// and checks them against the golden file instead.
var notInXArch = map[Op]string{
	MRET:       "privileged, not in x/arch's table",
	WFI:        "privileged, not in x/arch's table",
	SRET:       "privileged, not in x/arch's table",
	SFENCE_VMA: "privileged, not in x/arch's table",
	HPS_ON:     "rvsim custom-0 op",
	HPS_OFF:    "rvsim custom-0 op",
	DISE_RET:   "rvsim custom-0 op",
}

// view is an instruction reduced to what both decoders can say: the base
// mnemonic, aq/rl bits, and the operands in x/arch's order, as tokens.
type view struct {
	name string
	aqrl uint8
	args string
}

func xarchDecode(raw uint32) (riscv64asm.Inst, error) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], raw)
	if raw&3 != 3 {
		return riscv64asm.Decode(b[:2])
	}
	return riscv64asm.Decode(b[:])
}

func theirView(in riscv64asm.Inst) view {
	v := view{name: strings.ToLower(in.Op.String())}
	for k, sfx := range aqrlSuffix {
		if k > 0 && strings.HasSuffix(v.name, sfx) {
			if op, ok := OpByName(strings.TrimSuffix(v.name, sfx)); ok && opTable[op].AqRl {
				v.name, v.aqrl = strings.TrimSuffix(v.name, sfx), uint8(k)
			}
		}
	}
	var toks []string
	reg := func(r riscv64asm.Reg) string {
		if r >= riscv64asm.F0 && r <= riscv64asm.F31 {
			return fmt.Sprintf("f%d", r-riscv64asm.F0)
		}
		return fmt.Sprintf("x%d", r-riscv64asm.X0)
	}
	for _, a := range in.Args {
		switch a := a.(type) {
		case nil:
		case riscv64asm.Reg:
			toks = append(toks, reg(a))
		case riscv64asm.Simm:
			toks = append(toks, fmt.Sprintf("i:%d", a.Imm))
		case riscv64asm.Uimm:
			imm := int64(a.Imm)
			if in.Op == riscv64asm.LUI || in.Op == riscv64asm.AUIPC {
				imm &= 0xfffff // x/arch keeps c.lui's sign extension
			}
			toks = append(toks, fmt.Sprintf("i:%d", imm))
		case riscv64asm.RegOffset:
			toks = append(toks, reg(a.OfsReg), fmt.Sprintf("i:%d", a.Ofs.Imm))
		case riscv64asm.RegPtr:
			s := a.String() // "(x5)"
			toks = append(toks, s[1:len(s)-1])
		case riscv64asm.CSR:
			toks = append(toks, fmt.Sprintf("csr:%d", uint16(a)))
		case riscv64asm.MemOrder:
			toks = append(toks, fmt.Sprintf("set:%d", uint8(a)))
		default:
			toks = append(toks, fmt.Sprintf("?%T", a))
		}
	}
	v.args = strings.Join(toks, " ")
	return v
}

func ourView(in Inst) view {
	info := in.Op.Info()
	v := view{name: info.Name}
	if info.AqRl {
		v.aqrl = in.Rm
	}
	r := func(k RegKind, n uint8) string {
		if k == FReg {
			return fmt.Sprintf("f%d", n)
		}
		return fmt.Sprintf("x%d", n)
	}
	imm := func(x int64) string { return fmt.Sprintf("i:%d", x) }
	rd, rs1, rs2 := r(info.Rd, in.Rd), r(info.Rs1, in.Rs1), r(info.Rs2, in.Rs2)
	var toks []string
	switch info.Format {
	case FmtR, FmtAMO:
		toks = []string{rd, rs1, rs2}
		if info.Format == FmtAMO {
			toks = []string{rd, rs2, rs1}
		}
	case FmtR2, FmtLR:
		toks = []string{rd, rs1}
	case FmtR4:
		toks = []string{rd, rs1, rs2, r(info.Rs3, in.Rs3)}
	case FmtI, FmtShift, FmtShiftW, FmtLoad, FmtJalr:
		toks = []string{rd, rs1, imm(in.Imm)}
	case FmtStore:
		toks = []string{rs2, rs1, imm(in.Imm)}
	case FmtBranch:
		toks = []string{rs1, rs2, imm(in.Imm)}
	case FmtU:
		toks = []string{rd, imm(in.Imm >> 12 & 0xfffff)}
	case FmtJ:
		toks = []string{rd, imm(in.Imm)}
	case FmtCSR:
		toks = []string{rd, fmt.Sprintf("csr:%d", in.Csr), rs1}
	case FmtCSRI:
		toks = []string{rd, fmt.Sprintf("csr:%d", in.Csr), imm(in.Imm)}
	case FmtFence:
		toks = []string{fmt.Sprintf("set:%d", in.Rm>>4), fmt.Sprintf("set:%d", in.Rm&15)}
	}
	v.args = strings.Join(toks, " ")
	return v
}

// manualOverride is a class of encodings where x/arch and the ISA manual
// disagree; we follow the manual. want is what our Decode must produce
// ("" = an error).
type manualOverride struct {
	desc     string
	reason   string
	match    func(raw uint32, theirs *riscv64asm.Inst, theirErr error) bool
	want     func(raw uint32) string
	examples map[uint32]string // encoding -> our String ("" = invalid)
}

func c16(raw uint32) (q, f3, rd, rs2, bit12 uint32, ok bool) {
	if raw&3 == 3 || raw > 0xffff {
		return 0, 0, 0, 0, 0, false
	}
	return raw & 3, raw >> 13 & 7, raw >> 7 & 31, raw >> 2 & 31, raw >> 12 & 1, true
}

var manualOverrides = []manualOverride{
	{
		desc:   "c.j offset",
		reason: "ISA manual (CJ format): bits 5:3 hold offset[3:1] and bit 2 offset[5]; x/arch v0.32.0 reads bits 5:2 as offset[4:1] (objdump agrees with the manual)",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, _, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 5 && raw&0x3c != 0
		},
		want:     func(raw uint32) string { return "j " + relTarget(scatter(raw, cjBits)) },
		examples: map[uint32]string{0xa005: "j .+32", 0xa009: "j .+2", 0xbffd: "j .-2"},
	},
	{
		desc:   "reserved rounding mode",
		reason: "ISA manual (F, rounding modes): rm=101 and 110 are reserved; x/arch does not check rm",
		match: func(raw uint32, theirs *riscv64asm.Inst, theirErr error) bool {
			if theirErr != nil || raw&3 != 3 {
				return false
			}
			op, ok := OpByName(strings.ToLower(theirs.Op.String()))
			rm := raw >> 12 & 7
			return ok && opTable[op].RM && (rm == 5 || rm == 6)
		},
		want:     func(uint32) string { return "" },
		examples: map[uint32]string{0x02b5d553: "", 0x02b5e553: "", 0xd205d553: "", 0x6ac5d543: ""},
	},
	{
		desc:     "all-zero 16-bit word",
		reason:   "ISA manual (RVC): the all-zero instruction is defined illegal; x/arch decodes c.unimp as csrrw zero,cycle,zero",
		match:    func(raw uint32, _ *riscv64asm.Inst, _ error) bool { return raw == 0 },
		want:     func(uint32) string { return "" },
		examples: map[uint32]string{0x0000: ""},
	},
	{
		desc:   "c.nop HINT",
		reason: "ISA manual (RVC HINTs): c.nop with nzimm!=0 is a HINT that expands to addi x0,x0,nzimm; x/arch drops the immediate",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 0 && rd == 0 && raw&0x107c != 0
		},
		want:     func(raw uint32) string { d, _ := Decode(raw); return fmt.Sprintf("c.nop %d", d.Imm) },
		examples: map[uint32]string{0x0005: "c.nop 1", 0x1001: "c.nop -32"},
	},
	{
		desc:   "c.addi HINT",
		reason: "ISA manual (RVC HINTs): c.addi with rd!=x0 and nzimm=0 is a HINT (addi rd,rd,0); x/arch rejects it",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 0 && rd != 0 && raw&0x107c == 0
		},
		want:     func(raw uint32) string { r := XRegNames[raw>>7&31]; return "addi " + r + "," + r + ",0" },
		examples: map[uint32]string{0x0501: "addi a0,a0,0"},
	},
	{
		desc:   "c.li HINT",
		reason: "ISA manual (RVC HINTs): c.li with rd=x0 is a HINT; x/arch rejects it",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 2 && rd == 0
		},
		want:     func(raw uint32) string { d, _ := Decode(raw); return fmt.Sprintf("c.li zero,%d", d.Imm) },
		examples: map[uint32]string{0x4015: "c.li zero,5", 0x5001: "c.li zero,-32"},
	},
	{
		desc:   "c.lui HINT",
		reason: "ISA manual (RVC HINTs): c.lui with rd=x0 and nzimm!=0 is a HINT; x/arch rejects it",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 3 && rd == 0 && raw&0x107c != 0
		},
		want:     func(raw uint32) string { d, _ := Decode(raw); return "c.lui zero," + hex(d.Imm>>12&0xfffff) },
		examples: map[uint32]string{0x6005: "c.lui zero,0x1", 0x707d: "c.lui zero,0xfffff"},
	},
	{
		desc:   "c.mv/c.add HINT",
		reason: "ISA manual (RVC HINTs): c.mv and c.add with rd=x0 and rs2!=x0 are HINTs; x/arch rejects them",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, rs2, _, ok := c16(raw)
			return ok && q == 2 && f3 == 4 && rd == 0 && rs2 != 0
		},
		want: func(raw uint32) string {
			return [2]string{"c.mv", "c.add"}[raw>>12&1] + " zero," + XRegNames[raw>>2&31]
		},
		examples: map[uint32]string{0x802e: "c.mv zero,a1", 0x902e: "c.add zero,a1"},
	},
	{
		desc:   "c.slli HINT",
		reason: "ISA manual (RVC HINTs): c.slli with rd=x0, or with shamt=0 (c.slli64), is a HINT; x/arch rejects it",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, rd, _, _, ok := c16(raw)
			return ok && q == 2 && f3 == 0 && (rd == 0 || raw&0x107c == 0)
		},
		want: func(raw uint32) string {
			d, _ := Decode(raw)
			if d.Imm == 0 {
				return "c.slli64 " + XRegNames[d.Rd]
			}
			return "c.slli zero," + hex(d.Imm)
		},
		examples: map[uint32]string{0x0002: "c.slli64 zero", 0x0502: "c.slli64 a0", 0x1002: "c.slli zero,0x20"},
	},
	{
		desc:   "c.srli/c.srai HINT",
		reason: "ISA manual (RVC HINTs): c.srli and c.srai with shamt=0 (c.srli64/c.srai64) are HINTs; x/arch rejects them",
		match: func(raw uint32, _ *riscv64asm.Inst, _ error) bool {
			q, f3, _, _, _, ok := c16(raw)
			return ok && q == 1 && f3 == 4 && raw>>11&1 == 0 && raw&0x107c == 0
		},
		want: func(raw uint32) string {
			return [2]string{"c.srli64 ", "c.srai64 "}[raw>>10&1] + XRegNames[raw>>7&7+8]
		},
		examples: map[uint32]string{0x8101: "c.srli64 a0", 0x8501: "c.srai64 a0"},
	},
}

// cjBits is the CJ-format immediate as the ISA manual draws it: the offset
// bit held by instruction bits 12, 11, ..., 2.
var cjBits = []uint{11, 4, 9, 8, 10, 6, 7, 3, 2, 1, 5}

// scatter collects the immediate whose bit perm[k] is instruction bit
// 12-k, sign-extended from the bit at instruction bit 12.
func scatter(raw uint32, perm []uint) int64 {
	var v int64
	for k, b := range perm {
		v |= int64(raw>>(12-uint(k))&1) << b
	}
	if raw>>12&1 != 0 {
		v -= 1 << (perm[0] + 1)
	}
	return v
}

// sweepStats counts what a comparison run saw.
type sweepStats struct {
	agreeValid   int
	agreeInvalid int
	rowHits      [NumOps]int // per op (32-bit op or C op) with agreeing operands
	overrideHits map[string]int
}

func newStats() *sweepStats { return &sweepStats{overrideHits: map[string]int{}} }

// compare decodes raw with both decoders and returns a description of any
// disagreement not explained by manualOverrides ("" = fine).
func compare(raw uint32, st *sweepStats) string {
	ours, ourErr := Decode(raw)
	theirs, theirErr := xarchDecode(raw)
	for _, o := range manualOverrides {
		if o.match(raw, &theirs, theirErr) {
			st.overrideHits[o.desc]++
			want := o.want(raw)
			if want == "" {
				if ourErr == nil {
					return fmt.Sprintf("%s: want an error (%s), got %q", o.desc, o.reason, ours)
				}
				return ""
			}
			if ourErr != nil || ours.String() != want {
				return fmt.Sprintf("%s: want %q, got %q (err %v)", o.desc, want, ours, ourErr)
			}
			return ""
		}
	}
	if theirErr != nil {
		if ourErr == nil {
			if _, skip := notInXArch[ours.Op]; skip {
				return ""
			}
			return fmt.Sprintf("x/arch rejects it (%v) but we decode %q", theirErr, ours)
		}
		st.agreeInvalid++
		return ""
	}
	tv := theirView(theirs)
	if _, ok := OpByName(tv.name); !ok {
		if ourErr == nil {
			return fmt.Sprintf("x/arch decodes %q (not in our set) but we decode %q", riscv64asm.GNUSyntax(theirs), ours)
		}
		st.agreeInvalid++
		return ""
	}
	if ourErr != nil {
		return fmt.Sprintf("x/arch decodes %q but we reject it: %v", riscv64asm.GNUSyntax(theirs), ourErr)
	}
	if ov := ourView(ours); ov != tv {
		return fmt.Sprintf("x/arch %q %+v, ours %q %+v", riscv64asm.GNUSyntax(theirs), tv, ours, ov)
	}
	st.agreeValid++
	st.rowHits[ours.Op]++
	st.rowHits[ours.COp]++
	return ""
}

func requireNoMismatch(t *testing.T, raw uint32, st *sweepStats, failures *int) {
	t.Helper()
	if msg := compare(raw, st); msg != "" {
		*failures++
		if *failures <= 20 {
			t.Errorf("0x%08x: %s", raw, msg)
		}
	}
}

func TestXArch16Exhaustive(t *testing.T) {
	st := newStats()
	failures := 0
	for raw := uint32(0); raw < 1<<16; raw++ {
		if raw&3 != 3 {
			requireNoMismatch(t, raw, st, &failures)
		}
	}
	require.Zero(t, failures, "16-bit mismatches")
	for op := C_ADDI4SPN; op < NumOps; op++ {
		require.Positive(t, st.rowHits[op], "16-bit row %s never agreed with x/arch", op)
	}
	for _, o := range manualOverrides {
		if o.desc == "reserved rounding mode" {
			continue // 32-bit only
		}
		require.Positive(t, st.overrideHits[o.desc], "override %q never hit", o.desc)
	}
	t.Logf("16-bit: %d agree valid, %d agree invalid, overrides %v", st.agreeValid, st.agreeInvalid, st.overrideHits)
}

func TestXArch32Sweep(t *testing.T) {
	perCombo := *sweep
	if perCombo == 0 {
		perCombo = 2
		if testing.Short() {
			perCombo = 1
		}
	}
	rng := rand.New(rand.NewSource(1))
	st := newStats()
	failures := 0
	// Every major opcode x funct3 x funct7 with random rd, rs1, rs2.
	for major := uint32(0); major < 32; major++ {
		for f3 := uint32(0); f3 < 8; f3++ {
			for f7 := uint32(0); f7 < 128; f7++ {
				for k := 0; k < perCombo; k++ {
					raw := f7<<25 | rng.Uint32()&0x01ff8f80 | f3<<12 | major<<2 | 3
					requireNoMismatch(t, raw, st, &failures)
				}
			}
		}
	}
	// Every table row with random operand bits, and with one fixed bit flipped.
	for op := Op(1); op < C_ADDI4SPN; op++ {
		info := &opTable[op]
		for k := 0; k < 64*perCombo; k++ {
			raw := info.Match | rng.Uint32()&^info.Mask
			requireNoMismatch(t, raw, st, &failures)
			flip := raw ^ 1<<rng.Intn(32)
			if flip&3 == 3 {
				requireNoMismatch(t, flip, st, &failures)
			}
		}
	}
	require.Zero(t, failures, "32-bit mismatches")
	for op := Op(1); op < C_ADDI4SPN; op++ {
		if _, skip := notInXArch[op]; !skip {
			require.Positive(t, st.rowHits[op], "row %s never agreed with x/arch", op)
		}
	}
	require.Positive(t, st.overrideHits["reserved rounding mode"])
	t.Logf("32-bit: %d agree valid, %d agree invalid, overrides %v", st.agreeValid, st.agreeInvalid, st.overrideHits)
}

func TestManualOverrideExamples(t *testing.T) {
	for _, o := range manualOverrides {
		for raw, want := range o.examples {
			t.Run(fmt.Sprintf("%s/%#x", o.desc, raw), func(t *testing.T) {
				theirs, theirErr := xarchDecode(raw)
				require.True(t, o.match(raw, &theirs, theirErr), "example does not match its rule")
				in, err := Decode(raw)
				if want == "" {
					require.Error(t, err)
					require.NoError(t, theirErr, "x/arch now rejects it too: drop the override?")
					return
				}
				require.NoError(t, err)
				require.Equal(t, want, in.String())
				require.Equal(t, want, o.want(raw))
			})
		}
	}
}
