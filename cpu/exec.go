package cpu

import (
	"math/bits"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
	sf "github.com/rvsim/rvsim/softfloat"
)

// Run executes at most limit instructions and returns why it stopped.
//
// The loop keeps pc, the current predecode page and the retired count in
// locals and writes them back only when it leaves (TinyEMU's shape). Each
// op is one short case of a switch over the dense isa.Op enum, which the
// compiler turns into a jump table. Memory accesses try the inlined TLB
// hit first. Anything unusual (faults, system calls, CSR side effects,
// changed code) leaves through the labels at the bottom.
func (c *CPU) Run(limit uint64) Exit {
	c.stopRequested, c.hostStop, c.codeChanged = false, false, false
	x, f, m := &c.X, &c.F, c.Mem
	pc := c.PC
	// traced selects the per-instruction bookkeeping; it is decided once
	// per call, so a plain run pays only two predictable branches.
	// While a DISE replacement sequence runs, traced is forced on: its
	// bookkeeping (sequence position, injected-instruction records) rides
	// on the same branch.
	baseTraced := c.observer != nil || c.CountMix
	traced := baseTraced || c.inSeq
	var (
		n, ea       uint64 // retired in this call; effective address (traced runs)
		page        *codePage
		pageTag     = ^uint64(0) // page address of page; never matches a pc
		d           *decoded
		slot        uint64 // d's index in page
		fromSeq     bool   // d is an element of a DISE replacement sequence
		orig        decoded
		cause, tval uint64
		fl          sf.Flags
		r32         uint32
		exit        Exit
	)
	for {
		for n < limit {
			if pc&^mem.PageMask != pageTag {
				// A new page, or a DISE replacement sequence in progress
				// (which keeps pageTag invalid so every fetch comes here).
				if c.inSeq {
					d, fromSeq = &c.seq.ops[c.seq.idx], true
					goto dispatch
				}
				fromSeq = false
				if page = c.codePageFor(pc); page == nil {
					cause, tval = CauseFetchAccess, pc
					goto exception
				}
				pageTag = pc &^ mem.PageMask
			}
			slot = (pc & mem.PageMask) >> 1
			d = &page.insts[slot]
		dispatch:
			if traced {
				ea = x[d.Rs1] + uint64(d.Imm)
			}
			next := pc + uint64(d.Len)

			switch d.Op {
			case isa.ILLEGAL: // an empty predecode slot: decode, then dispatch again
				var ok bool
				if cause, tval, ok = c.decodeAt(page, pc); !ok {
					goto exception
				}
				continue

			// --- RV64I -------------------------------------------------
			case isa.LUI:
				x[d.Rd] = uint64(d.Imm)
			case isa.AUIPC:
				x[d.Rd] = pc + uint64(d.Imm)
			case isa.JAL:
				x[d.Rd] = next
				next = pc + uint64(d.Imm)
			case isa.JALR:
				t := (x[d.Rs1] + uint64(d.Imm)) &^ 1
				x[d.Rd] = next
				next = t
			case isa.BEQ:
				if x[d.Rs1] == x[d.Rs2] {
					next = pc + uint64(d.Imm)
				}
			case isa.BNE:
				if x[d.Rs1] != x[d.Rs2] {
					next = pc + uint64(d.Imm)
				}
			case isa.BLT:
				if int64(x[d.Rs1]) < int64(x[d.Rs2]) {
					next = pc + uint64(d.Imm)
				}
			case isa.BGE:
				if int64(x[d.Rs1]) >= int64(x[d.Rs2]) {
					next = pc + uint64(d.Imm)
				}
			case isa.BLTU:
				if x[d.Rs1] < x[d.Rs2] {
					next = pc + uint64(d.Imm)
				}
			case isa.BGEU:
				if x[d.Rs1] >= x[d.Rs2] {
					next = pc + uint64(d.Imm)
				}

			case isa.LB:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead8(a)
				if !ok {
					if v, ok = m.Read8(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(int8(v))
			case isa.LBU:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead8(a)
				if !ok {
					if v, ok = m.Read8(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(v)
			case isa.LH:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead16(a)
				if !ok {
					if v, ok = m.Read16(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(int16(v))
			case isa.LHU:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead16(a)
				if !ok {
					if v, ok = m.Read16(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(v)
			case isa.LW:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead32(a)
				if !ok {
					if v, ok = m.Read32(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(int32(v))
			case isa.LWU:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead32(a)
				if !ok {
					if v, ok = m.Read32(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = uint64(v)
			case isa.LD:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead64(a)
				if !ok {
					if v, ok = m.Read64(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				x[d.Rd] = v

			case isa.SB:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite8(a, uint8(x[d.Rs2])) {
					if !m.Write8(a, uint8(x[d.Rs2])) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}
			case isa.SH:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite16(a, uint16(x[d.Rs2])) {
					if !m.Write16(a, uint16(x[d.Rs2])) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}
			case isa.SW:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite32(a, uint32(x[d.Rs2])) {
					if !m.Write32(a, uint32(x[d.Rs2])) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}
			case isa.SD:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite64(a, x[d.Rs2]) {
					if !m.Write64(a, x[d.Rs2]) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}

			case isa.ADDI:
				x[d.Rd] = x[d.Rs1] + uint64(d.Imm)
			case isa.SLTI:
				x[d.Rd] = b2u(int64(x[d.Rs1]) < d.Imm)
			case isa.SLTIU:
				x[d.Rd] = b2u(x[d.Rs1] < uint64(d.Imm))
			case isa.XORI:
				x[d.Rd] = x[d.Rs1] ^ uint64(d.Imm)
			case isa.ORI:
				x[d.Rd] = x[d.Rs1] | uint64(d.Imm)
			case isa.ANDI:
				x[d.Rd] = x[d.Rs1] & uint64(d.Imm)
			case isa.SLLI:
				x[d.Rd] = x[d.Rs1] << (d.Imm & 63)
			case isa.SRLI:
				x[d.Rd] = x[d.Rs1] >> (d.Imm & 63)
			case isa.SRAI:
				x[d.Rd] = uint64(int64(x[d.Rs1]) >> (d.Imm & 63))
			case isa.ADD:
				x[d.Rd] = x[d.Rs1] + x[d.Rs2]
			case isa.SUB:
				x[d.Rd] = x[d.Rs1] - x[d.Rs2]
			case isa.SLL:
				x[d.Rd] = x[d.Rs1] << (x[d.Rs2] & 63)
			case isa.SLT:
				x[d.Rd] = b2u(int64(x[d.Rs1]) < int64(x[d.Rs2]))
			case isa.SLTU:
				x[d.Rd] = b2u(x[d.Rs1] < x[d.Rs2])
			case isa.XOR:
				x[d.Rd] = x[d.Rs1] ^ x[d.Rs2]
			case isa.SRL:
				x[d.Rd] = x[d.Rs1] >> (x[d.Rs2] & 63)
			case isa.SRA:
				x[d.Rd] = uint64(int64(x[d.Rs1]) >> (x[d.Rs2] & 63))
			case isa.OR:
				x[d.Rd] = x[d.Rs1] | x[d.Rs2]
			case isa.AND:
				x[d.Rd] = x[d.Rs1] & x[d.Rs2]
			case isa.ADDIW:
				x[d.Rd] = sext32(x[d.Rs1] + uint64(d.Imm))
			case isa.SLLIW:
				x[d.Rd] = sext32(x[d.Rs1] << (d.Imm & 31))
			case isa.SRLIW:
				x[d.Rd] = sext32(uint64(uint32(x[d.Rs1]) >> (d.Imm & 31)))
			case isa.SRAIW:
				x[d.Rd] = uint64(int64(int32(x[d.Rs1]) >> (d.Imm & 31)))
			case isa.ADDW:
				x[d.Rd] = sext32(x[d.Rs1] + x[d.Rs2])
			case isa.SUBW:
				x[d.Rd] = sext32(x[d.Rs1] - x[d.Rs2])
			case isa.SLLW:
				x[d.Rd] = sext32(x[d.Rs1] << (x[d.Rs2] & 31))
			case isa.SRLW:
				x[d.Rd] = sext32(uint64(uint32(x[d.Rs1]) >> (x[d.Rs2] & 31)))
			case isa.SRAW:
				x[d.Rd] = uint64(int64(int32(x[d.Rs1]) >> (x[d.Rs2] & 31)))

			case isa.FENCE:
				// One hart, program-order memory: nothing to order.
			case isa.FENCE_I:
				c.FlushCode()
				pageTag = ^uint64(0)
			case isa.ECALL:
				if !c.BareMetal {
					goto ecall
				}
				cause, tval = CauseEcallU, 0
				if c.Priv == PrivM {
					cause = CauseEcallM
				}
				goto exception
			case isa.EBREAK:
				cause, tval = CauseBreakpoint, pc
				goto exception
			case isa.MRET:
				if c.Priv != PrivM {
					goto illegal
				}
				c.PC = pc
				c.mret()
				next = c.PC
			case isa.WFI:
				// No interrupt sources: wfi is a nop (trapping in U-mode when TW is set).
				if c.Priv != PrivM && c.csr.mstatus&mstatusTW != 0 {
					goto illegal
				}
			case isa.CSRRW, isa.CSRRS, isa.CSRRC, isa.CSRRWI, isa.CSRRSI, isa.CSRRCI:
				c.PC = pc
				if !c.csrAccess(&page.full[slot], d.Rd, c.Instret+n) {
					goto illegal
				}
				if c.codeChanged {
					c.codeChanged = false
					pageTag = ^uint64(0)
				}

			// --- M -----------------------------------------------------
			case isa.MUL:
				x[d.Rd] = x[d.Rs1] * x[d.Rs2]
			case isa.MULH:
				x[d.Rd] = mulh(x[d.Rs1], x[d.Rs2])
			case isa.MULHSU:
				x[d.Rd] = mulhsu(x[d.Rs1], x[d.Rs2])
			case isa.MULHU:
				x[d.Rd], _ = bits.Mul64(x[d.Rs1], x[d.Rs2])
			case isa.DIV:
				x[d.Rd] = div(x[d.Rs1], x[d.Rs2])
			case isa.DIVU:
				x[d.Rd] = divu(x[d.Rs1], x[d.Rs2])
			case isa.REM:
				x[d.Rd] = rem(x[d.Rs1], x[d.Rs2])
			case isa.REMU:
				x[d.Rd] = remu(x[d.Rs1], x[d.Rs2])
			case isa.MULW:
				x[d.Rd] = sext32(x[d.Rs1] * x[d.Rs2])
			case isa.DIVW:
				x[d.Rd] = divw(x[d.Rs1], x[d.Rs2])
			case isa.DIVUW:
				x[d.Rd] = divuw(x[d.Rs1], x[d.Rs2])
			case isa.REMW:
				x[d.Rd] = remw(x[d.Rs1], x[d.Rs2])
			case isa.REMUW:
				x[d.Rd] = remuw(x[d.Rs1], x[d.Rs2])

			// --- A -----------------------------------------------------
			case isa.LR_W, isa.SC_W, isa.AMOSWAP_W, isa.AMOADD_W, isa.AMOXOR_W, isa.AMOAND_W,
				isa.AMOOR_W, isa.AMOMIN_W, isa.AMOMAX_W, isa.AMOMINU_W, isa.AMOMAXU_W,
				isa.LR_D, isa.SC_D, isa.AMOSWAP_D, isa.AMOADD_D, isa.AMOXOR_D, isa.AMOAND_D,
				isa.AMOOR_D, isa.AMOMIN_D, isa.AMOMAX_D, isa.AMOMINU_D, isa.AMOMAXU_D:
				if cause, tval = c.atomic(d); cause != noCause {
					goto exception
				}
				if c.codeChanged || c.hostStop {
					goto event
				}

			// --- F and D loads/stores and moves ------------------------
			case isa.FLW:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead32(a)
				if !ok {
					if v, ok = m.Read32(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				f[d.Rd] = box32(v)
			case isa.FLD:
				a := x[d.Rs1] + uint64(d.Imm)
				v, ok := m.FastRead64(a)
				if !ok {
					if v, ok = m.Read64(a); !ok {
						cause, tval = CauseLoadAccess, a
						goto exception
					}
				}
				f[d.Rd] = v
			case isa.FSW:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite32(a, uint32(f[d.Rs2])) {
					if !m.Write32(a, uint32(f[d.Rs2])) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}
			case isa.FSD:
				a := x[d.Rs1] + uint64(d.Imm)
				if !m.FastWrite64(a, f[d.Rs2]) {
					if !m.Write64(a, f[d.Rs2]) {
						cause, tval = CauseStoreAccess, a
						goto exception
					}
					if c.codeChanged || c.hostStop {
						goto event
					}
				}
			case isa.FMV_X_W:
				x[d.Rd] = sext32(f[d.Rs1])
			case isa.FMV_W_X:
				f[d.Rd] = box32(uint32(x[d.Rs1]))
			case isa.FMV_X_D:
				x[d.Rd] = f[d.Rs1]
			case isa.FMV_D_X:
				f[d.Rd] = x[d.Rs1]

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
			case isa.FADD_D:
				f[d.Rd], fl = sf.Add64(f[d.Rs1], f[d.Rs2], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FSUB_D:
				f[d.Rd], fl = sf.Sub64(f[d.Rs1], f[d.Rs2], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FMUL_D:
				f[d.Rd], fl = sf.Mul64(f[d.Rs1], f[d.Rs2], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FDIV_D:
				f[d.Rd], fl = sf.Div64(f[d.Rs1], f[d.Rs2], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FSQRT_D:
				f[d.Rd], fl = sf.Sqrt64(f[d.Rs1], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FMADD_D:
				f[d.Rd], fl = sf.MulAdd64(f[d.Rs1], f[d.Rs2], f[d.Rs3], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FMSUB_D:
				f[d.Rd], fl = sf.MulSub64(f[d.Rs1], f[d.Rs2], f[d.Rs3], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FNMSUB_D:
				f[d.Rd], fl = sf.NegMulSub64(f[d.Rs1], f[d.Rs2], f[d.Rs3], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FNMADD_D:
				f[d.Rd], fl = sf.NegMulAdd64(f[d.Rs1], f[d.Rs2], f[d.Rs3], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FSGNJ_D:
				f[d.Rd] = f[d.Rs1]&^signBit64 | f[d.Rs2]&signBit64
			case isa.FSGNJN_D:
				f[d.Rd] = f[d.Rs1]&^signBit64 | ^f[d.Rs2]&signBit64
			case isa.FSGNJX_D:
				f[d.Rd] = f[d.Rs1] ^ f[d.Rs2]&signBit64
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
			case isa.FEQ_D:
				var t bool
				t, fl = sf.Eq64(f[d.Rs1], f[d.Rs2])
				x[d.Rd] = b2u(t)
				c.fflags |= uint8(fl)
			case isa.FLT_D:
				var t bool
				t, fl = sf.Lt64(f[d.Rs1], f[d.Rs2])
				x[d.Rd] = b2u(t)
				c.fflags |= uint8(fl)
			case isa.FLE_D:
				var t bool
				t, fl = sf.Le64(f[d.Rs1], f[d.Rs2])
				x[d.Rd] = b2u(t)
				c.fflags |= uint8(fl)
			case isa.FCLASS_D:
				x[d.Rd] = sf.Class64(f[d.Rs1])
			case isa.FCVT_W_D:
				var v int32
				v, fl = sf.F64ToI32(f[d.Rs1], c.rm(d))
				x[d.Rd] = uint64(int64(v))
				c.fflags |= uint8(fl)
			case isa.FCVT_WU_D:
				var v uint32
				v, fl = sf.F64ToU32(f[d.Rs1], c.rm(d))
				x[d.Rd] = sext32(uint64(v))
				c.fflags |= uint8(fl)
			case isa.FCVT_L_D:
				var v int64
				v, fl = sf.F64ToI64(f[d.Rs1], c.rm(d))
				x[d.Rd] = uint64(v)
				c.fflags |= uint8(fl)
			case isa.FCVT_LU_D:
				x[d.Rd], fl = sf.F64ToU64(f[d.Rs1], c.rm(d))
				c.fflags |= uint8(fl)
			case isa.FCVT_D_W:
				f[d.Rd] = sf.I32ToF64(int32(x[d.Rs1]))
			case isa.FCVT_D_WU:
				f[d.Rd] = sf.U32ToF64(uint32(x[d.Rs1]))
			case isa.FCVT_D_L:
				f[d.Rd], fl = sf.I64ToF64(int64(x[d.Rs1]), c.rm(d))
				c.fflags |= uint8(fl)
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

			// --- DISE / HPS ---------------------------------------------
			case opEdit:
				// A watched instruction: the editor decides, per dynamic
				// instance, whether to replace it. Handler code is never edited.
				in := &page.full[slot]
				if !c.inHandler() {
					if xp := c.editor.Edit(in, pc); xp != nil {
						c.enterSequence(xp, in, pc)
						traced, pageTag = true, ^uint64(0)
						continue
					}
				}
				orig = toDecoded(in)
				d = &orig
				goto dispatch
			case opSeqCall: // (always traced: it only occurs in a sequence)
				k := callRecords(c.seq.src[c.seq.idx].Call)
				entry, addr, ok := c.seqCall(pc, c.Instret+n+k)
				if !ok {
					cause, tval = CauseStoreAccess, addr
					goto exception
				}
				c.retireCall(pc, entry, c.Instret+n)
				n += k
				pc, traced, pageTag = entry, baseTraced, ^uint64(0)
				continue
			case isa.HPS_ON, isa.HPS_OFF:
				// Trigger instructions act in the editor (decode); they execute as no-ops.
			case isa.DISE_RET:
				t, ok := c.diseReturn(c.Instret + n)
				if !ok {
					goto illegal
				}
				next = t
				if c.inSeq {
					pageTag = ^uint64(0)
				}

			default: // opInvalid, and anything the hart cannot run in its state
				goto illegal
			}

			if traced {
				if fromSeq {
					raw := next
					next = c.seqAdvance(pc, next)
					c.retireSeq(d, pc, raw, ea, c.Instret+n)
					if !c.inSeq {
						traced = baseTraced
					}
				} else {
					c.retire(d, &page.full[slot], pc, next, ea, c.Instret+n)
					if c.inSeq { // dise.ret resumed a sequence
						traced = true
					}
				}
				if c.stopRequested { // only observers request stops
					pc = next
					n++
					exit.Reason = StopRequest
					goto leave
				}
			} else if c.inSeq { // dise.ret resumed a sequence
				traced = true
			}
			pc = next
			n++
		}
		exit.Reason = StopLimit
		goto leave

	illegal:
		cause, tval = CauseIllegalInst, uint64(c.currentInst(page, slot, fromSeq).Raw)
	exception:
		// The instruction at pc did not retire; a sequence in progress is abandoned.
		c.abandonSequence()
		traced = baseTraced
		c.PC = pc
		c.Instret += n
		limit -= n
		n = 0
		if !c.BareMetal {
			exit = Exit{Reason: StopFault, Fault: Fault{PC: pc, Cause: cause, Tval: tval}}
			c.Flush()
			return exit
		}
		// A trap consumes budget like an instruction, so a trap loop (a bad
		// mtvec) still ends at the limit.
		c.trap(cause, tval)
		c.Traps++
		pc = c.PC
		pageTag = ^uint64(0)
		if limit--; limit == 0 {
			exit.Reason = StopLimit
			goto leave
		}
		continue

	event:
		// A store changed code or wrote a host mailbox; the store retired.
		{
			next := pc + uint64(d.Len)
			if fromSeq {
				raw := next
				next = c.seqAdvance(pc, next)
				c.retireSeq(d, pc, raw, ea, c.Instret+n)
			} else if traced {
				c.retire(d, &page.full[slot], pc, next, ea, c.Instret+n)
			}
			pc = next
		}
		traced = baseTraced || c.inSeq
		n++
		pageTag = ^uint64(0)
		c.codeChanged = false
		if c.hostStop {
			exit.Reason = StopHost
			goto leave
		}
		continue

	ecall:
		// User-mode system call: it retires here and the caller performs it.
		// As the original of a replacement sequence it ends the sequence.
		if fromSeq {
			c.seqAdvance(pc, pc+4)
			c.retireSeq(d, pc, pc+4, ea, c.Instret+n)
			c.abandonSequence()
		} else if traced {
			c.retire(d, &page.full[slot], pc, pc+4, ea, c.Instret+n)
		}
		pc += 4
		n++
		exit.Reason = StopEcall
		goto leave
	}

leave:
	c.PC = pc
	c.Instret += n
	c.Flush()
	return exit
}

// retire does the optional per-instruction bookkeeping: the class mix and
// the observer's record.
func (c *CPU) retire(d *decoded, in *isa.Inst, pc, next, ea, seq uint64) {
	if c.CountMix {
		c.Mix[in.Class]++
	}
	if c.observer != nil {
		c.record(d, in, pc, next, ea, seq)
		c.flushIfFull()
	}
}

// record appends the DynInst of an instruction that executed at pc.
func (c *CPU) record(d *decoded, in *isa.Inst, pc, next, ea, seq uint64) {
	info := in.Info()
	r := DynInst{
		Seq: seq, PC: pc, NextPC: next, Inst: *in,
		Taken:   next != pc+uint64(d.Len),
		Handler: len(c.saved) > 0 || in.Op == isa.DISE_RET, // dise.ret has already left the handler
	}
	if info.MemSize != 0 {
		r.Addr, r.Size = ea, info.MemSize
	}
	switch info.Rd {
	case isa.XReg:
		r.Result = c.X[d.Rd]
	case isa.FReg:
		r.Result = c.F[d.Rd]
	}
	c.batch = append(c.batch, r)
}

func (c *CPU) flushIfFull() {
	if len(c.batch) >= cap(c.batch)-16 { // room for a handler call's records
		c.Flush()
	}
}

// rm resolves an instruction's rounding mode. Dynamic rounding with an
// invalid frm never reaches here: predecode marks it illegal.
func (c *CPU) rm(d *decoded) sf.RoundingMode {
	if d.Rm == 7 {
		return sf.RoundingMode(c.frm)
	}
	return sf.RoundingMode(d.Rm)
}
