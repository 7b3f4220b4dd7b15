package cpu

import (
	"math/bits"

	"github.com/rvsim/rvsim/isa"
	sf "github.com/rvsim/rvsim/softfloat"
)

// execExt executes the ops kept out of Run's switch: F and D arithmetic,
// conversions and compares, Zba/Zbb/Zbs, Zbc and Zicond. Run has to stay
// below the Go compiler's "big function" size, or the memory fast paths
// (mem.ReadEntry and friends) stop being inlined into it; these ops pay
// one call instead. It returns false for an op it does not implement.
func (c *CPU) execExt(d *decoded) bool {
	x, f := &c.X, &c.F
	var (
		fl  sf.Flags
		r32 uint32
	)
	switch isa.Op(d.Op) {
	// --- F arithmetic --------------------------------------------
	case isa.FADD_S:
		r32, fl = sf.Add32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FSUB_S:
		r32, fl = sf.Sub32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FMUL_S:
		r32, fl = sf.Mul32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FDIV_S:
		r32, fl = sf.Div32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FSQRT_S:
		r32, fl = sf.Sqrt32(unbox32(f[d.Rs1]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FMADD_S:
		r32, fl = sf.MulAdd32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), unbox32(f[d.Rs3]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FMSUB_S:
		r32, fl = sf.MulSub32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), unbox32(f[d.Rs3]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FNMSUB_S:
		r32, fl = sf.NegMulSub32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), unbox32(f[d.Rs3]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FNMADD_S:
		r32, fl = sf.NegMulAdd32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]), unbox32(f[d.Rs3]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FSGNJ_S:
		a, b := unbox32(f[d.Rs1]), unbox32(f[d.Rs2])
		f[d.Rd] = box32(a&^signBit32 | b&signBit32)
	case isa.FSGNJN_S:
		a, b := unbox32(f[d.Rs1]), unbox32(f[d.Rs2])
		f[d.Rd] = box32(a&^signBit32 | ^b&signBit32)
	case isa.FSGNJX_S:
		a, b := unbox32(f[d.Rs1]), unbox32(f[d.Rs2])
		f[d.Rd] = box32(a ^ b&signBit32)
	case isa.FMIN_S:
		r32, fl = sf.Min32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FMAX_S:
		r32, fl = sf.Max32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FEQ_S:
		var t bool
		t, fl = sf.Eq32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]))
		x[d.Rd] = b2u(t)
		c.fflags |= uint8(fl)
	case isa.FLT_S:
		var t bool
		t, fl = sf.Lt32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]))
		x[d.Rd] = b2u(t)
		c.fflags |= uint8(fl)
	case isa.FLE_S:
		var t bool
		t, fl = sf.Le32(unbox32(f[d.Rs1]), unbox32(f[d.Rs2]))
		x[d.Rd] = b2u(t)
		c.fflags |= uint8(fl)
	case isa.FCLASS_S:
		x[d.Rd] = sf.Class32(unbox32(f[d.Rs1]))
	case isa.FCVT_W_S:
		var v int32
		v, fl = sf.F32ToI32(unbox32(f[d.Rs1]), c.rm(d))
		x[d.Rd] = uint64(int64(v))
		c.fflags |= uint8(fl)
	case isa.FCVT_WU_S:
		var v uint32
		v, fl = sf.F32ToU32(unbox32(f[d.Rs1]), c.rm(d))
		x[d.Rd] = sext32(uint64(v))
		c.fflags |= uint8(fl)
	case isa.FCVT_L_S:
		var v int64
		v, fl = sf.F32ToI64(unbox32(f[d.Rs1]), c.rm(d))
		x[d.Rd] = uint64(v)
		c.fflags |= uint8(fl)
	case isa.FCVT_LU_S:
		x[d.Rd], fl = sf.F32ToU64(unbox32(f[d.Rs1]), c.rm(d))
		c.fflags |= uint8(fl)
	case isa.FCVT_S_W:
		r32, fl = sf.I32ToF32(int32(x[d.Rs1]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FCVT_S_WU:
		r32, fl = sf.U32ToF32(uint32(x[d.Rs1]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FCVT_S_L:
		r32, fl = sf.I64ToF32(int64(x[d.Rs1]), c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FCVT_S_LU:
		r32, fl = sf.U64ToF32(x[d.Rs1], c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)

	// --- D arithmetic --------------------------------------------
	case isa.FSQRT_D:
		f[d.Rd], fl = sf.Sqrt64(f[d.Rs1], c.rm(d))
		c.fflags |= uint8(fl)
	case isa.FMIN_D:
		f[d.Rd], fl = sf.Min64(f[d.Rs1], f[d.Rs2])
		c.fflags |= uint8(fl)
	case isa.FMAX_D:
		f[d.Rd], fl = sf.Max64(f[d.Rs1], f[d.Rs2])
		c.fflags |= uint8(fl)
	case isa.FCVT_S_D:
		r32, fl = sf.F64ToF32(f[d.Rs1], c.rm(d))
		f[d.Rd] = box32(r32)
		c.fflags |= uint8(fl)
	case isa.FCVT_D_S:
		f[d.Rd], fl = sf.F32ToF64(unbox32(f[d.Rs1]))
		c.fflags |= uint8(fl)
	case isa.FCLASS_D:
		x[d.Rd] = sf.Class64(f[d.Rs1])
	case isa.FCVT_WU_D:
		var v uint32
		v, fl = sf.F64ToU32(f[d.Rs1], c.rm(d))
		x[d.Rd] = sext32(uint64(v))
		c.fflags |= uint8(fl)
	case isa.FCVT_LU_D:
		x[d.Rd], fl = sf.F64ToU64(f[d.Rs1], c.rm(d))
		c.fflags |= uint8(fl)
	case isa.FCVT_D_WU:
		f[d.Rd] = sf.U32ToF64(uint32(x[d.Rs1]))
	case isa.FCVT_D_LU:
		f[d.Rd], fl = sf.U64ToF64(x[d.Rs1], c.rm(d))
		c.fflags |= uint8(fl)

	// --- Zba -----------------------------------------------------
	case isa.ADD_UW:
		x[d.Rd] = x[d.Rs2] + uint64(uint32(x[d.Rs1]))
	case isa.SH1ADD:
		x[d.Rd] = x[d.Rs2] + x[d.Rs1]<<1
	case isa.SH2ADD:
		x[d.Rd] = x[d.Rs2] + x[d.Rs1]<<2
	case isa.SH3ADD:
		x[d.Rd] = x[d.Rs2] + x[d.Rs1]<<3
	case isa.SH1ADD_UW:
		x[d.Rd] = x[d.Rs2] + uint64(uint32(x[d.Rs1]))<<1
	case isa.SH2ADD_UW:
		x[d.Rd] = x[d.Rs2] + uint64(uint32(x[d.Rs1]))<<2
	case isa.SH3ADD_UW:
		x[d.Rd] = x[d.Rs2] + uint64(uint32(x[d.Rs1]))<<3
	case isa.SLLI_UW:
		x[d.Rd] = uint64(uint32(x[d.Rs1])) << (d.Imm & 63)

	// --- Zbb -----------------------------------------------------
	case isa.ANDN:
		x[d.Rd] = x[d.Rs1] &^ x[d.Rs2]
	case isa.ORN:
		x[d.Rd] = x[d.Rs1] | ^x[d.Rs2]
	case isa.XNOR:
		x[d.Rd] = ^(x[d.Rs1] ^ x[d.Rs2])
	case isa.CLZ:
		x[d.Rd] = uint64(bits.LeadingZeros64(x[d.Rs1]))
	case isa.CLZW:
		x[d.Rd] = uint64(bits.LeadingZeros32(uint32(x[d.Rs1])))
	case isa.CTZ:
		x[d.Rd] = uint64(bits.TrailingZeros64(x[d.Rs1]))
	case isa.CTZW:
		x[d.Rd] = uint64(bits.TrailingZeros32(uint32(x[d.Rs1])))
	case isa.CPOP:
		x[d.Rd] = uint64(bits.OnesCount64(x[d.Rs1]))
	case isa.CPOPW:
		x[d.Rd] = uint64(bits.OnesCount32(uint32(x[d.Rs1])))
	case isa.MAX:
		x[d.Rd] = uint64(max(int64(x[d.Rs1]), int64(x[d.Rs2])))
	case isa.MAXU:
		x[d.Rd] = max(x[d.Rs1], x[d.Rs2])
	case isa.MIN:
		x[d.Rd] = uint64(min(int64(x[d.Rs1]), int64(x[d.Rs2])))
	case isa.MINU:
		x[d.Rd] = min(x[d.Rs1], x[d.Rs2])
	case isa.SEXT_B:
		x[d.Rd] = uint64(int64(int8(x[d.Rs1])))
	case isa.SEXT_H:
		x[d.Rd] = uint64(int64(int16(x[d.Rs1])))
	case isa.ZEXT_H:
		x[d.Rd] = uint64(uint16(x[d.Rs1]))
	case isa.ROL:
		x[d.Rd] = bits.RotateLeft64(x[d.Rs1], int(x[d.Rs2]&63))
	case isa.ROLW:
		x[d.Rd] = sext32(uint64(bits.RotateLeft32(uint32(x[d.Rs1]), int(x[d.Rs2]&31))))
	case isa.ROR:
		x[d.Rd] = bits.RotateLeft64(x[d.Rs1], -int(x[d.Rs2]&63))
	case isa.RORW:
		x[d.Rd] = sext32(uint64(bits.RotateLeft32(uint32(x[d.Rs1]), -int(x[d.Rs2]&31))))
	case isa.RORI:
		x[d.Rd] = bits.RotateLeft64(x[d.Rs1], -int(d.Imm&63))
	case isa.RORIW:
		x[d.Rd] = sext32(uint64(bits.RotateLeft32(uint32(x[d.Rs1]), -int(d.Imm&31))))
	case isa.ORC_B:
		x[d.Rd] = orcb(x[d.Rs1])
	case isa.REV8:
		x[d.Rd] = bits.ReverseBytes64(x[d.Rs1])

	// --- Zbs -----------------------------------------------------
	case isa.BCLR:
		x[d.Rd] = x[d.Rs1] &^ (1 << (x[d.Rs2] & 63))
	case isa.BCLRI:
		x[d.Rd] = x[d.Rs1] &^ (1 << (d.Imm & 63))
	case isa.BEXT:
		x[d.Rd] = x[d.Rs1] >> (x[d.Rs2] & 63) & 1
	case isa.BEXTI:
		x[d.Rd] = x[d.Rs1] >> (d.Imm & 63) & 1
	case isa.BINV:
		x[d.Rd] = x[d.Rs1] ^ (1 << (x[d.Rs2] & 63))
	case isa.BINVI:
		x[d.Rd] = x[d.Rs1] ^ (1 << (d.Imm & 63))
	case isa.BSET:
		x[d.Rd] = x[d.Rs1] | (1 << (x[d.Rs2] & 63))
	case isa.BSETI:
		x[d.Rd] = x[d.Rs1] | (1 << (d.Imm & 63))

	// --- Zbc -----------------------------------------------------
	case isa.CLMUL:
		_, x[d.Rd] = clmul128(x[d.Rs1], x[d.Rs2])
	case isa.CLMULH:
		x[d.Rd], _ = clmul128(x[d.Rs1], x[d.Rs2])
	case isa.CLMULR: // bits 126..63 of the product
		hi, lo := clmul128(x[d.Rs1], x[d.Rs2])
		x[d.Rd] = hi<<1 | lo>>63

	// --- Zicond --------------------------------------------------
	case isa.CZERO_EQZ: // (rd may be rs2: both read before the write)
		v := x[d.Rs1]
		if x[d.Rs2] == 0 {
			v = 0
		}
		x[d.Rd] = v
	case isa.CZERO_NEZ:
		v := x[d.Rs1]
		if x[d.Rs2] != 0 {
			v = 0
		}
		x[d.Rd] = v

	default:
		return false
	}
	return true
}

// clmul128 is the carry-less (GF(2)[x]) product of a and b, its high and
// low words (Zbc: clmul is the low word, clmulh the high).
func clmul128(a, b uint64) (hi, lo uint64) {
	for i := uint(0); i < 64; i++ {
		if b>>i&1 != 0 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return hi, lo
}
