package cpu

import (
	"unsafe"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Private op codes, used only in the predecode cache. They take the
// numbers of the compressed ops, which a slot never holds (a 16-bit
// instruction is predecoded as its 32-bit equivalent, isa.Inst.Op), so
// that the isa ops and the private ones fit a byte with 255 left free.
const (
	opInvalid = isa.FirstCompressed + iota // undecodable or currently illegal: raises illegal instruction
)

// realOp reports whether op is an isa op, not a private one.
func realOp(op isa.Op) bool { return op < isa.FirstCompressed }

// decoded is one predecode cache entry: just what the interpreter loop
// reads, in 16 bytes, so that slots are found with a shift and four share
// a cache line. The full isa.Inst sits in a parallel array for the rarer
// readers (CSR ops, traps, tracing).
type decoded struct {
	Op            uint8 // an isa.Op, or one of the core's private ops below
	Rd            uint8 // an X destination (x0 becomes the sink, 32) or an F destination
	Rs1, Rs2, Rs3 uint8
	Len           uint8
	Rm            uint8
	Adv           uint8 // bytes to the next instruction's slot (see advance)
	Imm           int64
}

// advance is how far the slot pointer moves past an instruction of n
// bytes, kept in bytes so that the loop's step is one add: one 16-byte slot
// per halfword of code, and at least one slot (an undecodable slot has
// length 0).
func advance(n uint8) uint8 { return max(n/2, 1) * uint8(unsafe.Sizeof(decoded{})) }

// slotBytes is the size of a slot per byte of pc: one 16-byte entry per
// halfword.
const slotBytes = unsafe.Sizeof(decoded{}) / 2

// codePage holds the predecoded instructions of one page, one slot per
// halfword, and the length of the block starting at each slot (0 until
// built). A slot whose Op is isa.ILLEGAL has not been decoded yet. Two
// sentinel slots follow the page's own: an instruction that ends at (or
// straddles) the end of the page steps onto one and its block ends there.
type codePage struct {
	insts [mem.PageSize/2 + 2]decoded
	blen  [mem.PageSize / 2]uint16
	full  [mem.PageSize / 2]isa.Inst

	// mixIdx-1 indexes CPU.mixCounts when counting (mix.go); an index,
	// not a pointer, keeps the page pointer-free, so the garbage
	// collector never scans it.
	mixIdx uint32
	// jitIdx-1 indexes the translator's per-page state (jit_amd64.go), 0
	// if it has none; an index for the same reason as mixIdx.
	jitIdx uint32
}

// newCodePage returns an empty predecode page with its sentinels.
func newCodePage() *codePage {
	p := &codePage{}
	p.insts[mem.PageSize/2] = decoded{Op: uint8(opBlockEnd)}
	p.insts[mem.PageSize/2+1] = decoded{Op: uint8(opBlockEnd)}
	return p
}

// stepOne puts a copy of d, followed by sentinels, in the CPU's one-step
// buffer and returns it: executing from there runs exactly one
// instruction and then ends the block.
func (c *CPU) stepOne(d *decoded) *decoded {
	c.step[0] = *d
	c.step[0].Op = plainOp(d.Op) // (a superinstruction runs its first instruction alone)
	c.step[0].Adv = advance(d.Len)
	// (The sentinels c.step[1] and [2] are set once, by New: nothing
	// writes them.)
	return &c.step[0]
}

// unretired is how many instructions of the current block (cnt long) have
// not retired when the one at pc is executing, that one included. Blocks
// are straight-line and every suffix of a block is the block that starts
// there, so that is what blen records for pc; a one-instruction block
// (perhaps in the step buffer) and one that never started (cnt 0) need no
// lookup.
func unretired(p *codePage, pc, cnt uint64) uint64 {
	if cnt <= 1 {
		return cnt
	}
	return uint64(p.blen[(pc&mem.PageMask)>>1])
}

// slot is the predecode entry for pc: entries are 16 bytes, one per
// halfword, so the byte offset is (pc & 0xffe) * 8 — computed without the
// bounds check and index arithmetic the compiler would emit for
// &p.insts[(pc&PageMask)>>1].
func (p *codePage) slot(pc uint64) *decoded {
	return (*decoded)(unsafe.Add(unsafe.Pointer(&p.insts), uintptr(pc&(mem.PageMask&^1))*slotBytes))
}

// fullAt is the full form of the instruction at pc in this page.
func (p *codePage) fullAt(pc uint64) *isa.Inst { return &p.full[(pc&mem.PageMask)>>1] }

// codePageFor returns the predecode page for pc, or nil if pc is not
// executable. Pages are watched so that stores to them drop the cache.
func (c *CPU) codePageFor(pc uint64) *codePage {
	if p := c.cachedCodePage(pc); p != nil {
		return p
	}
	pn := pc >> mem.PageBits
	e := &c.codeCache[pn&(codeCacheSize-1)]
	if p := c.code[pn]; p != nil {
		e.pn, e.page = pn, p
		return p
	}
	if c.Mem.PageFor(pc, mem.Fetch) == nil {
		return nil
	}
	p := newCodePage()
	c.code[pn] = p
	e.pn, e.page = pn, p
	c.Mem.Watch(pc, mem.WatchCode)
	return p
}

// cachedCodePage is codePageFor's inlinable fast path: the page if the
// code cache holds it, else nil.
func (c *CPU) cachedCodePage(pc uint64) *codePage {
	pn := pc >> mem.PageBits
	if e := &c.codeCache[pn&(codeCacheSize-1)]; e.pn == pn {
		return e.page
	}
	return nil
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
	d := toDecoded(&in)
	if realOp(in.Op) {
		if c.editor != nil && c.editor.Watches(&in, pc) {
			d.Op = uint8(opEdit) // (which records itself for the tap)
		} else if c.tap.mask.Has(in.Class) {
			switch d.Op = tapOp(in.Class); d.Op {
			case uint8(opTapLoad):
				d.Rs2, d.Rs3 = in.Info().MemSize, loadKind(in.Op)
				d.Op = c.tapLoadOp(d.Rs3)
			case uint8(opTapCtl):
				d.Rs3 = controlKind(in.Op)
				if c.tap.csink != nil {
					d.Op, d.Rm = uint8(opTapControl), controlInfo(in.Class, in.Len)
				}
			case uint8(opTapStore):
				d.Rd, d.Rs3 = in.Info().MemSize, storeKind(in.Op)
			}
		}
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
	for pn, p := range c.code {
		c.Mem.Unwatch(pn<<mem.PageBits, mem.WatchCode)
		c.dropCode(p)
	}
	clear(c.code)
	c.codeCache = [codeCacheSize]codeCacheEntry{}
	c.attn.codeChanged = true
}

// codeCacheSize entries of a direct-mapped cache in front of the code
// map: calls and returns move between pages every few instructions.
const codeCacheSize = 64

type codeCacheEntry struct {
	pn   uint64
	page *codePage
}

// onWatchedWrite drops predecoded code a store (or remap) has changed and
// forwards mailbox writes to the host hook.
func (c *CPU) onWatchedWrite(addr uint64, size int) {
	first, last := addr>>mem.PageBits, (addr+uint64(max(size, 1))-1)>>mem.PageBits
	for pn := first; pn <= last; pn++ {
		if p, ok := c.code[pn]; ok {
			c.dropCode(p)
			delete(c.code, pn)
			c.codeCache[pn&(codeCacheSize-1)] = codeCacheEntry{}
			c.Mem.Unwatch(pn<<mem.PageBits, mem.WatchCode)
			c.attn.codeChanged = true
		}
		// A 32-bit instruction in the last slot of the previous page has
		// its upper half here. Drop that whole page rather than clearing
		// the slot in place: the slot may be the store executing now (its
		// length is still needed), and blocks built earlier in the page
		// may run through it.
		if prev := c.code[pn-1]; prev != nil && prev.insts[mem.PageSize/2-1].Len == 4 {
			c.dropCode(prev)
			delete(c.code, pn-1)
			c.codeCache[(pn-1)&(codeCacheSize-1)] = codeCacheEntry{}
			c.Mem.Unwatch((pn-1)<<mem.PageBits, mem.WatchCode)
			c.attn.codeChanged = true
		}
	}
	if c.HostWrite != nil && c.HostWrite(addr, size) {
		c.hostStop = true
	}
}

// buildBlock predecodes the block that starts at pc in page p and returns
// its length. A block ends after an instruction endsBlock names (or at a
// conditional branch, if it is taken), or before
// an instruction on the next page or one that cannot be fetched (its next
// slot is then a sentinel or an undecoded slot, ILLEGAL, which ends a block
// the same way). ok is false if the first instruction cannot be fetched.
func (c *CPU) buildBlock(p *codePage, pc uint64) (n uint64, cause, tval uint64, ok bool) {
	for a := pc; ; {
		d := p.slot(a)
		if d.Op == uint8(isa.ILLEGAL) {
			if cause, tval, ok := c.decodeAt(p, a); !ok {
				if n == 0 {
					return 0, cause, tval, false
				}
				break
			}
		}
		n++
		if endsBlock(d, p.fullAt(a)) {
			break
		}
		if a += uint64(d.Len); a&^mem.PageMask != pc&^mem.PageMask {
			break
		}
	}
	// Every slot of the block gets its distance to the block's end: a
	// block starting there has that length, and a taken branch there
	// knows how much of its block did not run.
	// Adjacent pairs of the block that have a superinstruction get it.
	for a, i := pc, n; i > 0; i-- {
		p.blen[(a&mem.PageMask)>>1] = uint16(i)
		d := p.slot(a)
		a += uint64(d.Len)
		if i > 1 {
			fuse(d, p.slot(a))
		}
	}
	return n, 0, 0, true
}

// endsBlock says whether an instruction must be the last of its block:
// control transfers, and whatever can change how the following
// instructions are fetched or decoded (CSR writes, fence.i, traps,
// returns from traps, DISE).
func endsBlock(d *decoded, in *isa.Inst) bool {
	if d.Op == uint8(opInvalid) || d.Op == uint8(opEdit) {
		return true
	}
	// A tapped instruction ends its block as the plain one does (opTapSlow
	// ends it early itself when it runs).
	switch in.Class {
	case isa.Jal, isa.Jalr, isa.Call, isa.Return, isa.System, isa.Fence:
		return true // (a conditional branch only ends its block when taken)
	case isa.CSR:
		return csrEndsBlock(in)
	}
	return false
}

// csrEndsBlock says whether a CSR instruction ends its block. Reading a
// CSR, or writing fflags (glibc saves and restores it around quiet FP
// compares), changes nothing decoding depends on.
func csrEndsBlock(in *isa.Inst) bool { return csrWrites(in) && in.Csr != csrFflags }

// csrWrites reports whether a CSR instruction writes its CSR: csrrs/csrrc
// with x0 and csrrsi/csrrci with 0 only read.
func csrWrites(in *isa.Inst) bool {
	switch in.Op {
	case isa.CSRRS, isa.CSRRC:
		return in.Rs1 != 0
	case isa.CSRRSI, isa.CSRRCI:
		return in.Imm != 0
	}
	return true
}

// Superinstructions: the first of two adjacent instructions of a block
// that run together often gets a private op that executes both, saving
// the second's dispatch (the jump back, the table jump and the slot
// advance: about 7 host instructions of the 10–20 the pair costs). The
// pairs are the commonest in the suite's dynamic instruction stream
// (prologues and epilogues store and load registers in runs; address and
// loop-counter arithmetic is addi after addi or add). The second slot
// keeps its own op, so a block may still start there; the fused case reads
// only its operands. Ertl and Gregg, "Optimizing indirect branch prediction
// accuracy in virtual machine interpreters" (PLDI 2003), §3, and Casey et
// al., "Towards superinstructions for Java interpreters" (2003), describe
// the technique.
const (
	opLdLd     = opTapSlow + 1 + iota // ld; ld
	opSdSd                            // sd; sd
	opAddiAddi                        // addi; addi
	opAddiAdd                         // addi; add
	opFusedEnd
)

// Every op must fit decoded.Op and leave 255 free (see Run's switch).
const _ = uint8(254 - (opFusedEnd - 1))

// fusions lists each superinstruction's pair.
var fusions = [opFusedEnd - opLdLd]struct{ first, second isa.Op }{
	opLdLd - opLdLd:     {isa.LD, isa.LD},
	opSdSd - opLdLd:     {isa.SD, isa.SD},
	opAddiAddi - opLdLd: {isa.ADDI, isa.ADDI},
	opAddiAdd - opLdLd:  {isa.ADDI, isa.ADD},
}

// noFuse turns superinstructions off (tests compare the two).
var noFuse = false

// plainOp is the op a slot runs as on its own: a superinstruction's
// first instruction, or op itself.
func plainOp(op uint8) uint8 {
	if op >= uint8(opLdLd) && op < uint8(opFusedEnd) {
		return uint8(fusions[op-uint8(opLdLd)].first)
	}
	return op
}

// fuse gives the slot d, whose next slot in the same block is nx, the
// superinstruction of the pair if there is one. Both must be plain (not
// tapped, not watched by DISE): a fused slot counts as its first op.
func fuse(d, nx *decoded) {
	if noFuse {
		return
	}
	first, second := isa.Op(plainOp(d.Op)), isa.Op(plainOp(nx.Op))
	for i, f := range fusions {
		if f.first == first && f.second == second {
			d.Op = uint8(opLdLd) + uint8(i)
			return
		}
	}
}
