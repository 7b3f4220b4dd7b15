// Package pipeline is rvsim's out-of-order timing model. It is
// functional-first (as ZSim and Sniper): the functional core executes the
// program and emits the program-order DynInst stream, and the Core computes
// when each instruction would be fetched, decoded, renamed, issued,
// executed and committed on a configurable superscalar machine. It never
// executes instructions and never fetches down a wrong path: a mispredicted
// branch stops useful fetch until it resolves in execute, then charges the
// redirect penalty.
//
// The shape is ChampSim's: each stage is a small type that drains the
// bounded queue in front of it, called in reverse order each cycle (commit
// first, fetch last), so an instruction moves at most one stage per cycle.
// A latency is a readyAt stamp on the instruction, a width a per-cycle
// count. Every stage returns its progress; a cycle without progress skips
// ahead to the next cycle anything can happen, and a state from which
// nothing can ever happen (or that makes no progress for deadlock_cycles)
// is a deadlock that returns an error with a dump of the queues.
//
// Instructions live from Retire to commit in one ring (the window), in
// program order: [head, dispatched) is the ROB, [dispatched, decoded) the
// decode pipe, [decoded, fetched) the fetch queue and [fetched, tail) the
// input not yet fetched. Wakeup is event-driven: a producer that issues
// knows when its result will be ready and tells its consumers through
// dependency edges; consumers whose last operand is scheduled go onto a
// timing wheel, then into per-unit ready heaps ordered by age. No stage
// scans the window.
//
// Memory: loads and stores access the non-blocking caches of package mem.
// A load waits until every older store's address is known (the oracle
// address is used only from then), then takes its data from the youngest
// older overlapping store (forwarding) or from the D-cache. Stores write the
// D-cache at commit, and stay in the store queue until the write
// completes. AMOs and LR/SC are both loads and stores.
//
// Serializing instructions (machine-mode CSR accesses, fence, fence.i,
// ecall, ebreak, mret, wfi) dispatch only into an empty ROB and nothing
// younger dispatches until they commit: a pipeline drain, as BOOM does.
// The FP control and status CSR (fflags, frm, fcsr) and the counter reads
// (cycle, time, instret) do not serialize: pseudo-registers order the FP
// CSR accesses against FP arithmetic (see uop.go).
//
// The stage files: fetch.go, decode.go, rename.go, issue.go (issue and
// execute), lsq.go (the store queue), commit.go; sched.go holds the
// dependency edges, the timing wheel and the heaps; stats.go the statistics.
package pipeline

import (
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/pipeline/bpred"
)

// RetireHook is called once per instruction when it reaches the head of
// the ROB complete and would commit at r.Cycle. A non-zero result stalls
// commit: the instruction commits stall cycles later and nothing younger
// commits before it. It is the attachment point of the retire-stage
// profiling hardware (a full profiler queue stalls commit). r is valid
// only during the call.
type RetireHook func(r *Commit) (stall uint64)

// signals are the backward paths between stages (gem5's habit): each field
// names who writes it and who reads it.
type signals struct {
	// redirectAt is the cycle fetch may restart after the mispredicted
	// branch (or trap) it is blocked on resolves; 0: not yet resolved.
	// Written by issue (a mispredicted branch executes) and commit (a trap
	// redirect); read and cleared by fetch.
	redirectAt uint64
	// diseRedirectAt is the cycle the DISE engine may resume a replacement
	// sequence after the taken branch decode waits on (fDISEBranch); 0: not
	// yet resolved. Written by issue (the branch executes); read and
	// cleared by decode.
	diseRedirectAt uint64
	// serialInFlight: a serializing instruction is in the ROB. Written by
	// rename (dispatch) and commit; read by rename.
	serialInFlight bool
	// Occupancy of the structures dispatch allocates (the free entries are
	// the configured sizes minus these). Incremented by rename; iqUsed is
	// decremented by issue, sqUsed when a committed store drains, the
	// others by commit. Read by rename.
	iqUsed, lqUsed, sqUsed int
	intUsed, fpUsed        int // in-flight results needing an integer / FP physical register
}

// Stall causes, counted in cycles per stage (see Stats).
const (
	stallICache     = iota // fetch: waiting for an I-cache miss
	stallMispredict        // fetch: waiting for a mispredicted branch to resolve, plus the redirect penalty
	stallTrap              // fetch: waiting for a trap (a jump in the stream) to commit, plus the penalty
	stallFetchQ            // fetch: fetch queue full
	stallDISE              // decode: DISE replacement penalty (the cycles charged)
	stallDISEBranch        // decode: waiting for a taken DISE branch to resolve, plus the redirect penalty
	stallDISECall          // fetch: waiting for decode to redirect it into a DISE handler, plus the penalty
	stallSerialize         // rename: a serializing instruction waits for (or holds) an empty ROB
	stallROB               // rename: ROB full
	stallIQ                // rename: issue queue full
	stallLSQ               // rename: load or store queue full
	stallRegs              // rename: no free physical register
	stallDCache            // commit: the ROB head is a load waiting for a D-cache miss
	stallProfiler          // commit: the retire hook stalls commit (the cycles charged)
	numStall
)

var stallNames = [numStall]string{
	"icache_miss", "mispredict", "trap", "fetch_queue_full", "dise", "dise_branch", "dise_call", "serialize",
	"rob_full", "iq_full", "lsq_full", "regs_full", "dcache_miss", "profiler",
}

// Cycle accounting (a CPI stack): every cycle goes to exactly one bucket,
// decided at commit.
const (
	cpiCommit     = iota // at least one instruction committed
	cpiProfiler          // commit blocked by the retire hook
	cpiDCache            // the ROB head is a load waiting for a D-cache miss
	cpiExecute           // the ROB head is waiting for operands or execution
	cpiICache            // the ROB is empty and fetch waits for the I-cache
	cpiMispredict        // the ROB is empty and fetch waits for a mispredict to resolve
	cpiFrontend          // the ROB is empty for another front-end reason (fill, DISE, traps)
	numCPI
)

var cpiNames = [numCPI]string{"commit", "profiler", "dcache_miss", "execute", "icache_miss", "mispredict", "frontend"}

// Stage indexes for per-cycle stall bookkeeping.
const (
	stFetch = iota
	stDecode
	stRename
	stIssue
	stCommit
	numStages
)

// Core is the out-of-order timing model. It is a cpu.Observer: attach it
// to the functional core (sim.Config.Observers), call Finish at the end of
// the run, then read Cycles, Stats and Summary.
type Core struct {
	cfg config.Machine
	now uint64 // the current cycle

	win  []uop         // the window ring (see the package comment)
	dyn  []cpu.DynInst // the functional core's records, same indexes, kept only for the retire hook
	mask uint64
	// Stream positions, monotonic; index = pos & mask.
	head, dispatched, decoded, fetched, tail uint64
	tid                                      uint32 // the guest thread of the last record received (DynInst.Tid)

	fetch  fetchStage
	decode decodeStage
	rename renameStage
	issue  issueStage
	commit commitStage
	sig    signals

	l1i, l1d, l2 *mem.Cache
	memory       mem.MainMemory
	bp           *bpred.Predictor
	edges        edgePool
	wheel        wheel
	lastWriter   [256]uint64 // per unified register (numRegs used; 256 so a uint8 index needs no bounds check): 1 + pos of the youngest in-flight writer, 0: none
	sq           storeQueue

	// lookahead is how many unfetched instructions must be buffered before
	// a cycle is simulated, so that no cycle depends on where the
	// functional core's batches end (fetch takes at most this many).
	lookahead uint64

	stalls   [numStall]uint64
	cpi      [numCPI]uint64
	cur      [numStages]int8 // this cycle's stall cause per stage, -1: none
	cpiCur   int8
	progress int    // this cycle's progress before issue (wakeup, commit): a field, so no local lives across commit's loop
	idle     uint64 // cycles since the last progress
	deadlock uint64 // idle cycles that count as a deadlock
	noSkip   bool   // simulate every cycle (tests compare against skipping)
	hook     RetireHook
	// hookClasses are the classes the hook sees.
	hookClasses cpu.ClassMask
	commitRec   Commit // the record handed to the hook (reused: no allocation)
	// staged holds, when the core takes staged slots from Async, the
	// hooked records that come with them (retireStaged).
	staged   stagedExtras
	stop     func()
	err      error
	interval intervalWriter
	// marks: the instruction counts at which the cycle count is recorded
	// (markCycles, at the end of the cycle in which the first marks[i]
	// instructions had committed: SetMarks), for sampled simulation's
	// warm-up and interval boundaries; onMark is called at each.
	marks, markCycles []uint64
	onMark            func(i int)
	marking           bool     // SetMarks was called: marks are wanted, known or not
	warmLine          uint64   // the I-cache line Warm last touched (+1)
	cyc               cycleRec // the cycle profile's records (cycleprof.go)
	dc                decodeCache
}

// New builds a core for machine m (validated first).
func New(m *config.Machine) (*Core, error) {
	if m == nil {
		return nil, fmt.Errorf("pipeline: no machine configuration")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("pipeline: %v", err)
	}
	c := &Core{cfg: *m}
	cc := &c.cfg.Core
	c.memory.Latency = uint64(m.Memory.Latency)
	var err error
	cache := func(name string, k config.Cache, next *mem.Cache) *mem.Cache {
		if err != nil {
			return nil
		}
		var cache *mem.Cache
		cache, err = mem.NewCache(mem.CacheConfig{Name: name, Size: k.Size, Assoc: k.Assoc, LineSize: k.Line,
			HitLatency: uint64(k.Latency), MSHRs: k.MSHRs}, next, &c.memory)
		return cache
	}
	c.l2 = cache("l2", m.L2, nil)
	c.l1i = cache("l1i", m.L1I, c.l2)
	c.l1d = cache("l1d", m.L1D, c.l2)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %v", err)
	}
	if c.bp, err = bpred.New(m.BPred); err != nil {
		return nil, fmt.Errorf("pipeline: %v", err)
	}
	c.lookahead = uint64(cc.FetchQueue)
	c.deadlock = deadlockBound(m)
	decodeCap := cc.DecodeWidth * cc.DecodeStages
	size := cc.ROB + decodeCap + cc.FetchQueue + int(c.lookahead) + chunk
	n := 1 << bits.Len(uint(size))
	if n > maxWindow { // (the configuration's limits keep it below)
		return nil, fmt.Errorf("pipeline: a window of %d slots exceeds %d", n, maxWindow)
	}
	c.win = make([]uop, n)
	c.dyn = make([]cpu.DynInst, n)
	c.mask = uint64(n - 1)
	c.edges.init(4 * cc.ROB)
	c.sq.init(cc.SQ)
	c.fetch.init(c)
	c.decode.init(c, decodeCap)
	c.rename.init(c)
	c.issue.init(c)
	c.commit.init(c)
	for i := range c.cur {
		c.cur[i] = -1
	}
	return c, nil
}

// deadlockBound is deadlock_cycles, raised if need be above the longest
// wait a correct model can have between two steps of progress: every load
// and store queued behind the MSHRs for a full miss, plus the slowest unit,
// the redirect and the DISE penalty.
func deadlockBound(m *config.Machine) uint64 {
	miss := m.L1I.Latency + m.L1D.Latency + m.L2.Latency + m.Memory.Latency
	slowest := 0
	for _, u := range []config.Unit{m.FU.IntALU, m.FU.IntMul, m.FU.IntDiv, m.FU.FPAdd, m.FU.FPMul, m.FU.FPDiv, m.FU.MemPort} {
		slowest = max(slowest, u.Latency)
	}
	wait := uint64(m.Core.LQ+m.Core.SQ+2)*uint64(miss) + uint64(slowest+m.Core.RedirectPenalty+m.Core.DISEPenalty+m.Core.DISERedirect())
	return max(uint64(m.Core.DeadlockCycles), 2*wait)
}

// chunk is the most Retire takes from a batch at once: it simulates what
// a chunk allows before taking the next, so the window ring stays small
// enough for the host's L1 cache. (Simulation only runs while lookahead
// instructions are buffered, so chunking never changes the timing.)
const chunk = 64

// Machine returns the configuration the core was built with.
func (c *Core) Machine() *config.Machine { return &c.cfg }

// SetRetireHook installs the retire-stage hook (nil removes it), called
// for the instructions of the given classes (cpu.AllClasses: every one).
// Install it before the first Retire: the core keeps the DynInst records
// of those classes only while a hook is installed, and the others commit
// as they do without a hook.
func (c *Core) SetRetireHook(h RetireHook, classes cpu.ClassMask) {
	c.hook, c.hookClasses = h, classes
	if h == nil {
		c.hookClasses = 0
	}
	c.setExtras()
}

// SetStopFunc installs a function called once if the model fails (a
// deadlock), so the run can stop early; e.g. the CPU's RequestStop.
func (c *Core) SetStopFunc(f func()) { c.stop = f }

// Cycles returns the cycles simulated so far (the total after Finish).
func (c *Core) Cycles() uint64 { return c.now }

// Instructions returns the instructions committed so far.
func (c *Core) Instructions() uint64 { return c.head }

// CycleAt is a cpu.CPU.CycleFunc: the cycle CSR for a program that has
// retired instret instructions. It is the timing model's current cycle,
// which trails the functional core by at most one observer batch (256
// instructions) plus the instructions in flight: an accepted skew.
func (c *Core) CycleAt(instret uint64) uint64 { return c.now }

// SetMark asks the core to record the cycle count at the end of the cycle
// in which its first n instructions have committed (MarkCycle): sampled
// simulation's end of warm-up. n = 0 is marked at cycle 0.
func (c *Core) SetMark(n uint64) { c.SetMarks([]uint64{n}, nil) }

// MarkCycle returns the cycle recorded for SetMark's position, and
// whether that position has committed.
func (c *Core) MarkCycle() (uint64, bool) {
	if len(c.markCycles) == 0 {
		return 0, false
	}
	return c.markCycles[0], true
}

// SetMarks is SetMark for several positions (ascending): MarkCycles
// returns the cycles recorded so far, one per position reached, and f (if
// not nil) is called with i as position i is recorded, at the end of that
// cycle (sampled simulation reads the counters at its end of warm-up).
func (c *Core) SetMarks(ns []uint64, f func(i int)) {
	c.marks, c.markCycles, c.onMark, c.marking = append([]uint64(nil), ns...), nil, f, true
	c.checkMarks()
}

// AddMark adds position n (not below the last) to SetMarks' positions:
// sampled simulation adds each boundary as the functional core reaches it
// (the core has not committed that far yet: it keeps a lookahead).
func (c *Core) AddMark(n uint64) {
	c.marks = append(c.marks, n)
	c.checkMarks()
}

// MarkCycles returns the cycles recorded for SetMarks' positions reached.
func (c *Core) MarkCycles() []uint64 { return c.markCycles }

// checkMarks records the marks the committed instructions have reached.
func (c *Core) checkMarks() {
	for len(c.markCycles) < len(c.marks) && c.head >= c.marks[len(c.markCycles)] {
		c.markCycles = append(c.markCycles, c.now)
		if len(c.markCycles) == 1 {
			c.markCharged() // the cycle profile starts at the first mark
		}
		if c.onMark != nil {
			c.onMark(len(c.markCycles) - 1)
		}
	}
}

// Err returns the model's failure (a deadlock), if any.
func (c *Core) Err() error { return c.err }

// Retire accepts the next instructions of the program-order stream (the
// cpu.Observer method) and simulates the cycles they make possible.
func (c *Core) Retire(batch []cpu.DynInst) {
	cost := &c.commit.cost
	if c.wantsTwin() {
		c.startTwin(false, false)
	}
	twin := cost.twin != nil && !cost.twin.finished
	for len(batch) > 0 && c.err == nil {
		room := uint64(len(c.win)) - (c.tail - c.head)
		n := min(uint64(len(batch)), room, chunk)
		prev := &c.win[(c.tail-1)&c.mask] // (the slot before the tail: n < len(c.win), so intake leaves it)
		c.tid = c.dc.intake(c.win, c.mask, c.tail, batch[:n], c.tid)
		if twin { // the twin takes the same slots (markRuns included)
			cost.stage(c, c.tail, int(n), prev.pc, prev.next)
		} else {
			markRuns(c.win, c.mask, c.tail, int(n), c.fetch.lineMask, prev.pc, prev.next)
		}
		if hooked := c.hookClasses; hooked != 0 {
			for i := range batch[:n] {
				if d := &batch[i]; hooked>>d.Inst.Class&1 != 0 {
					k := (c.tail + uint64(i)) & c.mask
					c.dyn[k] = *d
					c.win[k].flags |= fHook
				}
			}
		}
		c.tail += n
		batch = batch[n:]
		c.run(false)
	}
}

// Finish drains the pipeline: it simulates until every instruction
// received has committed, flushes the interval output, and returns the
// model's error, if any.
func (c *Core) Finish() error {
	c.run(true)
	c.flushCycles()
	if h := &c.commit.cost; h.twin != nil && !h.twin.finished {
		if err := h.finishTwin(); err != nil && c.err == nil {
			c.err = fmt.Errorf("retire hook cost: the twin core: %w", err)
		}
		c.fetch.pre = false // the predictor is the Core's again
	}
	c.interval.flush(c, true)
	if c.err == nil && c.interval.err != nil {
		return fmt.Errorf("pipeline: interval output: %w", c.interval.err)
	}
	return c.err
}

// run simulates cycles while enough input is buffered (or, when final,
// until the window is empty).
func (c *Core) run(final bool) {
	for c.err == nil {
		if final {
			if c.head == c.tail {
				return
			}
		} else if c.tail-c.fetched < c.lookahead {
			return
		}
		if c.cycle() > 0 {
			c.idle = 0
			c.now++
			if len(c.markCycles) < len(c.marks) {
				c.checkMarks()
			}
			continue
		}
		next := c.nextEvent()
		if next == ^uint64(0) {
			c.fail("nothing can make progress")
			return
		}
		skip := next - c.now - 1
		if c.noSkip {
			skip = 0
		}
		if c.now < c.commit.blockedUntil {
			c.idle = 0 // the retire hook's stall is progress of a kind
		} else if c.idle += skip + 1; c.idle > c.deadlock {
			c.fail(fmt.Sprintf("no progress for %d cycles", c.idle))
			return
		}
		if skip > 0 {
			for _, s := range c.cur {
				if s >= 0 {
					c.stalls[s] += skip
				}
			}
			c.cpi[c.cpiCur] += skip
		}
		c.now += skip + 1
	}
}

// cycle simulates one cycle and returns the progress made.
func (c *Core) cycle() int {
	c.cur = [numStages]int8{-1, -1, -1, -1, -1}
	// A stage with nothing in front of it has nothing to do or count, so
	// it is not called (commit and fetch always are: they account every
	// cycle).
	c.progress = 0
	if c.wheel.due(c.now) {
		c.progress = c.issue.wakeup(c)
	}
	c.commit.tick(c)
	if c.issue.nonEmpty != 0 {
		c.progress += c.issue.tick(c)
	}
	if c.dispatched < c.decoded {
		c.progress += c.rename.tick(c)
	}
	if c.decoded < c.fetched {
		c.progress += c.decode.tick(c)
	}
	c.progress += c.fetch.tick(c)
	return c.progress
}

// stall records that stage st is stalled by cause this cycle.
func (c *Core) stall(st int, cause int) {
	c.cur[st] = int8(cause)
	c.stalls[cause]++
}

// nextEvent returns the first cycle after now at which some stage could
// make progress, or ^0 if none can (a deadlock).
func (c *Core) nextEvent() uint64 {
	now := c.now
	next := c.wheel.next(now)
	at := func(t uint64) {
		if t > now && t < next {
			next = t
		}
	}
	at(c.fetch.stallUntil)
	at(c.decode.stallUntil)
	at(c.commit.blockedUntil)
	at(c.sq.nextDrain())
	if c.fetch.blocked && c.sig.redirectAt != 0 {
		at(now + 1)
	}
	if c.decode.waiting && c.sig.diseRedirectAt != 0 {
		at(max(now+1, c.sig.diseRedirectAt))
	}
	if c.fetched > c.decoded {
		at(c.win[c.decoded&c.mask].readyAt)
	}
	if c.decoded > c.dispatched {
		at(c.win[c.dispatched&c.mask].readyAt)
	}
	if c.head < c.dispatched {
		u := &c.win[c.head&c.mask]
		if u.flags&fIssued != 0 {
			t := u.doneAt
			if u.flags&fStore != 0 && u.pendData == 0 && u.dataAt > t {
				t = u.dataAt
			}
			at(t)
		}
	}
	for f := 0; f < numFU; f++ {
		if c.issue.ready[f].len() > 0 {
			at(c.issue.freeAt(f, now))
		}
	}
	return next
}

// DeadlockError reports a model deadlock with a dump of the queues.
type DeadlockError struct {
	Cycle uint64
	Why   string
	Dump  string
}

func (e *DeadlockError) Error() string {
	return fmt.Sprintf("pipeline: deadlock at cycle %d: %s\n%s", e.Cycle, e.Why, e.Dump)
}

func (c *Core) fail(why string) {
	c.err = &DeadlockError{Cycle: c.now, Why: why, Dump: c.dump()}
	if c.stop != nil {
		c.stop()
	}
}

// dump describes the queues, for deadlock reports.
func (c *Core) dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  committed %d, ROB %d [%d,%d), decode pipe %d, fetch queue %d, input %d\n",
		c.head, c.dispatched-c.head, c.head, c.dispatched, c.decoded-c.dispatched, c.fetched-c.decoded, c.tail-c.fetched)
	fmt.Fprintf(&b, "  fetch: blocked=%v on %d, stallUntil %d, redirectAt %d; decode stallUntil %d, waiting %v, diseRedirectAt %d; commit blockedUntil %d\n",
		c.fetch.blocked, c.fetch.blockedOn, c.fetch.stallUntil, c.sig.redirectAt, c.decode.stallUntil, c.decode.waiting,
		c.sig.diseRedirectAt, c.commit.blockedUntil)
	q := &c.sq
	fmt.Fprintf(&b, "  IQ %d/%d, LQ %d/%d, SQ %d/%d (draining %d, in flight %d, unknown-address %d), regs int %d fp %d, serial %v\n",
		c.sig.iqUsed, c.cfg.Core.IQ, c.sig.lqUsed, c.cfg.Core.LQ, c.sig.sqUsed, c.cfg.Core.SQ,
		q.commit-q.head, q.tail-q.commit, q.tail-q.unknown, c.sig.intUsed, c.sig.fpUsed, c.sig.serialInFlight)
	fmt.Fprintf(&b, "  wheel events %d, blocked loads %d, ready:", c.wheel.n, c.issue.blocked.len())
	for f := 0; f < numFU; f++ {
		fmt.Fprintf(&b, " %s=%d", fuNames[f], c.issue.ready[f].len())
	}
	b.WriteString("\n")
	for p, i := c.head, 0; p < c.decoded && i < 12; p, i = p+1, i+1 {
		b.WriteString("  " + c.describe(&c.win[p&c.mask]) + "\n")
	}
	return b.String()
}

// describe prints one uop's state.
func (c *Core) describe(u *uop) string {
	where := "ROB"
	switch {
	case u.pos >= c.decoded:
		where = "fetchq"
	case u.pos >= c.dispatched:
		where = "decode"
	}
	regs := ""
	if u.dest != 0 {
		regs = regName(u.dest) + " <-"
	}
	for _, r := range u.src[:u.nsrc] {
		regs += " " + regName(r)
	}
	if u.dsrc != 0 {
		regs += " data " + regName(u.dsrc)
	}
	done := "-" // doneAt is valid once issued (intake leaves the slot's last value)
	if u.flags&fIssued != 0 {
		done = fmt.Sprint(u.doneAt)
	}
	return fmt.Sprintf("%s #%d pc %#x %-8s %-16s flags %#04x pending %d/%d ready %d done %s data %d",
		where, u.pos, u.pc, u.op, regs, u.flags, u.pending, u.pendData, u.readyAt, done, u.dataAt)
}

// regName names a unified register number.
func regName(r uint8) string {
	switch r {
	case regZero:
		return "x0"
	case regFFlags:
		return "fflags"
	case regFRM:
		return "frm"
	}
	if r >= regD0 {
		return fmt.Sprintf("$d%d", r-regD0)
	}
	if r >= 32 {
		return fmt.Sprintf("f%d", r-32)
	}
	return fmt.Sprintf("x%d", r)
}

// wakeList reschedules, for the next cycle, every load parked on a list.
func (c *Core) wakeList(head *int32) {
	for i := *head; i >= 0; {
		e := c.edges.e[i]
		c.wheel.add(c.now+1, c.now, e.to)
		c.edges.releaseOne(i)
		i = e.next
	}
	*head = -1
}

// SetIntervalWriter makes the core write a CSV line of per-interval CPI and
// event counts to w every n committed instructions (n = 0 turns it off).
// The first line is a header. Write errors are reported by Finish.
func (c *Core) SetIntervalWriter(w io.Writer, n uint64) {
	c.interval = intervalWriter{w: w, n: n, next: c.head + n}
	if w != nil && n > 0 {
		c.interval.header()
		c.interval.last = c.snapshot()
	}
	c.setExtras()
}
