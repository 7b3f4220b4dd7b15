package cpu

import "github.com/rvsim/rvsim/isa"

// CSR numbers (ISA manual, privileged volume, "CSR Listing"); the trap
// registers of M- and S-mode are trapCSRs.
const (
	csrFflags    = 0x001
	csrFrm       = 0x002
	csrFcsr      = 0x003
	csrSstatus   = 0x100
	csrSie       = 0x104
	csrSip       = 0x144
	csrSatp      = 0x180
	csrMstatus   = 0x300
	csrMisa      = 0x301
	csrMedeleg   = 0x302
	csrMideleg   = 0x303
	csrMie       = 0x304
	csrMip       = 0x344
	csrPmpcfg0   = 0x3a0
	csrPmpaddr0  = 0x3b0
	csrTselect   = 0x7a0
	csrTdata1    = 0x7a1
	csrTdata2    = 0x7a2
	csrTdata3    = 0x7a3
	csrTinfo     = 0x7a4
	csrMcycle    = 0xb00
	csrMinstret  = 0xb02
	csrCycle     = 0xc00
	csrTime      = 0xc01
	csrInstret   = 0xc02
	csrMvendorid = 0xf11
	csrMarchid   = 0xf12
	csrMimpid    = 0xf13
	csrMhartid   = 0xf14
)

// mstatus fields.
const (
	mstatusSIE  = 1 << 1
	mstatusMIE  = 1 << 3
	mstatusSPIE = 1 << 5
	mstatusMPIE = 1 << 7
	mstatusSPP  = 1 << 8
	mstatusMPP  = 3 << 11
	mstatusFS   = 3 << 13
	mstatusMPRV = 1 << 17
	mstatusSUM  = 1 << 18
	mstatusMXR  = 1 << 19
	mstatusTW   = 1 << 21
	mstatusTSR  = 1 << 22
	mstatusUXL  = 2 << 32 // UXL = 64-bit, read-only
	mstatusSD   = 1 << 63

	// SUM, MXR and TVM are read-only 0: they act on address translation,
	// and satp holds only Bare (riscv-tests' "illegal" probes for paging
	// by writing SUM and MXR, and checks that TVM stays 0).
	mstatusWritable = mstatusSIE | mstatusMIE | mstatusSPIE | mstatusMPIE | mstatusSPP | mstatusMPP | mstatusFS |
		mstatusMPRV | mstatusTW | mstatusTSR
	// sstatus is mstatus's supervisor view.
	sstatusMask     = mstatusSIE | mstatusSPIE | mstatusSPP | mstatusFS | mstatusSUM | mstatusMXR | mstatusUXL | mstatusSD
	sstatusWritable = mstatusSIE | mstatusSPIE | mstatusSPP | mstatusFS
)

// misa: RV64 with I, M, A, F, D, C, B (Zba+Zbb+Zbs), S and U.
const misaValue = 2<<62 | 1<<('I'-'A') | 1<<('M'-'A') | 1<<('A'-'A') | 1<<('F'-'A') |
	1<<('D'-'A') | 1<<('C'-'A') | 1<<('B'-'A') | 1<<('S'-'A') | 1<<('U'-'A')

// Interrupt-enable/pending bits that exist on this hart (software, timer,
// external; S- and M-level), the ones M-mode may delegate to S-mode, and
// the synchronous exceptions it may delegate (not an ecall from M-mode,
// nor the reserved causes 10 and 14).
const (
	mieWritable   = 1<<1 | 1<<3 | 1<<5 | 1<<7 | 1<<9 | 1<<11
	midelegMask   = 1<<1 | 1<<5 | 1<<9
	medelegMask   = 0xb3ff
	sipWritable   = 1 << 1 // SSIP; STIP and SEIP are M-mode's to set
	counterenMask = 7      // CY, TM, IR
)

// machineCSRs is the M- and S-mode state. An interrupt is pending when
// software sets its bit in mip or sip, or a device (the bare-metal
// machine's CLINT, SetDevicePending) sets MSIP or MTIP; it is taken when
// a CSR write or an mret or sret enables it, or between runs when the
// machine asks (takeInterrupt, TakeInterrupt). PMP writes are accepted
// and not enforced; satp holds only Bare.
type machineCSRs struct {
	mstatus, mie, mip, medeleg, mideleg uint64
	m, s                                trapCSRs // M-mode's (0x3xx) and S-mode's (0x1xx)
	pmpcfg                              [16]uint64
	pmpaddr                             [64]uint64
}

// trapCSRs are the trap registers M-mode and S-mode each have: xtvec,
// xcounteren, xscratch, xepc, xcause and xtval, at the same low bytes of
// their CSR numbers (0x05, 0x06, 0x40-0x43).
type trapCSRs struct {
	tvec, counteren, scratch, epc, cause, tval uint64
}

// reg is the register at the low byte low of a trap CSR's number, if it is one.
func (t *trapCSRs) reg(low uint16) *uint64 {
	switch low {
	case 0x05:
		return &t.tvec
	case 0x06:
		return &t.counteren
	case 0x40:
		return &t.scratch
	case 0x41:
		return &t.epc
	case 0x42:
		return &t.cause
	case 0x43:
		return &t.tval
	}
	return nil
}

// write writes v to the register at low (reg), as WARL lets it hold.
func (t *trapCSRs) write(low uint16, v uint64) {
	switch low {
	case 0x05:
		v &^= 2 // modes 0 (direct) and 1 (vectored)
	case 0x06:
		v &= counterenMask
	case 0x41:
		v &^= 1
	}
	*t.reg(low) = v
}

// trapSet is the set of trap registers num names (M-mode's or S-mode's),
// if it names one.
func (s *machineCSRs) trapSet(num uint16) *trapCSRs {
	var t *trapCSRs
	switch num >> 8 {
	case 0x3:
		t = &s.m
	case 0x1:
		t = &s.s
	}
	if t == nil || t.reg(num&0xff) == nil {
		return nil
	}
	return t
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

// counterEnabled says whether the running mode may read counter bit:
// S-mode when mcounteren allows it, U-mode when scounteren does too.
func (c *CPU) counterEnabled(bit uint) bool {
	s := &c.csr
	return c.Priv == PrivM || !c.BareMetal ||
		s.m.counteren>>bit&1 != 0 && (c.Priv == PrivS || s.s.counteren>>bit&1 != 0)
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
	if t := s.trapSet(num); t != nil {
		return *t.reg(num & 0xff), true
	}
	switch num {
	case csrSatp:
		return 0, true // Bare: no translation (and TVM is 0)
	case csrMstatus:
		return c.mstatusRead(), true
	case csrSstatus:
		return c.mstatusRead() & sstatusMask, true
	case csrSie:
		return s.mie & s.mideleg, true
	case csrSip:
		return s.mip & s.mideleg, true
	case csrMisa:
		return misaValue, true
	case csrMedeleg:
		return s.medeleg, true
	case csrMideleg:
		return s.mideleg, true
	case csrMie:
		return s.mie, true
	case csrMip:
		return s.mip, true
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
	if t := s.trapSet(num); t != nil {
		t.write(num&0xff, v)
		return true
	}
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
	case csrSatp:
		// WARL: only Bare (mode 0) is supported, so a write of another
		// mode leaves satp as it is (Bare).
	case csrMisa, csrTselect, csrTdata1, csrTdata2, csrTdata3:
		// WARL: misa is fixed, and there is no trigger to select or program.
	case csrMedeleg:
		s.medeleg = v & medelegMask
	case csrMideleg:
		s.mideleg = v & midelegMask
	case csrMstatus:
		c.mstatusWrite(v, mstatusWritable)
	case csrSstatus:
		c.mstatusWrite(v, sstatusWritable)
	case csrMie:
		s.mie = v & mieWritable
	case csrSie:
		s.mie = s.mie&^s.mideleg | v&s.mideleg
	case csrMip:
		s.mip = v & mieWritable &^ (1<<7 | 1<<11) // MTIP/MEIP are read-only
	case csrSip:
		m := s.mideleg & sipWritable
		s.mip = s.mip&^m | v&m
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

// mstatusRead is mstatus as read. FP instructions do not track FS, so any
// state other than Off reads as Dirty (with SD): the conservative answer
// the spec allows, where Initial or Clean after an FP write would not be.
func (c *CPU) mstatusRead() uint64 {
	v := c.csr.mstatus
	if v&mstatusFS != 0 {
		v |= mstatusFS | mstatusSD
	}
	return v
}

// mstatusWrite writes the fields of mstatus in mask (mstatus's own, or
// sstatus's view) from v.
func (c *CPU) mstatusWrite(v, mask uint64) {
	s := &c.csr
	if mask&mstatusMPP != 0 && v&mstatusMPP == 2<<11 {
		v = v&^mstatusMPP | s.mstatus&mstatusMPP // WARL: MPP 2 is reserved
	}
	s.mstatus = mstatusUXL | s.mstatus&mstatusWritable&^mask | v&mask
	c.setFPOff(s.mstatus&mstatusFS == 0)
}

// trap takes an exception in bare-metal mode: the privileged spec's
// "synchronous exception" sequence, into S-mode when the exception comes
// from S- or U-mode and medeleg delegates it, else into M-mode.
func (c *CPU) trap(cause, tval uint64) {
	c.enterTrap(cause, tval, c.Priv <= PrivS && c.csr.medeleg>>cause&1 != 0)
}

// trapMode is where a mode that takes traps keeps its trap state:
// its trap registers, and in mstatus its xIE bit (xPIE is four bits up)
// and its xPP field.
type trapMode struct {
	priv   Priv
	ie, pp uint
	ppMask uint64
}

var (
	modeM = trapMode{PrivM, 3, 11, mstatusMPP}
	modeS = trapMode{PrivS, 1, 8, mstatusSPP}
)

func (s *machineCSRs) regsOf(m trapMode) *trapCSRs {
	if m.priv == PrivS {
		return &s.s
	}
	return &s.m
}

// enterTrap enters the trap handler of S-mode (toS) or M-mode with cause
// and tval; the interrupted instruction is at c.PC. An interrupt goes to
// its vector in vectored mode; an exception always to the base.
func (c *CPU) enterTrap(cause, tval uint64, toS bool) {
	s, m := &c.csr, modeM
	if toS {
		m = modeS
	}
	t := s.regsOf(m)
	t.epc, t.cause, t.tval = c.PC, cause, tval
	ie := s.mstatus >> m.ie & 1
	s.mstatus &^= 1<<m.ie | 1<<(m.ie+4) | m.ppMask
	s.mstatus |= ie<<(m.ie+4) | uint64(c.Priv)<<m.pp // xPIE = xIE, xIE = 0, xPP = the mode trapped from
	c.setPriv(m.priv)
	c.PC = t.tvec &^ 3
	if t.tvec&1 != 0 && cause>>63 != 0 {
		c.PC += 4 * (cause & 63)
	}
	c.resValid = false
}

// xret returns from mode m's trap handler (mret, sret): xIE = xPIE,
// xPIE = 1, the privilege from xPP and xPP = U; MPRV clears when the new
// mode is not M.
func (c *CPU) xret(m trapMode) {
	s := &c.csr
	prev := Priv(s.mstatus & m.ppMask >> m.pp)
	pie := s.mstatus >> (m.ie + 4) & 1
	s.mstatus &^= 1<<m.ie | m.ppMask
	s.mstatus |= pie<<m.ie | 1<<(m.ie+4)
	if prev != PrivM {
		s.mstatus &^= mstatusMPRV
	}
	c.setPriv(prev)
	c.PC = s.regsOf(m).epc
}

// interruptOrder is the privileged spec's priority of the interrupts:
// MEI, MSI, MTI, SEI, SSI, STI.
var interruptOrder = [...]uint64{11, 3, 7, 9, 1, 5}

// takeInterrupt takes the highest-priority interrupt that is pending,
// enabled and not masked at the current privilege, if there is one, as
// the instruction at next is about to run, and reports whether it did
// (c.PC is then the handler's). An interrupt mideleg delegates is
// S-mode's: taken in U-mode, or in S-mode with SIE set, never in M-mode;
// the others M-mode's: taken below M-mode, or in M-mode with MIE set.
// Only the bare-metal hart has interrupts.
func (c *CPU) takeInterrupt(next uint64) bool {
	code, toS, ok := c.readyInterrupt()
	if ok {
		c.PC = next
		c.enterTrap(1<<63|code, 0, toS)
	}
	return ok
}

// readyInterrupt picks the pending, enabled interrupt the hart would
// take now, in the priority order, and whether it goes to S-mode.
func (c *CPU) readyInterrupt() (code uint64, toS, ok bool) {
	s := &c.csr
	pend := s.mip & s.mie
	if pend == 0 || !c.BareMetal {
		return 0, false, false
	}
	mOn := c.Priv < PrivM || s.mstatus&mstatusMIE != 0
	sOn := c.Priv < PrivS || c.Priv == PrivS && s.mstatus&mstatusSIE != 0
	for _, code := range interruptOrder {
		if pend>>code&1 == 0 {
			continue
		}
		toS := s.mideleg>>code&1 != 0
		if toS && sOn || !toS && mOn {
			return uint64(code), toS, true
		}
	}
	return 0, false, false
}

// InterruptReady reports whether TakeInterrupt would take an interrupt
// now (a lock-step driver asks before it lets the core run on).
func (c *CPU) InterruptReady() bool {
	_, _, ok := c.readyInterrupt()
	return ok
}

// DevicePending reports whether the device-driven bits of mip in mask
// are set.
func (c *CPU) DevicePending(mask uint64) bool { return c.csr.mip&mask == mask }

// Interrupt-pending bits of mip that devices drive (the CLINT).
const (
	MIPMSIP = 1 << 3 // machine software interrupt: the CLINT's msip
	MIPMTIP = 1 << 7 // machine timer interrupt: mtime >= mtimecmp
)

// SetDevicePending sets (on) or clears the pending bits of mip in mask
// (MIPMSIP, MIPMTIP) as a device drives them; MTIP is read-only to
// software, so only a device sets it.
func (c *CPU) SetDevicePending(mask uint64, on bool) {
	if on {
		c.csr.mip |= mask
	} else {
		c.csr.mip &^= mask
	}
}

// TakeInterrupt takes a pending, enabled interrupt between runs, as the
// instruction at PC is about to run (the bare-metal hart only), and
// reports whether it did: PC is then the handler's.
func (c *CPU) TakeInterrupt() bool { return c.takeInterrupt(c.PC) }

// setPriv changes the privilege level. Nothing in the predecode cache
// depends on it: mret, wfi and CSR accesses check the level when they run.
func (c *CPU) setPriv(p Priv) { c.Priv = p }

// MachineCSR returns a bare-metal CSR's value for tests and tools.
func (c *CPU) MachineCSR(num uint16) (uint64, bool) { return c.readCSR(num, c.Instret) }
