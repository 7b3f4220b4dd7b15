package cpu

import "github.com/rvsim/rvsim/isa"

// The core's side of DISE (Dynamic Instruction Stream Editing) and its HPS
// extension (hps-phase-aware-remote-profiling.md §3.1–3.3): the editor sits
// in decode; an instruction it matches is replaced by an instantiated
// sequence that executes in its place, with the original's PC. The engine
// itself (pattern, conditional and replacement tables, counters, the ACF
// language) lives in package dise; the core only asks it, and executes
// what it returns, so functional and timing modes run the same expansion.

// Editor is the decode-stage instruction-stream editor.
type Editor interface {
	// Watches reports whether a production could ever match the
	// instruction at pc (its static part: opcode, class, registers, pc).
	// Only watched instructions reach Edit, so the rest of the program
	// runs at full speed. It is asked once per predecode.
	Watches(in *isa.Inst, pc uint64) bool
	// Edit runs decode for one dynamic instance of a watched instruction:
	// conditional micro-ops, then the match. It returns the replacement to
	// execute instead, or nil to let the instruction pass unchanged (and
	// unpenalised).
	Edit(in *isa.Inst, pc uint64) *Expansion
}

// Expansion is an instantiated replacement sequence.
type Expansion struct {
	Seq []SeqOp
}

// SeqKind says what one element of a replacement sequence is.
type SeqKind uint8

// Sequence element kinds.
const (
	SeqInst     SeqKind = iota // an instantiated instruction (may use $d registers)
	SeqOriginal                // the matched instruction itself (T.INSN)
	SeqBranch                  // Inst is a conditional branch within the sequence: taken goes to element Target
	SeqCall                    // enter a handler routine (Call), which returns with dise.ret
)

// SeqOp is one element of a replacement sequence.
type SeqOp struct {
	Kind   SeqKind
	Inst   isa.Inst // SeqInst, SeqBranch
	Target int      // SeqBranch: the element a taken branch continues at
	Call   *HandlerCall
}

// HandlerCall enters real handler code, like a call gate: the core stores
// the arguments (in the handler's mailbox), switches sp to the handler's
// own stack (if Stack is not 0) and jumps to Entry; the handler's dise.ret
// restores the application's sp and resumes the sequence. Every other
// register is the handler's to preserve. Handler instructions are ordinary
// instructions (timed like any other) but are never themselves edited.
type HandlerCall struct {
	Entry uint64
	Stack uint64
	Args  []HandlerArg
}

// ArgSource says where a handler argument's value comes from.
type ArgSource uint8

// Argument sources.
const (
	ArgConst        ArgSource = iota // Value
	ArgReg                           // integer register Value (DISE registers included)
	ArgFReg                          // floating-point register Value, its 64 bits as held (NaN-boxed for single precision)
	ArgOrigTarget                    // where the original instruction will go if it transfers control (T.TARGET)
	ArgOrigFallthru                  // the original's pc + length
	ArgAppInstret                    // application instructions retired before this point (T.ICOUNT; see AppInstret)
)

// HandlerArg is one 64-bit store into the mailbox before the call.
type HandlerArg struct {
	Addr   uint64
	Source ArgSource
	Value  uint64
}

// DISEStats counts the editor's work, for --stats.
type DISEStats struct {
	Replacements         uint64 // dynamic instructions replaced by a sequence
	InjectedInstructions uint64 // sequence instructions executed, the originals excluded
	HandlerInstructions  uint64 // instructions retired inside handler routines
	HandlerCalls         uint64
	CallInstructions     uint64 // the argument stores and jumps that SeqCall elements stand for
}

// seqFrame is the state of a sequence in progress.
type seqFrame struct {
	ops     []decoded // the sequence, in interpreter form
	src     []SeqOp
	orig    isa.Inst // the matched instruction
	appSP   uint64   // the application's sp while a handler call runs
	idx     int
	pc      uint64 // the original instruction's pc: every element runs there
	next    uint64 // where the original goes (pc+len unless it transferred control)
	origLen uint8
	first   bool // the next element is the first: it carries the decode penalty
	// The element seqAdvance last moved past, and whether it was a taken
	// in-sequence branch.
	last      int
	lastTaken bool
}

// SetEditor attaches a DISE engine (nil detaches it).
func (c *CPU) SetEditor(e Editor) {
	c.editor = e
	c.FlushCode()
}

// AuthorizeHPS grants (or withdraws) application code the trigger
// instructions hps.on and hps.off. Without the grant they are illegal in
// application code (hps-phase-aware-remote-profiling.md §4: "Only
// authorized agents … may execute this instruction"): the core raises an
// illegal-instruction exception at their pc, before the editor sees them.
// Handler code and an external trigger's injected instructions are always
// authorised.
func (c *CPU) AuthorizeHPS(ok bool) { c.hpsAuth = ok }

// hpsDenied reports whether the trigger instruction op, executed now, is
// unauthorised: application code without the grant (not handler code, and
// not a sequence element: an external trigger's injected hps.on runs as
// its sequence's T.INSN).
func (c *CPU) hpsDenied(op isa.Op) bool {
	return (op == isa.HPS_ON || op == isa.HPS_OFF) && !c.hpsAuth && !c.inHandler() && !c.fromSeq
}

// DISEStats returns the editor's counters.
func (c *CPU) DISEStats() DISEStats { return c.dise }

// opEdit marks a predecode slot whose instruction the editor watches.
const opEdit = opInvalid + 1

// edit runs decode's editor for the watched instruction at pc (Run's
// opEdit, kept out of Run). If the editor replaces it, the sequence is
// entered and edit returns nil: the block ends here. Otherwise it returns
// the instruction's plain form to execute, in the step buffer (traced if
// the tap wants its record). Handler code is never edited.
func (c *CPU) edit(pc uint64) *decoded {
	bs := &c.blk
	in := bs.page.fullAt(pc)
	// An unauthorised trigger is illegal before the editor sees it: its
	// plain form goes to Run's HPS_ON case, which faults.
	denied := c.hpsDenied(in.Op)
	if !denied && !c.inHandler() {
		if xp := c.editor.Edit(in, pc); xp != nil {
			// The replaced instruction retires inside the sequence.
			c.enterSequence(xp, in, pc)
			bs.left += unretired(bs.page, pc, bs.cnt)
			if bs.counting && !bs.traced {
				c.countEnter(bs.page, pc, -1) // the sequence counts it
			}
			return nil
		}
	}
	if !denied && c.tap.mask.Has(in.Class) && !bs.traced {
		return c.tapSingle(pc) // the tap needs its record
	}
	d := c.stepOne(&decoded{})
	*d = toDecoded(in)
	d.Adv = advance(d.Len)
	bs.setBias(pc, d)
	// The bias is now the step buffer's, not the page's: a control
	// transfer here must not chain into the page (see Run's jumped), so
	// the page is marked stale for it (the next block start finds it again).
	bs.pageTag = ^uint64(0)
	return d
}

// seqLenMarker is the Imm of an in-sequence branch: a taken branch then
// "moves" pc by this odd amount, which no real branch can, and seqAdvance
// turns it into a jump to the target element.
const seqLenMarker = 1

// enterSequence starts executing an expansion for the instruction at pc.
func (c *CPU) enterSequence(x *Expansion, orig *isa.Inst, pc uint64) {
	f := &c.seq
	f.src = x.Seq
	f.ops = f.ops[:0]
	for i := range x.Seq {
		s := &x.Seq[i]
		var d decoded
		switch s.Kind {
		case SeqOriginal:
			d = toDecoded(orig)
		case SeqInst:
			d = toDecoded(&s.Inst)
			d.Len = 0 // stays at the original's pc
		case SeqBranch:
			d = toDecoded(&s.Inst)
			d.Len, d.Imm = 0, seqLenMarker
		case SeqCall:
			d = decoded{Op: uint8(opSeqCall)}
		}
		f.ops = append(f.ops, d)
	}
	f.orig = *orig
	f.idx, f.pc, f.next, f.origLen, f.first = 0, pc, pc+uint64(orig.Len), orig.Len, true
	c.attn.inSeq = true
	c.dise.Replacements++
}

// toDecoded is the interpreter form of an instruction (see decodeAt).
func toDecoded(in *isa.Inst) decoded {
	d := decoded{Op: uint8(in.Op), Rd: in.Rd, Rs1: in.Rs1, Rs2: in.Rs2, Rs3: in.Rs3, Len: in.Len, Rm: in.Rm, Imm: in.Imm,
		Adv: advance(in.Len)}
	if realOp(in.Op) && in.Info().Rd == isa.XReg && in.Rd == 0 {
		d.Rd = 32
	}
	return d
}

// seqAdvance moves past the sequence element just executed at pc, whose
// interpreter result was next; it returns the pc to continue at.
func (c *CPU) seqAdvance(pc, next uint64) uint64 {
	f := &c.seq
	s := &f.src[f.idx]
	f.last, f.lastTaken = f.idx, false
	f.idx++
	switch s.Kind {
	case SeqOriginal:
		f.next = next
	case SeqBranch:
		if next == pc+seqLenMarker {
			f.idx, f.lastTaken = s.Target, true
		}
		c.dise.InjectedInstructions++
	case SeqInst:
		c.dise.InjectedInstructions++
	}
	if f.idx >= len(f.ops) {
		c.attn.inSeq = false
		return f.next
	}
	return pc
}

// seqCall performs a SeqCall element: store the arguments in the mailbox
// and enter the handler. It returns the handler's entry, or ok=false with
// the faulting mailbox address.
// retired is the instruction count once the call's own records retire.
func (c *CPU) seqCall(pc, retired uint64) (entry uint64, faultAddr uint64, ok bool) {
	f := &c.seq
	call := f.src[f.idx].Call
	orig := f.ops // the original's interpreter form is found by kind
	var target uint64
	for i := range f.src {
		if f.src[i].Kind == SeqOriginal {
			target = c.controlTarget(&orig[i], pc)
		}
	}
	k := callRecords(call)
	app := retired - k - c.dise.InjectedInstructions - c.dise.CallInstructions - c.dise.HandlerInstructions
	for _, a := range call.Args {
		var v uint64
		switch a.Source {
		case ArgConst:
			v = a.Value
		case ArgReg:
			v = c.X[uint8(a.Value)]
		case ArgFReg:
			v = c.F[uint8(a.Value)]
		case ArgOrigTarget:
			v = target
		case ArgOrigFallthru:
			v = pc + uint64(f.origLen)
		case ArgAppInstret:
			v = app
		}
		if !c.Mem.Write64(a.Addr, v) {
			return 0, a.Addr, false
		}
	}
	f.idx++ // resume after the call
	f.appSP = c.X[2]
	if call.Stack != 0 {
		c.X[2] = call.Stack
	}
	c.saved = append(c.saved, *f)
	c.saved[len(c.saved)-1].ops = append([]decoded(nil), f.ops...)
	c.setTapValueNext() // (a handler's loads are not a value tap's)
	c.attn.inSeq = false
	c.dise.HandlerCalls++
	c.dise.CallInstructions += k
	c.handlerStart = append(c.handlerStart, retired)
	return call.Entry, 0, true
}

// controlTarget is where a control-transfer instruction at pc would go
// with the current registers (T.TARGET); for other instructions, pc+len.
func (c *CPU) controlTarget(d *decoded, pc uint64) uint64 {
	switch isa.Op(d.Op) {
	case isa.JAL, isa.BEQ, isa.BNE, isa.BLT, isa.BGE, isa.BLTU, isa.BGEU:
		return pc + uint64(d.Imm)
	case isa.JALR:
		return (c.X[d.Rs1] + uint64(d.Imm)) &^ 1
	}
	return pc + uint64(d.Len)
}

// diseReturn performs dise.ret: resume the suspended sequence.
func (c *CPU) diseReturn(retired uint64) (pc uint64, ok bool) {
	n := len(c.saved)
	if n == 0 {
		return 0, false
	}
	c.seq = c.saved[n-1]
	c.saved = c.saved[:n-1]
	c.setTapValueNext()
	c.X[2] = c.seq.appSP
	start := c.handlerStart[len(c.handlerStart)-1]
	c.handlerStart = c.handlerStart[:len(c.handlerStart)-1]
	c.dise.HandlerInstructions += retired + 1 - start // including dise.ret
	if c.seq.idx >= len(c.seq.ops) {
		return c.seq.next, true // the call was the last element
	}
	c.attn.inSeq = true
	return c.seq.pc, true
}

// inHandler reports whether a handler routine is running: its own
// instructions are never edited.
func (c *CPU) inHandler() bool { return len(c.saved) > 0 }

// handlerCall performs the SeqCall element at pc (Run's opSeqCall, kept
// out of Run): the argument stores and the jump retire together, then the
// handler runs from entry. Its status says whether the call happened
// (callDone, or callStop if a tap or observer asked to stop during its
// records), or not: the budget cannot hold its records (callLimit: it is
// resumed next time), or an argument store faulted at addr (callFault).
func (c *CPU) handlerCall(pc uint64) (entry, addr uint64, status uint8) {
	bs := &c.blk
	k := callRecords(c.seq.src[c.seq.idx].Call)
	if k > bs.left+bs.cnt {
		bs.left += bs.cnt
		return 0, 0, callLimit
	}
	entry, addr, ok := c.seqCall(pc, bs.end-bs.left-bs.cnt+k)
	if !ok {
		return 0, addr, callFault
	}
	c.retireCall(pc, entry, bs.end-bs.left-bs.cnt)
	bs.left -= k - bs.cnt
	if c.stopRequested { // (a call's records retire together)
		return entry, 0, callStop
	}
	return entry, 0, callDone
}

// handlerCall's outcomes.
const (
	callDone = iota
	callStop
	callLimit
	callFault
)

// opSeqCall is the interpreter op of a SeqCall element.
const opSeqCall = opEdit + 1

// opBlockEnd is the sentinel that ends a block (see codePage, stepOne).
const opBlockEnd = opSeqCall + 1

// abandonSequence drops a sequence in progress (a trap or a system call
// ended it).
func (c *CPU) abandonSequence() { c.attn.inSeq = false }

// currentInst is the full form of the instruction being executed at pc.
func (c *CPU) currentInst(p *codePage, pc uint64) *isa.Inst {
	if c.fromSeq {
		return c.seqInst(c.seq.idx)
	}
	return p.fullAt(pc)
}

// seqInst is the full form of sequence element i.
func (c *CPU) seqInst(i int) *isa.Inst {
	if c.seq.src[i].Kind == SeqOriginal {
		return &c.seq.orig
	}
	return &c.seq.src[i].Inst
}

// retireSeq records the sequence element seqAdvance just moved past; next
// is where the interpreter said it goes. The original (T.INSN) is recorded
// with its real outcome; injected elements keep the original's pc.
func (c *CPU) retireSeq(d *decoded, pc, next, seq uint64) {
	f := &c.seq
	in := c.seqInst(f.last)
	if c.CountMix {
		c.Mix[in.Class]++
	}
	if c.observer != nil || c.tap.mask.Has(in.Class) {
		var r DynInst
		c.fillRecord(&r, d, in, pc, next, seq)
		if kind := f.src[f.last].Kind; kind != SeqOriginal {
			r.Injected, r.NextPC, r.Taken = true, pc, f.lastTaken
		}
		r.Replaced = f.first
		if c.observer != nil {
			c.batch = append(c.batch, r)
			c.flushIfFull()
		}
		c.tapRecord(&r)
	}
	f.first = false
}

// callRecords is how many instructions a SeqCall element stands for: one
// store per argument and the jump.
func callRecords(call *HandlerCall) uint64 { return uint64(len(call.Args)) + 1 }

// retireCall records a SeqCall element as the instructions it stands for:
// one store per argument and a jump to the handler. It returns how many.
func (c *CPU) retireCall(pc, entry, seq uint64) uint64 {
	call := c.saved[len(c.saved)-1].src[c.saved[len(c.saved)-1].idx-1].Call
	n := uint64(0)
	for _, a := range call.Args {
		r := DynInst{
			Seq: seq + n, PC: pc, NextPC: pc, Addr: a.Addr, Size: 8, Injected: true, Tid: c.Tid,
			Inst: isa.Inst{Op: isa.SD, Class: isa.Store, Len: 4, Rs1: 0, Rs2: 0},
		}
		c.retireMade(&r)
		n++
	}
	r := DynInst{
		Seq: seq + n, PC: pc, NextPC: entry, Taken: true, Injected: true, Tid: c.Tid,
		Inst: isa.Inst{Op: isa.JAL, Class: isa.Jal, Len: 4},
	}
	c.retireMade(&r)
	return n + 1
}

// retireMade does retire's bookkeeping for an instruction that a record
// stands for (a handler call's stores and jump).
func (c *CPU) retireMade(r *DynInst) {
	if c.observer != nil {
		c.batch = append(c.batch, *r)
		c.flushIfFull()
	}
	c.tapRecord(r)
	if c.CountMix {
		c.Mix[r.Inst.Class]++
	}
}
