package isa

import "fmt"

// decode16 decodes a 16-bit RVC instruction into its 32-bit equivalent.
func decode16(h uint16) (Inst, error) {
	fail := func(msg string) (Inst, error) {
		return Inst{Raw: uint32(h), Len: 2}, &DecodeError{Raw: uint32(h), Len: 2, Msg: msg}
	}
	if h == 0 {
		return fail("the all-zero 16-bit word is defined illegal")
	}
	for _, op := range buckets16[h&3][h>>13] {
		info := &opTable[op]
		if uint32(h)&info.Mask == info.Match {
			in, msg := expandC(op, h)
			if msg != "" {
				return fail(info.Name + ": " + msg)
			}
			in.Op, in.COp, in.Len, in.Raw = info.Expand, op, 2, uint32(h)
			in.Class = refineClass(opTable[in.Op].Class, in.Rd, in.Rs1)
			return in, nil
		}
	}
	return fail(fmt.Sprintf("no RV64C instruction in quadrant %d with funct3=%d (reserved or an unsupported extension)", h&3, h>>13))
}

// Bit fields of the RVC formats (ISA manual, "Compressed Instruction Formats").
func cRd(h uint16) uint8         { return uint8(h>>7) & 31 }  // rd/rs1, bits 11:7
func cRs2(h uint16) uint8        { return uint8(h>>2) & 31 }  // rs2, bits 6:2
func cRdP(h uint16) uint8        { return uint8(h>>2)&7 + 8 } // rd'/rs2', bits 4:2
func cRs1P(h uint16) uint8       { return uint8(h>>7)&7 + 8 } // rs1'/rd', bits 9:7
func bit(h uint16, n uint) int64 { return int64(h>>n) & 1 }
func field(h uint16, hi, lo uint) int64 {
	return int64(h>>lo) & (1<<(hi-lo+1) - 1)
}

// cImm6 is the signed CI immediate imm[5]=bit 12, imm[4:0]=bits 6:2.
func cImm6(h uint16) int64 { return field(h, 6, 2) - bit(h, 12)<<5 }

// cShamt is the CI shift amount shamt[5]=bit 12, shamt[4:0]=bits 6:2.
func cShamt(h uint16) int64 { return field(h, 6, 2) | bit(h, 12)<<5 }

// Scaled unsigned offsets of the load/store forms.
func cUimmW(h uint16) int64 { return field(h, 12, 10)<<3 | bit(h, 6)<<2 | bit(h, 5)<<6 }
func cUimmD(h uint16) int64 { return field(h, 12, 10)<<3 | field(h, 6, 5)<<6 }
func cUimmLWSP(h uint16) int64 {
	return bit(h, 12)<<5 | field(h, 6, 4)<<2 | field(h, 3, 2)<<6
}
func cUimmLDSP(h uint16) int64 {
	return bit(h, 12)<<5 | field(h, 6, 5)<<3 | field(h, 4, 2)<<6
}
func cUimmSWSP(h uint16) int64 { return field(h, 12, 9)<<2 | field(h, 8, 7)<<6 }
func cUimmSDSP(h uint16) int64 { return field(h, 12, 10)<<3 | field(h, 9, 7)<<6 }

func cAddi4spnImm(h uint16) int64 {
	return field(h, 12, 11)<<4 | field(h, 10, 7)<<6 | bit(h, 6)<<2 | bit(h, 5)<<3
}

func cAddi16spImm(h uint16) int64 {
	return bit(h, 6)<<4 | bit(h, 5)<<6 | field(h, 4, 3)<<7 | bit(h, 2)<<5 - bit(h, 12)<<9
}

func cJImm(h uint16) int64 {
	return bit(h, 11)<<4 | field(h, 10, 9)<<8 | bit(h, 8)<<10 | bit(h, 7)<<6 |
		bit(h, 6)<<7 | field(h, 5, 3)<<1 | bit(h, 2)<<5 - bit(h, 12)<<11
}

func cBImm(h uint16) int64 {
	return field(h, 11, 10)<<3 | field(h, 6, 5)<<6 | field(h, 4, 3)<<1 | bit(h, 2)<<5 - bit(h, 12)<<8
}

// expandC fills the 32-bit-equivalent operands of compressed op, or returns
// why the code point is reserved. HINT code points (the manual's "RVC HINT
// instructions" table) are valid: they decode to their expansion, which has
// no architectural effect (rd=x0, or an identity such as addi rd,rd,0).
func expandC(op Op, h uint16) (in Inst, reserved string) {
	switch op {
	case C_ADDI4SPN:
		in.Rd, in.Rs1, in.Imm = cRdP(h), 2, cAddi4spnImm(h)
		if in.Imm == 0 {
			return in, "nzuimm=0 is reserved"
		}
	case C_FLD, C_LD:
		in.Rd, in.Rs1, in.Imm = cRdP(h), cRs1P(h), cUimmD(h)
	case C_LW:
		in.Rd, in.Rs1, in.Imm = cRdP(h), cRs1P(h), cUimmW(h)
	case C_FSD, C_SD:
		in.Rs2, in.Rs1, in.Imm = cRdP(h), cRs1P(h), cUimmD(h)
	case C_SW:
		in.Rs2, in.Rs1, in.Imm = cRdP(h), cRs1P(h), cUimmW(h)
	case C_NOP, C_ADDI: // rd=x0 is c.nop; nzimm=0 (or c.nop's imm!=0) is a HINT
		in.Rd, in.Rs1, in.Imm = cRd(h), cRd(h), cImm6(h)
	case C_ADDIW:
		in.Rd, in.Rs1, in.Imm = cRd(h), cRd(h), cImm6(h)
		if in.Rd == 0 {
			return in, "rd=x0 is reserved"
		}
	case C_LI: // rd=x0 is a HINT
		in.Rd, in.Rs1, in.Imm = cRd(h), 0, cImm6(h)
	case C_ADDI16SP:
		in.Rd, in.Rs1, in.Imm = 2, 2, cAddi16spImm(h)
		if in.Imm == 0 {
			return in, "nzimm=0 is reserved"
		}
	case C_LUI: // rd=x2 is c.addi16sp (matched first); rd=x0 is a HINT
		in.Rd, in.Imm = cRd(h), cImm6(h)<<12
		if in.Imm == 0 {
			return in, "nzimm=0 is reserved"
		}
	case C_SRLI, C_SRAI: // shamt=0 is a HINT (c.srli64/c.srai64)
		in.Rd, in.Rs1, in.Imm = cRs1P(h), cRs1P(h), cShamt(h)
	case C_ANDI:
		in.Rd, in.Rs1, in.Imm = cRs1P(h), cRs1P(h), cImm6(h)
	case C_SUB, C_XOR, C_OR, C_AND, C_SUBW, C_ADDW:
		in.Rd, in.Rs1, in.Rs2 = cRs1P(h), cRs1P(h), cRdP(h)
	case C_J:
		in.Rd, in.Imm = 0, cJImm(h)
	case C_BEQZ, C_BNEZ:
		in.Rs1, in.Rs2, in.Imm = cRs1P(h), 0, cBImm(h)
	case C_SLLI: // rd=x0 or shamt=0 is a HINT
		in.Rd, in.Rs1, in.Imm = cRd(h), cRd(h), cShamt(h)
	case C_FLDSP:
		in.Rd, in.Rs1, in.Imm = cRd(h), 2, cUimmLDSP(h)
	case C_LWSP:
		in.Rd, in.Rs1, in.Imm = cRd(h), 2, cUimmLWSP(h)
		if in.Rd == 0 {
			return in, "rd=x0 is reserved"
		}
	case C_LDSP:
		in.Rd, in.Rs1, in.Imm = cRd(h), 2, cUimmLDSP(h)
		if in.Rd == 0 {
			return in, "rd=x0 is reserved"
		}
	case C_JR:
		in.Rd, in.Rs1 = 0, cRd(h)
		if in.Rs1 == 0 {
			return in, "rs1=x0 is reserved"
		}
	case C_MV: // rs2=x0 is c.jr (matched first); rd=x0 is a HINT
		in.Rd, in.Rs1, in.Rs2 = cRd(h), 0, cRs2(h)
	case C_EBREAK:
	case C_JALR: // rs1=x0 is c.ebreak (matched first)
		in.Rd, in.Rs1 = 1, cRd(h)
	case C_ADD: // rd=x0 is a HINT
		in.Rd, in.Rs1, in.Rs2 = cRd(h), cRd(h), cRs2(h)
	case C_FSDSP, C_SDSP:
		in.Rs2, in.Rs1, in.Imm = cRs2(h), 2, cUimmSDSP(h)
	case C_SWSP:
		in.Rs2, in.Rs1, in.Imm = cRs2(h), 2, cUimmSWSP(h)
	}
	return in, ""
}
