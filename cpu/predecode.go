package cpu

import (
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Private op codes beyond the isa table, used only in the predecode cache.
const (
	opInvalid = isa.NumOps + iota // undecodable or currently illegal: raises illegal instruction
)

// decoded is one predecode cache entry: just what the interpreter loop
// reads, in 16 bytes, so that slots are found with a shift and four share
// a cache line. The full isa.Inst sits in a parallel array for the rarer
// readers (CSR ops, traps, tracing).
type decoded struct {
	Op            isa.Op
	Rd            uint8 // an X destination (x0 becomes the sink, 32) or an F destination
	Rs1, Rs2, Rs3 uint8
	Len           uint8
	Rm            uint8
	Imm           int64
}

// codePage holds the predecoded instructions of one page, one slot per
// halfword. A slot whose Op is isa.ILLEGAL has not been decoded yet.
type codePage struct {
	insts [mem.PageSize / 2]decoded
	full  [mem.PageSize / 2]isa.Inst
}

// codePageFor returns the predecode page for pc, or nil if pc is not
// executable. Pages are watched so that stores to them drop the cache.
func (c *CPU) codePageFor(pc uint64) *codePage {
	pn := pc >> mem.PageBits
	if p := c.code[pn]; p != nil {
		return p
	}
	if c.Mem.PageFor(pc, mem.Fetch) == nil {
		return nil
	}
	p := &codePage{}
	c.code[pn] = p
	c.Mem.Watch(pc, mem.WatchCode)
	return p
}

// decodeAt fills the slot for pc. It returns false with the fault's cause
// and tval if the instruction cannot be fetched.
func (c *CPU) decodeAt(p *codePage, pc uint64) (cause, tval uint64, ok bool) {
	lo, ok := c.Mem.Fetch16(pc)
	if !ok {
		return CauseFetchAccess, pc, false
	}
	raw := uint32(lo)
	if lo&3 == 3 {
		hi, ok := c.Mem.Fetch16(pc + 2)
		if !ok {
			return CauseFetchAccess, pc + 2, false
		}
		raw |= uint32(hi) << 16
		if (pc+2)>>mem.PageBits != pc>>mem.PageBits {
			c.codePageFor(pc + 2) // watch the page holding the upper half
		}
	}
	slot := (pc & mem.PageMask) >> 1
	in, err := isa.Decode(raw)
	if err != nil || !c.legal(&in) {
		in = isa.Inst{Op: opInvalid, Raw: raw, Len: 4}
		if raw&3 != 3 {
			in.Len = 2
		}
	}
	p.full[slot] = in
	d := decoded{Op: in.Op, Rd: in.Rd, Rs1: in.Rs1, Rs2: in.Rs2, Rs3: in.Rs3, Len: in.Len, Rm: in.Rm, Imm: in.Imm}
	if in.Op < isa.NumOps && in.Info().Rd == isa.XReg && in.Rd == 0 {
		d.Rd = 32
	}
	if in.Op < isa.NumOps && c.editor != nil && c.editor.Watches(&in, pc) {
		d.Op = opEdit
	}
	p.insts[slot] = d
	return 0, 0, true
}

// legal applies the checks that depend on hart state rather than on the
// encoding alone; the cache is flushed whenever that state changes.
func (c *CPU) legal(in *isa.Inst) bool {
	info := in.Info()
	usesFP := info.Rd == isa.FReg || info.Rs1 == isa.FReg || info.Rs2 == isa.FReg || info.Rs3 == isa.FReg
	if usesFP && c.fpOff {
		return false
	}
	if info.RM && in.Rm == 7 && c.frm > 4 {
		return false // dynamic rounding with an invalid frm
	}
	switch in.Op {
	case isa.HPS_ON, isa.HPS_OFF, isa.DISE_RET:
		return c.editor != nil // they exist only with an HPS engine attached
	}
	return true
}

// FlushCode drops the whole predecode cache (fence.i, or a change of the
// state legal depends on).
func (c *CPU) FlushCode() {
	for pn := range c.code {
		c.Mem.Unwatch(pn<<mem.PageBits, mem.WatchCode)
	}
	clear(c.code)
}

// onWatchedWrite drops predecoded code a store (or remap) has changed and
// forwards mailbox writes to the host hook.
func (c *CPU) onWatchedWrite(addr uint64, size int) {
	first, last := addr>>mem.PageBits, (addr+uint64(max(size, 1))-1)>>mem.PageBits
	for pn := first; pn <= last; pn++ {
		if _, ok := c.code[pn]; ok {
			delete(c.code, pn)
			c.Mem.Unwatch(pn<<mem.PageBits, mem.WatchCode)
			c.codeChanged = true
		}
		// A 32-bit instruction in the last slot of the previous page has
		// its upper half here.
		if prev := c.code[pn-1]; prev != nil {
			prev.insts[len(prev.insts)-1] = decoded{} // empty: decoded again on use
		}
	}
	if c.HostWrite != nil && c.HostWrite(addr, size) {
		c.hostStop = true
	}
}
