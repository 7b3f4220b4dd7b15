package cpu

import (
	"math/bits"
	"unsafe"

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
	if c.stopRequested { // asked for as the last Run left (see RequestStop)
		c.stopRequested = false
		return Exit{Reason: StopRequest}
	}
	c.hostStop, c.attn.codeChanged = false, false
	x, f, m := &c.X, &c.F, c.Mem
	if m == nil { // (lets the compiler drop the nil check from every load and store)
		panic("cpu: no memory")
	}
	pc := c.PC
	// traced selects the per-instruction bookkeeping (observer records,
	// the class mix, DISE sequence positions). A traced block runs from a
	// copy with recording slots between its instructions (traced.go) or an
	// instruction at a time, so the inner loop never tests for it. A DISE
	// replacement sequence forces traced on while it runs.
	// The per-block state lives in c.blk rather than in locals: the inner
	// loop then carries only the pc and the instruction pointer, so the
	// compiler keeps those in registers instead of spilling and reloading
	// everything live across the calls of the rarer cases.
	bs := &c.blk
	*bs = blockState{left: limit, end: c.Instret + limit, pageTag: ^uint64(0)}
	// The class mix is counted per instruction when traced anyway (an
	// observer), else per block (mix.go).
	c.attn.baseTraced = c.observer != nil
	c.attn.jit = c.jitUsable()
	bs.counting = c.CountMix && !c.attn.baseTraced
	bs.traced = c.attn.baseTraced || c.attn.inSeq
	var (
		d           *decoded // the instruction executing
		fl          sf.Flags
		cause, tval uint64
		exit        Exit
	)
	for {
	blocks:
		for bs.left > 0 {
			// The next block: a run of predecoded instructions that ends at a
			// control transfer or at anything else that needs this loop's
			// attention (see endsBlock). Within it the loop only advances a
			// pointer; the limit is settled once per block.
			// Per-block state the instructions may have changed: whether a
			// DISE sequence runs (it is traced), and whether predecoded code
			// was dropped (fence.i, a CSR write that changes decoding). The
			// common case tests one word of flags (c.attn) and looks the block up.
			if c.needsAttention() {
				// The general case (see attentionBlock), out of line: Run
				// must stay below the compiler's "big function" size, above
				// which it stops inlining the fast paths the loop relies on.
				if d, pc, cause, tval = c.attentionBlock(pc); d == nil {
					goto exception
				}
			} else {
				// The common case, kept short: an untraced block of the page
				// the last one was on, already built, within the budget.
				c.fromSeq = false
				bs.traced, bs.single = false, false
				if pc&^mem.PageMask != bs.pageTag {
					p := c.cachedCodePage(pc)
					if p == nil {
						goto lookup
					}
					bs.page, bs.pageTag = p, pc&^mem.PageMask
				}
				{
					si := (pc & mem.PageMask) >> 1
					cnt := uint64(bs.page.blen[si])
					if cnt-1 >= bs.left { // not built yet (0), or longer than the budget left
						goto lookup
					}
					d, bs.cnt = &bs.page.insts[si], cnt
					bs.left -= cnt
					goto started // (bpc is only read for traced and single-step blocks)
				}
			lookup:
				if d, bs.cnt, cause, tval = c.blockAt(pc); d == nil {
					bs.cnt, bs.bpc = 0, pc
					goto exception
				}
				if bs.cnt > bs.left {
					d, bs.cnt, bs.single = c.stepOne(d), 1, true
				}
			}
			bs.left -= bs.cnt
			bs.bpc = pc
		started:
			if bs.counting && !bs.traced {
				c.countEnter(bs.page, pc, 1)
			}
			bs.setBias(pc, d)
		chained:
			for {
			dispatch:
				switch isa.Op(d.Op) {
				// --- RV64I -------------------------------------------------
				case isa.LUI:
					x[d.Rd] = uint64(d.Imm)
				case isa.AUIPC:
					x[d.Rd] = bs.pcOf(d) + uint64(d.Imm)
				// Control transfers end their block, so they go straight to
				// the block's end instead of through the loop tail: the tail's
				// "block done?" branch then almost always falls through and
				// the host predicts it. Conditional branches pick the next pc
				// without a host branch (a conditional move).
				case isa.JAL:
					pc = bs.pcOf(d)
					x[d.Rd] = pc + uint64(d.Len)
					pc += uint64(d.Imm)
					goto jumped
				case isa.JALR:
					t := (x[d.Rs1] + uint64(d.Imm)) &^ 1
					x[d.Rd] = bs.pcOf(d) + uint64(d.Len)
					pc = t
					goto jumped
				// A conditional branch does not end its block: not taken, the
				// block goes on; taken, it leaves early (see taken).
				case isa.BEQ:
					if x[d.Rs1] == x[d.Rs2] {
						goto taken
					}
				case isa.BNE:
					if x[d.Rs1] != x[d.Rs2] {
						goto taken
					}
				case isa.BLT:
					if int64(x[d.Rs1]) < int64(x[d.Rs2]) {
						goto taken
					}
				case isa.BGE:
					if int64(x[d.Rs1]) >= int64(x[d.Rs2]) {
						goto taken
					}
				case isa.BLTU:
					if x[d.Rs1] < x[d.Rs2] {
						goto taken
					}
				case isa.BGEU:
					if x[d.Rs1] >= x[d.Rs2] {
						goto taken
					}

				case isa.LB:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 1) {
						x[d.Rd] = uint64(int8(*(*uint8)(e.At(a))))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LBU:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 1) {
						x[d.Rd] = uint64(*(*uint8)(e.At(a)))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LH:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 2) {
						x[d.Rd] = uint64(int16(*(*uint16)(e.At(a))))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LHU:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 2) {
						x[d.Rd] = uint64(*(*uint16)(e.At(a)))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LW:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 4) {
						x[d.Rd] = uint64(int32(*(*uint32)(e.At(a))))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LWU:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 4) {
						x[d.Rd] = uint64(*(*uint32)(e.At(a)))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.LD:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 8) {
						x[d.Rd] = *(*uint64)(e.At(a))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}

				case isa.SB:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 1) {
						*(*uint8)(e.At(a)) = uint8(x[d.Rs2])
					} else if !m.WriteSlow(a, x[d.Rs2], 1) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case isa.SH:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 2) {
						*(*uint16)(e.At(a)) = uint16(x[d.Rs2])
					} else if !m.WriteSlow(a, x[d.Rs2], 2) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case isa.SW:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 4) {
						*(*uint32)(e.At(a)) = uint32(x[d.Rs2])
					} else if !m.WriteSlow(a, x[d.Rs2], 4) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case isa.SD:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 8) {
						*(*uint64)(e.At(a)) = x[d.Rs2]
					} else if !m.WriteSlow(a, x[d.Rs2], 8) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}

				case isa.ADDI:
					x[d.Rd] = x[d.Rs1] + uint64(d.Imm)

				// --- superinstructions (see fuse) --------------------------
				// The first instruction runs as its plain case does, then d
				// moves to the second, which runs as its plain case does
				// (each load or store with its own slow path and fault).
				case opLdLd:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 8) {
						x[d.Rd] = *(*uint64)(e.At(a))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
					d = (*decoded)(unsafe.Add(unsafe.Pointer(d), d.Adv))
					a = x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 8) {
						x[d.Rd] = *(*uint64)(e.At(a))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case opSdSd:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 8) {
						*(*uint64)(e.At(a)) = x[d.Rs2]
					} else if !m.WriteSlow(a, x[d.Rs2], 8) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
					d = (*decoded)(unsafe.Add(unsafe.Pointer(d), d.Adv))
					a = x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 8) {
						*(*uint64)(e.At(a)) = x[d.Rs2]
					} else if !m.WriteSlow(a, x[d.Rs2], 8) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case opAddiAddi:
					x[d.Rd] = x[d.Rs1] + uint64(d.Imm)
					d = (*decoded)(unsafe.Add(unsafe.Pointer(d), d.Adv))
					x[d.Rd] = x[d.Rs1] + uint64(d.Imm)
				case opAddiAdd:
					x[d.Rd] = x[d.Rs1] + uint64(d.Imm)
					d = (*decoded)(unsafe.Add(unsafe.Pointer(d), d.Adv))
					x[d.Rd] = x[d.Rs1] + x[d.Rs2]
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

				// The other instructions that end a block (see endsBlock) go
				// to blockEnd too; one that did not would run on into
				// whatever the next slot holds.
				case isa.FENCE:
					// One hart, program-order memory: nothing to order.
					pc = bs.pcOf(d) + uint64(d.Len)
					goto blockEnd
				case isa.FENCE_I:
					c.FlushCode() // sets codeChanged: the next block looks its page up again
					pc = bs.pcOf(d) + uint64(d.Len)
					goto blockEnd
				case isa.ECALL:
					if !c.BareMetal {
						goto ecall
					}
					cause, tval = CauseEcallU+uint64(c.Priv), 0 // (8, 9 or 11)
					goto faultIn
				case isa.EBREAK:
					cause, tval = CauseBreakpoint, bs.pcOf(d)
					goto faultIn
				case isa.CSRRW, isa.CSRRS, isa.CSRRC, isa.CSRRWI, isa.CSRRSI, isa.CSRRCI:
					// (Not rare: glibc reads and writes fflags around FP
					// compares, n-body's inner loop does it every time.)
					pc = bs.pcOf(d)
					c.PC = pc
					in := c.currentInst(bs.page, pc)
					if !c.csrAccess(in, d.Rd, c.Instret+limit-bs.left-unretired(bs.page, pc, bs.cnt)) {
						goto illegal
					}
					if csrEndsBlock(in) {
						pc += uint64(d.Len)
						if c.takeInterrupt(pc) { // (a write that enables a pending interrupt)
							pc = c.PC
						}
						goto blockEnd
					}
				case isa.MRET, isa.SRET, isa.WFI, isa.SFENCE_VMA, isa.HPS_ON, isa.HPS_OFF, isa.DISE_RET:
					// Rare, and out of line (see system) to keep Run small.
					pc = bs.pcOf(d)
					switch t, act := c.system(d, pc, c.Instret+limit-bs.left); act {
					case sysIllegal:
						goto illegal
					case sysEnd:
						pc = t
						goto blockEnd
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
						goto faultIn
					}
					if c.attn.codeChanged || c.hostStop {
						goto event
					}

				// --- F and D loads/stores and moves ------------------------
				case isa.FLW:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 4) {
						f[d.Rd] = box32(*(*uint32)(e.At(a)))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.FLD:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.ReadEntry(a); e.Hits(a, 8) {
						f[d.Rd] = *(*uint64)(e.At(a))
					} else if !c.loadSlow(d, a) {
						cause, tval = CauseLoadAccess, a
						goto faultIn
					}
				case isa.FSW:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 4) {
						*(*uint32)(e.At(a)) = uint32(f[d.Rs2])
					} else if !m.WriteSlow(a, f[d.Rs2], 4) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case isa.FSD:
					a := x[d.Rs1] + uint64(d.Imm)
					if e := m.WriteEntry(a); e.Hits(a, 8) {
						*(*uint64)(e.At(a)) = f[d.Rs2]
					} else if !m.WriteSlow(a, f[d.Rs2], 8) {
						cause, tval = CauseStoreAccess, a
						goto faultIn
					} else if c.attn.codeChanged || c.hostStop {
						goto event
					}
				case isa.FMV_X_W:
					x[d.Rd] = sext32(f[d.Rs1])
				case isa.FMV_W_X:
					f[d.Rd] = box32(uint32(x[d.Rs1]))
				case isa.FMV_X_D:
					x[d.Rd] = f[d.Rs1]
				case isa.FMV_D_X:
					f[d.Rd] = x[d.Rs1]

				// --- the hot D-precision ops (the rest are in execExt) -------
				// The common round-to-nearest case of the four basic double
				// operations runs softfloat's inlined fast path here; the rest
				// (other modes, special values) call the full routine.
				case isa.FADD_D:
					if r, fl, ok := sf.FastAdd64(f[d.Rs1], f[d.Rs2]); ok && c.rm(d) == sf.RNE {
						f[d.Rd] = r
						c.fflags |= uint8(fl)
						break
					}
					f[d.Rd], fl = sf.Add64(f[d.Rs1], f[d.Rs2], c.rm(d))
					c.fflags |= uint8(fl)
				case isa.FSUB_D:
					if r, fl, ok := sf.FastAdd64(f[d.Rs1], f[d.Rs2]^signBit64); ok && c.rm(d) == sf.RNE {
						f[d.Rd] = r
						c.fflags |= uint8(fl)
						break
					}
					f[d.Rd], fl = sf.Sub64(f[d.Rs1], f[d.Rs2], c.rm(d))
					c.fflags |= uint8(fl)
				case isa.FMUL_D:
					if r, ok := sf.MulRNE64(f[d.Rs1], f[d.Rs2]); ok && c.rm(d) == sf.RNE {
						c.fflags |= uint8(sf.MulNX64(f[d.Rs1], f[d.Rs2]))
						f[d.Rd] = r
						break
					}
					f[d.Rd], fl = sf.Mul64(f[d.Rs1], f[d.Rs2], c.rm(d))
					c.fflags |= uint8(fl)
				case isa.FDIV_D:
					if r, ok := sf.DivRNE64(f[d.Rs1], f[d.Rs2]); ok && c.rm(d) == sf.RNE {
						c.fflags |= uint8(sf.DivNX64(f[d.Rs1], f[d.Rs2], r))
						f[d.Rd] = r
						break
					}
					f[d.Rd], fl = sf.Div64(f[d.Rs1], f[d.Rs2], c.rm(d))
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
				case isa.FCVT_D_W:
					f[d.Rd] = sf.I32ToF64(int32(x[d.Rs1]))
				case isa.FCVT_D_L:
					f[d.Rd], fl = sf.I64ToF64(int64(x[d.Rs1]), c.rm(d))
					c.fflags |= uint8(fl)
				case isa.FCVT_W_D:
					var v int32
					v, fl = sf.F64ToI32(f[d.Rs1], c.rm(d))
					x[d.Rd] = uint64(int64(v))
					c.fflags |= uint8(fl)
				case isa.FCVT_L_D:
					var v int64
					v, fl = sf.F64ToI64(f[d.Rs1], c.rm(d))
					x[d.Rd] = uint64(v)
					c.fflags |= uint8(fl)

				// --- DISE / HPS ---------------------------------------------
				case opEdit:
					// A watched instruction: the editor decides, per dynamic
					// instance, whether to replace it (see edit).
					pc = bs.pcOf(d)
					if d = c.edit(pc); d == nil {
						continue blocks // the replaced instruction retires inside the sequence
					}
					goto dispatch
				case opSeqCall: // (always traced: it only occurs in a sequence, with cnt 1)
					pc = bs.pcOf(d)
					switch entry, addr, st := c.handlerCall(pc); st {
					case callLimit:
						exit.Reason = StopLimit
						goto leave
					case callFault:
						cause, tval = CauseStoreAccess, addr
						goto faultIn
					case callStop:
						pc = entry
						exit.Reason = StopRequest
						goto leave
					default:
						pc = entry
					}
					continue blocks
				case opBlockEnd, isa.ILLEGAL:
					// A sentinel, or a slot that could not be decoded when the
					// block was built: the block's last instruction has run.
					pc = bs.pcOf(d)
					if bs.single && bs.counting && !bs.traced {
						c.countLeave(bs.page, bs.bpc) // a single step ends here, not its code
					}
					goto blockEnd

				// --- the retire tap (tap.go) ---------------------------------
				case opTapValueLD:
					// A value tap's ld (most tapped loads): opTapValue's path, no op or kind test.
					if c.tap.vo < c.tap.vlim {
						a := x[d.Rs1] + uint64(d.Imm)
						if e := m.ReadEntry(a); e.Hits(a, 8) {
							v := *(*uint64)(e.At(a))
							x[d.Rd] = v
							o := c.tap.vo // (again: kept from the test, it pushed the address to the stack)
							*c.tap.vslot(o) = TapValue{bs.pcOf(d), v}
							c.tap.vo = o + tapValueSize
							break
						}
					}
					fallthrough // (the general value path below: a full buffer, a TLB miss)
				case opTapLoad, opTapStore, opTapValue:
					// A tapped load or store: a TLB hit that does not fill the tap's buffer runs and is
					// recorded here; the rest in tapLoad, or for a store as opTapSlow. A load's Rs2 is its
					// size and Rs3 its kind (see loadKind), a store's Rd and Rs3 (see storeKind). (Run is
					// at Go's inlining size limit: what can be a call to an inlined helper is one.)
					if d.Op >= uint8(opTapValue) { // (or opTapValueLD's slow path)
						// A value tap's load (SetTapValues): its PC and value are its whole record,
						// which goes at offset o (see tapState: one test for the buffer and a handler's load).
						o := c.tap.vo
						if o >= c.tap.vlim {
							goto tapValueSlow
						}
						a := x[d.Rs1] + uint64(d.Imm)
						var v uint64
						if e := m.ReadEntry(a); !e.Hits(a, uint64(d.Rs2)) {
							goto tapValueSlow
						} else if k := d.Rs3; k == loadLBU { // (the commonest after ld: no F test)
							v = uint64(*(*uint8)(e.At(a)))
							x[d.Rd] = v
						} else if v = loadFrom(e.At(a), k); loadToF(k) {
							f[d.Rd] = v
						} else {
							x[d.Rd] = v
						}
						*c.tap.vslot(o) = TapValue{bs.pcOf(d), v}
						c.tap.vo = o + tapValueSize
					} else if c.tap.n+1 >= c.tap.next {
						goto tapLoadSlow
					} else {
						a := x[d.Rs1] + uint64(d.Imm)
						var v uint64 // a load's result
						size := d.Rs2
						if d.Op == uint8(opTapLoad) {
							e := m.ReadEntry(a)
							if !e.Hits(a, uint64(d.Rs2)) {
								goto tapLoadSlow
							}
							v = loadFrom(e.At(a), d.Rs3)
							if loadToF(d.Rs3) {
								f[d.Rd] = v
							} else {
								x[d.Rd] = v
							}
						} else {
							e := m.WriteEntry(a)
							if !e.Hits(a, uint64(d.Rd)) {
								goto tapLoadSlow
							}
							src := x[d.Rs2]
							if d.Rs3 >= storeFSD {
								src = f[d.Rs2]
							}
							storeTo(e.At(a), d.Rd, src)
							size = d.Rd
						}
						pc = bs.pcOf(d)
						r := &c.tap.buf[c.tap.n]
						if c.tap.lean {
							leanRecord(r, d)
						} else {
							c.fullRecord(r, pc) // (a helper: Run's size, see tap.go's sizes)
						}
						c.loadRecord(r, pc, uint64(d.Len), a, size, v)
						c.tap.n++
					}
					break
				tapLoadSlow:
					if d.Op == uint8(opTapStore) {
						pc = c.tapDefer(d)
						continue blocks
					}
				tapValueSlow: // (the value path's: it needs no op test, so Run keeps no op live to it)
					pc = bs.pcOf(d)
					stop, cs, tv := c.tapLoad(d, pc)
					if cs != noCause {
						cause, tval = cs, tv
						goto faultIn
					}
					if stop {
						c.tapLeaveAfter(pc)
						pc += uint64(d.Len)
						goto tapStop
					}
				case opTapCtl, opTapControl:
					// A tapped control transfer (branch, edge and path profilers; Rs3 is
					// its kind, see controlKind): runs and is recorded here unless that fills
					// the tap's buffer (then in tapControl). Under a control tap (opTapControl)
					// its record is a TapControl at offset vo, as a value tap's.
					if d.Op == uint8(opTapControl) && c.tap.vo < c.tap.vlim || d.Op == uint8(opTapCtl) && c.tap.n+1 < c.tap.next {
						pc = bs.pcOf(d)
						link := pc + uint64(d.Len)
						next, result := link, uint64(0)
						if k := d.Rs3; k < ctlJAL {
							// BEQ/BNE, BLT/BGE, BLTU/BGEU: a test and its negation.
							a, b := x[d.Rs1], x[d.Rs2]
							t := a == b
							if k >= ctlBLTU {
								t = a < b
							} else if k >= ctlBLT {
								t = int64(a) < int64(b)
							}
							if t != (k&1 == 1) {
								next = pc + uint64(d.Imm)
							}
						} else {
							next = pc + uint64(d.Imm)
							if k == ctlJALR {
								next = (x[d.Rs1] + uint64(d.Imm)) &^ 1
							}
							x[d.Rd], result = link, link
						}
						// The retirement number: retSeq, an inlined helper (Run's size).
						if seq := bs.retSeq(pc); d.Op == uint8(opTapControl) {
							o := c.tap.vo
							*c.tap.cslot(o) = TapControl{pc, next, seq<<8 | uint64(d.Rm)}
							c.tap.vo = o + tapControlSize
						} else {
							c.tapControlFull(pc, next, link, result, seq)
						}
						if d.Rs3 >= ctlJAL {
							pc = next
							goto blockEnd
						}
						if next != link {
							goto taken // (as the plain branch leaves its block)
						}
						break
					}
					pc = bs.pcOf(d)
					if next, ends, stop := c.tapControl(d, pc); ends {
						pc = next
						if stop {
							goto tapStop
						}
						goto blockEnd
					} else if stop {
						c.tapLeaveAfter(pc)
						pc = next
						goto tapStop
					}
				case opRecord: // between two instructions of a traced block (traced.go)
					c.recordNext(d)
				case opTapSlow: // any other tapped instruction: a traced single step after its block (tapDefer)
					pc = c.tapDefer(d)
					continue blocks

				case 255:
					// No op has this number (see opBlockEnd). The case makes the
					// switch cover every uint8, so its jump table needs no range check.
					goto illegal
				default: // the extension ops, kept out of line; opInvalid
					if !c.execExt(d) {
						goto illegal
					}
				}

				// Straight-line code: the next instruction is the next slot.
				// A block ends at a control transfer (which jumps to
				// blockEnd) or runs into a sentinel slot (past the end of the
				// page, or after a single-stepped instruction).
				d = (*decoded)(unsafe.Add(unsafe.Pointer(d), d.Adv))
			}
		taken:
			// A taken conditional branch leaves its block early: the rest
			// of the block, which blen says the length of, did not run. It
			// goes on at jumped (the common case) or, when the block is
			// counted or single-stepped, at takenLeave.
			pc = bs.pcOf(d)
			if bs.single || bs.counting {
				goto takenLeave
			}
			bs.left += uint64(bs.page.blen[(pc&mem.PageMask)>>1]) - 1
			pc += uint64(d.Imm)
		jumped:
			// A control transfer to pc ended the block, all of which
			// retired. Chaining: if pc is on the same page and its block is
			// built and fits the budget, it runs next without the trip
			// through the block start (the page, the bias and the flags are
			// those of the block that just ended; nothing that runs inside
			// an untraced block sets an attn flag without leaving through
			// event or blockEnd, but the flags are tested anyway).
			if pc&^mem.PageMask != bs.pageTag || bs.single || bs.counting || c.needsAttention() {
				goto blockEnd
			}
			{
				si := (pc & mem.PageMask) >> 1
				cnt := uint64(bs.page.blen[si])
				if cnt-1 >= bs.left { // not built yet (0), or longer than the budget left
					goto blockEnd
				}
				d, bs.cnt = &bs.page.insts[si], cnt
				bs.left -= cnt
				goto chained
			}
		takenLeave:
			// A taken conditional branch in a counted or single-stepped block.
			pc = bs.pcOf(d)
			if bs.counting && !bs.traced {
				c.countLeave(bs.page, pc)
			}
			if !bs.single {
				bs.left += uint64(bs.page.blen[(pc&mem.PageMask)>>1]) - 1
			}
			pc += uint64(d.Imm)
		blockEnd:
			if bs.traced {
				// The block was the one instruction d at ipc; pc is where the
				// interpreter sent it.
				if c.fromSeq {
					raw := pc
					pc = c.seqAdvance(bs.bpc, raw)
					c.retireSeq(&c.step[0], bs.bpc, raw, c.Instret+limit-bs.left-1)
				} else {
					c.retireStep(pc, c.Instret+limit-bs.left-1)
				}
				if c.stopRequested { // only observers request stops
					exit.Reason = StopRequest
					goto leave
				}
			}
		}
		exit.Reason = StopLimit
		goto leave

	tapStop: // the tap's sink asked to stop; pc is the next instruction
		exit.Reason = StopRequest
		goto leave

	illegal: // from inside a block, where pc is not kept (see pcOf)
		pc = bs.pcOf(d)
		cause, tval = CauseIllegalInst, uint64(c.currentInst(bs.page, pc).Raw)
		goto exception
	faultIn:
		pc = bs.pcOf(d)
	exception:
		if pc, limit, exit = c.exception(pc, cause, tval, limit); exit.Reason != noStop {
			goto leave
		}
		continue

	event:
		// A store changed code or wrote a host mailbox; the store retired.
		pc = c.retireEvent(d, bs.pcOf(d))
		bs.traced = c.attn.baseTraced || c.attn.inSeq
		bs.cnt, bs.bpc = 0, pc
		bs.pageTag = ^uint64(0)
		c.attn.codeChanged = false
		if c.hostStop {
			exit.Reason = StopHost
			goto leave
		}
		if c.stopRequested {
			exit.Reason = StopRequest
			goto leave
		}
		continue

	ecall:
		// User-mode system call: it retires here and the caller performs it.
		// As the original of a replacement sequence it ends the sequence.
		pc = bs.pcOf(d)
		c.retireEcall(d, pc)
		pc += 4
		bs.cnt, bs.bpc = 0, pc
		exit.Reason = StopEcall
		goto leave
	}

leave:
	c.PC = pc
	c.Instret += limit - bs.left
	if exit.Reason == StopRequest {
		c.stopRequested = false // honoured (the flush may ask again)
	}
	c.Flush()
	c.foldDropped()
	return exit
}

// noStop is exception's "no reason to stop": the trap was taken.
const noStop StopReason = 255

// exception handles a fault of the instruction at pc (Run's exception
// path, out of line to keep Run small): in a Linux process the run stops
// with the fault; bare metal takes the trap and goes on at the returned pc
// with the returned budget (reason noStop) unless that is spent.
func (c *CPU) exception(pc, cause, tval, limit uint64) (next, left uint64, exit Exit) {
	bs := &c.blk
	c.unretire(pc)
	c.Instret += limit - bs.left
	limit = bs.left
	if !c.BareMetal {
		return pc, limit, Exit{Reason: StopFault, Fault: Fault{PC: pc, Cause: cause, Tval: tval}}
	}
	// A trap consumes budget like an instruction, so a trap loop (a bad
	// mtvec) still ends at the limit.
	pc = c.takeTrap(cause, tval)
	limit--
	bs.left, bs.end = limit, c.Instret+limit
	if limit == 0 {
		return pc, limit, Exit{Reason: StopLimit}
	}
	return pc, limit, Exit{Reason: noStop}
}

// sysAction is where Run goes after system executed an instruction.
type sysAction uint8

const (
	sysEnd     sysAction = iota // the block ends; it goes on at the pc returned
	sysIllegal                  // the instruction raises illegal instruction
)

// system executes the rare instructions Run keeps out of line: mret,
// sret, wfi, sfence.vma, the HPS triggers and dise.ret. d is at pc; instret is
// Instret as of the block's end (before unretired is taken off).
func (c *CPU) system(d *decoded, pc, instret uint64) (uint64, sysAction) {
	bs := &c.blk
	next := pc + uint64(d.Len)
	switch isa.Op(d.Op) {
	case isa.MRET, isa.SRET:
		// sret is S-mode's too, unless TSR makes it M-mode's to emulate.
		m, legal := modeM, c.Priv == PrivM
		if isa.Op(d.Op) == isa.SRET {
			m, legal = modeS, legal || c.Priv == PrivS && c.csr.mstatus&mstatusTSR == 0
		}
		if !legal {
			return 0, sysIllegal
		}
		c.PC = pc
		c.xret(m)
		c.takeInterrupt(c.PC)
		return c.PC, sysEnd
	case isa.SFENCE_VMA:
		// satp holds only Bare: with no address translation the spec lets
		// sfence.vma raise illegal instruction, which riscv-tests' rv64mi
		// "illegal" test expects of such a hart (and Linux user mode).
		return 0, sysIllegal
	case isa.WFI:
		// Linux user mode: wfi in U-mode traps as illegal and the
		// process gets SIGILL (on a hart with S-mode the spec allows
		// the trap, and Linux kernels see it). On bare metal wfi is a
		// nop (trapping in U-mode when TW is set), which the spec allows:
		// a program waits in a loop around it, and the CLINT's timer
		// interrupt arrives at its instruction count.
		if !c.BareMetal || c.Priv != PrivM && c.csr.mstatus&mstatusTW != 0 {
			return 0, sysIllegal
		}
		return next, sysEnd
	case isa.HPS_ON, isa.HPS_OFF:
		// Trigger instructions act in the editor (decode); they
		// execute as no-ops, if the code may execute them.
		if c.hpsDenied(isa.Op(d.Op)) {
			return 0, sysIllegal
		}
		return next, sysEnd
	}
	// DISE_RET
	t, ok := c.diseReturn(instret - unretired(bs.page, pc, bs.cnt))
	if !ok {
		return 0, sysIllegal
	}
	return t, sysEnd // a resumed sequence runs traced from the next block
}

// refreshDevice lets DeviceRead refresh a device's bytes before the load
// at pc (in the current block) reads size bytes at a.
func (c *CPU) refreshDevice(a uint64, size int, pc uint64) {
	if c.DeviceRead == nil || !c.Mem.DeviceAt(a) {
		return
	}
	bs := &c.blk
	c.DeviceRead(a, size, bs.end-bs.left-unretired(bs.page, pc, bs.cnt))
}

// loadSlow runs the load d (a plain load, or the first of a
// superinstruction) at address a when it misses the TLB: Run's load cases
// share it, which keeps Run small. It returns false if a cannot be read.
func (c *CPU) loadSlow(d *decoded, a uint64) bool {
	x, f := &c.X, &c.F
	op := isa.Op(plainOp(d.Op))
	c.refreshDevice(a, int(op.Info().MemSize), c.blk.pcOf(d))
	v, ok := c.Mem.ReadSlow(a, int(op.Info().MemSize))
	if !ok {
		return false
	}
	switch op {
	case isa.LB:
		x[d.Rd] = uint64(int8(v))
	case isa.LH:
		x[d.Rd] = uint64(int16(v))
	case isa.LW:
		x[d.Rd] = uint64(int32(v))
	case isa.FLW:
		f[d.Rd] = box32(uint32(v))
	case isa.FLD:
		f[d.Rd] = v
	default: // LBU, LHU, LWU, LD
		x[d.Rd] = v
	}
	return true
}

// unretire undoes the retirement of the instruction at pc, which faulted,
// and the rest of its block (Run's exception path); a sequence in
// progress is abandoned.
func (c *CPU) unretire(pc uint64) {
	bs := &c.blk
	if bs.counting && !bs.traced && bs.cnt > 0 {
		c.countEnter(bs.page, pc, -1)
	}
	bs.left += unretired(bs.page, pc, bs.cnt)
	bs.cnt, bs.bpc, bs.rd = 0, pc, nil
	c.abandonSequence()
	bs.traced = c.attn.baseTraced
	c.PC = pc
}

// takeTrap takes a bare-metal trap and returns the pc it goes to.
func (c *CPU) takeTrap(cause, tval uint64) uint64 {
	c.trap(cause, tval)
	c.Traps++
	c.blk.pageTag = ^uint64(0)
	return c.PC
}

// retireEvent retires the store d at pc that changed code or wrote a host
// mailbox (Run's event path, kept out of Run to keep it small) and
// returns the pc to go on at. The rest of its block may be stale: it is
// given back, to be looked up again.
func (c *CPU) retireEvent(d *decoded, pc uint64) uint64 {
	bs := &c.blk
	next := pc + uint64(d.Len)
	u := unretired(bs.page, pc, bs.cnt)
	if c.fromSeq {
		raw := next
		next = c.seqAdvance(pc, next)
		c.retireSeq(d, pc, raw, bs.end-bs.left-u)
	} else if bs.traced {
		c.retire(d, bs.page.fullAt(pc), pc, next, bs.end-bs.left-u)
	} else if bs.counting {
		c.countLeave(bs.page, pc) // the rest of the block is looked up again
	}
	bs.left += u - 1
	return next
}

// retireEcall retires the user-mode ecall d at pc (Run's ecall path); as
// the original of a replacement sequence it ends the sequence.
func (c *CPU) retireEcall(d *decoded, pc uint64) {
	bs := &c.blk
	u := unretired(bs.page, pc, bs.cnt)
	if c.fromSeq {
		c.seqAdvance(pc, pc+4)
		c.retireSeq(d, pc, pc+4, bs.end-bs.left-u)
		c.abandonSequence()
	} else if bs.traced {
		c.retire(d, bs.page.fullAt(pc), pc, pc+4, bs.end-bs.left-u)
	}
	bs.left += u - 1
}

// retire does the optional per-instruction bookkeeping: the class mix,
// the observer's record and the tap's.
func (c *CPU) retire(d *decoded, in *isa.Inst, pc, next, seq uint64) {
	if c.CountMix {
		c.Mix[in.Class]++
	}
	if c.observer != nil {
		// The record's batch slot, taken without zeroing it first
		// (fillRecord writes every field): flushIfFull keeps room in the
		// batch, and append covers the case it does not. (Inline: a call
		// per record costs its arguments' moves and spills.)
		n := len(c.batch)
		if n < cap(c.batch) {
			c.batch = c.batch[:n+1]
		} else {
			c.batch = append(c.batch, DynInst{})
		}
		r := &c.batch[n]
		// fillRecord, inline (its two halves are small enough): the
		// observer's path runs for every instruction.
		info := c.fillHead(r, in, pc, next, seq)
		c.fillTail(r, info, d, in, pc, next)
		// (tapRecord tests the class too; the call is what is spared.)
		if c.tap.mask.Has(in.Class) {
			c.tapRecord(r)
		}
		if len(c.batch) >= cap(c.batch)-16 { // flushIfFull, inline
			c.Flush()
		}
	} else if c.tap.mask.Has(in.Class) {
		if c.tap.vsink != nil || c.tap.csink != nil {
			var r DynInst
			c.fillRecord(&r, d, in, pc, next, seq)
			c.tapRecord(&r)
			return
		}
		c.fillRecord(c.tapSlot(), d, in, pc, next, seq)
		c.tapCommit()
	}
}

// fillRecord writes the DynInst of an instruction that executed at pc to r.
// (Field by field: a composite literal is built on the stack and copied.)
func (c *CPU) fillRecord(r *DynInst, d *decoded, in *isa.Inst, pc, next, seq uint64) {
	c.fillTail(r, c.fillHead(r, in, pc, next, seq), d, in, pc, next)
}

// fillHead writes the first half of fillRecord's fields and returns the
// op's row. (fillRecord is two halves so that each inlines where the
// observer's path writes a record per instruction.)
func (c *CPU) fillHead(r *DynInst, in *isa.Inst, pc, next, seq uint64) *isa.OpInfo {
	info := in.Info()
	r.Seq, r.PC, r.NextPC, r.Inst = seq, pc, next, *in
	r.Tid = c.Tid
	r.Addr, r.Size = 0, info.MemSize
	if info.MemSize != 0 {
		r.Addr = c.tracedEA(in)
	}
	return info
}

// fillTail writes the rest of fillRecord's fields.
func (c *CPU) fillTail(r *DynInst, info *isa.OpInfo, d *decoded, in *isa.Inst, pc, next uint64) {
	r.Taken = next != pc+uint64(d.Len)
	r.Result = 0
	switch info.Rd {
	case isa.XReg:
		r.Result = c.X[d.Rd]
	case isa.FReg:
		r.Result = c.F[d.Rd]
	}
	r.Injected, r.Replaced = false, false
	r.Handler = len(c.saved) > 0 || in.Op == isa.DISE_RET // dise.ret has already left the handler
}

func (c *CPU) flushIfFull() {
	if len(c.batch) >= cap(c.batch)-16 { // room for a handler call's records
		c.Flush()
	}
}

// blockState is Run's per-block bookkeeping (see Run).
type blockState struct {
	bias     uint64    // pc minus the executing slot's address/8 (see pcOf)
	left     uint64    // budget not yet handed to a block
	cnt      uint64    // the current block's length (see unretired)
	bpc      uint64    // the current block's first pc
	end      uint64    // Instret when the budget is spent: a record's Seq is end-left-unretired
	page     *codePage // the current page's predecode
	pageTag  uint64    // page's address; never matches a pc when page is stale
	traced   bool      // per-instruction bookkeeping for this block
	single   bool      // the block is one instruction in the step buffer
	counting bool      // count the class mix per block (mix.go)
	// A one-pass traced block (traced.go): its first slot (nil for any
	// other block) and first instruction's number, and the pending
	// record's pc and number.
	rd    *decoded
	rseq0 uint64
	rpc   uint64
	rseq  uint64
}

// rm resolves an instruction's rounding mode. Dynamic rounding with an
// invalid frm never reaches here: predecode marks it illegal.
func (c *CPU) rm(d *decoded) sf.RoundingMode {
	if d.Rm == 7 {
		return sf.RoundingMode(c.frm)
	}
	return sf.RoundingMode(d.Rm)
}

// Inside a block the loop keeps no pc: slots are 16 bytes per halfword of
// code, so an instruction's pc is its slot's address/8 plus a per-block
// bias, and straight-line code only advances the slot pointer. The
// one-instruction step buffer follows the same rule: its sentinels sit
// where the next pc's slot would.
func (bs *blockState) pcOf(d *decoded) uint64 {
	return bs.bias + uint64(uintptr(unsafe.Pointer(d)))>>3
}

// setBias makes pcOf(d) == pc.
func (bs *blockState) setBias(pc uint64, d *decoded) {
	bs.bias = pc - uint64(uintptr(unsafe.Pointer(d)))>>3
}

// blockAt finds (building it if need be) the block that starts at pc and
// makes its page current: d is its first slot and cnt its length. d is
// nil if pc cannot be fetched; cause and tval then say why.
func (c *CPU) blockAt(pc uint64) (d *decoded, cnt, cause, tval uint64) {
	bs := &c.blk
	if pc&^mem.PageMask != bs.pageTag {
		if bs.page = c.codePageFor(pc); bs.page == nil {
			return nil, 0, CauseFetchAccess, pc
		}
		bs.pageTag = pc &^ mem.PageMask
	}
	si := (pc & mem.PageMask) >> 1
	if cnt = uint64(bs.page.blen[si]); cnt == 0 {
		var ok bool
		if cnt, cause, tval, ok = c.buildBlock(bs.page, pc); !ok {
			return nil, 0, cause, tval
		}
	}
	return &bs.page.insts[si], cnt, 0, 0
}

// attentionBlock starts the next block, at pc, when an attn flag is set
// (Run's general case): traced blocks, DISE sequences, dropped code, a
// tapped instruction to run traced, translated code. It returns the
// block's first slot and its pc (translated code may have run from pc
// on), or nil with the cause and tval of the fault if that pc cannot be
// fetched.
func (c *CPU) attentionBlock(pc uint64) (d *decoded, npc, cause, tval uint64) {
	bs := &c.blk
	if c.attn.jit {
		if c.attn.codeChanged {
			c.attn.codeChanged, bs.pageTag = false, ^uint64(0)
		}
		if pc = c.jitRun(pc); bs.left == 0 {
			// The budget is spent: a block of no instructions, which
			// ends at once (its sentinel's pc is pc), and which Run then
			// leaves: no entry to count.
			c.fromSeq, bs.single, bs.traced, bs.cnt = false, false, false, 0
			bs.counting = false
			return &c.jit.end, pc, 0, 0
		}
	}
	bs.traced = c.attn.baseTraced || c.attn.inSeq || c.attn.traceOne
	c.attn.traceOne = false
	bs.rd = nil
	if c.attn.codeChanged {
		c.attn.codeChanged, bs.pageTag = false, ^uint64(0)
	}
	if c.attn.inSeq { // a DISE replacement sequence runs element by element
		d, c.fromSeq, bs.cnt, bs.single = c.stepOne(&c.seq.ops[c.seq.idx]), true, 1, true
	} else {
		c.fromSeq, bs.single = false, false
		si := (pc & mem.PageMask) >> 1
		if pc&^mem.PageMask == bs.pageTag && bs.page.blen[si] != 0 {
			// blockAt's common case inline (traced runs come here for
			// every instruction): the current page, a block already built.
			d, bs.cnt = &bs.page.insts[si], uint64(bs.page.blen[si])
		} else if d, bs.cnt, cause, tval = c.blockAt(pc); d == nil {
			bs.cnt, bs.bpc = 0, pc
			return nil, pc, cause, tval
		}
		if bs.traced && c.onePass(bs.cnt) {
			d = c.traceBlock(d, pc) // recording as it goes (traced.go)
		} else if bs.traced || bs.cnt > bs.left {
			// One instruction at a time: traced runs, and the end of
			// the budget (a block runs to its end unchecked).
			d, bs.cnt, bs.single = c.stepOne(d), 1, true
			if bs.traced {
				c.untap(d, pc) // retire records it
			}
		}
	}
	if bs.traced {
		c.eaBase = c.X[d.Rs1] // for the record of a load or store (tracedEA)
	}
	return d, pc, 0, 0
}

// tracedEA is the address a traced memory instruction accessed: its base
// register as it was before the instruction ran (a load may overwrite it)
// plus its offset. The loop does not keep addresses; the block start (a
// single step) or the recording slot before the instruction (a one-pass
// block, traced.go) saves the base. AMOs record theirs.
func (c *CPU) tracedEA(in *isa.Inst) uint64 {
	if in.Class == isa.AMO {
		return c.ea
	}
	return c.eaBase + uint64(in.Imm)
}

// needsAttention reports whether any attn flag is set, with one load.
func (c *CPU) needsAttention() bool {
	return *(*uint64)(unsafe.Pointer(&c.attn)) != 0
}
