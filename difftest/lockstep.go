package difftest

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/sim"
)

// Range is a span of guest memory.
type Range struct{ Addr, Len uint64 }

// Target is rvsim's side of a lock-step run: a core over its memory, and
// the code that services what stops the core.
type Target struct {
	CPU *cpu.CPU
	Mem *mem.Memory
	// Service handles a stop other than the one-instruction budget running
	// out: a system call (the core stopped after retiring ecall), a fault,
	// a host mailbox write. It returns true when the run is over, and the
	// guest memory it wrote (the syscall layer's LastWrites). Mapping
	// changes are found by comparing Mem.Regions before and after.
	Service func(exit cpu.Exit) (done bool, writes []Range)

	// Signal delivery (optional; see Run). TimerDue reports whether an
	// asynchronous signal (an interval timer) is due at the current
	// instruction boundary; Interrupt then delivers it and reports whether
	// the run is over and the memory it wrote. Redirects counts the times
	// Service or Interrupt replaced the core's registers beyond a system
	// call's a0 (a signal handler's entry, rt_sigreturn): after those,
	// every register is copied into the oracle, as the memory is.
	TimerDue  func() bool
	Interrupt func() (done bool, writes []Range)
	Redirects func() uint64
}

// Options tune a lock-step run.
type Options struct {
	// MaxInsts stops the run after this many instructions; 0: no limit.
	MaxInsts uint64
	// Oracle is the reference model, already opened; nil opens Unicorn
	// (and closes it at the end).
	Oracle Oracle
	// Corrupt, if set, is called after rvsim has executed each instruction
	// and before the states are compared, with the instruction's 0-based
	// number. Tests use it to inject a semantic bug.
	Corrupt func(seq uint64, c *cpu.CPU)
}

// Report is the outcome of a lock-step run.
type Report struct {
	Instructions uint64 // instructions executed in lock-step
	Seconds      float64
	Done         bool // the guest finished (Service said so)
	// Divergence is the first difference found; nil if none.
	Divergence *Divergence
	// CopiedCSRReads counts reads of cycle/time/instret whose value was
	// copied from rvsim into the oracle (they legitimately differ).
	CopiedCSRReads uint64
	// Unchecked counts instructions the oracle cannot check, by reason (see
	// docs/DIFFTEST.md); their results were copied from rvsim.
	Unchecked map[string]uint64
	// Syscalls counts system calls performed by rvsim and mirrored.
	Syscalls uint64
	// Result is the guest's outcome (set by Run).
	Result sim.Result
}

// Rate is the lock-step throughput in instructions per second.
func (r *Report) Rate() float64 {
	if r.Seconds == 0 {
		return 0
	}
	return float64(r.Instructions) / r.Seconds
}

// Reasons an instruction is not checked against the oracle.
const (
	GapBitmanip   = "Zba/Zbb/Zbc/Zbs/Zicond (not in the oracle)"
	GapMinMaxSNaN = "fmin/fmax with a signalling NaN operand (oracle has IEEE 754-2008 minNum)"
	GapUnboxed    = "single-precision op reading a register that is not NaN-boxed (oracle does not check boxes)"
	GapFMAInfZero = "fused multiply-add of inf×0 with a quiet-NaN addend (oracle does not raise invalid)"
	GapAMOMinMaxW = "amomin/amomax[u].w where the oracle's 64-bit comparison of the zero-extended old word picks another value than the ISA's 32-bit one"
	// GapBareMetal: on the bare-metal hart, CSR accesses, the system ops
	// (ecall, ebreak, mret, sret, wfi) and the CLINT's registers are
	// rvsim's alone; so are traps and interrupts, after which the oracle
	// takes rvsim's registers and pc.
	GapBareMetal = "bare metal: M-mode state (CSRs, system ops, the CLINT, traps) the oracle does not model"
)

// driver holds a run's state.
type driver struct {
	t      Target
	o      Oracle
	opts   Options
	rep    Report
	obs    lastRetired
	prev   State // both models' state before the pending instruction
	ring   history
	memBuf [8]byte
	oBuf   [8]byte
	// mustZero makes copyToOracle write zero pages too.
	mustZero bool

	// The instruction rvsim has executed and the oracle is about to (or
	// is told to skip), set by before.
	pend pending
	// Why before stopped the oracle.
	stop stopWhy
	err  error // an error met inside before
}

// pending is the instruction rvsim ran ahead of the oracle.
type pending struct {
	kind pendKind
	seq  uint64
	pc   uint64
	exit cpu.Exit
	di   cpu.DynInst // valid unless kind is pendFault
	gap  string      // pendSkip: why the oracle does not run it ("" for a counter read)
}

type pendKind uint8

const (
	pendNone  pendKind = iota
	pendInst           // an ordinary instruction: compare when the oracle has run it
	pendEcall          // a system call: the oracle must raise an environment call
	pendFault          // rvsim faulted: the oracle must not complete it either
	pendSkip           // the oracle cannot run it; results are copied from rvsim
)

type stopWhy uint8

const (
	stopNone    stopWhy = iota
	stopSkip            // pend is a pendSkip instruction
	stopService         // the last instruction needs Service (host mailbox, stop request)
	stopLimit           // MaxInsts reached
	stopSignal          // an asynchronous signal is due before the next instruction
	stopTrap            // bare metal: rvsim trapped (or took an interrupt) instead of retiring
	stopDiverge         // a divergence was recorded
	stopError           // d.err is set
)

// lastRetired is the observer that captures the instruction Run(1) retired.
type lastRetired struct {
	n    int
	last cpu.DynInst
}

func (l *lastRetired) Retire(b []cpu.DynInst) {
	l.n += len(b)
	l.last = b[len(b)-1]
}

// RunTarget runs t's core in lock-step with the oracle until the guest
// finishes, the instruction limit is reached, or the models diverge. A
// divergence is not an error: it is returned in Report.Divergence.
//
// The oracle leads: it runs freely (translating whole blocks) and calls
// back before each instruction. The callback compares the state the
// previous instruction left in both models, then has rvsim execute the
// instruction the oracle is about to. Instructions the oracle must not
// run, system calls and faults stop the oracle and are handled here.
func RunTarget(t Target, opts Options) (rep Report, err error) {
	if t.CPU == nil || t.Mem == nil || t.Service == nil {
		return Report{}, errors.New("difftest: target needs a CPU, a Mem and a Service")
	}
	o := opts.Oracle
	if o == nil {
		u, err := NewUnicorn()
		if err != nil {
			return Report{}, err
		}
		defer u.Close()
		o = u
	}
	d := &driver{t: t, o: o, opts: opts}
	d.rep.Unchecked = map[string]uint64{}
	t.CPU.SetObserver(&d.obs)
	defer t.CPU.SetObserver(nil)
	start := time.Now()
	defer func() { d.rep.Seconds = time.Since(start).Seconds(); rep = d.rep }()
	if err := d.mirror(); err != nil {
		return d.rep, err
	}
	for {
		done, err := d.run()
		d.rep.Done = done
		if err != nil || done || d.rep.Divergence != nil || d.stop == stopLimit {
			return d.rep, err
		}
	}
}

// run lets the oracle run from rvsim's pc until something needs handling
// outside the callback, and handles it. done reports the guest's end.
func (d *driver) run() (done bool, err error) {
	c := d.t.CPU
	d.stop, d.pend = stopNone, pending{}
	trap, oerr := d.o.Run(c.PC, d.before)
	p := &d.pend
	switch {
	case d.stop == stopError:
		return false, d.err
	case d.stop == stopDiverge, d.stop == stopLimit:
		return false, nil
	case d.stop == stopSkip:
		return false, d.skip()
	case d.stop == stopService:
		return d.service(p.exit)
	case d.stop == stopSignal:
		return d.redirected(d.t.Interrupt)
	case d.stop == stopTrap:
		return false, d.trapped()
	case p.kind == pendFault && (trap != nil || isOracleFault(oerr)):
		// Both refused the instruction: the guest gets its signal.
		return d.faultAgreed()
	case p.kind == pendFault && trap == nil && oerr == nil && isWFI(d.fetch(p.pc)):
		// Linux turns wfi in U-mode into SIGILL (rvsim's fault); the
		// oracle, a QEMU 5.0 hart, halts there instead, which stops it
		// without a trap. That is the same refusal.
		return d.faultAgreed()
	case isFetchFault(oerr) && (p.kind == pendInst || p.kind == pendNone):
		return d.fetchFault(oerr)
	case p.kind == pendEcall && trap != nil && trap.Cause == cpu.CauseEcallU:
		return d.syscall()
	case trap != nil:
		d.divergeAt(p, nil, fmt.Sprintf("the oracle raised exception %d (%s); %s", trap.Cause, causeName(trap.Cause), rvsimDid(p)))
		return false, nil
	case oerr != nil:
		var ue *UnicornError
		if !errors.As(oerr, &ue) {
			return false, oerr
		}
		d.divergeAt(p, nil, fmt.Sprintf("the oracle stopped with %q; %s", ue.Msg, rvsimDid(p)))
		return false, nil
	}
	return false, fmt.Errorf("difftest: the oracle stopped at pc %#x for no reason", c.PC)
}

// faultAgreed ends the instruction both models refused: rvsim delivers the
// signal. If the guest survives it (a handler runs), what the kernel
// changed is mirrored and the oracle restarts from rvsim's state.
func (d *driver) faultAgreed() (bool, error) {
	return d.redirected(func() (bool, []Range) { return d.t.Service(d.pend.exit) })
}

// trapped ends an instruction the bare-metal hart trapped on (or an
// interrupt it took) instead of retiring: the oracle, which does not
// model M-mode, takes rvsim's state.
func (d *driver) trapped() error {
	d.rep.Unchecked[GapBareMetal]++
	return d.resync()
}

// resync makes rvsim's registers the common state.
func (d *driver) resync() error {
	c := d.t.CPU
	var st State
	copy(st.X[1:], c.X[1:32])
	copy(st.F[:], c.F[:32])
	st.PC = c.PC
	st.FCSR = uint64(c.FRM())<<5 | uint64(c.FFlags())
	if err := d.o.WriteState(&st); err != nil {
		return err
	}
	d.prev = st
	return nil
}

// fetchFault handles an oracle that could not fetch the next instruction
// (a jump to unmapped or non-executable memory): the oracle completed the
// pending instruction, which is compared as usual, and rvsim must then
// fault fetching at the same pc, which is agreement.
func (d *driver) fetchFault(oerr error) (bool, error) {
	var st State
	if err := d.o.ReadState(&st); err != nil {
		return false, err
	}
	p := &d.pend
	if p.kind == pendInst && !d.finish(st.PC) {
		switch d.stop {
		case stopError:
			return false, d.err
		case stopService:
			if done, err := d.service(p.exit); done || err != nil {
				return done, err
			}
		default:
			return false, nil // a divergence
		}
	}
	d.stop = stopNone
	if d.opts.MaxInsts != 0 && d.rep.Instructions >= d.opts.MaxInsts {
		d.stop = stopLimit
		return false, nil
	}
	if !d.issue(st.PC) && d.rep.Divergence != nil || d.stop == stopError {
		return false, d.err
	}
	if d.stop == stopTrap { // bare metal: rvsim's fetch fault went to the program's handler
		return false, d.trapped()
	}
	if d.pend.kind == pendFault {
		return d.faultAgreed()
	}
	var ue *UnicornError
	errors.As(oerr, &ue)
	d.divergeAt(&d.pend, nil, fmt.Sprintf("the oracle stopped with %q; rvsim executed the instruction", ue.Msg))
	return false, nil
}

// isFetchFault reports the oracle failing to fetch an instruction.
func isFetchFault(err error) bool {
	var ue *UnicornError
	return errors.As(err, &ue) && (ue.Code == ucErrFetchUnmapped || ue.Code == ucErrFetchProt)
}

// isWFI reports the encoding of wfi.
func isWFI(raw uint32, n uint8) bool { return n == 4 && raw == 0x10500073 }

// isOracleFault reports an emulation error that is a guest fault (an
// access to unmapped or protected memory, an invalid instruction).
func isOracleFault(err error) bool {
	var ue *UnicornError
	return errors.As(err, &ue)
}

func rvsimDid(p *pending) string {
	if p.kind == pendFault {
		return fmt.Sprintf("rvsim raised %q", p.exit.Fault.Error())
	}
	return "rvsim executed the instruction"
}

// before is the oracle's per-instruction callback: the oracle has
// completed the previous instruction and is about to execute the one at
// pc. It returns false to stop the oracle before that instruction.
func (d *driver) before(pc uint64) bool {
	if d.pend.kind != pendNone {
		if !d.finish(pc) {
			return false
		}
	}
	if d.opts.MaxInsts != 0 && d.rep.Instructions >= d.opts.MaxInsts {
		d.stop = stopLimit
		return false
	}
	if d.t.TimerDue != nil && d.t.TimerDue() {
		d.stop = stopSignal
		return false
	}
	return d.issue(pc)
}

// finish compares the models after the pending instruction. The oracle
// is stopped at pc, the next instruction.
func (d *driver) finish(pc uint64) bool {
	p := &d.pend
	switch p.kind {
	case pendFault:
		d.divergeAt(p, nil, fmt.Sprintf("%s; the oracle executed the instruction", rvsimDid(p)))
		return false
	case pendEcall:
		d.divergeAt(p, nil, "rvsim stopped for a system call; the oracle did not raise an environment call")
		return false
	}
	var st State
	if err := d.o.ReadState(&st); err != nil {
		return d.fail(err)
	}
	c := d.t.CPU
	in := &p.di.Inst
	if singleResult(in.Op) {
		// The oracle (QEMU 5.0) does not NaN-box single-precision
		// results: compare the low 32 bits and require rvsim's box.
		r := c.F[in.Rd]
		if r>>32 != 0xffffffff {
			d.divergeAt(p, []RegDiff{{Name: fregName(in.Rd), Expected: 0xffffffff<<32 | st.F[in.Rd]&0xffffffff, Actual: r}},
				"single-precision result is not NaN-boxed (upper 32 bits must be all ones)")
			return false
		}
		if uint32(st.F[in.Rd]) == uint32(r) && st.F[in.Rd] != r {
			st.F[in.Rd] = r
			if err := d.o.SetF(int(in.Rd), r); err != nil {
				return d.fail(err)
			}
		}
	}
	if !d.check(&st) {
		return false
	}
	if p.exit.Reason != cpu.StopLimit {
		// A host mailbox write or a stop request: serve it first.
		d.stop = stopService
		return false
	}
	p.kind = pendNone
	return true
}

// check compares the oracle's state st and the stored bytes of the
// pending instruction with rvsim, and makes st the new common state.
func (d *driver) check(st *State) bool {
	p := &d.pend
	if diffs := compare(st, d.t.CPU); len(diffs) > 0 {
		d.divergeAt(p, diffs, "")
		return false
	}
	if p.di.Size != 0 && writesMemory(p.di.Inst.Op) {
		bad, err := d.compareStore(p.di.Addr, int(p.di.Size))
		if err != nil {
			return d.fail(err)
		}
		if bad != nil {
			d.divergeAt(p, bad, fmt.Sprintf("stored bytes at %#x differ", p.di.Addr))
			return false
		}
	}
	d.prev = *st
	return true
}

// issue has rvsim execute the instruction at pc ahead of the oracle.
func (d *driver) issue(pc uint64) bool {
	c := d.t.CPU
	if c.PC != pc {
		// Only possible right after a resync; compare reports it.
		d.pend = pending{kind: pendInst, seq: c.Instret, pc: c.PC}
		d.divergeAt(&d.pend, []RegDiff{{Name: "pc", Expected: pc, Actual: c.PC}}, "")
		return false
	}
	seq := c.Instret
	d.obs.n = 0
	exit := c.Run(1)
	if d.opts.Corrupt != nil {
		d.opts.Corrupt(seq, c)
	}
	d.pend = pending{kind: pendInst, seq: seq, pc: pc, exit: exit}
	p := &d.pend
	if exit.Reason == cpu.StopFault {
		if _, ok := d.t.Mem.Exhausted(); ok {
			// The guest memory limit, not the program: rvsim alone stops.
			d.stop = stopService
			return false
		}
		p.kind = pendFault
		raw, n := d.fetch(pc)
		d.ring.add(seq, pc, raw, n)
		return true // the oracle must fault too
	}
	if d.obs.n == 0 && c.BareMetal && c.PC != pc {
		// The hart trapped to its handler (the program's own): the
		// oracle does not model M-mode, so it takes rvsim's state.
		raw, n := d.fetch(pc)
		d.ring.add(seq, pc, raw, n)
		d.rep.Instructions++
		d.stop = stopTrap
		return false
	}
	if d.obs.n == 0 {
		d.err = fmt.Errorf("difftest: rvsim retired nothing at pc %#x (stop reason %d)", pc, exit.Reason)
		d.stop = stopError
		return false
	}
	p.di = d.obs.last
	in := &p.di.Inst
	d.ring.add(seq, pc, in.Raw, in.Len)
	d.rep.Instructions++
	if isCounterRead(in) {
		p.kind = pendSkip
		d.stop = stopSkip
		return false
	}
	if gap := d.gap(in); gap != "" {
		p.kind, p.gap = pendSkip, gap
		d.stop = stopSkip
		return false
	}
	if exit.Reason == cpu.StopEcall {
		p.kind = pendEcall
	}
	return true
}

// fetch reads the instruction at pc from rvsim's memory.
func (d *driver) fetch(pc uint64) (uint32, uint8) {
	var raw [4]byte
	_ = d.t.Mem.Peek(pc, raw[:2])
	_ = d.t.Mem.Peek(pc+2, raw[2:])
	w := uint32(raw[0]) | uint32(raw[1])<<8 | uint32(raw[2])<<16 | uint32(raw[3])<<24
	if w&3 != 3 {
		return w & 0xffff, 2
	}
	return w, 4
}

func (d *driver) fail(err error) bool {
	d.err, d.stop = err, stopError
	return false
}

// skip completes an instruction the oracle did not run: a read of
// cycle/time/instret (they legitimately differ) or an oracle gap. The
// destination (and, for a gap, the FP flags and stored bytes) are copied
// from rvsim; everything else is still compared.
func (d *driver) skip() error {
	c := d.t.CPU
	p := &d.pend
	in := &p.di.Inst
	st := d.prev
	switch in.Info().Rd {
	case isa.XReg:
		st.X[in.Rd] = c.X[in.Rd]
		st.X[0] = 0
	case isa.FReg:
		st.F[in.Rd] = c.F[in.Rd]
	}
	st.PC = p.pc + uint64(in.Len)
	if p.gap == GapBareMetal {
		st.PC = c.PC // mret, sret, or an interrupt a CSR write let in
	}
	if p.gap == "" {
		d.rep.CopiedCSRReads++
	} else {
		d.rep.Unchecked[p.gap]++
		st.FCSR = uint64(c.FRM())<<5 | uint64(c.FFlags())
		if p.di.Size != 0 && writesMemory(in.Op) {
			if err := d.copyAll(p.di.Addr, uint64(p.di.Size)); err != nil {
				return err
			}
		}
	}
	if err := d.o.WriteState(&st); err != nil {
		return err
	}
	if !d.check(&st) {
		return d.err
	}
	if p.exit.Reason != cpu.StopLimit {
		_, err := d.service(p.exit)
		return err
	}
	return nil
}

// syscall performs the system call rvsim stopped for and mirrors its
// effects into the oracle.
func (d *driver) syscall() (done bool, err error) {
	d.rep.Syscalls++
	var st State
	if err := d.o.ReadState(&st); err != nil {
		return false, err
	}
	before := d.t.Mem.Regions()
	r0 := d.redirects()
	done, writes := d.t.Service(d.pend.exit)
	if done {
		return true, nil
	}
	if err := d.syncMemory(before, writes); err != nil {
		return false, err
	}
	if d.redirects() != r0 { // a signal handler's entry or rt_sigreturn
		return false, d.resync()
	}
	c := d.t.CPU
	st.X[10] = c.X[10]
	st.PC = d.pend.pc + 4
	if err := d.o.WriteState(&st); err != nil {
		return false, err
	}
	d.check(&st)
	return false, d.err
}

func (d *driver) redirects() uint64 {
	if d.t.Redirects == nil {
		return 0
	}
	return d.t.Redirects()
}

// redirected runs f, which may deliver a signal (a fault's, a timer's):
// rvsim's core then continues in a handler with a frame written on its
// stack. The address map, the bytes written and every register are
// copied into the oracle.
func (d *driver) redirected(f func() (bool, []Range)) (bool, error) {
	before := d.t.Mem.Regions()
	done, writes := f()
	if done {
		return true, nil
	}
	if err := d.syncMemory(before, writes); err != nil {
		return false, err
	}
	return false, d.resync()
}

// service handles a stop of rvsim after an instruction that retired (a
// host mailbox write, a stop request) and mirrors what it wrote.
func (d *driver) service(exit cpu.Exit) (bool, error) {
	before := d.t.Mem.Regions()
	done, writes := d.t.Service(exit)
	if done {
		return true, nil
	}
	return false, d.syncMemory(before, writes)
}

// mirror copies rvsim's initial memory image and registers into the oracle.
func (d *driver) mirror() error {
	for _, r := range d.t.Mem.Regions() {
		if err := d.o.Map(r.Start, r.End-r.Start, r.Perm); err != nil {
			return fmt.Errorf("difftest: mirroring %s [%#x, %#x): %w", r.Name, r.Start, r.End, err)
		}
		if err := d.copyToOracle(r.Start, r.End-r.Start); err != nil {
			return err
		}
	}
	c := d.t.CPU
	s := &d.prev
	for i := 1; i < 32; i++ {
		s.X[i] = c.X[i]
	}
	copy(s.F[:], c.F[:32])
	s.PC = c.PC
	s.FCSR = uint64(c.FRM())<<5 | uint64(c.FFlags())
	if err := d.o.WriteState(s); err != nil {
		return err
	}
	// A Linux process runs in U-mode: put the oracle there too, so that
	// privileged instructions trap in both.
	if um, ok := d.o.(UserModer); ok && !c.BareMetal && c.Priv == cpu.PrivU {
		scratch, found := d.t.Mem.FindFree(mem.PageSize, mem.PageSize, 1<<38)
		if !found {
			return errors.New("difftest: no free page to enter U-mode in the oracle")
		}
		if err := um.EnterUserMode(c.PC, scratch); err != nil {
			return err
		}
	}
	return nil
}

// copyToOracle copies rvsim's bytes in [addr, addr+n) into the oracle,
// skipping all-zero pages (the oracle maps zero-filled memory).
func (d *driver) copyToOracle(addr, n uint64) error {
	var page [mem.PageSize]byte
	for n > 0 {
		k := min(n, mem.PageSize-addr&mem.PageMask)
		buf := page[:k]
		if !d.t.Mem.Backed(addr) {
			clear(buf) // untouched: zero, and left unbacked (the memory limit counts backed pages)
		} else if err := d.t.Mem.Peek(addr, buf); err != nil {
			return fmt.Errorf("difftest: reading rvsim memory: %w", err)
		}
		if !allZero(buf) || d.mustZero {
			if err := d.o.WriteMem(addr, buf); err != nil {
				return fmt.Errorf("difftest: writing oracle memory at %#x: %w", addr, err)
			}
		}
		addr += k
		n -= k
	}
	return nil
}

func allZero(b []byte) bool {
	for _, v := range b {
		if v != 0 {
			return false
		}
	}
	return true
}

// syncMemory mirrors what a system call (or host request) changed: the
// address map (mmap, munmap, mprotect, brk) and the bytes it wrote.
func (d *driver) syncMemory(before []mem.Region, writes []Range) error {
	after := d.t.Mem.Regions()
	if !sameRegions(before, after) {
		if err := d.remap(before, after); err != nil {
			return err
		}
	}
	for _, w := range writes {
		if err := d.copyAll(w.Addr, w.Len); err != nil {
			return err
		}
	}
	return nil
}

// copyAll copies [addr, addr+n) into the oracle, zeros included.
func (d *driver) copyAll(addr, n uint64) error {
	d.mustZero = true
	defer func() { d.mustZero = false }()
	return d.copyToOracle(addr, n)
}

func sameRegions(a, b []mem.Region) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Start != b[i].Start || a[i].End != b[i].End || a[i].Perm != b[i].Perm {
			return false
		}
	}
	return true
}

// remap applies the difference between two address maps to the oracle,
// piece by piece: newly mapped pieces are mapped (zero filled; a system
// call's writes to them are copied afterwards), unmapped ones unmapped,
// and pieces whose permissions changed are re-protected.
func (d *driver) remap(before, after []mem.Region) error {
	var cuts []uint64
	for _, rs := range [][]mem.Region{before, after} {
		for _, r := range rs {
			cuts = append(cuts, r.Start, r.End)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i] < cuts[j] })
	permAt := func(rs []mem.Region, a uint64) (mem.Perm, bool) {
		i := sort.Search(len(rs), func(i int) bool { return rs[i].End > a })
		if i < len(rs) && rs[i].Start <= a {
			return rs[i].Perm, true
		}
		return 0, false
	}
	for i := 0; i+1 < len(cuts); i++ {
		lo, hi := cuts[i], cuts[i+1]
		if lo == hi {
			continue
		}
		p0, in0 := permAt(before, lo)
		p1, in1 := permAt(after, lo)
		var err error
		switch {
		case !in0 && in1:
			err = d.o.Map(lo, hi-lo, p1)
		case in0 && !in1:
			err = d.o.Unmap(lo, hi-lo)
		case in0 && in1 && p0 != p1:
			err = d.o.Protect(lo, hi-lo, p1)
		}
		if err != nil {
			return fmt.Errorf("difftest: mirroring the address map at [%#x, %#x): %w", lo, hi, err)
		}
	}
	return nil
}

// compare returns the registers where the oracle's state o and rvsim's
// core differ.
func compare(o *State, c *cpu.CPU) []RegDiff {
	var diffs []RegDiff
	if o.PC != c.PC {
		diffs = append(diffs, RegDiff{Name: "pc", Expected: o.PC, Actual: c.PC})
	}
	for i := 1; i < 32; i++ {
		if o.X[i] != c.X[i] {
			diffs = append(diffs, RegDiff{Name: xregName(uint8(i)), Expected: o.X[i], Actual: c.X[i]})
		}
	}
	for i := 0; i < 32; i++ {
		if o.F[i] != c.F[i] {
			diffs = append(diffs, RegDiff{Name: fregName(uint8(i)), Expected: o.F[i], Actual: c.F[i]})
		}
	}
	if ff := uint8(o.FCSR & 0x1f); ff != c.FFlags() {
		diffs = append(diffs, RegDiff{Name: "fflags", Expected: uint64(ff), Actual: uint64(c.FFlags())})
	}
	if rm := uint8(o.FCSR >> 5 & 7); rm != c.FRM() {
		diffs = append(diffs, RegDiff{Name: "frm", Expected: uint64(rm), Actual: uint64(c.FRM())})
	}
	return diffs
}

// compareStore compares the size bytes at addr in both memories.
func (d *driver) compareStore(addr uint64, size int) ([]RegDiff, error) {
	a, b := d.memBuf[:size], d.oBuf[:size]
	if err := d.t.Mem.Peek(addr, a); err != nil {
		return nil, fmt.Errorf("difftest: reading rvsim memory at %#x: %w", addr, err)
	}
	if err := d.o.ReadMem(addr, b); err != nil {
		return nil, fmt.Errorf("difftest: reading oracle memory at %#x: %w", addr, err)
	}
	if string(a) == string(b) {
		return nil, nil
	}
	le := func(p []byte) (v uint64) {
		for i := len(p) - 1; i >= 0; i-- {
			v = v<<8 | uint64(p[i])
		}
		return v
	}
	return []RegDiff{{Name: fmt.Sprintf("mem[%#x]/%d", addr, size), Expected: le(b), Actual: le(a)}}, nil
}

// isCounterRead reports a read of cycle, time or instret (or their
// M-mode twins), whose values differ between any two models.
func isCounterRead(in *isa.Inst) bool {
	switch in.Op {
	case isa.CSRRS, isa.CSRRC, isa.CSRRW, isa.CSRRSI, isa.CSRRCI, isa.CSRRWI:
	default:
		return false
	}
	switch in.Csr {
	case 0xc00, 0xc01, 0xc02, 0xb00, 0xb02:
		return true
	}
	return false
}

// gap names the reason the oracle cannot check in, or "".
func (d *driver) gap(in *isa.Inst) string {
	info := in.Info()
	if d.t.CPU.BareMetal {
		switch info.Class {
		case isa.CSR, isa.System:
			return GapBareMetal
		case isa.Load, isa.Store, isa.AMO:
			if d.t.Mem.DeviceAt(d.pend.di.Addr) {
				return GapBareMetal
			}
		}
	}
	switch info.Ext {
	case "Zba", "Zbb", "Zbc", "Zbs", "Zicond":
		return GapBitmanip
	}
	switch in.Op {
	case isa.AMOMIN_W, isa.AMOMAX_W, isa.AMOMINU_W, isa.AMOMAXU_W:
		if d.amo32Differs(in) {
			return GapAMOMinMaxW
		}
	case isa.FMIN_S, isa.FMAX_S:
		if isSNaN32(d.prev.F[in.Rs1]) || isSNaN32(d.prev.F[in.Rs2]) {
			return GapMinMaxSNaN
		}
	case isa.FMIN_D, isa.FMAX_D:
		if isSNaN64(d.prev.F[in.Rs1]) || isSNaN64(d.prev.F[in.Rs2]) {
			return GapMinMaxSNaN
		}
	case isa.FMADD_S, isa.FMSUB_S, isa.FNMSUB_S, isa.FNMADD_S:
		a, b, c := d.prev.F[in.Rs1], d.prev.F[in.Rs2], d.prev.F[in.Rs3]
		if a>>32 == 0xffffffff && b>>32 == 0xffffffff && c>>32 == 0xffffffff && infTimesZero32(uint32(a), uint32(b)) && isQNaN32(uint32(c)) {
			return GapFMAInfZero
		}
	case isa.FMADD_D, isa.FMSUB_D, isa.FNMSUB_D, isa.FNMADD_D:
		if infTimesZero64(d.prev.F[in.Rs1], d.prev.F[in.Rs2]) && isQNaN64(d.prev.F[in.Rs3]) {
			return GapFMAInfZero
		}
	}
	if readsSingle(in.Op) {
		for i, k := range [3]isa.RegKind{info.Rs1, info.Rs2, info.Rs3} {
			r := [3]uint8{in.Rs1, in.Rs2, in.Rs3}[i]
			if k == isa.FReg && d.prev.F[r]>>32 != 0xffffffff {
				return GapUnboxed
			}
		}
	}
	return ""
}

// amo32Differs reports whether QEMU 5.0's non-atomic AMO path, which
// loads the old word zero-extended and compares it with the full 64-bit
// rs2, stores a different word than the ISA's 32-bit comparison would.
// The old word is read from the oracle, which has not run the
// instruction yet.
func (d *driver) amo32Differs(in *isa.Inst) bool {
	var b [4]byte
	if d.o.ReadMem(d.prev.X[in.Rs1], b[:]) != nil {
		return false // the access faults: compare as usual
	}
	old := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	src := d.prev.X[in.Rs2]
	var spec, qemu uint32
	zo := uint64(old)
	switch in.Op {
	case isa.AMOMIN_W:
		spec = uint32(min(int32(old), int32(src)))
		qemu = uint32(min(int64(zo), int64(src)))
	case isa.AMOMAX_W:
		spec = uint32(max(int32(old), int32(src)))
		qemu = uint32(max(int64(zo), int64(src)))
	case isa.AMOMINU_W:
		spec = min(old, uint32(src))
		qemu = uint32(min(zo, src))
	case isa.AMOMAXU_W:
		spec = max(old, uint32(src))
		qemu = uint32(max(zo, src))
	}
	return spec != qemu
}

// isSNaN32 is true for a NaN-boxed single-precision signalling NaN. An
// unboxed value counts as the canonical (quiet) NaN.
func isSNaN32(v uint64) bool {
	if v>>32 != 0xffffffff {
		return false
	}
	f := uint32(v)
	return f&0x7f800000 == 0x7f800000 && f&0x007fffff != 0 && f&0x00400000 == 0
}

func isQNaN32(f uint32) bool { return f&0x7fc00000 == 0x7fc00000 }
func isQNaN64(v uint64) bool { return v&0x7ff8000000000000 == 0x7ff8000000000000 }

func infTimesZero32(a, b uint32) bool {
	inf := func(f uint32) bool { return f&0x7fffffff == 0x7f800000 }
	zero := func(f uint32) bool { return f&0x7fffffff == 0 }
	return inf(a) && zero(b) || zero(a) && inf(b)
}

func infTimesZero64(a, b uint64) bool {
	inf := func(f uint64) bool { return f&^(1<<63) == 0x7ff0000000000000 }
	zero := func(f uint64) bool { return f&^(1<<63) == 0 }
	return inf(a) && zero(b) || zero(a) && inf(b)
}

func isSNaN64(v uint64) bool {
	return v&0x7ff0000000000000 == 0x7ff0000000000000 && v&0x000fffffffffffff != 0 && v&0x0008000000000000 == 0
}

// singleResult reports ops that write a single-precision value to an F
// register.
func singleResult(op isa.Op) bool {
	info := op.Info()
	return info.Rd == isa.FReg && (info.Ext == "F" || op == isa.FCVT_S_D)
}

// readsSingle reports ops that interpret an F register operand as a
// NaN-boxed single (fsw and fmv.x.w move raw bits and do not).
func readsSingle(op isa.Op) bool {
	switch op {
	case isa.FSW, isa.FMV_X_W:
		return false
	case isa.FCVT_D_S:
		return true
	}
	info := op.Info()
	return info.Ext == "F" && (info.Rs1 == isa.FReg || info.Rs2 == isa.FReg || info.Rs3 == isa.FReg)
}

// writesMemory reports stores, SCs and AMOs.
func writesMemory(op isa.Op) bool {
	switch op.Info().Class {
	case isa.Store, isa.AMO:
		return op != isa.LR_W && op != isa.LR_D
	}
	return false
}

func causeName(c uint64) string {
	switch c {
	case cpu.CauseFetchMisaligned:
		return "instruction address misaligned"
	case cpu.CauseFetchAccess:
		return "instruction access fault"
	case cpu.CauseIllegalInst:
		return "illegal instruction"
	case cpu.CauseBreakpoint:
		return "breakpoint"
	case cpu.CauseLoadMisaligned:
		return "load address misaligned"
	case cpu.CauseLoadAccess:
		return "load access fault"
	case cpu.CauseStoreMisaligned:
		return "store/AMO address misaligned"
	case cpu.CauseStoreAccess:
		return "store/AMO access fault"
	case cpu.CauseEcallU, cpu.CauseEcallS, cpu.CauseEcallM:
		return "environment call"
	}
	return "exception"
}
