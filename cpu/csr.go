package cpu

import "github.com/rvsim/rvsim/isa"

// CSR numbers (ISA manual, privileged volume, "CSR Listing").
const (
	csrFflags     = 0x001
	csrFrm        = 0x002
	csrFcsr       = 0x003
	csrSatp       = 0x180
	csrMstatus    = 0x300
	csrMisa       = 0x301
	csrMedeleg    = 0x302
	csrMideleg    = 0x303
	csrMie        = 0x304
	csrMtvec      = 0x305
	csrMcounteren = 0x306
	csrMscratch   = 0x340
	csrMepc       = 0x341
	csrMcause     = 0x342
	csrMtval      = 0x343
	csrMip        = 0x344
	csrPmpcfg0    = 0x3a0
	csrPmpaddr0   = 0x3b0
	csrTselect    = 0x7a0
	csrTdata1     = 0x7a1
	csrTdata2     = 0x7a2
	csrTdata3     = 0x7a3
	csrTinfo      = 0x7a4
	csrMcycle     = 0xb00
	csrMinstret   = 0xb02
	csrCycle      = 0xc00
	csrTime       = 0xc01
	csrInstret    = 0xc02
	csrMvendorid  = 0xf11
	csrMarchid    = 0xf12
	csrMimpid     = 0xf13
	csrMhartid    = 0xf14
)

// mstatus fields.
const (
	mstatusMIE  = 1 << 3
	mstatusMPIE = 1 << 7
	mstatusMPP  = 3 << 11
	mstatusFS   = 3 << 13
	mstatusMPRV = 1 << 17
	mstatusTW   = 1 << 21
	mstatusUXL  = 2 << 32 // UXL = 64-bit, read-only
	mstatusSD   = 1 << 63

	mstatusWritable = mstatusMIE | mstatusMPIE | mstatusMPP | mstatusFS | mstatusMPRV | mstatusTW
)

// misa: RV64 with I, M, A, F, D, C, B (Zba+Zbb+Zbs) and U.
const misaValue = 2<<62 | 1<<('I'-'A') | 1<<('M'-'A') | 1<<('A'-'A') | 1<<('F'-'A') |
	1<<('D'-'A') | 1<<('C'-'A') | 1<<('B'-'A') | 1<<('U'-'A')

// Interrupt-enable/pending bits that exist on this hart (software, timer,
// external, M-level).
const mieWritable = 1<<3 | 1<<7 | 1<<11

// machineCSRs is the M-mode state. There are no interrupt sources, so
// mie/mip are storage only; medeleg/mideleg read as zero because there is
// no S-mode to delegate to; PMP writes are accepted and not enforced.
type machineCSRs struct {
	mstatus, mtvec, mepc, mcause, mtval, mscratch uint64
	mie, mip, mcounteren                          uint64
	pmpcfg                                        [16]uint64
	pmpaddr                                       [64]uint64
}

func (s *machineCSRs) reset() {
	*s = machineCSRs{mstatus: mstatusUXL | 1<<13} // FS = Initial: FP usable from reset
}

// csrAccess performs a CSR instruction. retired is the number of
// instructions retired before this one. ok is false if the access is
// illegal (unimplemented CSR, privilege, or a write to a read-only CSR).
func (c *CPU) csrAccess(d *isa.Inst, rd uint8, retired uint64) (ok bool) {
	num := d.Csr
	var src uint64
	switch d.Op {
	case isa.CSRRW, isa.CSRRS, isa.CSRRC:
		src = c.X[d.Rs1]
	default:
		src = uint64(d.Imm)
	}
	// csrrs/csrrc with x0 or a zero immediate do not write (and so may read
	// read-only CSRs); csrrw always writes.
	writes := csrWrites(d)
	if uint8(num>>8&3) > uint8(c.Priv) || (writes && num>>10 == 3) {
		return false
	}
	old, ok := c.readCSR(num, retired)
	if !ok {
		return false
	}
	if writes {
		val := src
		switch d.Op {
		case isa.CSRRS, isa.CSRRSI:
			val = old | src
		case isa.CSRRC, isa.CSRRCI:
			val = old &^ src
		}
		if !c.writeCSR(num, val, retired) {
			return false
		}
	}
	c.X[rd] = old
	return true
}

func (c *CPU) counterEnabled(bit uint) bool {
	return c.Priv == PrivM || !c.BareMetal || c.csr.mcounteren>>bit&1 != 0
}

func (c *CPU) readCSR(num uint16, retired uint64) (uint64, bool) {
	s := &c.csr
	switch {
	case num >= csrPmpcfg0 && num < csrPmpcfg0+16:
		if num&1 != 0 {
			return 0, false // odd pmpcfg registers do not exist on RV64
		}
		return s.pmpcfg[num-csrPmpcfg0], true
	case num >= csrPmpaddr0 && num < csrPmpaddr0+64:
		return s.pmpaddr[num-csrPmpaddr0], true
	}
	switch num {
	case csrFflags, csrFrm, csrFcsr:
		if c.fpOff {
			return 0, false
		}
		switch num {
		case csrFflags:
			return uint64(c.fflags), true
		case csrFrm:
			return uint64(c.frm), true
		}
		return uint64(c.frm)<<5 | uint64(c.fflags), true
	case csrCycle:
		return c.Cycle(retired), c.counterEnabled(0)
	case csrTime:
		return c.Time(retired), c.counterEnabled(1)
	case csrInstret:
		return retired + c.instretAdj, c.counterEnabled(2)
	}
	if !c.BareMetal {
		return 0, false // user-mode Linux programs see only the user CSRs
	}
	switch num {
	case csrSatp:
		return 0, true // Bare: no translation
	case csrMstatus:
		// FP instructions do not track FS, so any state other than Off
		// reads as Dirty (with SD): the conservative answer the spec
		// allows, where Initial or Clean after an FP write would not be.
		v := s.mstatus
		if v&mstatusFS != 0 {
			v |= mstatusFS | mstatusSD
		}
		return v, true
	case csrMisa:
		return misaValue, true
	case csrMedeleg, csrMideleg:
		return 0, true
	case csrMie:
		return s.mie, true
	case csrMip:
		return s.mip, true
	case csrMtvec:
		return s.mtvec, true
	case csrMcounteren:
		return s.mcounteren, true
	case csrMscratch:
		return s.mscratch, true
	case csrMepc:
		return s.mepc, true
	case csrMcause:
		return s.mcause, true
	case csrMtval:
		return s.mtval, true
	case csrMcycle:
		return c.Cycle(retired), true
	case csrMinstret:
		return retired + c.instretAdj, true
	case csrMvendorid, csrMarchid, csrMimpid, csrMhartid:
		return 0, true
	case csrTselect, csrTdata1, csrTdata2, csrTdata3:
		// The debug spec's trigger module with no trigger (Sdtrig §5.1):
		// tselect holds only 0, where tdata1's type 0 says there is none.
		return 0, true
	case csrTinfo:
		return 1, true // no trigger at this tselect
	}
	return 0, false
}

func (c *CPU) writeCSR(num uint16, v, retired uint64) bool {
	s := &c.csr
	switch {
	case num >= csrPmpcfg0 && num < csrPmpcfg0+16:
		s.pmpcfg[num-csrPmpcfg0] = v
		return true
	case num >= csrPmpaddr0 && num < csrPmpaddr0+64:
		s.pmpaddr[num-csrPmpaddr0] = v & (1<<54 - 1)
		return true
	}
	switch num {
	case csrFflags:
		c.fflags = uint8(v & 0x1f)
	case csrFrm:
		c.setFrm(uint8(v & 7))
	case csrFcsr:
		c.fflags = uint8(v & 0x1f)
		c.setFrm(uint8(v >> 5 & 7))
	case csrSatp, csrMedeleg, csrMideleg, csrMisa, csrTselect, csrTdata1, csrTdata2, csrTdata3:
		// WARL: satp only holds Bare, nothing is delegable, misa is fixed,
		// and there is no trigger to select or program.
	case csrMstatus:
		mpp := v & mstatusMPP
		if mpp != 0 && mpp != mstatusMPP {
			mpp = s.mstatus & mstatusMPP // WARL: only U and M exist
		}
		s.mstatus = mstatusUXL | v&mstatusWritable&^mstatusMPP | mpp
		c.setFPOff(s.mstatus&mstatusFS == 0)
	case csrMie:
		s.mie = v & mieWritable
	case csrMip:
		s.mip = v & mieWritable &^ (1<<7 | 1<<11) // MTIP/MEIP are read-only
	case csrMtvec:
		s.mtvec = v &^ 2 // modes 0 (direct) and 1 (vectored)
	case csrMcounteren:
		s.mcounteren = v & 7
	case csrMscratch:
		s.mscratch = v
	case csrMepc:
		s.mepc = v &^ 1
	case csrMcause:
		s.mcause = v
	case csrMtval:
		s.mtval = v
	case csrMcycle:
		// The written value is what the next instruction reads.
		c.cycleAdj += v - c.Cycle(retired+1)
	case csrMinstret:
		c.instretAdj += v - (retired + 1 + c.instretAdj)
	default:
		return false
	}
	return true
}

// setFrm sets the dynamic rounding mode. Whether dynamic-rm instructions
// are legal depends on frm, and legality is decided at predecode time, so
// crossing between valid and invalid values flushes the cache.
func (c *CPU) setFrm(frm uint8) {
	if (c.frm > 4) != (frm > 4) {
		c.FlushCode()
		c.attn.codeChanged = true
	}
	c.frm = frm
}

func (c *CPU) setFPOff(off bool) {
	if off != c.fpOff {
		c.fpOff = off
		c.FlushCode()
		c.attn.codeChanged = true
	}
}

// trap takes an exception in bare-metal mode: the privileged spec's
// "synchronous exception" sequence into M-mode.
func (c *CPU) trap(cause, tval uint64) {
	s := &c.csr
	s.mepc = c.PC
	s.mcause = cause
	s.mtval = tval
	mie := s.mstatus & mstatusMIE
	s.mstatus &^= mstatusMPIE | mstatusMIE | mstatusMPP
	s.mstatus |= mie<<4 | uint64(c.Priv)<<11
	c.setPriv(PrivM)
	c.PC = s.mtvec &^ 3 // exceptions always use the base, even in vectored mode
	c.resValid = false
}

// mret returns from an M-mode trap handler.
func (c *CPU) mret() {
	s := &c.csr
	mpp := Priv(s.mstatus & mstatusMPP >> 11)
	mpie := s.mstatus & mstatusMPIE
	s.mstatus &^= mstatusMIE | mstatusMPP
	s.mstatus |= mpie>>4 | mstatusMPIE // MPP := U, the least-privileged mode
	if mpp != PrivM {
		s.mstatus &^= mstatusMPRV
	}
	c.setPriv(mpp)
	c.PC = s.mepc
}

// setPriv changes the privilege level. Nothing in the predecode cache
// depends on it: mret, wfi and CSR accesses check the level when they run.
func (c *CPU) setPriv(p Priv) { c.Priv = p }

// MachineCSR returns a bare-metal CSR's value for tests and tools.
func (c *CPU) MachineCSR(num uint16) (uint64, bool) { return c.readCSR(num, c.Instret) }
