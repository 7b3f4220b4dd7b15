package pipeline

import (
	"context"
	"os"
	"runtime/pprof"
	"slices"

	"github.com/rvsim/rvsim/internal/crash"
)

// The real cost of the retire hook's stalls.
//
// A stall the hook asks for blocks commit, but the rest of the core keeps
// working: completed instructions pile up in the ROB and commit catches up
// at commit_width a cycle once the stall ends. Only what reaches the end
// of the run costs anything, and that goes through back pressure: a full
// ROB (or load/store queue, or register file) stops dispatch, a
// serializing instruction waits for the ROB to drain, fetch restarts after
// a trap only when it commits. So the cycles asked for overstate the cost
// many times, and no account kept at the commit stage alone can see it.
//
// hookCost measures it exactly. A twin core, the same machine without
// the hook, takes the same instructions, and for every instruction the
// commit stages of both note its commit cycle. The lag of instruction i
// is c_i - t_i, its commit cycle here minus the twin's; both runs end one
// cycle after their last commit, so the lag of the last instruction is
// the run's cycles minus those the same instructions take without the
// stalls. TestHookCostScenarios checks it against hand-computed timelines
// and TestHookCostProgram (and sim's TestStallCycles, on benchmarks)
// against a separate run with the stalls dropped (SetDropHookStalls).
// That run executes the same instructions unless the program reads the
// cycle counter and acts on it (the counter follows the model): then the
// two can differ by the cycles of the instructions that differ. The twin
// costs a second timing model, on its own goroutine (twinRunner).
//
// The lag can be negative (a timing anomaly: a stall that makes a later
// cache access hit); the real cost then reads 0.
//
// Several requesters (profiling units) share the hook: the hook names the
// one whose stall commit honours (Commit.Cause; the hub names the unit
// that asked most). The lag is split among them at commit, instruction by
// instruction: an increase of the lag goes to the cause of the latest
// stall honoured before the instruction committed; a decrease (commit
// catching up) takes back the most recent increases first (last in,
// first out). The parts always sum to the lag (or 0 when it is negative).
type hookCost struct {
	drop       bool        // ignore the hook's stalls (SetDropHookStalls)
	unmeasured bool        // honour them without the twin (SetMeasureHookStalls)
	twin       *twinRunner // the same machine without the stalls; nil: none
	rec        bool        // in a twin: note the commit cycles in recs
	recs       []uint64    // in a twin: its commit cycles (the account's twinAt, lent while a batch runs)
	// The commit cycles here since the last batch went to the twin (at),
	// with the cause of the latest stall honoured before each committed
	// (causes): the batch takes them to the twin's account.
	at     []uint64
	causes []int32
	cause  int // the cause of the latest stall honoured
	next   int // 1 + the cause of a stall honoured this cycle (0: none)
	// acct is the lag and its parts, the twin's until it has finished
	// (zero before).
	acct lagAccount
	// blocked is the cycles commit was blocked by the hook; dropped the
	// stall cycles asked for and ignored.
	blocked, dropped uint64
}

// lagAccount accounts the lag position by position. It runs on the twin's
// goroutine, where both cores' commit cycles meet, off the simulation's
// thread: the batches bring the core's, the twin notes its own.
type lagAccount struct {
	// From the first position not accounted on: the core's commit cycles
	// (at) with their causes, and the twin's (twinAt), each a queue (read
	// from head).
	at, twinAt       []uint64
	causes           []int32
	atHead, twinHead int
	lag              int64 // c - t of the last instruction accounted
	// parts is the positive lag by cause, as a stack of increases
	// (newest last).
	parts []lagPart
}

type lagPart struct {
	cause  int
	cycles uint64
}

// twinRunner runs the twin on its own goroutine (on a second host core it
// costs little time), a few thousand instructions behind. The core stages
// the stream once for both: it classifies each record into its own window
// slot (intake), marks the fetch runs, predicts the control instructions
// (streamPredictor, when it may: predict) and copies the slot's staged part
// (48 bytes, not the 88-byte record) into the twin's batch, which the twin
// takes as Async's model does (retireStaged): no intake, no prediction of
// its own. A batch goes back with the twin's commit cycles noted while it
// ran, and is filled again. The channels bound how far behind the twin may
// fall; the result does not depend on the goroutines' timing.
type twinRunner struct {
	core *Core
	in   chan *twinBatch // batches to simulate (closed at the end); it holds every batch: sending never blocks
	out  chan *twinBatch // batches simulated, emptied (closed at the end)
	kick chan struct{}   // wakes a twin that found in empty
	// The twin's side: its Finish, and the account (read after out is
	// closed).
	err  error
	acct lagAccount

	// The simulation's side.
	buf      *twinBatch // the batch being filled
	made     int        // batches allocated
	finished bool       // out is closed: the twin's state may be read
	predict  bool       // the core predicts for both (the slots carry fMispred)
	sp       streamPredictor
	slots    [chunk]staged // stage's slots before the batch takes them
}

// twinBatch is what the twin takes at once.
type twinBatch struct {
	st     []staged // the slots to simulate
	at     []uint64 // the core's commit cycles since the last batch (hookCost.at)
	causes []int32  // and their causes
}

const (
	twinChunk   = 16384 // slots per batch
	twinBatches = 8     // batches in circulation (one being filled)
	twinWakeAt  = twinBatches / 2
)

// startTwin builds the twin and starts it, before the first instruction.
// Fed by Async (async), the twin takes the slots Async's producer staged,
// marked, and predicted when predict (the core then predicts nothing).
func (c *Core) startTwin(async, predict bool) {
	twin, err := New(&c.cfg)
	if err != nil { // c's configuration was validated: cannot happen
		c.fail("retire hook cost: " + err.Error())
		return
	}
	twin.noSkip = c.noSkip
	twin.commit.cost.rec = true
	twin.setExtras()
	r := &twinRunner{core: twin, in: make(chan *twinBatch, twinBatches), out: make(chan *twinBatch, twinBatches),
		kick: make(chan struct{}, 1)}
	// The twin shares the core's predictions when both predictors start
	// cold and nothing reads the core's mid-run (as Async's producer: no
	// interval writer, no marks; sampled simulation's models are warmed).
	switch {
	case async:
		twin.fetch.pre = predict
		c.staged.on = true
	default:
		r.predict = c.tail == 0 && c.interval.n == 0 && !c.marking && c.warmLine == 0
		if r.predict {
			r.sp = streamPredictor{bp: c.bp, token: c.fetch.token, perfectRAS: c.fetch.perfectRAS}
			c.fetch.pre, twin.fetch.pre = true, true
		}
	}
	r.buf = r.next()
	c.commit.cost.twin = r
	c.setExtras()
	// The label tells the twin's time apart in CPU profiles
	// (go tool pprof -tagfocus timing=twin).
	go pprof.Do(context.Background(), pprof.Labels("timing", "twin"), func(context.Context) { defer crash.Exit(os.Stderr); r.run() })
}

// run is the twin's goroutine: it simulates the batches and accounts
// the positions both cores have committed.
func (r *twinRunner) run() {
	twin := r.core
	tc, a := &twin.commit.cost, &r.acct
	for {
		b, ok := take(r.in, r.kick)
		if !ok {
			break
		}
		tc.recs = a.twinAt // (the twin's commit notes go straight into the account)
		twin.retireStaged(b.st)
		a.twinAt = tc.recs
		a.at, a.causes = append(a.at, b.at...), append(a.causes, b.causes...)
		a.settle()
		b.st, b.at, b.causes = b.st[:0], b.at[:0], b.causes[:0]
		r.out <- b
	}
	tc.recs = a.twinAt
	r.err = twin.Finish()
	a.twinAt = tc.recs
	a.settle()
	close(r.out)
}

// wake kicks the twin (it may be asleep).
func (r *twinRunner) wake() {
	select {
	case r.kick <- struct{}{}:
	default: // a kick is pending already
	}
}

// stage marks the n slots (n <= chunk) from position pos on (whose
// predecessor has pc and successor next) for fetch's runs as markRuns
// does, predicts their control instructions if the twin shares the
// predictions, and copies their staged parts into the twin's batch,
// sending it when full. (Before the retire hook's fHook: the twin has no
// hook.)
func (h *hookCost) stage(c *Core, pos uint64, n int, pc, next uint64) {
	r := h.twin
	win, mask, line := c.win, c.mask, c.fetch.lineMask
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	// The parts are gathered in a buffer of this thread's and copied into
	// the batch in bulk: written one at a time into the batch, whose lines
	// the twin's core read last, each store missed (twice the time).
	out := r.slots[:n]
	for i := range out {
		u := &win[(pos+uint64(i))&mask]
		u.markRun(line, pc, next) // (markRuns in this loop)
		pc, next = u.pc, u.next
		if u.flags&fCtrl != 0 && r.predict {
			r.sp.uop(u)
		}
		out[i] = u.staged
	}
	h.forward(out)
}

// forward copies staged slots into the twin's batch, sending it when
// full: stage's slots, or Async's (marked, and predicted when the twin
// shares the predictions, by the producer).
func (h *hookCost) forward(out []staged) {
	r := h.twin
	for len(out) > 0 {
		b := r.buf
		k := min(len(out), twinChunk-len(b.st))
		b.st = append(b.st, out[:k]...)
		out = out[k:]
		if len(b.st) == twinChunk {
			h.send()
		}
	}
}

// send hands the batch being filled to the twin and takes another.
func (h *hookCost) send() {
	r := h.twin
	b := r.buf
	b.at, h.at = h.at, b.at // (swapped: b's are empty)
	b.causes, h.causes = h.causes, b.causes
	r.in <- b // (in holds every batch: no wait)
	if len(r.in) >= twinWakeAt {
		r.wake()
	}
	r.buf = r.next()
}

// next returns an empty batch: one back from the twin, a new one while
// fewer than twinBatches exist, or the next the twin gives back.
func (r *twinRunner) next() *twinBatch {
	select {
	case b := <-r.out:
		return b
	default:
	}
	if r.made < twinBatches {
		r.made++
		return &twinBatch{st: make([]staged, 0, twinChunk), at: make([]uint64, 0, twinChunk), causes: make([]int32, 0, twinChunk)}
	}
	r.wake() // every batch is the twin's: it must run
	return <-r.out
}

// finishTwin sends the last batch (the core has finished: it holds the
// last commit cycles), waits for the twin to finish and takes its
// account.
func (h *hookCost) finishTwin() error {
	r := h.twin
	r.buf.at, r.buf.causes = h.at, h.causes
	r.in <- r.buf
	r.buf, h.at, h.causes = nil, nil, nil
	close(r.in)
	r.wake()
	for range r.out {
	}
	r.finished = true
	h.acct = r.acct
	return r.err
}

// committed notes the commit cycle of the positions [from, to), which
// commit now.
func (h *hookCost) committed(now, from, to uint64) {
	n := int(to - from)
	if h.rec {
		h.recs = appendN(h.recs, now, n)
		return
	}
	h.at = appendN(h.at, now, n)
	h.causes = appendN(h.causes, int32(h.cause), n)
}

// appendN appends n copies of v to s.
func appendN[T any](s []T, v T, n int) []T {
	s = slices.Grow(s, n)
	s = s[:len(s)+n]
	for i := range s[len(s)-n:] {
		s[len(s)-n+i] = v
	}
	return s
}

// settle accounts the positions both cores have committed.
func (a *lagAccount) settle() {
	n := min(len(a.at)-a.atHead, len(a.twinAt)-a.twinHead)
	at, causes, twinAt := a.at[a.atHead:a.atHead+n], a.causes[a.atHead:a.atHead+n], a.twinAt[a.twinHead:a.twinHead+n]
	for i := range at {
		a.setLag(int64(at[i])-int64(twinAt[i]), int(causes[i]))
	}
	a.atHead += n
	a.twinHead += n
	// Drop what is accounted once it is most of the queues.
	if a.atHead > 1024 && 2*a.atHead > len(a.at) {
		k := copy(a.at, a.at[a.atHead:])
		copy(a.causes, a.causes[a.atHead:])
		a.at, a.causes, a.atHead = a.at[:k], a.causes[:k], 0
	}
	if a.twinHead > 1024 && 2*a.twinHead > len(a.twinAt) {
		k := copy(a.twinAt, a.twinAt[a.twinHead:])
		a.twinAt, a.twinHead = a.twinAt[:k], 0
	}
}

// setLag moves the lag to l, attributing the change (see hookCost).
func (a *lagAccount) setLag(l int64, cause int) {
	old, now := max(a.lag, 0), max(l, 0)
	switch {
	case now > old:
		d := uint64(now - old)
		if n := len(a.parts); n > 0 && a.parts[n-1].cause == cause {
			a.parts[n-1].cycles += d
		} else {
			a.parts = append(a.parts, lagPart{cause, d})
		}
	case now < old:
		d := uint64(old - now)
		for d > 0 {
			top := &a.parts[len(a.parts)-1]
			k := min(d, top.cycles)
			top.cycles -= k
			d -= k
			if top.cycles == 0 {
				a.parts = a.parts[:len(a.parts)-1]
			}
		}
	}
	a.lag = l
}

// real is the cost (after Finish; 0 before): the lag, or 0 when it is
// negative.
func (h *hookCost) real() uint64 { return uint64(max(h.acct.lag, 0)) }

// HookStallCycles returns the cycles the retire hook's stalls really cost
// the run, by cause (Commit.Cause; see hookcost.go): the run's cycles
// minus those it would have had without the stalls, split among the
// causes. Complete after Finish; nil when the stalls are not measured
// (HookStallsMeasured).
func (c *Core) HookStallCycles() []uint64 {
	if !c.HookStallsMeasured() {
		return nil
	}
	var out []uint64
	for _, p := range c.commit.cost.acct.parts {
		for len(out) <= p.cause {
			out = append(out, 0)
		}
		out[p.cause] += p.cycles
	}
	return out
}

// HookStallCost is the retire hook's cost: the cycles commit was blocked
// (the stalls it asked for and got), the cycles they really cost the run
// (the sum of HookStallCycles), and the run's cycles minus the twin's
// (the same, unless negative). Complete after Finish.
func (c *Core) HookStallCost() (blocked, real uint64, diff int64) {
	h := &c.commit.cost
	return h.blocked, h.real(), h.acct.lag
}

// SetMeasureHookStalls(false) makes the core honour the retire hook's
// stalls without measuring what they really cost: no twin runs (the work
// of a second timing model) and HookStallCycles is nil. Set it before the
// first Retire.
func (c *Core) SetMeasureHookStalls(measure bool) { c.commit.cost.unmeasured = !measure }

// HookStallsMeasured reports whether HookStallCycles measures the stalls'
// cost: a retire hook whose stalls are neither dropped nor unmeasured.
func (c *Core) HookStallsMeasured() bool {
	h := &c.commit.cost
	return c.hook != nil && !h.drop && !h.unmeasured
}

// wantsTwin reports whether the twin must start now: before the first
// instruction of a core whose hook's stalls are measured.
func (c *Core) wantsTwin() bool {
	return c.tail == 0 && c.HookStallsMeasured() && c.commit.cost.twin == nil
}

// SetDropHookStalls makes the core call the retire hook as usual but
// ignore the stalls it asks for (a debugging and test setting: the run
// then has the cycles it would have without the stalls, and the hook sees
// the same instructions). Set it before the first Retire.
func (c *Core) SetDropHookStalls(drop bool) { c.commit.cost.drop = drop }
