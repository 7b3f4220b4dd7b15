// Package amd64 is a small x86-64 machine-code emitter: the handful of
// instructions the functional core's translator (cpu/jit_amd64.go) needs,
// each encoded by hand from the Intel SDM's opcode tables (volume 2,
// chapter 2: REX prefixes, ModRM and SIB bytes). Tests decode what it
// emits with golang.org/x/arch/x86/x86asm and compare.
package amd64

import "encoding/binary"

// Reg is a general-purpose register, numbered as the encoding does.
type Reg uint8

// The sixteen 64-bit registers.
const (
	RAX Reg = iota
	RCX
	RDX
	RBX
	RSP
	RBP
	RSI
	RDI
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
)

// NoIndex marks a memory operand without an index register.
const NoIndex Reg = 0xff

// Mem is a memory operand [Base + Index*Scale + Disp].
type Mem struct {
	Base  Reg
	Index Reg // NoIndex for none (RSP cannot be an index)
	Scale uint8
	Disp  int32
}

// M is [base+disp].
func M(base Reg, disp int32) Mem { return Mem{Base: base, Index: NoIndex, Scale: 1, Disp: disp} }

// MI is [base+index*scale+disp].
func MI(base, index Reg, scale uint8, disp int32) Mem {
	return Mem{Base: base, Index: index, Scale: scale, Disp: disp}
}

// Cond is a condition code (the low nibble of Jcc and SETcc).
type Cond uint8

// Condition codes.
const (
	CondB  Cond = 0x2 // below (unsigned <)
	CondAE Cond = 0x3 // above or equal (unsigned >=)
	CondE  Cond = 0x4
	CondNE Cond = 0x5
	CondBE Cond = 0x6 // below or equal (unsigned <=)
	CondA  Cond = 0x7 // above (unsigned >)
	CondS  Cond = 0x8 // sign
	CondP  Cond = 0xa // parity (an unordered UCOMISD)
	CondL  Cond = 0xc // less (signed <)
	CondGE Cond = 0xd // greater or equal (signed >=)
	CondG  Cond = 0xf // greater (signed >)
)

// ALU is the /digit of the group-1 arithmetic instructions (and the
// opcode row of their reg, r/m forms).
type ALU uint8

// Group-1 operations.
const (
	ADD ALU = 0
	OR  ALU = 1
	ADC ALU = 2
	AND ALU = 4
	SUB ALU = 5
	XOR ALU = 6
	CMP ALU = 7
)

// Shift is the /digit of the shift group (C1, D3).
type Shift uint8

// Shift operations.
const (
	ROL Shift = 0
	ROR Shift = 1
	SHL Shift = 4
	SHR Shift = 5
	SAR Shift = 7
)

// Width is an operand size in bytes.
type Width uint8

// Asm accumulates machine code.
type Asm struct {
	B []byte
}

// Len is the number of bytes emitted so far.
func (a *Asm) Len() int { return len(a.B) }

func (a *Asm) byte1(b ...byte) { a.B = append(a.B, b...) }

func (a *Asm) imm32(v int32) { a.B = binary.LittleEndian.AppendUint32(a.B, uint32(v)) }

// rex emits a REX prefix if one is needed: w for 64-bit operands, r the
// ModRM reg field's register, x and b the SIB index and the base or r/m
// register; force for byte registers SPL..DIL.
func (a *Asm) rex(w bool, r, x, b Reg, force bool) {
	v := byte(0x40)
	if w {
		v |= 8
	}
	if r&8 != 0 {
		v |= 4
	}
	if x != NoIndex && x&8 != 0 {
		v |= 2
	}
	if b&8 != 0 {
		v |= 1
	}
	if v != 0x40 || force {
		a.byte1(v)
	}
}

// modrmReg emits ModRM for a register r/m operand.
func (a *Asm) modrmReg(reg byte, rm Reg) { a.byte1(0xc0 | (reg&7)<<3 | byte(rm&7)) }

// modrmMem emits ModRM (and SIB and displacement) for a memory operand.
func (a *Asm) modrmMem(reg byte, m Mem) {
	reg = (reg & 7) << 3
	var mod byte
	switch {
	case m.Disp == 0 && m.Base&7 != RBP&7:
		mod = 0
	case m.Disp >= -128 && m.Disp <= 127:
		mod = 0x40
	default:
		mod = 0x80
	}
	if m.Index == NoIndex && m.Base&7 != RSP&7 {
		a.byte1(mod | reg | byte(m.Base&7))
	} else {
		a.byte1(mod | reg | 4)
		idx := byte(4) // none
		if m.Index != NoIndex {
			idx = byte(m.Index & 7)
		}
		var ss byte
		switch m.Scale {
		case 2:
			ss = 1
		case 4:
			ss = 2
		case 8:
			ss = 3
		}
		a.byte1(ss<<6 | idx<<3 | byte(m.Base&7))
	}
	switch mod {
	case 0x40:
		a.byte1(byte(int8(m.Disp)))
	case 0x80:
		a.imm32(m.Disp)
	}
}

// opRM emits prefix-free opcode bytes op with a register reg field and
// a memory r/m operand; w selects 64-bit operands.
func (a *Asm) opRM(w bool, op []byte, reg Reg, m Mem) {
	a.rex(w, reg, m.Index, m.Base, false)
	a.byte1(op...)
	a.modrmMem(byte(reg), m)
}

// opRR emits opcode op with reg in ModRM.reg and rm in ModRM.r/m.
func (a *Asm) opRR(w bool, op []byte, reg, rm Reg) {
	a.rex(w, reg, NoIndex, rm, false)
	a.byte1(op...)
	a.modrmReg(byte(reg), rm)
}

// Load emits a load of w bytes at m into dst: 8 is MOV r64, 4 MOV r32
// (zero-extending), 2 and 1 MOVZX; signed loads of 4, 2 and 1 bytes
// sign-extend to 64 bits (MOVSXD, MOVSX).
func (a *Asm) Load(dst Reg, m Mem, w Width, signed bool) {
	switch {
	case w == 8:
		a.opRM(true, []byte{0x8b}, dst, m)
	case w == 4 && signed:
		a.opRM(true, []byte{0x63}, dst, m)
	case w == 4:
		a.opRM(false, []byte{0x8b}, dst, m)
	case w == 2 && signed:
		a.opRM(true, []byte{0x0f, 0xbf}, dst, m)
	case w == 2:
		a.opRM(false, []byte{0x0f, 0xb7}, dst, m)
	case signed:
		a.opRM(true, []byte{0x0f, 0xbe}, dst, m)
	default:
		a.opRM(false, []byte{0x0f, 0xb6}, dst, m)
	}
}

// Store emits a store of the low w bytes of src to m.
func (a *Asm) Store(m Mem, src Reg, w Width) {
	switch w {
	case 8:
		a.opRM(true, []byte{0x89}, src, m)
	case 4:
		a.opRM(false, []byte{0x89}, src, m)
	case 2:
		a.byte1(0x66)
		a.opRM(false, []byte{0x89}, src, m)
	default:
		a.rex(false, src, m.Index, m.Base, src >= RSP && src <= RDI)
		a.byte1(0x88)
		a.modrmMem(byte(src), m)
	}
}

// MovRR emits MOV dst, src (64-bit).
func (a *Asm) MovRR(dst, src Reg) { a.opRR(true, []byte{0x8b}, dst, src) }

// MovImm emits the shortest move of v into dst: MOV r32, imm32 when v
// fits 32 bits unsigned, MOV r64, imm32 sign-extended when it fits
// signed, MOV r64, imm64 otherwise.
func (a *Asm) MovImm(dst Reg, v uint64) {
	switch {
	case v <= 0xffffffff:
		a.rex(false, 0, NoIndex, dst, false)
		a.byte1(0xb8 + byte(dst&7))
		a.imm32(int32(uint32(v)))
	case int64(v) == int64(int32(v)):
		a.rex(true, 0, NoIndex, dst, false)
		a.byte1(0xc7)
		a.modrmReg(0, dst)
		a.imm32(int32(v))
	default:
		a.rex(true, 0, NoIndex, dst, false)
		a.byte1(0xb8 + byte(dst&7))
		a.B = binary.LittleEndian.AppendUint64(a.B, v)
	}
}

// StoreImm emits MOV qword m, imm32 (sign-extended).
func (a *Asm) StoreImm(m Mem, v int32) {
	a.opRM(true, []byte{0xc7}, 0, m)
	a.imm32(v)
}

// OpRM emits op dst, m (64-bit, or 32-bit if !w).
func (a *Asm) OpRM(op ALU, w bool, dst Reg, m Mem) {
	a.opRM(w, []byte{byte(op)<<3 | 3}, dst, m)
}

// OpRR emits op dst, src (64-bit, or 32-bit if !w).
func (a *Asm) OpRR(op ALU, w bool, dst, src Reg) {
	a.opRR(w, []byte{byte(op)<<3 | 3}, dst, src)
}

// OpImm emits op dst, imm (64-bit with the immediate sign-extended, or
// 32-bit if !w), with an 8-bit immediate when it fits.
func (a *Asm) OpImm(op ALU, w bool, dst Reg, v int32) {
	a.group1Imm(v, func(opcode []byte) { a.opRR(w, opcode, Reg(op), dst) })
}

// OpMemImm emits op qword m, imm (sign-extended; an 8-bit immediate
// when it fits).
func (a *Asm) OpMemImm(op ALU, m Mem, v int32) {
	a.group1Imm(v, func(opcode []byte) { a.opRM(true, opcode, Reg(op), m) })
}

// group1Imm emits a group-1 instruction with immediate v: operand emits
// the opcode (83 for an 8-bit immediate when v fits, else 81) and the
// operand, then the immediate follows.
func (a *Asm) group1Imm(v int32, operand func(opcode []byte)) {
	if v >= -128 && v <= 127 {
		operand([]byte{0x83})
		a.byte1(byte(int8(v)))
		return
	}
	operand([]byte{0x81})
	a.imm32(v)
}

// ShiftImm emits sh dst, n (64-bit, or 32-bit if !w).
func (a *Asm) ShiftImm(sh Shift, w bool, dst Reg, n uint8) {
	a.opRR(w, []byte{0xc1}, Reg(sh), dst)
	a.byte1(n)
}

// ShiftCL emits sh dst, CL (64-bit, or 32-bit if !w); the hardware masks
// the count to 6 (5) bits, as RISC-V does.
func (a *Asm) ShiftCL(sh Shift, w bool, dst Reg) { a.opRR(w, []byte{0xd3}, Reg(sh), dst) }

// Imul emits IMUL dst, m (64-bit, or 32-bit if !w): the low half.
func (a *Asm) Imul(w bool, dst Reg, m Mem) { a.opRM(w, []byte{0x0f, 0xaf}, dst, m) }

// MulHigh emits MUL m (unsigned) or IMUL m (signed): RDX:RAX = RAX * m.
func (a *Asm) MulHigh(signed bool, m Mem) {
	d := Reg(4)
	if signed {
		d = 5
	}
	a.opRM(true, []byte{0xf7}, d, m)
}

// Div emits DIV src (unsigned) or IDIV src (signed), 64-bit or 32-bit
// if !w: RDX:RAX (EDX:EAX) divided by src, quotient in RAX, remainder in
// RDX. The caller rules out a zero divisor and signed overflow, which
// trap.
func (a *Asm) Div(signed, w bool, src Reg) {
	d := Reg(6)
	if signed {
		d = 7
	}
	a.opRR(w, []byte{0xf7}, d, src)
}

// SignExtendRAX emits CQO (RDX = sign of RAX) or, if !w, CDQ.
func (a *Asm) SignExtendRAX(w bool) {
	if w {
		a.byte1(0x48)
	}
	a.byte1(0x99)
}

// Neg emits NEG dst (64-bit, or 32-bit if !w).
func (a *Asm) Neg(w bool, dst Reg) { a.opRR(w, []byte{0xf7}, 3, dst) }

// Cmov emits CMOVcc dst, src (64-bit, or 32-bit if !w): dst = src if cc.
func (a *Asm) Cmov(cc Cond, w bool, dst, src Reg) { a.opRR(w, []byte{0x0f, 0x40 | byte(cc)}, dst, src) }

// Bsr emits BSR dst, m (64-bit, or 32-bit if !w): the index of the
// highest set bit; ZF is set, and dst left as it was, for a zero source
// (AMD's definition; Intel leaves dst undefined, so callers overwrite it
// with CMOVZ).
func (a *Asm) Bsr(w bool, dst Reg, m Mem) { a.opRM(w, []byte{0x0f, 0xbd}, dst, m) }

// Bsf emits BSF dst, m: the index of the lowest set bit (ZF for zero, as
// Bsr).
func (a *Asm) Bsf(w bool, dst Reg, m Mem) { a.opRM(w, []byte{0x0f, 0xbc}, dst, m) }

// Popcnt emits POPCNT dst, m (64-bit, or 32-bit if !w); the host must
// have it (CPUID's POPCNT bit).
func (a *Asm) Popcnt(w bool, dst Reg, m Mem) {
	a.byte1(0xf3) // the mandatory prefix comes before REX
	a.opRM(w, []byte{0x0f, 0xb8}, dst, m)
}

// Bswap emits BSWAP dst (64-bit): the bytes in reverse order.
func (a *Asm) Bswap(dst Reg) {
	a.rex(true, 0, NoIndex, dst, false)
	a.byte1(0x0f, 0xc8|byte(dst&7))
}

// Movsxd emits MOVSXD dst, src32: sign-extends the low 32 bits.
func (a *Asm) Movsxd(dst, src Reg) { a.opRR(true, []byte{0x63}, dst, src) }

// Setcc emits SETcc dst8 and MOVZX dst32, dst8: dst = cond ? 1 : 0.
func (a *Asm) Setcc(cc Cond, dst Reg) {
	a.rex(false, 0, NoIndex, dst, dst >= RSP && dst <= RDI)
	a.byte1(0x0f, 0x90|byte(cc))
	a.modrmReg(0, dst)
	a.rex(false, dst, NoIndex, dst, dst >= RSP && dst <= RDI)
	a.byte1(0x0f, 0xb6)
	a.modrmReg(byte(dst), dst)
}

// Jcc emits Jcc rel32 and returns the offset of its displacement, for
// Patch.
func (a *Asm) Jcc(cc Cond) int {
	a.byte1(0x0f, 0x80|byte(cc))
	a.imm32(0)
	return len(a.B) - 4
}

// Jmp emits JMP rel32 and returns the offset of its displacement.
func (a *Asm) Jmp() int {
	a.byte1(0xe9)
	a.imm32(0)
	return len(a.B) - 4
}

// Patch points the rel32 displacement at off to the code offset target.
func (a *Asm) Patch(off, target int) {
	binary.LittleEndian.PutUint32(a.B[off:], uint32(int32(target-(off+4))))
}

// JmpMem emits JMP qword m (an indirect jump).
func (a *Asm) JmpMem(m Mem) { a.opRM(false, []byte{0xff}, 4, m) }

// Ret emits RET.
func (a *Asm) Ret() { a.byte1(0xc3) }

// MulRR emits MUL src (unsigned, 64-bit): RDX:RAX = RAX * src.
func (a *Asm) MulRR(src Reg) { a.opRR(true, []byte{0xf7}, 4, src) }

// OrMem8Imm emits OR byte m, v.
func (a *Asm) OrMem8Imm(m Mem, v uint8) {
	a.rex(false, 0, m.Index, m.Base, false)
	a.byte1(0x80)
	a.modrmMem(1, m)
	a.byte1(v)
}

// XReg is an SSE register.
type XReg uint8

// The SSE registers the translator uses (X15 is Go's zero register: not
// one of them).
const (
	X0 XReg = iota
	X1
	X2
	X3
)

// SSEOp is a scalar double-precision SSE2 instruction: its mandatory
// prefix and its opcode after 0F.
type SSEOp struct{ prefix, op byte }

// Scalar double-precision operations (Intel SDM volume 2: MOVSD, ADDSD,
// SUBSD, MULSD, DIVSD, UCOMISD).
var (
	MOVSD   = SSEOp{0xf2, 0x10} // load, or move between registers
	ADDSD   = SSEOp{0xf2, 0x58}
	SUBSD   = SSEOp{0xf2, 0x5c}
	MULSD   = SSEOp{0xf2, 0x59}
	DIVSD   = SSEOp{0xf2, 0x5e}
	SQRTSD  = SSEOp{0xf2, 0x51}
	UCOMISD = SSEOp{0x66, 0x2e} // unordered compare: ZF, PF, CF
)

// CvtSI2SD emits CVTSI2SD dst, src: the signed integer in src (64-bit,
// or 32-bit if !w) converted to double, rounded by the MXCSR (Go keeps
// round to nearest even).
func (a *Asm) CvtSI2SD(dst XReg, src Reg, w bool) {
	a.byte1(0xf2)
	a.rex(w, Reg(dst), NoIndex, src, false)
	a.byte1(0x0f, 0x2a)
	a.modrmReg(byte(dst), src)
}

// CvtTSD2SI emits CVTTSD2SI dst, src: the double in src truncated to a
// signed integer (64-bit, or 32-bit if !w); out of range or NaN gives the
// integer indefinite, the most negative value.
func (a *Asm) CvtTSD2SI(dst Reg, src XReg, w bool) {
	a.byte1(0xf2)
	a.rex(w, dst, NoIndex, Reg(src), false)
	a.byte1(0x0f, 0x2c)
	a.modrmReg(byte(dst), Reg(src))
}

// SSE emits op dst, qword m.
func (a *Asm) SSE(op SSEOp, dst XReg, m Mem) {
	a.byte1(op.prefix)
	a.rex(false, Reg(dst), m.Index, m.Base, false)
	a.byte1(0x0f, op.op)
	a.modrmMem(byte(dst), m)
}

// SSERR emits op dst, src.
func (a *Asm) SSERR(op SSEOp, dst, src XReg) {
	a.byte1(op.prefix)
	a.rex(false, Reg(dst), NoIndex, Reg(src), false)
	a.byte1(0x0f, op.op)
	a.modrmReg(byte(dst), Reg(src))
}

// MovqFromX emits MOVQ dst, src: the low 64 bits of src.
func (a *Asm) MovqFromX(dst Reg, src XReg) {
	a.byte1(0x66)
	a.rex(true, Reg(src), NoIndex, dst, false)
	a.byte1(0x0f, 0x7e)
	a.modrmReg(byte(src), dst)
}

// MovqToX emits MOVQ dst, src: src into the low 64 bits, the rest zeroed.
func (a *Asm) MovqToX(dst XReg, src Reg) {
	a.byte1(0x66)
	a.rex(true, Reg(dst), NoIndex, src, false)
	a.byte1(0x0f, 0x6e)
	a.modrmReg(byte(dst), src)
}
