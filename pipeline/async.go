package pipeline

import (
	"context"
	"os"
	"runtime/pprof"
	"sync/atomic"
	"unsafe"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/crash"
)

// Async runs a Core on a goroutine of its own, so that on a host with a
// second core the functional core and the model overlap: the run's wall
// clock is about the slower of the two instead of their sum. It is the
// cpu.Observer a timing run attaches instead of the Core.
//
// The functional core's deliveries (Retire, up to 256 records) are
// grouped into larger batches handed over through a pipe; the model's
// goroutine takes them one delivery at a time, as inline, so it computes
// the same cycles, statistics, interval lines and cycle profile, every
// run. The records themselves do not cross: on the functional core's
// thread, while they are still in its cache, Async classifies them into
// what a window slot takes from a record (the intake the model does
// inline, with a decode cache of its own: half a record's size), and the
// model's goroutine fills its window's slots from those. (With a retire
// hook, whose units read the records at commit, the records are copied
// instead; sim runs such a core inline.)
//
// What reaches the model from the functional core's thread during a run
// syncs first: CycleAt (the cycle CSR) hands over the partial group and
// waits until the model has consumed every delivery so far, which is the
// value the inline model has at that point. A model failure (a
// deadlock) stops the run through the stop function, called on the
// functional core's thread at its next delivery: later than inline, so
// the functional core may run a little further, but the model ignores
// what arrives after its failure and Finish returns the same error.
//
// sim runs inline a Core with a retire hook (its units feed interrupts
// back to the CPU). Sampled simulation's windows attach a Core mid-run and
// mark positions in it as the functional core reaches them (AddMark,
// after a sync), and detach it with Finish.
type Async struct {
	core *Core
	cur  *group // the group being filled

	full   chan *group // groups handed over; nil: a sync marker
	free   chan *group
	kick   chan struct{} // wakes a consumer that found full empty
	freed  chan struct{} // wakes a producer that found free empty
	wakeAt int           // groups in full (or free) that wake it
	synced chan struct{}
	done   chan struct{}

	started bool // the goroutine runs (from the first hand-over)
	waits   int  // hand-overs that found every group in flight (tests)
	closed  bool // Finish has ended it

	// Staging: the producer classifies the records itself (the decode
	// cache's work, intake) and hands over only what the window's slots
	// take from them, half a record's size, and the records of the
	// classes a retire hook sees (hooked), which it reads at commit.
	hooked  cpu.ClassMask
	dc      decodeCache
	tid     uint32 // the thread of the last record staged
	pos     uint64 // the stream position of the next record staged
	scratch []uop  // intake's slots, a ring of stageRing
	runPC   uint64 // the pc and successor of the last record staged (markRuns)
	runNext uint64
	out     []staged    // the slots of one pass of stage, before the group takes them
	sl      storeLookup // loads' forwarding stores, looked up in program order (fdist)

	// Prediction (staging, decided at the first delivery): the producer
	// runs the branch predictor in program order and hands fetch each
	// control uop's outcome (fMispred); the predictor is then the
	// producer's until Finish. Not with an interval writer or a mark
	// callback: they read the predictor's counters mid-run, on the
	// model's thread, at the model's point in the stream.
	begun   bool
	predict bool
	sp      streamPredictor

	failed atomic.Bool // set by the model's goroutine when the Core fails
	stop   func()      // the run's stop function, called on the producer's thread
}

// group is several deliveries: what the window's slots take from their
// records, each delivery's length, and the records a retire hook sees
// with their stream positions.
type group struct {
	st   []staged
	lens []int
	recs []cpu.DynInst
	pos  []uint64
}

// stageRing is the size of the producer's intake ring (a power of two).
const stageRing = 512

// asyncGroup records per group: large enough that the hand-over is rare,
// a fraction of the host's L2 cache.
const asyncGroup = 4096

// asyncDepth groups circulate (one being filled, the others in flight).
const asyncDepth = 8

// NewAsync returns c on a goroutine of its own. Configure c (interval writer, cycle
// sink, marks) before the first Retire; read it only after Finish.
func NewAsync(c *Core) *Async {
	a := &Async{core: c}
	a.full = make(chan *group, asyncDepth+1) // every group and a Sync marker: sending never blocks
	a.free = make(chan *group, asyncDepth)
	a.kick = make(chan struct{}, 1)
	a.freed = make(chan struct{}, 1)
	a.wakeAt = asyncDepth / 2
	a.synced = make(chan struct{})
	a.done = make(chan struct{})
	for range asyncDepth - 1 {
		a.free <- newGroup()
	}
	a.cur = newGroup()
	c.SetStopFunc(func() { a.failed.Store(true) })
	a.pos, a.tid, a.scratch, a.out = c.tail, c.tid, make([]uop, stageRing), make([]staged, stageRing)
	last := &c.win[(c.tail-1)&c.mask]
	a.runPC, a.runNext = last.pc, last.next
	a.sl.takeOver(&c.sq, c.cfg.Core.SQ)
	a.hooked = c.hookClasses
	c.staged.on = a.hooked != 0
	return a
}

// start starts the model's goroutine, at the first hand-over (a machine
// loaded but never run leaves none behind).
func (a *Async) start() {
	a.started = true
	// The label tells the model's time apart in CPU profiles
	// (go tool pprof -tagfocus timing=model).
	go pprof.Do(context.Background(), pprof.Labels("timing", "model"), func(context.Context) { defer crash.Exit(os.Stderr); a.run() })
}

func newGroup() *group {
	return &group{lens: make([]int, 0, asyncGroup/16)}
}

// SetStopFunc installs the function called (on the functional core's
// thread, at a delivery) once the model has failed: the CPU's
// RequestStop.
func (a *Async) SetStopFunc(f func()) { a.stop = f }

// Core returns the model. Read it only after Finish.
func (a *Async) Core() *Core { return a.core }

// take returns the next item of in (ok false: in is closed), sleeping
// until kicked while in is empty: a consumer that has caught up costs no
// CPU, and the producer kicks it only when a few items are waiting.
func take[T any](in <-chan T, kick <-chan struct{}) (v T, ok bool) {
	for {
		select {
		case v, ok = <-in:
			return v, ok
		default: // caught up: sleep until kicked
			<-kick
		}
	}
}

// run is the model's goroutine.
func (a *Async) run() {
	defer close(a.done)
	for {
		g, ok := take(a.full, a.kick)
		if !ok {
			return
		}
		if g == nil {
			a.synced <- struct{}{}
			continue
		}
		st := g.st
		x := &a.core.staged
		x.recs, x.pos, x.next = g.recs, g.pos, 0
		for _, n := range g.lens {
			if len(st) > n { // the next delivery's first chunk (retireStaged fetches the rest ahead)
				prefetch(unsafe.Pointer(&st[n]), uintptr(min(len(st)-n, chunk))*unsafe.Sizeof(staged{}))
			}
			a.core.retireStaged(st[:n:n])
			st = st[n:]
		}
		x.recs, x.pos = nil, nil
		g.st, g.lens, g.recs, g.pos = g.st[:0], g.lens[:0], g.recs[:0], g.pos[:0]
		a.free <- g
		if len(a.free) >= a.wakeAt { // the producer, if asleep, has work for a while
			kick(a.freed)
		}
	}
}

// wake kicks the consumer (it may be asleep).
func (a *Async) wake() { kick(a.kick) }

// kick wakes the goroutine asleep in take on k, if any.
func kick(k chan<- struct{}) {
	select {
	case k <- struct{}{}:
	default: // a kick is pending already
	}
}

// Retire takes a delivery (the caller reuses batch) and hands the group
// over once it holds asyncGroup records.
func (a *Async) Retire(batch []cpu.DynInst) {
	if a.stop != nil && a.failed.Load() {
		a.stop()
		a.stop = nil
	}
	if len(batch) == 0 {
		return
	}
	if a.closed { // after Finish: the Core is the caller's
		a.core.Retire(batch)
		return
	}
	g := a.cur
	a.stage(batch)
	g.lens = append(g.lens, len(batch))
	if len(g.st) >= asyncGroup {
		a.flush()
	}
}

// stage classifies a delivery into the group's staged slots: intake into
// the producer's ring, then the fields a window slot takes.
func (a *Async) stage(batch []cpu.DynInst) {
	g := a.cur
	if !a.begun {
		a.begun = true
		c := a.core
		a.predict = c.interval.n == 0 && c.onMark == nil && c.fetched == c.tail
		a.sp = streamPredictor{bp: c.bp, token: c.fetch.token, perfectRAS: c.fetch.perfectRAS}
		c.fetch.pre = a.predict
		if c.wantsTwin() {
			c.startTwin(true, a.predict) // (as Retire would: the twin takes these slots too)
		}
	}
	if a.hooked != 0 {
		a.keepHooked(batch)
	}
	for len(batch) > 0 {
		b := batch[:min(len(batch), stageRing)]
		a.tid = a.dc.intake(a.scratch, stageRing-1, a.pos, b, a.tid)
		// The slots are built in a buffer of this core's and copied into
		// the group in bulk: written one field at a time into the group,
		// whose lines the model's core read last, each store missed.
		dst := a.out[:len(b)]
		pc, next, line := a.runPC, a.runNext, a.core.fetch.lineMask
		for i := range dst {
			d, u := &dst[i], &a.scratch[(a.pos+uint64(i))&(stageRing-1)]
			u.markRun(line, pc, next) // (markRuns in this loop)
			pc, next = u.pc, u.next
			if u.flags&fCtrl != 0 && a.predict {
				a.sp.uop(u)
			}
			*d = u.staged
		}
		a.runPC, a.runNext = pc, next
		// Loads' forwarding stores, in a pass of their own (its calls
		// would spill the copy loop's values; below it, the loop's call
		// sites keep their line offsets for the PGO profile).
		a.sl.pass(a.scratch, a.pos, dst)
		g.st = append(g.st, dst...)
		a.pos += uint64(len(b))
		batch = batch[len(b):]
	}
}

// keepHooked copies the records of the classes the retire hook sees into
// the group, with their stream positions (before stage moves a.pos on).
func (a *Async) keepHooked(batch []cpu.DynInst) {
	g, hooked := a.cur, a.hooked
	for i := range batch {
		if d := &batch[i]; hooked>>d.Inst.Class&1 != 0 {
			g.recs = append(g.recs, *d)
			g.pos = append(g.pos, a.pos+uint64(i))
		}
	}
}

// retireStaged is Retire for staged records: the window's slots take
// them as intake would have written them; with a retire hook, the hooked
// records that came with them (c.staged) too, and a twin gets the same
// slots.
//
//go:noinline
func (c *Core) retireStaged(batch []staged) {
	for len(batch) > 0 && c.err == nil {
		room := uint64(len(c.win)) - (c.tail - c.head)
		n := min(uint64(len(batch)), room, chunk)
		if len(batch) > int(n) { // the next chunk's slots, written on the producer's core: fetched while this one runs
			prefetch(unsafe.Pointer(&batch[n]), uintptr(min(uint64(len(batch))-n, chunk))*unsafe.Sizeof(staged{}))
		}
		win, mask, tail, b := c.win, c.mask, c.tail, batch[:n] // (locals: the stores below would reload fields; b[i] needs no bounds check)
		_ = win[mask]                                          // mask < len(win): no bounds check on win[x&mask] below
		for i := range b {
			pos := tail + uint64(i)
			u := &win[pos&mask]
			u.staged = b[i] // one block move
			u.pos, u.dataAt, u.doneAt = pos, 0, ^uint64(0)
			u.deps, u.pending, u.pendData, u.ev = -1, 0, 0, 0
		}
		if c.staged.on {
			c.takeExtras(b)
		}
		c.tail += n
		batch = batch[n:]
		c.run(false)
	}
}

// stagedExtras is what comes with staged slots for a core with a retire
// hook: the records of the hooked classes, with their stream positions
// (ascending; Async's group, consumed from next), and whether a twin
// takes the slots too.
type stagedExtras struct {
	on   bool // a hook or a twin: retireStaged calls takeExtras
	recs []cpu.DynInst
	pos  []uint64
	next int
}

// takeExtras keeps the hooked records of the slots b just written from
// the tail on (as Retire does), and hands the slots to the twin.
func (c *Core) takeExtras(b []staged) {
	x, end := &c.staged, c.tail+uint64(len(b))
	for ; x.next < len(x.pos) && x.pos[x.next] < end; x.next++ {
		k := x.pos[x.next] & c.mask
		c.dyn[k] = x.recs[x.next]
		c.win[k].flags |= fHook
	}
	if h := &c.commit.cost; h.twin != nil && !h.twin.finished {
		h.forward(b)
	}
}

// flush hands the group over, if it holds anything, and takes a free
// one.
func (a *Async) flush() {
	if len(a.cur.lens) == 0 {
		return
	}
	if !a.started {
		a.start()
	}
	a.full <- a.cur
	if len(a.full) >= a.wakeAt {
		a.wake()
	}
	select {
	case a.cur = <-a.free:
	default: // every group is in flight: the consumer must run, and wakes
		// this goroutine only when several groups are free (a wake-up
		// is a system call on the consumer's thread, the slower one)
		a.waits++
		a.wake()
		a.cur, _ = take(a.free, a.freed)
	}
}

// sync returns when the model has consumed every delivery so far.
func (a *Async) sync() {
	if a.closed {
		return
	}
	a.flush()
	if !a.started { // nothing was handed over
		return
	}
	a.full <- nil
	a.wake()
	<-a.synced
}

// Sync returns when the model has consumed every delivery so far: until
// the next delivery, what its mark callback reads may change (sampled
// simulation's windows, added as the functional core reaches them).
func (a *Async) Sync() { a.sync() }

// AddMark is Core.AddMark from the functional core's thread, after a
// sync: the model's goroutine reads the marks as it commits.
func (a *Async) AddMark(n uint64) {
	a.sync()
	a.core.AddMark(n)
}

// CycleAt is the cpu.CPU.CycleFunc: the model's cycle once it has seen
// every delivery so far (Core.CycleAt's value inline).
func (a *Async) CycleAt(instret uint64) uint64 {
	a.sync()
	return a.core.CycleAt(instret)
}

// Finish hands over the last deliveries, stops the goroutine once they
// are consumed and finishes the model (Core.Finish): its error, if any.
// The Core is the caller's again.
func (a *Async) Finish() error {
	if !a.closed {
		a.closed = true
		a.flush()
		if a.started {
			close(a.full)
			a.wake()
			<-a.done
		}
	}
	err := a.core.Finish()
	a.core.fetch.pre = false // the predictor is the Core's again
	if a.core.sq.pre {       // and the store queue's chains
		a.sl.handBack(&a.core.sq)
	}
	return err
}
