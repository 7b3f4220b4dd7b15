package cpu

import (
	"unsafe"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// The retire tap: the records of the retired instructions of chosen
// classes, for the retire-stage profiling hardware, without tracing the
// rest. An observer gives every instruction its own record, from a traced
// copy of each block (traced.go; about 8x slower, and with a tap set
// every traced block runs one instruction at a time, since a sink may
// stop the core after any record); the tap marks the chosen instructions
// in predecode instead, so the blocks around them run as fast as ever and
// only they pay for a record:
//
//   - opTapLoad (loads), opTapCtl (branches, jumps, calls, returns) and
//     opTapStore (stores): Run executes and records them inline, with the
//     slot's spare fields saying what kind of load, transfer or store it
//     is; a TLB miss, or a record that fills the buffer, goes through
//     tapLoad, tapControl or (stores) the traced step below.
//   - opTapValue and opTapControl: a load under a value tap, a control
//     transfer under a control tap (SetTapValues, SetTapControls), whose
//     records are 16 and 24 bytes (TapValue, TapControl) at a byte
//     offset Run tests against one limit; opTapValueLD, an ld under a
//     value tap, has a case of its own that falls through into
//     opTapValue's for anything but a TLB hit with room in the buffer.
//   - opTapSlow (every other class): the block ends before the instruction
//     and it runs as a traced single step (tapDefer), recorded by retire
//     as under an observer. This costs a block start and a record per
//     instruction; it is for the rarer classes.
//
// Records are kept in a buffer that goes to the sink with one interface
// call when it holds as many records as the sink last asked for, right
// after the instruction that filled it, so a sink can stop the core at an
// exact instruction (RequestStop inside Tapped).
//
// (Running other tapped instructions from a copy followed by a recording
// slot, inside the block, was no faster than the traced step and cost the
// untapped path 8-15% on real programs: Run's register allocation and code
// layout changed for the worse. Measured; see docs/ARCHITECTURE.md.)

// ClassMask is a set of instruction classes: bit i is isa.Class(i).
type ClassMask uint32

// AllClasses has every instruction class.
const AllClasses ClassMask = 1<<isa.NumClasses - 1

// Masks for the classes the profiling hardware watches most.
var (
	LoadClasses   = ClassesOf(isa.Load)
	BranchClasses = ClassesOf(isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return) // every control transfer
)

// ClassesOf returns the mask of the given classes.
func ClassesOf(classes ...isa.Class) ClassMask {
	var m ClassMask
	for _, k := range classes {
		m |= 1 << k
	}
	return m & AllClasses
}

// Has reports whether class k is in the mask.
func (m ClassMask) Has(k isa.Class) bool { return m>>k&1 != 0 }

// TapSink receives the records of tapped instructions.
type TapSink interface {
	// Tapped gets the next records, in program order, in a slice the core
	// reuses once Tapped returns. It returns the most records it may be
	// given before it must see them again (0 or less: the default batch,
	// tapBatch): the core delivers as soon as it holds that many, right
	// after the instruction that made it so, before the next one executes.
	// A sink that calls RequestStop here makes Run return StopRequest
	// right after that instruction (c.PC the next one, Instret exact).
	// SetTap calls Tapped with no records to learn the first limit.
	Tapped(recs []DynInst) (next int)
}

// TapValue is a value tap's record (SetTapValues): a retired load of the
// application (not of a DISE sequence or handler) and the value it
// wrote to its register, as DynInst.Result holds it.
type TapValue struct{ PC, Value uint64 }

// ValueSink is a TapSink that can take a value tap's records instead of
// full ones (SetTapValues); next is as Tapped's.
type ValueSink interface {
	TappedValues(vals []TapValue) (next int)
}

// TapControl is a control tap's record (SetTapControls): a retired
// control transfer of the application (not of a DISE sequence or
// handler), where it went, and its retirement number with its class and
// length (Seq, Class, Len). Whether it was taken is whether NextPC is not
// PC+Len, as DynInst.Taken says.
type TapControl struct{ PC, NextPC, SeqInfo uint64 }

// controlInfo is a TapControl's low byte: the class (5 bits) and whether
// the instruction is 4 bytes long (bit 5; else 2). The retirement number
// is above it (56 bits: years of simulation at the core's speed).
func controlInfo(k isa.Class, n uint8) uint8 { return uint8(k) | n&4<<3 }

// ControlOf is the control tap's record of r, a control transfer's full
// record.
func ControlOf(r *DynInst) TapControl {
	return TapControl{r.PC, r.NextPC, r.Seq<<8 | uint64(controlInfo(r.Inst.Class, r.Inst.Len))}
}

// Seq is the control transfer's retirement number.
func (r *TapControl) Seq() uint64 { return r.SeqInfo >> 8 }

// Class is the control transfer's class.
func (r *TapControl) Class() isa.Class { return isa.Class(r.SeqInfo & 31) }

// Len is the control transfer's length in bytes (2 or 4).
func (r *TapControl) Len() uint8 { return 2 + uint8(r.SeqInfo>>4&2) }

// ControlSink is a TapSink that can take a control tap's records instead
// of full ones (SetTapControls); next is as Tapped's.
type ControlSink interface {
	TappedControls(recs []TapControl) (next int)
}

// Tap batch sizes: the default, and (TapBatchMax) the most the core
// buffers whatever a sink asks for (delivering sooner is always allowed).
const (
	tapBatch    = 256
	TapBatchMax = 4096
)

// tapState is the tap's part of the CPU.
type tapState struct {
	mask ClassMask
	lean bool // SetTapLean
	sink TapSink
	// values: SetTapValues; vsink is the sink while a value tap is on
	// (records go to vals, not buf).
	values bool
	vsink  ValueSink
	vals   *[TapBatchMax]TapValue
	// controls: SetTapControls; csink is the sink while a control tap is
	// on (records go to ctls, at the offsets vo and vlim say as for a
	// value tap's: the two are never on together).
	controls bool
	csink    ControlSink
	ctls     *[TapBatchMax]TapControl
	buf      []DynInst // records; the first n are pending (not under a value or control tap)
	n        int
	next     int // deliver when n reaches next
	// A value tap's records are vals up to the byte offset vo, the next
	// one's slot (their count is vcount; n stays 0). Run records a load
	// there, and moves vo on, while vo is below vlim (setTapValueNext):
	// the offset of the last record before a delivery, or 0 while a
	// handler runs, so that its loads go to tapLoad, which leaves them
	// out. Run's path then needs one test and no count. (Offsets, not
	// pointers: a pointer's store costs a write barrier test.) A control
	// tap's records are ctls up to vo in the same way (ccount), and a
	// handler's transfers go to tapControl.
	vo, vlim uintptr
	// vend is the address of the record at vlim (in vals or ctls), for
	// translated code, which keeps the address of the next record rather
	// than its offset while it runs (jit_amd64.go; a uintptr, not a
	// pointer: the buffer is kept alive by vals or ctls and does not move).
	vend uintptr
}

// private ops of tapped instructions (see the top of this file).
const (
	opTapLoad    = opBlockEnd + 1 + iota // a load, executed and recorded in Run (or tapLoad)
	opTapCtl                             // a control transfer, executed and recorded in Run (or tapControl)
	opTapStore                           // a store, executed and recorded in Run (or as opTapSlow)
	opTapValue                           // a load under a value tap: opTapLoad's fields, Run's shortest path
	opTapControl                         // a control transfer under a control tap: opTapCtl's fields, Rm its controlInfo
	opTapValueLD                         // opTapValue of an ld (loadLD): a case of Run's switch of its own
	opTapSlow                            // run as a traced single step (tapDefer)
)

// Every op must fit decoded.Op and leave 255 free (see Run's switch).
const _ = uint8(254 - opTapSlow)

// SetTap attaches sink to receive the records of retired instructions
// whose class is in mask (mask 0 or a nil sink detaches). Records pending
// for the previous sink go to it first. Changing the mask drops the
// predecode cache. Call it between runs, not from inside Tapped.
func (c *CPU) SetTap(mask ClassMask, sink TapSink) {
	c.flushTap()
	mask &= AllClasses
	if sink == nil {
		mask = 0
	}
	if mask == 0 {
		sink = nil
	}
	wasValues, wasControls, oldMask := c.tap.vsink != nil, c.tap.csink != nil, c.tap.mask
	c.tap.mask, c.tap.sink = mask, sink
	c.tap.vsink, c.tap.csink = nil, nil
	if vs, ok := sink.(ValueSink); ok && c.tap.values && mask == LoadClasses {
		c.tap.vsink = vs
	}
	if cs, ok := sink.(ControlSink); ok && c.tap.controls && mask == BranchClasses {
		c.tap.csink = cs
	}
	// (A value tap predecodes its loads as opTapValue, a control tap its
	// transfers as opTapControl: turning one on or off changes the ops too.)
	changed := mask != oldMask || wasValues != (c.tap.vsink != nil) || wasControls != (c.tap.csink != nil)
	if c.tap.vsink != nil {
		c.setTapNext(c.tap.vsink.TappedValues(nil))
	} else if c.tap.csink != nil {
		c.setTapNext(c.tap.csink.TappedControls(nil))
	} else if sink != nil {
		c.setTapNext(sink.Tapped(c.tap.buf[:0]))
	}
	if changed {
		c.FlushCode()
	}
}

// SetTapLean makes the records of loads and stores lean: Seq is 0 and
// Inst holds only Class and Len (the rest zero). What a value, address
// or edge profiler reads (PC, NextPC, Addr, Size, Result, Injected,
// Handler) is all there; finding the retirement number and copying the
// 32-byte instruction were a third of a recorded load's cost (the
// block-length table and the full decode are cache lines the
// interpreter does not otherwise touch). Control transfers, and a store
// that runs as a traced step, keep full records.
func (c *CPU) SetTapLean(lean bool) { c.tap.lean = lean }

// leanRecord fills a lean record's Seq and Inst: the class of its tap op
// and its length. (Stored in place: building the instruction in a
// temporary and copying it cost more than the copy it saves, the small
// stores failing to forward to the wide load.)
func leanRecord(r *DynInst, d *decoded) {
	r.Seq = 0
	r.Inst = isa.Inst{}
	r.Inst.Class = isa.Load
	if d.Op == uint8(opTapStore) {
		r.Inst.Class = isa.Store
	}
	r.Inst.Len = d.Len
}

// fullRecord fills the retirement number and instruction of r, the
// record of the tapped load or store at pc in the current block (Run's
// opTapLoad path when the records are not lean).
func (c *CPU) fullRecord(r *DynInst, pc uint64) {
	bs := &c.blk
	r.Seq = bs.retSeq(pc)
	r.Inst = *bs.page.fullAt(pc)
}

// loadRecord fills the rest of r, the record of the tapped load or store
// at pc (n bytes long) that accessed size bytes at a and loaded v (Run's
// opTapLoad path; a helper: Run's size, see tapValueSize).
func (c *CPU) loadRecord(r *DynInst, pc, n, a uint64, size uint8, v uint64) {
	r.PC, r.NextPC = pc, pc+n
	r.Addr, r.Size, r.Taken, r.Result = a, size, false, v
	r.Injected, r.Replaced, r.Handler = false, false, len(c.saved) > 0
}

// retSeq is the retirement number of the instruction at pc in the
// current block, which Run is executing (its count at least 1: seqAt
// without the test for 0). Run's tap paths call it (a helper: Run's
// size, see tapValueSize).
func (bs *blockState) retSeq(pc uint64) uint64 {
	u := uint64(1) // (unretired)
	if bs.cnt > 1 {
		u = uint64(bs.page.blen[(pc&mem.PageMask)>>1])
	}
	return bs.end - bs.left - u
}

// SetTapValues asks for a value tap: when the tap's classes are the
// loads and its sink is a ValueSink, the core records of each load of
// the application only its PC and value (TapValue), 16 bytes instead of
// an 88-byte DynInst, and leaves out the loads of DISE sequences and
// handlers, as a value selector does (profhw/tuple). Call it before SetTap.
func (c *CPU) SetTapValues(on bool) { c.tap.values = on }

// SetTapControls asks for a control tap: when the tap's classes are the
// control transfers (BranchClasses) and its sink is a ControlSink, the
// core records of each control transfer of the application only its PC,
// NextPC, retirement number, class and length (TapControl), 24 bytes
// instead of an 88-byte DynInst with the instruction copied, and leaves
// out those of DISE sequences and handlers, as the path profiler does.
// Call it before SetTap.
func (c *CPU) SetTapControls(on bool) { c.tap.controls = on }

// TapMask returns the classes being tapped.
func (c *CPU) TapMask() ClassMask { return c.tap.mask }

// setTapNext sets the delivery point the sink asked for.
func (c *CPU) setTapNext(n int) {
	if n <= 0 {
		n = tapBatch
	}
	n = min(n, TapBatchMax)
	if c.tap.vsink != nil {
		if c.tap.vals == nil {
			c.tap.vals = new([TapBatchMax]TapValue)
		}
	} else if c.tap.csink != nil {
		if c.tap.ctls == nil {
			c.tap.ctls = new([TapBatchMax]TapControl)
		}
	} else if len(c.tap.buf) < n {
		c.tap.buf = make([]DynInst, max(n, min(2*len(c.tap.buf), TapBatchMax)))
	}
	c.tap.next = n
	c.setTapValueNext()
}

// setTapValueNext sets vlim (see tapState) from next and whether a
// handler runs, for a value or a control tap; the handler calls and
// returns call it too.
func (c *CPU) setTapValueNext() {
	size, base := unsafe.Sizeof(TapValue{}), uintptr(unsafe.Pointer(c.tap.vals))
	if c.tap.csink != nil {
		size, base = unsafe.Sizeof(TapControl{}), uintptr(unsafe.Pointer(c.tap.ctls))
	} else if c.tap.vsink == nil {
		c.tap.vlim, c.tap.vend = 0, 0
		return
	}
	last := c.tap.next - 1
	if len(c.saved) > 0 || last < 0 {
		last = 0
	}
	c.tap.vlim = uintptr(last) * size
	c.tap.vend = base + c.tap.vlim
}

// The records' sizes, for Run's offsets (constants: Run is near the
// size past which Go inlines only the smallest calls into it, and
// unsafe.Sizeof of a composite literal counts more toward it; see
// fullRecord).
const (
	tapValueSize   = unsafe.Sizeof(TapValue{})
	tapControlSize = unsafe.Sizeof(TapControl{})
)

// vcount is the number of pending value records.
func (t *tapState) vcount() int { return int(t.vo / unsafe.Sizeof(TapValue{})) }

// ccount is the number of pending control records.
func (t *tapState) ccount() int { return int(t.vo / unsafe.Sizeof(TapControl{})) }

// cslot is the control record at byte offset o, which is below vlim
// (Run's store: no bounds check or nil test).
func (t *tapState) cslot(o uintptr) *TapControl {
	return (*TapControl)(unsafe.Add(unsafe.Pointer(t.ctls), o))
}

// vslot is the value record at byte offset o, which is below vlim (Run's
// store: no bounds check or nil test).
func (t *tapState) vslot(o uintptr) *TapValue {
	return (*TapValue)(unsafe.Add(unsafe.Pointer(t.vals), o))
}

// deliverValues hands the first n value records to the sink.
func (c *CPU) deliverValues(n int) {
	vals := c.tap.vals[:n]
	c.tap.vo = 0
	c.setTapNext(c.tap.vsink.TappedValues(vals))
}

// deliverControls hands the first n control records to the sink.
func (c *CPU) deliverControls(n int) {
	recs := c.tap.ctls[:n]
	c.tap.vo = 0
	c.setTapNext(c.tap.csink.TappedControls(recs))
}

// flushTap delivers the pending records.
func (c *CPU) flushTap() {
	if c.tap.vsink != nil {
		if n := c.tap.vcount(); n > 0 {
			c.deliverValues(n)
		}
	} else if c.tap.csink != nil {
		if n := c.tap.ccount(); n > 0 {
			c.deliverControls(n)
		}
	} else if c.tap.n > 0 && c.tap.sink != nil {
		recs := c.tap.buf[:c.tap.n]
		c.tap.n = 0
		c.setTapNext(c.tap.sink.Tapped(recs))
	}
}

// tapSlot is where the next record goes; tapCommit keeps it.
func (c *CPU) tapSlot() *DynInst { return &c.tap.buf[c.tap.n] }

// seqAt is the retirement number of the instruction at pc in the
// current block.
func (bs *blockState) seqAt(pc uint64) uint64 {
	return bs.end - bs.left - unretired(bs.page, pc, bs.cnt)
}

// tapCommit keeps the record tapSlot gave, delivers the buffer if it
// holds what the sink asked for, and reports whether the sink asked Run
// to stop.
func (c *CPU) tapCommit() bool {
	if c.tap.n++; c.tap.n >= c.tap.next {
		c.flushTap()
		return c.stopRequested
	}
	return false
}

// tapLoadOp is the predecode op of a tapped load of kind k (loadKind):
// under a value tap opTapValue (Run's shortest path, which keeps its PC
// and value; Run's opTapLoad path makes full records only), or for an ld
// opTapValueLD (its own case in Run's switch: no op or kind test), else
// opTapLoad.
func (c *CPU) tapLoadOp(k uint8) uint8 {
	if c.tap.vsink == nil {
		return uint8(opTapLoad)
	}
	if k == loadLD && !noTapValueLD {
		return uint8(opTapValueLD)
	}
	return uint8(opTapValue)
}

// noTapValueLD predecodes a value tap's ld as opTapValue (tests compare
// the two).
var noTapValueLD = false

// tapOp is the predecode op of an instruction of a tapped class.
func tapOp(k isa.Class) uint8 {
	switch k {
	case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
		return uint8(opTapCtl)
	case isa.Load:
		return uint8(opTapLoad)
	case isa.Store:
		return uint8(opTapStore)
	}
	return uint8(opTapSlow)
}

// tapped reports whether predecode op is one of the tap's.
func tapped(op uint8) bool { return op >= uint8(opTapLoad) && op <= uint8(opTapSlow) }

// untap turns a step-buffer copy of the slot for pc back into the plain
// op: traced blocks record through retire, which feeds the tap.
func (c *CPU) untap(d *decoded, pc uint64) {
	if tapped(d.Op) {
		d.Op = uint8(c.blk.page.fullAt(pc).Op)
	}
}

// Loads tapped as opTapLoad keep their form in slot fields a load does
// not use, so Run needs no table lookups: Rs2 is the size in bytes, Rs3
// one of these kinds. The 8-byte loads come first (one test in Run), and
// the F destinations are the odd kinds below loadLWU.
const (
	loadLD = iota
	loadFLD
	loadLW
	loadFLW
	loadLWU
	loadLH
	loadLHU
	loadLB
	loadLBU
)

// loadToF reports whether a load of kind k writes an F register.
func loadToF(k uint8) bool { return k == loadFLD || k == loadFLW }

// loadKind is the opTapLoad kind of a load op.
func loadKind(op isa.Op) uint8 {
	switch op {
	case isa.LB:
		return loadLB
	case isa.LBU:
		return loadLBU
	case isa.LH:
		return loadLH
	case isa.LHU:
		return loadLHU
	case isa.LW:
		return loadLW
	case isa.LWU:
		return loadLWU
	case isa.FLW:
		return loadFLW
	case isa.FLD:
		return loadFLD
	}
	return loadLD
}

// Stores tapped as opTapStore keep their size in Rd and one of these
// kinds in Rs3, fields a store does not use.
const (
	storeSD = iota
	storeSW
	storeSH
	storeSB
	storeFSD
	storeFSW
)

// storeKind is the opTapStore kind of a store op.
func storeKind(op isa.Op) uint8 {
	switch op {
	case isa.SW:
		return storeSW
	case isa.SH:
		return storeSH
	case isa.SB:
		return storeSB
	case isa.FSD:
		return storeFSD
	case isa.FSW:
		return storeFSW
	}
	return storeSD
}

// extendLoad turns the size bytes a load read into the register value.
func extendLoad(kind uint8, v uint64) uint64 {
	switch kind {
	case loadLB:
		return uint64(int8(v))
	case loadLH:
		return uint64(int16(v))
	case loadLW:
		return uint64(int32(v))
	case loadFLW:
		return box32(uint32(v))
	}
	return v
}

// loadFrom reads a load of kind k at p (a TLB hit) and extends the value
// as the load writes it. The commonest kinds are tested first, in order
// (ld and fld, lw, lbu: on lisp's test input 78%, 13% and 9% of the loads);
// a switch would search the kinds' numbers instead.
func loadFrom(p unsafe.Pointer, k uint8) uint64 {
	if k <= loadFLD { // (most loads: one test)
		return *(*uint64)(p)
	}
	if k == loadLW {
		return uint64(int32(*(*uint32)(p)))
	}
	if k == loadLBU {
		return uint64(*(*uint8)(p))
	}
	switch k {
	case loadLB:
		return uint64(int8(*(*uint8)(p)))
	case loadLH:
		return uint64(int16(*(*uint16)(p)))
	case loadLHU:
		return uint64(*(*uint16)(p))
	case loadLWU:
		return uint64(*(*uint32)(p))
	}
	return box32(*(*uint32)(p)) // FLW
}

// storeTo writes the low size bytes of v at p (a TLB hit).
func storeTo(p unsafe.Pointer, size uint8, v uint64) {
	switch size {
	case 8:
		*(*uint64)(p) = v
	case 4:
		*(*uint32)(p) = uint32(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	default:
		*(*uint8)(p) = uint8(v)
	}
}

// tapLoad executes and records the tapped load d at pc (see loadKind). A
// load that faults returns its cause and address and is not recorded.
func (c *CPU) tapLoad(d *decoded, pc uint64) (stop bool, cause, tval uint64) {
	a := c.X[d.Rs1] + uint64(d.Imm)
	var v uint64
	if e := c.Mem.ReadEntry(a); e.Hits(a, uint64(d.Rs2)) {
		v = loadFrom(e.At(a), d.Rs3)
	} else {
		c.refreshDevice(a, int(d.Rs2), pc)
		w, ok := c.Mem.ReadSlow(a, int(d.Rs2))
		if !ok {
			return false, CauseLoadAccess, a
		}
		v = extendLoad(d.Rs3, w)
	}
	if loadToF(d.Rs3) {
		c.F[d.Rd] = v
	} else {
		c.X[d.Rd] = v
	}
	if c.tap.vsink != nil {
		if len(c.saved) > 0 { // a handler's load
			return false, noCause, 0
		}
		return c.tapValue(pc, v), noCause, 0
	}
	bs := &c.blk
	r := c.tapSlot()
	if c.tap.lean {
		leanRecord(r, d)
	} else {
		r.Seq = bs.seqAt(pc)
		r.Inst = *bs.page.fullAt(pc)
	}
	r.PC, r.NextPC = pc, pc+uint64(d.Len)
	r.Addr, r.Size, r.Taken, r.Result = a, d.Rs2, false, v
	r.Injected, r.Replaced, r.Handler = false, false, len(c.saved) > 0
	return c.tapCommit(), noCause, 0
}

// Control transfers tapped as opTapCtl keep their kind in Rs3, which
// none of them uses: a conditional branch's condition, or a jump.
const (
	ctlBEQ = iota
	ctlBNE
	ctlBLT
	ctlBGE
	ctlBLTU
	ctlBGEU
	ctlJAL
	ctlJALR
)

// controlKind is the opTapCtl kind of a control-transfer op.
func controlKind(op isa.Op) uint8 {
	switch op {
	case isa.BEQ:
		return ctlBEQ
	case isa.BNE:
		return ctlBNE
	case isa.BLT:
		return ctlBLT
	case isa.BGE:
		return ctlBGE
	case isa.BLTU:
		return ctlBLTU
	case isa.BGEU:
		return ctlBGEU
	case isa.JAL:
		return ctlJAL
	}
	return ctlJALR
}

// tapControl executes and records the tapped control transfer d at pc
// (see controlKind). next is where it goes; ends is true if that leaves
// the block (a jump, or a taken branch, for which the block's untaken
// rest is given back as Run's taken path does). stop reports whether the
// sink asked to stop.
func (c *CPU) tapControl(d *decoded, pc uint64) (next uint64, ends, stop bool) {
	bs := &c.blk
	x := &c.X
	link := pc + uint64(d.Len)
	var result uint64
	switch d.Rs3 {
	case ctlJAL:
		next, ends, result = pc+uint64(d.Imm), true, link
		x[d.Rd] = link
	case ctlJALR:
		next, ends, result = (x[d.Rs1]+uint64(d.Imm))&^1, true, link
		x[d.Rd] = link
	default:
		next = link
		if branchTaken(d.Rs3, x[d.Rs1], x[d.Rs2]) {
			next, ends = pc+uint64(d.Imm), true
		}
	}
	seq := bs.seqAt(pc)
	if ends && d.Rs3 < ctlJAL { // a taken branch leaves its block early
		if bs.counting {
			c.countLeave(bs.page, pc)
		}
		if !bs.single {
			bs.left += uint64(bs.page.blen[(pc&mem.PageMask)>>1]) - 1
		}
	}
	if c.tap.csink != nil {
		if len(c.saved) > 0 { // a handler's transfer
			return next, ends, false
		}
		return next, ends, c.tapControlRecord(TapControl{pc, next, seq<<8 | uint64(d.Rm)})
	}
	r := c.tapSlot()
	r.Seq = seq
	r.PC, r.NextPC = pc, next
	r.Inst = *bs.page.fullAt(pc)
	r.Addr, r.Size, r.Taken, r.Result = 0, 0, next != link, result
	r.Injected, r.Replaced, r.Handler = false, false, len(c.saved) > 0
	return next, ends, c.tapCommit()
}

// tapControlFull writes Run's full record of a tapped control transfer
// at pc (not under a control tap), which goes to next; link is pc+len.
// (A call to an inlined helper keeps Run under the big-function size.)
func (c *CPU) tapControlFull(pc, next, link, result, seq uint64) {
	r := &c.tap.buf[c.tap.n]
	r.Seq = seq
	r.PC, r.NextPC = pc, next
	r.Inst = *c.blk.page.fullAt(pc)
	r.Addr, r.Size, r.Taken, r.Result = 0, 0, next != link, result
	r.Injected, r.Replaced, r.Handler = false, false, len(c.saved) > 0
	c.tap.n++
}

// tapControlRecord keeps a control tap's record (of the application: the
// caller leaves out those of handlers and DISE sequences), as tapCommit
// does.
func (c *CPU) tapControlRecord(r TapControl) bool {
	n := c.tap.ccount()
	c.tap.ctls[n] = r
	if n+1 >= c.tap.next {
		c.deliverControls(n + 1)
		return c.stopRequested
	}
	c.tap.vo = uintptr(n+1) * unsafe.Sizeof(TapControl{})
	return false
}

// branchTaken evaluates a conditional branch of kind k (see controlKind).
func branchTaken(k uint8, a, b uint64) bool {
	switch k {
	case ctlBEQ:
		return a == b
	case ctlBNE:
		return a != b
	case ctlBLT:
		return int64(a) < int64(b)
	case ctlBGE:
		return int64(a) >= int64(b)
	case ctlBLTU:
		return a < b
	}
	return a >= b // BGEU
}

// tapDefer ends the block before the tapped instruction d, which the
// next block start then runs as a traced single step, recorded (and
// counted) by retire: the instruction and the rest of the block are
// given back. It returns d's pc, where the next block starts.
func (c *CPU) tapDefer(d *decoded) (pc uint64) {
	bs := &c.blk
	pc = bs.pcOf(d)
	bs.left += unretired(bs.page, pc, bs.cnt)
	if bs.counting && !bs.traced {
		c.countEnter(bs.page, pc, -1) // reached, not executed: retire counts it
	}
	c.attn.traceOne = true
	return pc
}

// tapSingle makes the instruction at pc the last of its block and runs it
// as a traced single step, recorded (and counted) by retire. It returns
// the step buffer to dispatch.
func (c *CPU) tapSingle(pc uint64) *decoded {
	bs := &c.blk
	in := bs.page.fullAt(pc)
	bs.left += unretired(bs.page, pc, bs.cnt) - 1
	if bs.counting && !bs.traced {
		c.countEnter(bs.page, pc, -1) // retire counts it
	}
	d := toDecoded(in)
	s := c.stepOne(&d)
	bs.cnt, bs.single, bs.traced, bs.bpc = 1, true, true, pc
	c.eaBase = c.X[s.Rs1]
	bs.setBias(pc, s)
	return s
}

// tapLeaveAfter ends the block early, after the instruction at pc (the
// sink asked to stop there): the rest of the block is given back.
func (c *CPU) tapLeaveAfter(pc uint64) {
	bs := &c.blk
	if bs.counting && !bs.traced {
		c.countLeave(bs.page, pc)
	}
	bs.left += unretired(bs.page, pc, bs.cnt) - 1
}

// tapRecord appends a copy of r, the record of a traced instruction, if
// its class is tapped (retire, retireSeq, retireCall).
func (c *CPU) tapRecord(r *DynInst) {
	if c.tap.mask.Has(r.Inst.Class) {
		if c.tap.vsink != nil {
			if !r.Injected && !r.Handler {
				c.tapValue(r.PC, r.Result)
			}
			return
		}
		if c.tap.csink != nil {
			if !r.Injected && !r.Handler {
				c.tapControlRecord(ControlOf(r))
			}
			return
		}
		*c.tapSlot() = *r
		c.tapCommit()
	}
}

// tapValue keeps a value tap's record of the application's load at pc
// (the caller leaves out those of handlers and DISE sequences), as
// tapCommit does.
func (c *CPU) tapValue(pc, v uint64) bool {
	n := c.tap.vcount()
	c.tap.vals[n] = TapValue{pc, v}
	if n+1 >= c.tap.next {
		c.deliverValues(n + 1)
		return c.stopRequested
	}
	c.tap.vo = uintptr(n+1) * unsafe.Sizeof(TapValue{})
	return false
}
