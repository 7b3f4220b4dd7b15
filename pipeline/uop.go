package pipeline

import (
	"unsafe"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// Functional-unit kinds (indexes into the pool).
const (
	fuIntALU = iota
	fuIntMul
	fuIntDiv
	fuFPAdd
	fuFPMul
	fuFPDiv
	fuMem
	numFU
)

var fuNames = [numFU]string{"int_alu", "int_mul", "int_div", "fp_add", "fp_mul", "fp_div", "mem_port"}

// uop flags.
const (
	fLoad         uint32 = 1 << iota // reads memory (loads, AMOs, LR)
	fStore                           // writes memory at commit (stores, AMOs, successful SC)
	fSerial                          // CSR, fence, system: dispatches into an empty ROB, alone
	fCtrl                            // a control instruction (branch, jump, call, return)
	fMispred                         // the front end mispredicted it: fetch waits for it to resolve
	fIssued                          // has issued: doneAt is valid
	fAddrKnown                       // stores: the address is known (the LSQ can use it)
	fHooked                          // the retire hook has seen it
	fDMiss                           // a load that missed in the L1 D-cache
	fForwarded                       // a load served by store-to-load forwarding
	fTrapRedirect                    // the stream continues elsewhere after it (a trap): redirect at commit
	fDISECharged                     // decode charged the DISE penalty for it
	fTaken                           // control left the fall-through path (DynInst.Taken)
	fInjected                        // inserted by DISE (DynInst.Injected)
	fReplaced                        // the first instruction of a DISE replacement (DynInst.Replaced)
	fDISEBranch                      // a taken branch inside a replacement sequence: decode waits for it to resolve
	fHandlerEntry                    // the injected jump into a DISE handler: fetch waits for decode to redirect it
	fDISERet                         // dise.ret: a return predicted by the RAS
	fHook                            // of a class the retire hook watches: its record is kept, commit calls the hook
	fSwitch                          // the first instruction of another guest thread (DynInst.Tid changed): fetch drains as for a trap
	fDispatchRare                    // static: dispatch has more to do than the common case (a load, store or serializing instruction, a store data operand, a pseudo-register written)
	fIntDest                         // static: writes a register that takes an integer rename register
	fFPDest                          // static: writes a register that takes an FP rename register
	fRunBreak                        // fetch's straight-line run stops before it (markRuns): DISE's or another thread's, not at its predecessor's successor, or in another I-cache line
)

// uop is one in-flight instruction: what the stages need of the
// functional core's record (the record itself waits in Core.dyn for the
// retire hook) plus the timing model's state. Uops live in the window ring
// from Retire until commit and never move.
type uop struct {
	staged          // what intake writes from the record (pc, next, addr, flags, size, the static fields): first, so Async's slots copy in one move
	pos      uint64 // position in the stream (program order, from 0)
	readyAt  uint64 // front end: first cycle it may leave its queue; IQ: operands ready
	doneAt   uint64 // issued: result available (stores: address known); ^0 before (commit tests it alone)
	dataAt   uint64 // stores: data operand available (valid once pendData is 0)
	fwd      uint64 // loads: 1 + store-queue index of the youngest older overlapping store, 0: none
	sidx     uint64 // stores: store-queue index
	deps     int32  // head of the edge list of consumers of the result (-1: none)
	pending  uint8  // sources whose producer has not issued
	pendData uint8  // stores: the data source has not issued
	ev       Events // what the model charged to it, for the retire hook (events.go)
	wdone    uint64 // stores: the cycle the commit-time write completes (once ev has EvL1DAccess)
}

// staged is the part of a uop that intake derives from the functional
// core's record: the record's pc, successor, address, size and the flags
// and static fields of its encoding. With the model on its own goroutine
// (Async) the producer's thread builds these and hands them over; the
// model's intake is then one block copy per slot (retireStaged).
type staged struct {
	pc    uint64
	next  uint64 // the architectural successor (DynInst.NextPC)
	addr  uint64 // memory address (loads, stores, AMOs)
	flags uint32
	size  uint8 // bytes accessed
	// fdist (loads, with Async's producer looking them up: storeQueue.pre)
	// is how many stores back the youngest older store overlapping the
	// load's bytes is (1: the store just before it), 0: none in reach.
	// (It fills two of the struct's padding bytes: staged stays 48.)
	fdist uint16
	uopStatic
}

// uopStatic is the part of a uop that depends only on the instruction's
// encoding: classify copies it from the decode cache in one move.
type uopStatic struct {
	fu     uint8     // functional-unit kind
	dest   uint8     // unified register (see regNum); 0: none (x0 never)
	src    [4]uint8  // source registers (same encoding, pseudo-registers too), compacted: src[:nsrc], zeros after (rename reads them as one word)
	nsrc   uint8     //
	dsrc   uint8     // stores: the data operand (needed to commit and forward, not to issue); x0 is regZero
	pseudo uint8     // pseudo-registers written (bit k: regFFlags+k)
	len    uint8     // instruction length (2 or 4)
	class  isa.Class // refined class (calls and returns)
	op     isa.Op    // for dumps
}

// opStatic is what the timing model needs per operation, derived once from
// the isa op table.
type opStatic struct {
	fu    uint8
	flags uint32
	fp    uint8 // fpFlags: sets the FP exception flags; fpDynRM: may use frm; fpCSR: a CSR op
	rd    isa.RegKind
	rs    [3]isa.RegKind
}

// opStatic.fp bits.
const (
	fpFlags = 1 << iota
	fpDynRM
	fpCSR
)

// The unified register numbers: x1..x31 are 1..31, f0..f31 are 32..63,
// then two pseudo-registers, then the DISE-private registers $d0..$d7
// (hps-phase-aware-remote-profiling.md §3.1), which replacement code names
// as integer registers isa.DISEReg0.. and which are renamed like any
// architectural register: they are not x1..x8.
//
// The pseudo-registers carry the dependences of the FP control and status
// CSR: FP arithmetic writes the exception flags (regFFlags), an
// fflags/fcsr read depends on the youngest FP op before it, and an FP op
// with dynamic rounding reads frm (regFRM). These accesses are therefore
// ordered without serializing the pipeline. (Reading the flags after only
// the youngest older FP op is an approximation: it completes last in
// nearly every FP stream.)
const (
	regFFlags = 64
	regFRM    = 65
	regD0     = 66
	numRegs   = regD0 + isa.NumDISERegs

	// regZero is a store's data operand when it is x0 (dsrc 0 would be
	// none): rename writes lastWriter[0] for every instruction without a
	// destination, so that it needs no branch on whether there is one (the
	// host mispredicted it), and no source reads slot 0, while
	// lastWriter[regZero] is never written.
	regZero = 255
)

// isIntReg reports whether unified register r takes an integer physical
// register (the x and $d registers do).
func isIntReg(r uint8) bool { return r < 32 || r >= regD0 }

// CSR numbers handled without serialization.
const (
	csrFFlags  = 0x001
	csrFRM     = 0x002
	csrFCSR    = 0x003
	csrCycle   = 0xc00
	csrTime    = 0xc01
	csrInstret = 0xc02
)

// fpCSR adds the pseudo-register operands of FP ops and FP CSR accesses,
// and lifts serialization from the accesses that need none.
func (u *uopStatic) fpCSR(in *isa.Inst, s *opStatic, flags *uint32) {
	if s.fp&fpCSR == 0 {
		if s.fp&fpFlags != 0 {
			u.pseudo |= 1 << (regFFlags - regFFlags)
		}
		if s.fp&fpDynRM != 0 && in.Rm == 7 {
			u.addSrc(regFRM)
		}
		return
	}
	var reads, writes bool
	switch in.Op {
	case isa.CSRRW:
		reads, writes = in.Rd != 0, true
	case isa.CSRRWI:
		reads, writes = in.Rd != 0, true
	case isa.CSRRS, isa.CSRRC:
		reads, writes = true, in.Rs1 != 0
	default: // CSRRSI, CSRRCI
		reads, writes = true, in.Imm != 0
	}
	switch in.Csr {
	case csrCycle, csrTime, csrInstret:
		if !writes {
			*flags &^= fSerial // a counter read: the functional core supplied the value
		}
	case csrFFlags, csrFRM, csrFCSR:
		*flags &^= fSerial
		if reads {
			if in.Csr == csrFRM {
				u.addSrc(regFRM)
			} else {
				u.addSrc(regFFlags)
			}
		}
		if writes {
			if in.Csr != csrFRM {
				u.pseudo |= 1 << (regFFlags - regFFlags)
			}
			if in.Csr != csrFFlags {
				u.pseudo |= 1 << (regFRM - regFFlags)
			}
		}
	}
}

var opTable = func() (t [isa.NumOps]opStatic) {
	for op := isa.Op(0); op < isa.NumOps; op++ {
		info := op.Info()
		s := &t[op]
		s.rd = info.Rd
		s.rs = [3]isa.RegKind{info.Rs1, info.Rs2, info.Rs3}
		if info.RM {
			s.fp |= fpDynRM
		}
		switch info.Class {
		case isa.Mul:
			s.fu = fuIntMul
		case isa.Div:
			s.fu = fuIntDiv
		case isa.FPAdd, isa.FPConv:
			s.fu, s.fp = fuFPAdd, s.fp|fpFlags
		case isa.FPMul:
			s.fu, s.fp = fuFPMul, s.fp|fpFlags
		case isa.FPDiv:
			s.fu, s.fp = fuFPDiv, s.fp|fpFlags
		case isa.Load:
			s.fu, s.flags = fuMem, fLoad
		case isa.Store:
			s.fu, s.flags = fuMem, fStore
		case isa.AMO:
			s.fu, s.flags = fuMem, fLoad|fStore
			if op == isa.LR_W || op == isa.LR_D {
				s.flags = fLoad
			}
		case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
			s.flags = fCtrl
		case isa.CSR:
			s.flags, s.fp = fSerial, fpCSR
		case isa.Fence:
			s.flags = fSerial
		case isa.System:
			// hps.on/hps.off are DISE triggers with no effect of their own;
			// dise.ret returns from a handler into its replacement sequence,
			// whose state is on chip: a return the front end predicts.
			switch op {
			case isa.DISE_RET:
				s.flags = fCtrl | fDISERet
			case isa.HPS_ON, isa.HPS_OFF:
			default:
				s.flags = fSerial
			}
		}
	}
	return t
}()

// addSrc appends source register r (0: none).
func (u *uopStatic) addSrc(r uint8) {
	if r != 0 && u.nsrc < uint8(len(u.src)) {
		u.src[u.nsrc] = r
		u.nsrc++
	}
}

// regTab[kind][r&63] is the unified register number of an operand (0:
// none; x0 is never a dependency). Integer operands 33..40 are the DISE
// registers.
var regTab = func() (t [3][64]uint8) {
	for r := uint8(0); r < 64; r++ {
		t[isa.XReg][r] = regNum(isa.XReg, r)
		t[isa.FReg][r] = regNum(isa.FReg, r)
	}
	return t
}()

// regNum maps an operand to the unified register encoding (0: none).
func regNum(kind isa.RegKind, r uint8) uint8 {
	switch {
	case kind == isa.XReg && r >= isa.DISEReg0 && r < isa.DISEReg0+isa.NumDISERegs:
		return regD0 + r - isa.DISEReg0
	case kind == isa.XReg && r < 32:
		return r // x0 is 0: none
	case kind == isa.FReg && r < 32:
		return 32 + r
	}
	return 0
}

// decodeCache remembers the static part of the last instruction seen at
// each PC slot, keyed by its encoding (DynInst.Inst.Raw): an encoding
// decodes to one instruction, so a hit is exact wherever it came from.
// The instructions DISE injects (built, not decoded) and records without
// an encoding (Raw 0: tests' hand-made streams) bypass it.
type decodeCache [decodeSlots]decodeEntry

const decodeSlots = 2048 // a power of two

type decodeEntry struct {
	raw   uint32
	flags uint32 // the static flags (opStatic.flags as fpCSR leaves them)
	st    uopStatic
}

// classify fills u from the functional core's record d by the general
// path (intakeOne): the reference the fast path is tested against.
func (u *uop) classify(d *cpu.DynInst, dc *decodeCache) {
	dc.intakeOne(u, u.pos, d, d.Tid)
}

// intake classifies a run of the functional core's records into the
// window slots from position pos on (the ring win, index mask) and
// returns the thread of the last one; tid is the thread of the record
// before the run (a change marks a context switch, fSwitch, except at
// position 0). It is one call per run, not per record: Go keeps no
// registers across a call, so a call per record reloads every value the
// loop carries. The common records (a decode cache hit, nothing rare)
// go through intakeHits, whose loop has no call at all; intakeOne takes
// the others, one at a time.
func (dc *decodeCache) intake(win []uop, mask, pos uint64, batch []cpu.DynInst, tid uint32) uint32 {
	for len(batch) > 0 {
		// The slots up to the ring's end, or the batch's: one slice.
		i := pos & mask
		w := win[i:min(uint64(len(win)), i+uint64(len(batch)))]
		k := dc.intakeHits(w, pos, batch[:len(w)], tid)
		pos += uint64(k)
		batch = batch[k:]
		if k < len(w) {
			tid = dc.intakeOne(&win[pos&mask], pos, &batch[0], tid)
			pos++
			batch = batch[1:]
		}
	}
	return tid
}

// intakeHits is intakeOne's effect on a run of common records into the
// slots w (as many as records): each hits in the decode cache with a
// nonzero encoding, is neither injected nor replaced, is of thread tid,
// and is no failed SC; pos is the first one's position. It stops at the
// first record that is not common and returns how many it took. It makes
// no call, so its loop keeps its values in registers.
func (dc *decodeCache) intakeHits(w []uop, pos uint64, batch []cpu.DynInst, tid uint32) int {
	w = w[:len(batch)] // (no bounds check on w[i] below)
	for i := range batch {
		d := &batch[i]
		e := &dc[(d.PC>>1)&(decodeSlots-1)]
		// Injected and Replaced are adjacent bools: one load tests both.
		if e.raw != d.Inst.Raw || d.Inst.Raw == 0 || *(*uint16)(unsafe.Pointer(&d.Injected)) != 0 ||
			d.Tid != tid || e.flags&fStore != 0 && d.Result != 0 {
			return i
		}
		u := &w[i]
		// Taken is a bool, 0 or 1.
		flags := e.flags | uint32(*(*uint8)(unsafe.Pointer(&d.Taken)))*fTaken
		// As in intakeOne (field by field; readyAt, fwd and sidx left
		// as they are).
		u.pos, u.pc, u.next, u.addr = pos+uint64(i), d.PC, d.NextPC, d.Addr
		u.dataAt, u.doneAt = 0, ^uint64(0) // doneAt: not done until issued
		u.deps, u.flags = -1, flags
		u.pending, u.pendData, u.size, u.ev = 0, 0, d.Size, 0
		u.uopStatic = e.st
	}
	return len(batch)
}

// markRuns sets fRunBreak on the n slots from position pos on of ring win
// (index mask) that fetch's straight-line run must stop before: DISE's
// (injected, replaced, dise.ret), another thread's, or not the
// successor of the instruction before it in the stream (pc, next: the one
// before pos), or in another I-cache line than it (line: the line mask).
// A run starts at an instruction that passes the run's test and
// continues while each next one is in the same line as the one before it,
// so every instruction in it is in the first one's line: the test against
// the predecessor alone is fetch's test against the block's line. It
// returns the last slot's pc and next. Async's producer runs it while it
// stages the slots, so the model's fetch tests one flag.
func markRuns(win []uop, mask, pos uint64, n int, line, pc, next uint64) (uint64, uint64) {
	for i := range n {
		u := &win[(pos+uint64(i))&mask]
		u.markRun(line, pc, next)
		pc, next = u.pc, u.next
	}
	return pc, next
}

// markRun is markRuns' test for one slot u; pc and next are the
// instruction's before it.
func (u *uop) markRun(line, pc, next uint64) {
	if u.flags&(fInjected|fReplaced|fSwitch|fDISERet) != 0 || u.pc != next || (u.pc^pc)&line != 0 {
		u.flags |= fRunBreak
	}
}

// intakeHits reads DynInst.Injected and Replaced as one uint16: this
// fails to compile unless Replaced is the byte after Injected.
var _ = [1]struct{}{}[unsafe.Offsetof(cpu.DynInst{}.Replaced)-unsafe.Offsetof(cpu.DynInst{}.Injected)-1]

// intakeOne classifies one record d into slot u at position pos (the
// general path: cache misses, records without an encoding, DISE's, a
// thread switch, a failed SC) and returns d's thread; tid is the thread
// of the record before it.
func (dc *decodeCache) intakeOne(u *uop, pos uint64, d *cpu.DynInst, tid uint32) uint32 {
	in := &d.Inst
	e := &dc[(d.PC>>1)&(decodeSlots-1)]
	if e.raw != in.Raw || in.Raw == 0 || d.Injected {
		var ne decodeEntry
		ne.flags, ne.st = staticOf(in)
		if in.Raw != 0 && !d.Injected {
			ne.raw = in.Raw
			*e = ne
		} else {
			e = &ne
		}
	}
	flags := e.flags
	if d.Taken {
		flags |= fTaken
	}
	if d.Injected {
		flags |= fInjected
		if d.Taken {
			// DISE's own control transfers (the editor resolved them; the
			// timing model charges what the hardware would).
			switch in.Class {
			case isa.Branch:
				flags |= fDISEBranch
			case isa.Jal:
				flags |= fHandlerEntry
			}
		}
	}
	if d.Replaced {
		flags |= fReplaced
	}
	if flags&fStore != 0 && (in.Op == isa.SC_W || in.Op == isa.SC_D) && d.Result != 0 {
		flags &^= fStore // a failed SC writes nothing (a store's Result is 0 otherwise)
	}
	if d.Tid != tid { // a context switch (the first record sets the thread)
		if pos != 0 {
			flags |= fSwitch
		}
		tid = d.Tid
	}
	// Field by field: a composite literal is built on the stack and
	// copied, which stalls on store forwarding in this hot path. The
	// slot's readyAt (fetch), fwd and sidx (rename, for loads and
	// stores) are left as the slot's last instruction left them: each
	// is written before it is read. doneAt is ^0 until issue sets it, so
	// commit's "done by now" test needs no fIssued test.
	u.pos, u.pc, u.next, u.addr = pos, d.PC, d.NextPC, d.Addr
	u.dataAt, u.doneAt = 0, ^uint64(0) // doneAt: not done until issued
	u.deps, u.flags = -1, flags
	u.pending, u.pendData, u.size, u.ev = 0, 0, d.Size, 0
	u.uopStatic = e.st
	return tid
}

// staticOf derives the static flags and fields of instruction in.
func staticOf(in *isa.Inst) (flags uint32, st uopStatic) {
	s := &opTable[in.Op]
	flags = s.flags
	st.fu = s.fu
	st.dest = regTab[s.rd][in.Rd&63]
	st.addSrc(regTab[s.rs[0]][in.Rs1&63])
	if r := regTab[s.rs[1]][in.Rs2&63]; flags&(fStore|fLoad) == fStore {
		st.dsrc = r // a store's data
		if r == 0 {
			st.dsrc = regZero // x0 (see regZero)
		}
	} else {
		st.addSrc(r)
	}
	st.addSrc(regTab[s.rs[2]][in.Rs3&63])
	if s.fp != 0 {
		st.fpCSR(in, s, &flags)
	}
	st.len, st.class, st.op = in.Len, in.Class, in.Op
	if flags&(fLoad|fStore|fSerial) != 0 || st.dsrc|st.pseudo != 0 {
		// (A failed SC loses fStore at intake and keeps this: dispatch's
		// rare path handles an instruction with nothing rare too.)
		flags |= fDispatchRare
	}
	if st.dest != 0 {
		if isIntReg(st.dest) {
			flags |= fIntDest
		} else {
			flags |= fFPDest
		}
	}
	return flags, st
}
