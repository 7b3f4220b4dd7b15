// Package cpu holds the RV64GC architectural state and the functional
// executor: a decode-once interpreter over a predecode cache, which emits
// the program-order dynamic instruction stream (DynInst) to an optional
// observer, and the records of chosen instruction classes to an optional
// retire tap (SetTap, tap.go) for the retire-stage profiling hardware.
//
// The core runs in one of two environments. In user mode (Linux programs)
// ecall, faults and ebreak stop Run and are handled by the caller (the
// syscall layer, or a fatal signal). In bare-metal mode the hart starts in
// M-mode and traps go to mtvec as on hardware.
package cpu

import (
	"fmt"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Priv is a privilege level.
type Priv uint8

// Privilege levels (S-mode only on the bare-metal hart, without address
// translation: satp holds only Bare).
const (
	PrivU Priv = 0
	PrivS Priv = 1
	PrivM Priv = 3
)

// Exception causes (mcause values, ISA manual privileged volume).
const (
	CauseFetchMisaligned = 0
	CauseFetchAccess     = 1
	CauseIllegalInst     = 2
	CauseBreakpoint      = 3
	CauseLoadMisaligned  = 4
	CauseLoadAccess      = 5
	CauseStoreMisaligned = 6
	CauseStoreAccess     = 7
	CauseEcallU          = 8
	CauseEcallS          = 9
	CauseEcallM          = 11
)

// Fault is a guest exception that ended a user-mode run.
type Fault struct {
	PC    uint64
	Cause uint64
	Tval  uint64 // faulting address, or the instruction bits
}

func (f *Fault) Error() string {
	switch f.Cause {
	case CauseIllegalInst:
		msg := fmt.Sprintf("illegal instruction 0x%08x at pc %#x", f.Tval, f.PC)
		if _, err := isa.Decode(uint32(f.Tval)); err != nil {
			if ext := isa.ExtensionOf(uint32(f.Tval)); ext != "" {
				msg += fmt.Sprintf(": an instruction of %s, which rvsim does not implement", ext)
			}
		}
		return msg
	case CauseBreakpoint:
		return fmt.Sprintf("breakpoint (ebreak) at pc %#x", f.PC)
	case CauseFetchAccess:
		return fmt.Sprintf("segmentation fault: instruction fetch from address %#x at pc %#x", f.Tval, f.PC)
	case CauseLoadAccess:
		return fmt.Sprintf("segmentation fault: load from address %#x at pc %#x", f.Tval, f.PC)
	case CauseStoreAccess:
		return fmt.Sprintf("segmentation fault: store to address %#x at pc %#x", f.Tval, f.PC)
	case CauseLoadMisaligned:
		return fmt.Sprintf("bus error: misaligned atomic load from address %#x at pc %#x", f.Tval, f.PC)
	case CauseStoreMisaligned:
		return fmt.Sprintf("bus error: misaligned atomic access to address %#x at pc %#x", f.Tval, f.PC)
	}
	return fmt.Sprintf("exception %d (tval %#x) at pc %#x", f.Cause, f.Tval, f.PC)
}

// Signal returns the Linux signal a user program receives for the fault.
func (f *Fault) Signal() (num int, name string) {
	switch f.Cause {
	case CauseIllegalInst:
		return 4, "Illegal instruction"
	case CauseBreakpoint:
		return 5, "Trace/breakpoint trap"
	case CauseLoadMisaligned, CauseStoreMisaligned, CauseFetchMisaligned:
		return 7, "Bus error"
	}
	return 11, "Segmentation fault"
}

// StopReason says why Run returned.
type StopReason uint8

// Stop reasons.
const (
	StopLimit   StopReason = iota // the instruction budget ran out
	StopEcall                     // user-mode ecall: the caller performs the system call
	StopFault                     // a user-mode fault (Exit.Fault)
	StopHost                      // a store hit a watched host mailbox (HTIF tohost)
	StopRequest                   // an observer or hook asked to stop
)

// Exit is the outcome of Run.
type Exit struct {
	Reason StopReason
	Fault  Fault // for StopFault
}

// DynInst is one retired instruction, in program order: the record the
// timing model and the profiling hardware consume.
type DynInst struct {
	Seq    uint64 // retirement number, from 0
	PC     uint64
	NextPC uint64 // the architectural successor
	Inst   isa.Inst
	Addr   uint64 // effective address of a load, store, LR/SC or AMO
	Size   uint8  // bytes accessed, 0 if none
	Taken  bool   // control left the fall-through path
	// Tid is the Linux thread id of the guest thread that retired it
	// (CPU.Tid; 0 for a bare-metal hart): threads share the hart, and
	// every observer sees their instructions in one stream.
	Tid    uint32
	Result uint64 // value written to rd (X or F register), 0 if none
	// DISE: Injected marks an instruction a replacement sequence added (it
	// keeps the replaced instruction's PC; an injected branch's Taken says
	// whether it jumped within the sequence, which the editor resolves, so
	// predictors ignore injected instructions). Replaced marks the first
	// instruction of a replacement: decode charges the replacement penalty.
	Injected bool
	Replaced bool
	Handler  bool // executed inside a DISE handler routine (not the application)
}

// Observer receives retired instructions in batches, so the interpreter
// makes no interface call per instruction. The slice is reused after
// Retire returns.
type Observer interface {
	Retire(batch []DynInst)
}

// batchSize bounds how far the observer lags the core.
const batchSize = 256

// CPU is one RV64GC hart.
type CPU struct {
	// X[0..31] are the integer registers; X[32] is the sink that results
	// for x0 are written to, so x0 stays zero without a check. The arrays
	// have 256 entries so that indexing with a uint8 register number needs
	// no bounds check in the interpreter loop.
	X  [256]uint64
	F  [256]uint64
	PC uint64

	Instret uint64 // retired instructions
	// Tid tags the records of the instructions the hart retires
	// (DynInst.Tid): the system-call layer's scheduler sets it when it
	// switches threads.
	Tid   uint32
	Traps uint64 // exceptions taken (bare-metal mode)
	// CycleFunc gives the cycle count after instret instructions; nil
	// means CPI 1 (functional mode). A timing model installs its own.
	CycleFunc func(instret uint64) uint64
	// Offsets written through mcycle/minstret (bare-metal code may set them).
	cycleAdj, instretAdj uint64

	fflags uint8
	frm    uint8

	Priv      Priv
	BareMetal bool // traps go to mtvec instead of ending Run
	csr       machineCSRs

	// LR/SC reservation.
	resValid bool
	resAddr  uint64
	resSize  uint8

	Mem *mem.Memory

	// CountMix makes Run count retired instructions by class (ClassMix).
	CountMix  bool
	Mix       [isa.NumClasses]uint64 // see ClassMix
	dropped   []*codePage            // dropped pages with mix counters to fold (mix.go)
	mixCounts []*slotCounts          // per-page mix counters (codePage.mixIdx)
	mixFree   []uint32               // mixCounts entries of dropped pages, for reuse

	code      map[uint64]*codePage // predecode cache, by page number
	codeCache [codeCacheSize]codeCacheEntry
	fpOff     bool // mstatus.FS == Off: FP instructions are illegal
	observer  Observer
	batch     []DynInst

	// TimeFunc gives the time CSR (ticks of the 10 MHz timebase) for the
	// given instruction count; nil means instret/100 (1 GHz, CPI 1).
	TimeFunc func(instret uint64) uint64
	// TimeOffset is added to the time CSR: what a bare-metal program's
	// write of the CLINT's mtime, which the CSR shadows, moved it by.
	TimeOffset uint64

	// HostWrite, if set, is told of stores to pages watched with
	// mem.WatchHost; returning true stops Run with StopHost.
	HostWrite func(addr uint64, size int) bool

	// DeviceRead, if set, is called before a load reads a page watched
	// with mem.WatchDevice, with the load's address and size and the
	// instructions retired before it: the device (the bare-metal CLINT's
	// mtime) refreshes the bytes the load then reads.
	DeviceRead func(addr uint64, size int, instret uint64)

	stopRequested bool

	// attn holds what sends a block start down Run's general path. The
	// flags share one word so that the common path tests them with a
	// single compare (see needsAttention).
	attn struct {
		_           [0]uint64
		inSeq       bool // executing seq (DISE)
		codeChanged bool // the predecode cache lost pages: refetch
		baseTraced  bool // an observer wants every instruction
		traceOne    bool // the next instruction runs traced (a tapped one: tap.go)
		jit         bool // block starts look for translations (jit.go)
		_           [3]bool
	}
	hostStop bool

	// DISE (see dise.go).
	editor       Editor
	hpsAuth      bool       // application code may execute hps.on/hps.off (AuthorizeHPS)
	fromSeq      bool       // the instruction Run is executing came from seq
	ea           uint64     // address of the last AMO, for records (tracedEA)
	eaBase       uint64     // base register of a traced instruction before it ran (tracedEA)
	step         [3]decoded // one instruction and two sentinels (stepOne)
	traced       tracedBuf  // a traced run with its recording slots (traced.go)
	tracedCache  *[tracedCacheSize]tracedCopy
	tracedGen    uint64 // bumped when predecoded code is dropped: tracedCache is stale
	blk          blockState
	seq          seqFrame   // the replacement sequence in progress
	saved        []seqFrame // sequences suspended by handler calls
	handlerStart []uint64   // instret at each handler entry
	dise         DISEStats

	tap tapState // the retire tap (tap.go)

	jit jitState // the translator (jit.go, jit_amd64.go)
}

// New returns a hart over memory m, in user mode with FP enabled.
func New(m *mem.Memory) *CPU {
	c := &CPU{Mem: m, code: make(map[uint64]*codePage)}
	c.step[1], c.step[2] = decoded{Op: uint8(opBlockEnd)}, decoded{Op: uint8(opBlockEnd)} // stepOne's sentinels
	c.csr.reset()
	m.OnWatchedWrite = c.onWatchedWrite
	return c
}

// SetObserver attaches o (nil detaches) to receive retired instructions.
func (c *CPU) SetObserver(o Observer) {
	c.Flush()
	c.observer = o
	if o != nil && c.batch == nil {
		c.batch = make([]DynInst, 0, batchSize)
		c.tracedCache = new([tracedCacheSize]tracedCopy)
	}
}

// Flush delivers buffered retired instructions to the observer and the
// tap's sink.
func (c *CPU) Flush() {
	if c.observer != nil && len(c.batch) > 0 {
		c.observer.Retire(c.batch)
		c.batch = c.batch[:0]
	}
	c.flushTap()
}

// RequestStop makes Run return StopRequest after the current instruction.
// A request Run cannot honour before it returns for another reason (an
// ecall, a fault, a host stop, the budget: the records delivered as it
// leaves) is kept: the next Run returns StopRequest at once.
func (c *CPU) RequestStop() { c.stopRequested = true }

// EnterBareMetal puts the hart in M-mode with traps handled by mtvec.
func (c *CPU) EnterBareMetal() {
	c.BareMetal = true
	c.Priv = PrivM
}

// FFlags returns the accrued FP exception flags.
func (c *CPU) FFlags() uint8 { return c.fflags }

// FRM returns the dynamic rounding mode.
func (c *CPU) FRM() uint8 { return c.frm }

// SetFCSR sets fflags and frm.
func (c *CPU) SetFCSR(fflags, frm uint8) { c.fflags, c.frm = fflags&0x1f, frm&7 }

// Reg returns integer register r.
func (c *CPU) Reg(r int) uint64 { return c.X[r] }

// SetReg writes integer register r (writes to x0 are dropped).
func (c *CPU) SetReg(r int, v uint64) {
	if r != 0 {
		c.X[r] = v
	}
}

// ClearReservation drops any LR reservation (the kernel does on a trap).
func (c *CPU) ClearReservation() { c.resValid = false }

// Cycle returns the value of the cycle CSR after instret instructions.
func (c *CPU) Cycle(instret uint64) uint64 {
	if c.CycleFunc != nil {
		return c.CycleFunc(instret) + c.cycleAdj
	}
	return instret + c.cycleAdj
}

// InstsPerTick is the instructions per tick of the time CSR without a
// TimeFunc: a 10 MHz timebase on a 1 GHz hart at CPI 1.
const InstsPerTick = 100

// Time returns the value of the time CSR.
func (c *CPU) Time(instret uint64) uint64 {
	if c.TimeFunc != nil {
		return c.TimeFunc(instret) + c.TimeOffset
	}
	return instret/InstsPerTick + c.TimeOffset
}
