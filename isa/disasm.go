package isa

import (
	"strconv"
	"strings"
)

// XRegNames and FRegNames are the ABI register names (x8 prints as s0).
var (
	XRegNames = [32]string{
		"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
		"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"}
	FRegNames = [32]string{
		"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
		"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"}
)

// RoundingModeNames are the assembler names of rm values 0..7 ("" = reserved).
var RoundingModeNames = [8]string{"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func hex(v int64) string {
	if v < 0 {
		return "-0x" + strconv.FormatUint(uint64(-v), 16)
	}
	return "0x" + strconv.FormatUint(uint64(v), 16)
}

// String disassembles the instruction the way GNU objdump prints it (with
// its aliases: li, mv, ret, csrr, fmv.d, ...), using ABI register names.
// Branch and jump targets are relative to the instruction, as GNU as writes
// them: "beqz a0,.+12", "j .-8". A 16-bit instruction prints as objdump
// prints it (its 32-bit equivalent, or c.* for HINTs). Words that failed to
// decode, and valid fences whose reserved fields are not zero, print as
// ".4byte 0x..." / ".2byte 0x...".
func (i Inst) String() string { return i.format(relTarget) }

// StringAt is String for an instruction at address pc: branch and jump
// targets print as absolute hexadecimal addresses.
func (i Inst) StringAt(pc uint64) string {
	return i.format(func(off int64) string { return "0x" + strconv.FormatUint(pc+uint64(off), 16) })
}

func relTarget(off int64) string {
	if off < 0 {
		return ".-" + itoa(-off)
	}
	return ".+" + itoa(off)
}

func (i Inst) rawWord() string {
	if i.Len == 2 {
		return ".2byte 0x" + strconv.FormatUint(uint64(i.Raw&0xffff), 16)
	}
	return ".4byte 0x" + strconv.FormatUint(uint64(i.Raw), 16)
}

func (i Inst) format(target func(int64) string) string {
	if i.Op == ILLEGAL || i.Op >= NumOps || i.Op.Compressed() {
		return i.rawWord()
	}
	info := &opTable[i.Op]
	x := func(r uint8) string {
		if r >= DISEReg0 && r < DISEReg0+NumDISERegs {
			return "$d" + itoa(int64(r-DISEReg0)) // a DISE-private register in a replacement sequence
		}
		return XRegNames[r&31]
	}
	f := func(r uint8) string { return FRegNames[r&31] }
	reg := func(k RegKind, r uint8) string {
		if k == FReg {
			return f(r)
		}
		return x(r)
	}
	mem := func(off int64, base uint8) string { return itoa(off) + "(" + x(base) + ")" }
	ops := func(name string, args ...string) string {
		if len(args) == 0 {
			return name
		}
		return name + " " + strings.Join(args, ",")
	}
	name := info.Name
	rd, rs1, rs2 := reg(info.Rd, i.Rd), reg(info.Rs1, i.Rs1), reg(info.Rs2, i.Rs2)

	// HINTs and other 16-bit forms objdump prints in their own syntax.
	switch i.COp {
	case C_NOP:
		if i.Imm != 0 {
			return ops("c.nop", itoa(i.Imm))
		}
	case C_ADDI:
		if i.Imm == 0 {
			return ops("addi", rd, rd, "0")
		}
	case C_LI:
		if i.Rd == 0 {
			return ops("c.li", rd, itoa(i.Imm))
		}
	case C_LUI:
		if i.Rd == 0 {
			return ops("c.lui", rd, hex(i.Imm>>12&0xfffff))
		}
	case C_MV:
		if i.Rd == 0 {
			return ops("c.mv", rd, rs2)
		}
		return ops("mv", rd, rs2)
	case C_ADD:
		if i.Rd == 0 {
			return ops("c.add", rd, rs2)
		}
	case C_SLLI, C_SRLI, C_SRAI:
		if i.Imm == 0 {
			return ops(opTable[i.COp].Name+"64", rd)
		}
		if i.Rd == 0 {
			return ops("c.slli", rd, hex(i.Imm))
		}
	}

	switch i.Op {
	case ADDI:
		switch {
		case i.Rd == 0 && i.Rs1 == 0 && i.Imm == 0:
			return "nop"
		case i.Rs1 == 0:
			return ops("li", rd, itoa(i.Imm))
		case i.Imm == 0:
			return ops("mv", rd, rs1)
		}
	case ANDI:
		if i.Imm == 255 {
			return ops("zext.b", rd, rs1)
		}
	case XORI:
		if i.Imm == -1 {
			return ops("not", rd, rs1)
		}
	case ADDIW:
		if i.Imm == 0 {
			return ops("sext.w", rd, rs1)
		}
	case SLTIU:
		if i.Imm == 1 {
			return ops("seqz", rd, rs1)
		}
	case SUB, SUBW:
		if i.Rs1 == 0 {
			return ops(zeroRs1Alias[i.Op], rd, rs2)
		}
	case SLT:
		if i.Rs2 == 0 {
			return ops("sltz", rd, rs1)
		}
		if i.Rs1 == 0 {
			return ops("sgtz", rd, rs2)
		}
	case SLTU:
		if i.Rs1 == 0 {
			return ops("snez", rd, rs2)
		}
	case ADD_UW:
		if i.Rs2 == 0 {
			return ops("zext.w", rd, rs1)
		}
	case BEQ, BNE, BGE, BLT:
		// The order of the tests follows objdump's (bge zero,zero is blez, blt zero,zero is bltz).
		t := target(i.Imm)
		if i.Rs1 == 0 && i.Op == BGE {
			return ops("blez", rs2, t)
		}
		if i.Rs2 == 0 {
			return ops(zeroRs2Alias[i.Op], rs1, t)
		}
		if i.Rs1 == 0 && i.Op == BLT {
			return ops("bgtz", rs2, t)
		}
	case JAL:
		switch i.Rd {
		case 0:
			return ops("j", target(i.Imm))
		case 1:
			return ops("jal", target(i.Imm))
		}
	case JALR:
		switch {
		case i.Rd == 0 && i.Rs1 == 1 && i.Imm == 0:
			return "ret"
		case i.Rd == 0 && i.Imm == 0:
			return ops("jr", rs1)
		case i.Rd == 0:
			return ops("jr", mem(i.Imm, i.Rs1))
		case i.Rd == 1 && i.Imm == 0:
			return ops("jalr", rs1)
		case i.Rd == 1:
			return ops("jalr", mem(i.Imm, i.Rs1))
		case i.Imm == 0:
			return ops("jalr", rd, rs1)
		}
	case FSGNJ_S, FSGNJ_D, FSGNJN_S, FSGNJN_D, FSGNJX_S, FSGNJX_D:
		if i.Rs1 == i.Rs2 {
			return ops(sameRegAlias[i.Op], rd, rs1)
		}
	case CSRRW:
		if alias := fpCSRAlias[i.Csr]; alias != "" {
			if i.Rd == 0 {
				return ops("fs"+alias, rs1)
			}
			return ops("fs"+alias, rd, rs1)
		}
		if i.Rd == 0 && i.Csr == 0xc00 && i.Rs1 == 0 {
			return "unimp"
		}
		if i.Rd == 0 {
			return ops("csrw", CSRName(i.Csr), rs1)
		}
	case CSRRS:
		if i.Rs1 == 0 {
			if alias := fpCSRAlias[i.Csr]; alias != "" {
				return ops("fr"+alias, rd)
			}
			if alias := counterAlias[i.Csr]; alias != "" {
				return ops(alias, rd)
			}
			return ops("csrr", rd, CSRName(i.Csr))
		}
		if i.Rd == 0 {
			return ops("csrs", CSRName(i.Csr), rs1)
		}
	case CSRRC:
		if i.Rd == 0 {
			return ops("csrc", CSRName(i.Csr), rs1)
		}
	case CSRRWI:
		if i.Csr == 1 || i.Csr == 2 {
			return ops("fs"+fpCSRAlias[i.Csr]+"i", rd, itoa(i.Imm))
		}
		if i.Rd == 0 {
			return ops("csrwi", CSRName(i.Csr), itoa(i.Imm))
		}
	case CSRRSI, CSRRCI:
		if i.Rd == 0 {
			return ops(zeroRdAlias[i.Op], CSRName(i.Csr), itoa(i.Imm))
		}
	}

	switch info.Format {
	case FmtNone:
		return name
	case FmtR:
		return ops(name, rd, rs1, rs2) + rmSuffix(info, i.Rm)
	case FmtR2:
		return ops(name, rd, rs1) + rmSuffix(info, i.Rm)
	case FmtR4:
		return ops(name, rd, rs1, rs2, reg(info.Rs3, i.Rs3)) + rmSuffix(info, i.Rm)
	case FmtI:
		return ops(name, rd, rs1, itoa(i.Imm))
	case FmtShift, FmtShiftW:
		return ops(name, rd, rs1, hex(i.Imm))
	case FmtLoad, FmtJalr:
		return ops(name, rd, mem(i.Imm, i.Rs1))
	case FmtStore:
		return ops(name, rs2, mem(i.Imm, i.Rs1))
	case FmtBranch:
		return ops(name, rs1, rs2, target(i.Imm))
	case FmtU:
		return ops(name, rd, hex(i.Imm>>12&0xfffff))
	case FmtJ:
		return ops(name, rd, target(i.Imm))
	case FmtAMO:
		return ops(name+aqrlSuffix[i.Rm&3], rd, rs2, "("+x(i.Rs1)+")")
	case FmtLR:
		return ops(name+aqrlSuffix[i.Rm&3], rd, "("+x(i.Rs1)+")")
	case FmtCSR:
		return ops(name, rd, CSRName(i.Csr), rs1)
	case FmtCSRI:
		return ops(name, rd, CSRName(i.Csr), itoa(i.Imm))
	case FmtFence:
		return i.fenceString()
	case FmtFenceI:
		if i.Rd != 0 || i.Rs1 != 0 || i.Imm != 0 {
			return i.rawWord()
		}
		return name
	case FmtSfence: // (as objdump: the operands up to the last nonzero one)
		switch {
		case i.Rs2 != 0:
			return ops(name, rs1, rs2)
		case i.Rs1 != 0:
			return ops(name, rs1)
		}
		return name
	}
	return i.rawWord()
}

var aqrlSuffix = [4]string{"", ".rl", ".aq", ".aqrl"}

// Aliases objdump prints when an operand is x0 (or both sources are equal).
var (
	zeroRs1Alias = map[Op]string{SUB: "neg", SUBW: "negw"}
	zeroRs2Alias = map[Op]string{BEQ: "beqz", BNE: "bnez", BGE: "bgez", BLT: "bltz"}
	zeroRdAlias  = map[Op]string{CSRRSI: "csrsi", CSRRCI: "csrci"}
	sameRegAlias = map[Op]string{FSGNJ_S: "fmv.s", FSGNJ_D: "fmv.d", FSGNJN_S: "fneg.s",
		FSGNJN_D: "fneg.d", FSGNJX_S: "fabs.s", FSGNJX_D: "fabs.d"}
)

// fpCSRAlias names the floating-point CSRs in the fr*/fs* aliases.
var fpCSRAlias = map[uint16]string{1: "flags", 2: "rm", 3: "csr"}

var counterAlias = map[uint16]string{0xc00: "rdcycle", 0xc01: "rdtime", 0xc02: "rdinstret"}

// rmSuffix prints a static rounding mode; the default (dyn, or rne for exact
// conversions) is left out as GNU as and objdump do.
func rmSuffix(info *OpInfo, rm uint8) string {
	if !info.RM {
		return ""
	}
	def := uint8(7)
	if info.ExactRM {
		def = 0
	}
	if rm == def {
		return ""
	}
	return "," + RoundingModeNames[rm&7]
}

// fenceSet prints a FENCE predecessor/successor set ("iorw", "rw").
func fenceSet(s uint8) string {
	if s&15 == 0 {
		return "unknown" // as objdump prints an empty set
	}
	var b []byte
	for k, c := range "iorw" {
		if s&(8>>k) != 0 {
			b = append(b, byte(c))
		}
	}
	return string(b)
}

func (i Inst) fenceString() string {
	fm := i.Imm >> 8 & 15
	pred, succ := i.Rm>>4, i.Rm&15
	switch {
	case i.Rd != 0 || i.Rs1 != 0 || (fm != 0 && fm != 8):
		return i.rawWord()
	case fm == 8:
		if pred == 3 && succ == 3 {
			return "fence.tso"
		}
		return i.rawWord()
	case pred == 15 && succ == 15:
		return "fence"
	case pred == 1 && succ == 0:
		return "pause"
	}
	return "fence " + fenceSet(pred) + "," + fenceSet(succ)
}
