package gen

import "github.com/rvsim/rvsim/isa"

// RV64C encodings, built by hand from the ISA manual's "RVC Instruction
// Set Listings"; layout checks every one against isa.Decode and the tests
// against golang.org/x/arch.

func bits(v int64, hi, lo uint) uint16 { return uint16(v>>lo) & (1<<(hi-lo+1) - 1) }

// primeW is a writable register of the compressed register set (x9..x15;
// x8 is the reserved s0).
func (g *generator) primeW() uint8 { return uint8(9 + g.intn(7)) }
func (g *generator) prime() uint8  { return uint8(8 + g.intn(8)) }

// imm6 returns a nonzero signed 6-bit immediate.
func (g *generator) imm6() int64 {
	for {
		if v := int64(g.intn(64)) - 32; v != 0 {
			return v
		}
	}
}

// ciImm places a 6-bit immediate in the CI format (imm[5] at bit 12,
// imm[4:0] at bits 6:2).
func ciImm(v int64) uint16 { return bits(v, 5, 5)<<12 | bits(v, 4, 0)<<2 }

func (g *generator) compressed() {
	x := func(r uint8) uint16 { return uint16(r) }
	p := func(r uint8) uint16 { return uint16(r - 8) }
	switch g.intn(23) {
	case 22: // c.addi16sp there and back, around an sp-relative store
		v := int64(16 * (1 + g.intn(31)))
		if g.chance(50) {
			v = -v
		}
		for i, w := range []int64{v, -v} {
			h := 0x6101 | bits(w, 9, 9)<<12 | bits(w, 4, 4)<<6 | bits(w, 6, 6)<<5 | bits(w, 8, 7)<<3 | bits(w, 5, 5)<<2
			g.emitC(h, isa.Inst{Op: isa.ADDI, Rd: regSP, Rs1: regSP, Imm: w})
			if i == 0 {
				u, rs2 := int64(8*g.intn(64)), g.rs()
				g.emitC(0xe002|bits(u, 5, 3)<<10|bits(u, 8, 6)<<7|x(rs2)<<2, isa.Inst{Op: isa.SD, Rs1: regSP, Rs2: rs2, Imm: u})
			}
		}
	case 0:
		rd, v := g.rd(), g.imm6()
		g.emitC(0x0001|x(rd)<<7|ciImm(v), isa.Inst{Op: isa.ADDI, Rd: rd, Rs1: rd, Imm: v})
	case 1:
		rd, v := g.rd(), int64(g.intn(64))-32
		g.emitC(0x2001|x(rd)<<7|ciImm(v), isa.Inst{Op: isa.ADDIW, Rd: rd, Rs1: rd, Imm: v})
	case 2:
		rd, v := g.rd(), int64(g.intn(64))-32
		g.emitC(0x4001|x(rd)<<7|ciImm(v), isa.Inst{Op: isa.ADDI, Rd: rd, Imm: v})
	case 3:
		rd, v := g.rd(), g.imm6()
		g.emitC(0x6001|x(rd)<<7|ciImm(v), isa.Inst{Op: isa.LUI, Rd: rd, Imm: v << 12})
	case 4:
		rd, sh := g.primeW(), int64(1+g.intn(63))
		op, f := isa.SRLI, uint16(0)
		if g.chance(50) {
			op, f = isa.SRAI, 1
		}
		g.emitC(0x8001|f<<10|p(rd)<<7|ciImm(sh), isa.Inst{Op: op, Rd: rd, Rs1: rd, Imm: sh})
	case 5:
		rd, v := g.primeW(), int64(g.intn(64))-32
		g.emitC(0x8801|p(rd)<<7|ciImm(v), isa.Inst{Op: isa.ANDI, Rd: rd, Rs1: rd, Imm: v})
	case 6:
		rd, rs2, f := g.primeW(), g.prime(), g.intn(4)
		op := []isa.Op{isa.SUB, isa.XOR, isa.OR, isa.AND}[f]
		g.emitC(0x8c01|p(rd)<<7|uint16(f)<<5|p(rs2)<<2, isa.Inst{Op: op, Rd: rd, Rs1: rd, Rs2: rs2})
	case 7:
		rd, rs2, f := g.primeW(), g.prime(), g.intn(2)
		op := []isa.Op{isa.SUBW, isa.ADDW}[f]
		g.emitC(0x9c01|p(rd)<<7|uint16(f)<<5|p(rs2)<<2, isa.Inst{Op: op, Rd: rd, Rs1: rd, Rs2: rs2})
	case 8:
		rd, sh := g.rd(), int64(1+g.intn(63))
		g.emitC(0x0002|x(rd)<<7|ciImm(sh), isa.Inst{Op: isa.SLLI, Rd: rd, Rs1: rd, Imm: sh})
	case 9:
		rd, rs2 := g.rd(), uint8(1+g.intn(31))
		g.emitC(0x8002|x(rd)<<7|x(rs2)<<2, isa.Inst{Op: isa.ADD, Rd: rd, Rs2: rs2})
	case 10:
		rd, rs2 := g.rd(), uint8(1+g.intn(31))
		g.emitC(0x9002|x(rd)<<7|x(rs2)<<2, isa.Inst{Op: isa.ADD, Rd: rd, Rs1: rd, Rs2: rs2})
	case 11: // c.lw rd', uimm(s0)
		rd, u := g.primeW(), int64(4*g.intn(32))
		g.emitC(0x4000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 2, 2)<<6|bits(u, 6, 6)<<5|p(rd)<<2,
			isa.Inst{Op: isa.LW, Rd: rd, Rs1: regS0, Imm: u})
	case 12: // c.ld
		rd, u := g.primeW(), int64(8*g.intn(32))
		g.emitC(0x6000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 7, 6)<<5|p(rd)<<2,
			isa.Inst{Op: isa.LD, Rd: rd, Rs1: regS0, Imm: u})
	case 13: // c.sw
		rs2, u := g.prime(), int64(4*g.intn(32))
		g.emitC(0xc000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 2, 2)<<6|bits(u, 6, 6)<<5|p(rs2)<<2,
			isa.Inst{Op: isa.SW, Rs1: regS0, Rs2: rs2, Imm: u})
	case 14: // c.sd
		rs2, u := g.prime(), int64(8*g.intn(32))
		g.emitC(0xe000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 7, 6)<<5|p(rs2)<<2,
			isa.Inst{Op: isa.SD, Rs1: regS0, Rs2: rs2, Imm: u})
	case 15: // c.fld
		rd, u := g.prime(), int64(8*g.intn(32))
		g.emitC(0x2000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 7, 6)<<5|p(rd)<<2,
			isa.Inst{Op: isa.FLD, Rd: rd, Rs1: regS0, Imm: u})
		g.fk[rd] = kDouble
	case 16: // c.fsd
		rs2, u := g.prime(), int64(8*g.intn(32))
		g.emitC(0xa000|bits(u, 5, 3)<<10|p(regS0)<<7|bits(u, 7, 6)<<5|p(rs2)<<2,
			isa.Inst{Op: isa.FSD, Rs1: regS0, Rs2: rs2, Imm: u})
	case 17: // c.lwsp
		rd, u := g.rd(), int64(4*g.intn(64))
		g.emitC(0x4002|bits(u, 5, 5)<<12|x(rd)<<7|bits(u, 4, 2)<<4|bits(u, 7, 6)<<2,
			isa.Inst{Op: isa.LW, Rd: rd, Rs1: regSP, Imm: u})
	case 18: // c.ldsp / c.fldsp
		rd, u := g.rd(), int64(8*g.intn(64))
		h := bits(u, 5, 5)<<12 | x(rd)<<7 | bits(u, 4, 3)<<5 | bits(u, 8, 6)<<2
		if g.chance(50) {
			g.emitC(0x6002|h, isa.Inst{Op: isa.LD, Rd: rd, Rs1: regSP, Imm: u})
		} else {
			g.emitC(0x2002|h, isa.Inst{Op: isa.FLD, Rd: rd, Rs1: regSP, Imm: u})
			g.fk[rd] = kDouble
		}
	case 19: // c.swsp
		rs2, u := g.rs(), int64(4*g.intn(64))
		g.emitC(0xc002|bits(u, 5, 2)<<9|bits(u, 7, 6)<<7|x(rs2)<<2, isa.Inst{Op: isa.SW, Rs1: regSP, Rs2: rs2, Imm: u})
	case 20: // c.sdsp / c.fsdsp
		rs2, u := g.rs(), int64(8*g.intn(64))
		h := bits(u, 5, 3)<<10 | bits(u, 8, 6)<<7 | x(rs2)<<2
		if g.chance(50) {
			g.emitC(0xe002|h, isa.Inst{Op: isa.SD, Rs1: regSP, Rs2: rs2, Imm: u})
		} else {
			g.emitC(0xa002|h, isa.Inst{Op: isa.FSD, Rs1: regSP, Rs2: rs2, Imm: u})
		}
	default: // c.addi4spn, or c.nop
		if g.chance(15) {
			g.emitC(0x0001, isa.Inst{Op: isa.ADDI})
			return
		}
		rd, u := g.primeW(), int64(4*(1+g.intn(255)))
		g.emitC(bits(u, 5, 4)<<11|bits(u, 9, 6)<<7|bits(u, 2, 2)<<6|bits(u, 3, 3)<<5|p(rd)<<2,
			isa.Inst{Op: isa.ADDI, Rd: rd, Rs1: regSP, Imm: u})
	}
}

// encodeCBranch fills the offset of c.j (CJ format) or c.beqz/c.bnez (CB
// format) into h.
func encodeCBranch(h uint16, off int64) uint16 {
	if h&0xe003 == 0xa001 { // c.j
		return 0xa001 | bits(off, 11, 11)<<12 | bits(off, 4, 4)<<11 | bits(off, 9, 8)<<9 |
			bits(off, 10, 10)<<8 | bits(off, 6, 6)<<7 | bits(off, 7, 7)<<6 | bits(off, 3, 1)<<3 | bits(off, 5, 5)<<2
	}
	return h&0xe383 | bits(off, 8, 8)<<12 | bits(off, 4, 3)<<10 | bits(off, 7, 6)<<5 |
		bits(off, 2, 1)<<3 | bits(off, 5, 5)<<2
}
