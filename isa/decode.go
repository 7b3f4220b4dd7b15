package isa

import (
	"fmt"
	"math/bits"
	"sort"
)

// Inst is one decoded instruction.
type Inst struct {
	Op    Op     // the operation; a 16-bit instruction carries its 32-bit equivalent here
	COp   Op     // for a 16-bit instruction its own compressed op (C_ADDI ...); ILLEGAL for 32-bit
	Class Class  // refined class (Call/Return decided from the link registers)
	Rd    uint8  // register numbers 0..31, X or F per the op's OpInfo
	Rs1   uint8  //
	Rs2   uint8  //
	Rs3   uint8  //
	Rm    uint8  // FP: rm (0..4, 7=dyn); AMO/LR/SC: aq<<1|rl; FENCE: pred<<4|succ
	Len   uint8  // 2 or 4 bytes
	Csr   uint16 // CSR number for CSR ops
	Imm   int64  // sign-extended immediate, branch/jump offset in bytes, shift amount, CSR zimm; FENCE: fm<<8|pred<<4|succ
	Raw   uint32 // raw bits (16-bit instructions in the low half)
}

// Info returns the row of the instruction's (32-bit equivalent) op.
func (i Inst) Info() *OpInfo { return i.Op.Info() }

// DecodeError says why a word is not a supported instruction.
type DecodeError struct {
	Raw uint32 // the word (16-bit instructions in the low half)
	Len uint8  // 2 or 4
	Msg string // what was expected
}

func (e *DecodeError) Error() string {
	if e.Len == 2 {
		return fmt.Sprintf("isa: cannot decode 16-bit 0x%04x: %s", e.Raw, e.Msg)
	}
	return fmt.Sprintf("isa: cannot decode 0x%08x: %s", e.Raw, e.Msg)
}

// Decode decodes one instruction. If raw&3 != 3 it is a 16-bit instruction in
// raw's low half (the upper half is ignored); otherwise raw is a 32-bit word.
// On error the returned Inst is ILLEGAL with Raw and Len set.
func Decode(raw uint32) (Inst, error) {
	if raw&3 != 3 {
		return decode16(uint16(raw))
	}
	for _, op := range buckets32[(raw>>2)&31][(raw>>12)&7] {
		info := &opTable[op]
		if raw&info.Mask == info.Match {
			return decodeFields(op, info, raw)
		}
	}
	return Inst{Raw: raw, Len: 4}, &DecodeError{Raw: raw, Len: 4, Msg: noMatch(raw)}
}

var majorNames = [32]string{
	0x00: "LOAD", 0x01: "LOAD-FP", 0x02: "custom-0", 0x03: "MISC-MEM", 0x04: "OP-IMM",
	0x05: "AUIPC", 0x06: "OP-IMM-32", 0x08: "STORE", 0x09: "STORE-FP", 0x0b: "AMO",
	0x0c: "OP", 0x0d: "LUI", 0x0e: "OP-32", 0x10: "MADD", 0x11: "MSUB", 0x12: "NMSUB",
	0x13: "NMADD", 0x14: "OP-FP", 0x18: "BRANCH", 0x19: "JALR", 0x1b: "JAL", 0x1c: "SYSTEM",
}

func noMatch(raw uint32) string {
	major := (raw >> 2) & 31
	switch {
	case raw&0x1f == 0x1f:
		return "instructions longer than 32 bits are not supported"
	case major == 0x02:
		return "custom-0 holds only hps.on (0x0000100b), hps.off (0x0000200b) and dise.ret (0x0000300b)"
	case majorNames[major] == "":
		return fmt.Sprintf("major opcode 0x%02x holds no RV64GC+Zba/Zbb/Zbc/Zbs/Zicond operation", raw&0x7f)
	}
	return fmt.Sprintf("no supported operation in major opcode %s with funct3=%d funct7=0x%02x rs2=%d",
		majorNames[major], (raw>>12)&7, raw>>25, (raw>>20)&31)
}

func decodeFields(op Op, info *OpInfo, raw uint32) (Inst, error) {
	in := Inst{Op: op, Class: info.Class, Len: 4, Raw: raw}
	rd, rs1, rs2 := uint8(raw>>7)&31, uint8(raw>>15)&31, uint8(raw>>20)&31
	switch info.Format {
	case FmtR:
		in.Rd, in.Rs1, in.Rs2 = rd, rs1, rs2
	case FmtR2:
		in.Rd, in.Rs1 = rd, rs1
	case FmtR4:
		in.Rd, in.Rs1, in.Rs2, in.Rs3 = rd, rs1, rs2, uint8(raw>>27)
	case FmtI, FmtLoad, FmtJalr:
		in.Rd, in.Rs1, in.Imm = rd, rs1, immI(raw)
	case FmtShift:
		in.Rd, in.Rs1, in.Imm = rd, rs1, int64(raw>>20)&63
	case FmtShiftW:
		in.Rd, in.Rs1, in.Imm = rd, rs1, int64(raw>>20)&31
	case FmtStore:
		in.Rs1, in.Rs2, in.Imm = rs1, rs2, immS(raw)
	case FmtBranch:
		in.Rs1, in.Rs2, in.Imm = rs1, rs2, immB(raw)
	case FmtU:
		in.Rd, in.Imm = rd, int64(int32(raw&0xfffff000))
	case FmtJ:
		in.Rd, in.Imm = rd, immJ(raw)
	case FmtAMO:
		in.Rd, in.Rs1, in.Rs2 = rd, rs1, rs2
	case FmtLR:
		in.Rd, in.Rs1 = rd, rs1
	case FmtCSR:
		in.Rd, in.Rs1, in.Csr = rd, rs1, uint16(raw>>20)
	case FmtCSRI:
		in.Rd, in.Imm, in.Csr = rd, int64(rs1), uint16(raw>>20)
	case FmtFence:
		// rd, rs1 and unknown fm values are reserved for future fences and
		// must be ignored (ISA manual, FENCE); keep them for exact re-encoding.
		in.Rd, in.Rs1, in.Rm, in.Imm = rd, rs1, uint8(raw>>20), int64(raw>>20)
	case FmtFenceI:
		in.Rd, in.Rs1, in.Imm = rd, rs1, immI(raw) // ignored fields, kept
	case FmtSfence:
		in.Rs1, in.Rs2 = rs1, rs2
	}
	if info.RM {
		in.Rm = uint8(raw>>12) & 7
		if in.Rm == 5 || in.Rm == 6 {
			return Inst{Raw: raw, Len: 4}, &DecodeError{Raw: raw, Len: 4,
				Msg: fmt.Sprintf("%s: reserved rounding mode %d (want 0-4 or 7=dyn)", info.Name, in.Rm)}
		}
	}
	if info.AqRl {
		in.Rm = uint8(raw>>25) & 3
	}
	in.Class = refineClass(in.Class, in.Rd, in.Rs1)
	return in, nil
}

func immI(raw uint32) int64 { return int64(int32(raw) >> 20) }

func immS(raw uint32) int64 { return int64(int32(raw)>>25<<5) | int64(raw>>7&31) }

func immB(raw uint32) int64 {
	return int64(int32(raw)>>31<<12) | int64(raw<<4&0x800) | int64(raw>>20&0x7e0) | int64(raw>>7&0x1e)
}

func immJ(raw uint32) int64 {
	return int64(int32(raw)>>31<<20) | int64(raw&0xff000) | int64(raw>>9&0x800) | int64(raw>>20&0x7fe)
}

// isLink reports whether r is a link register (x1 or x5) in the sense of the
// ISA manual's return-address-stack hints for JAL/JALR.
func isLink(r uint8) bool { return r == 1 || r == 5 }

// refineClass applies the return-address-stack hint convention: a jump that
// writes a link register is a Call (also when it reads another link register:
// pop-then-push), one that only reads a link register is a Return.
func refineClass(c Class, rd, rs1 uint8) Class {
	switch c {
	case Jal:
		if isLink(rd) {
			return Call
		}
	case Jalr:
		if isLink(rd) {
			return Call
		}
		if isLink(rs1) {
			return Return
		}
	}
	return c
}

// Decode lookup tables, built once from opTable: 32-bit rows by major opcode
// and funct3, 16-bit rows by quadrant and funct3. Within a bucket the rows
// with more fixed bits come first, so a specific row (c.jr) wins over the
// general one sharing its bits (c.mv).
var (
	buckets32 [32][8][]Op
	buckets16 [3][8][]Op
)

func init() {
	for op := Op(1); op < NumOps; op++ {
		info := &opTable[op]
		f3 := int(info.Match>>12) & 7
		switch {
		case op.Compressed():
			f3 = int(info.Match>>13) & 7
			q := info.Match & 3
			buckets16[q][f3] = append(buckets16[q][f3], op)
		case info.Mask&0x7000 == 0x7000:
			major := (info.Match >> 2) & 31
			buckets32[major][f3] = append(buckets32[major][f3], op)
		default: // funct3 is an operand (rm) or part of an immediate
			major := (info.Match >> 2) & 31
			for f := range buckets32[major] {
				buckets32[major][f] = append(buckets32[major][f], op)
			}
		}
	}
	bySpecificity := func(b []Op) {
		sort.SliceStable(b, func(i, j int) bool {
			return bits.OnesCount32(opTable[b[i]].Mask) > bits.OnesCount32(opTable[b[j]].Mask)
		})
	}
	for i := range buckets32 {
		for j := range buckets32[i] {
			bySpecificity(buckets32[i][j])
		}
	}
	for i := range buckets16 {
		for j := range buckets16[i] {
			bySpecificity(buckets16[i][j])
		}
	}
}
