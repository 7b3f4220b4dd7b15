package isa

import "fmt"

// EncodeError says which operand of an instruction cannot be encoded.
type EncodeError struct {
	Op  Op
	Msg string
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("isa: cannot encode %s: %s", e.Op, e.Msg)
}

// Encode returns the 32-bit encoding of i.Op with i's operands. Only 32-bit
// ops are encoded: a decoded 16-bit instruction encodes as its 32-bit
// equivalent (COp, Len and Raw are ignored), and C_* ops are an error.
// Fields the op does not use are ignored.
func Encode(i Inst) (uint32, error) {
	if i.Op == ILLEGAL || i.Op >= NumOps || i.Op.Compressed() {
		return 0, &EncodeError{Op: i.Op, Msg: "not a 32-bit operation"}
	}
	info := &opTable[i.Op]
	bad := func(format string, args ...any) (uint32, error) {
		return 0, &EncodeError{Op: i.Op, Msg: fmt.Sprintf(format, args...)}
	}
	for _, r := range []struct {
		name string
		kind RegKind
		v    uint8
	}{{"rd", info.Rd, i.Rd}, {"rs1", info.Rs1, i.Rs1}, {"rs2", info.Rs2, i.Rs2}, {"rs3", info.Rs3, i.Rs3}} {
		if r.kind != NoReg && r.v > 31 {
			return bad("%s=%d, want a register number 0..31", r.name, r.v)
		}
	}
	w := info.Match
	rd, rs1, rs2 := uint32(i.Rd)<<7, uint32(i.Rs1)<<15, uint32(i.Rs2)<<20
	inRange := func(lo, hi int64) bool { return i.Imm >= lo && i.Imm <= hi }
	switch info.Format {
	case FmtNone:
	case FmtR:
		w |= rd | rs1 | rs2
	case FmtR2:
		w |= rd | rs1
	case FmtR4:
		w |= rd | rs1 | rs2 | uint32(i.Rs3)<<27
	case FmtI, FmtLoad, FmtJalr:
		if !inRange(-2048, 2047) {
			return bad("imm %d out of range -2048..2047", i.Imm)
		}
		w |= rd | rs1 | uint32(i.Imm)<<20
	case FmtShift, FmtShiftW:
		max := int64(63)
		if info.Format == FmtShiftW {
			max = 31
		}
		if !inRange(0, max) {
			return bad("shift amount %d out of range 0..%d", i.Imm, max)
		}
		w |= rd | rs1 | uint32(i.Imm)<<20
	case FmtStore:
		if !inRange(-2048, 2047) {
			return bad("offset %d out of range -2048..2047", i.Imm)
		}
		u := uint32(i.Imm)
		w |= rs1 | rs2 | (u>>5&0x7f)<<25 | (u&31)<<7
	case FmtBranch:
		if !inRange(-4096, 4094) || i.Imm&1 != 0 {
			return bad("branch offset %d not even or out of range -4096..4094", i.Imm)
		}
		u := uint32(i.Imm)
		w |= rs1 | rs2 | (u>>12&1)<<31 | (u>>5&0x3f)<<25 | (u>>1&15)<<8 | (u>>11&1)<<7
	case FmtU:
		if !inRange(-1<<31, 1<<31-1) || i.Imm&0xfff != 0 {
			return bad("imm %#x not a multiple of 0x1000 in the signed 32-bit range", i.Imm)
		}
		w |= rd | uint32(i.Imm)&0xfffff000
	case FmtJ:
		if !inRange(-1<<20, 1<<20-2) || i.Imm&1 != 0 {
			return bad("jump offset %d not even or out of range -1048576..1048574", i.Imm)
		}
		u := uint32(i.Imm)
		w |= rd | (u>>20&1)<<31 | (u>>1&0x3ff)<<21 | (u>>11&1)<<20 | u&0xff000
	case FmtAMO:
		w |= rd | rs1 | rs2
	case FmtLR:
		w |= rd | rs1
	case FmtCSR, FmtCSRI:
		if i.Csr > 0xfff {
			return bad("csr %#x out of range 0..0xfff", i.Csr)
		}
		w |= rd | uint32(i.Csr)<<20
		if info.Format == FmtCSR {
			w |= rs1
		} else {
			if !inRange(0, 31) {
				return bad("zimm %d out of range 0..31", i.Imm)
			}
			w |= uint32(i.Imm) << 15
		}
	case FmtFence:
		if i.Rd > 31 || i.Rs1 > 31 {
			return bad("rd/rs1 field out of range 0..31")
		}
		if !inRange(0, 0xfff) {
			return bad("fm field (Imm>>8) out of range 0..15")
		}
		w |= rd | rs1 | uint32(i.Imm>>8)<<28 | uint32(i.Rm)<<20
	case FmtSfence:
		w |= rs1 | rs2
	case FmtFenceI:
		if i.Rd > 31 || i.Rs1 > 31 || !inRange(-2048, 2047) {
			return bad("reserved rd/rs1/imm fields out of range")
		}
		w |= rd | rs1 | uint32(i.Imm)<<20
	}
	if info.RM {
		if i.Rm > 7 || RoundingModeNames[i.Rm] == "" {
			return bad("rounding mode %d, want 0..4 or 7 (dyn)", i.Rm)
		}
		w |= uint32(i.Rm) << 12
	}
	if info.AqRl {
		if i.Rm > 3 {
			return bad("aq/rl bits %d, want 0..3 (aq<<1|rl)", i.Rm)
		}
		w |= uint32(i.Rm) << 25
	}
	return w, nil
}
