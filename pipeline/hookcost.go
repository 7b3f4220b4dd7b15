package pipeline

import "github.com/rvsim/rvsim/cpu"

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
	drop bool        // ignore the hook's stalls (SetDropHookStalls)
	twin *twinRunner // the same machine without the stalls; nil: none
	rec  bool        // in a twin: note the commit cycles in recs
	recs []uint64    // in a twin: commit cycles since they were last taken
	// From position done on: the commit cycles here (at) with the cause
	// of the latest stall honoured before each committed (causes), and
	// the twin's commit cycles (twinAt), each a queue (read from head).
	at, twinAt       []uint64
	causes           []int32
	atHead, twinHead int
	done             uint64
	lag              int64 // c - t of the last instruction accounted
	cause            int   // the cause of the latest stall honoured
	next             int   // 1 + the cause of a stall honoured this cycle (0: none)
	// parts is the positive lag by cause, as a stack of increases
	// (newest last).
	parts []lagPart
	// blocked is the cycles commit was blocked by the hook; dropped the
	// stall cycles asked for and ignored.
	blocked, dropped uint64
}

type lagPart struct {
	cause  int
	cycles uint64
}

// twinRunner runs the twin on its own goroutine (on a second host core it
// costs little time), a few thousand instructions behind: the core copies
// the stream into chunks for it, and it sends back its commit cycles.
// The channels bound how far behind it may fall; the result does not
// depend on the goroutines' timing.
type twinRunner struct {
	core     *Core
	in       chan []cpu.DynInst // chunks to simulate (closed at the end)
	free     chan []cpu.DynInst // chunks simulated, for reuse
	out      chan []uint64      // its commit cycles, in position order (closed at the end)
	err      error              // its Finish (read after out is closed)
	buf      []cpu.DynInst      // the chunk being filled
	finished bool               // out is closed: the twin's state may be read
}

const (
	twinChunk = 4096 // instructions per chunk
	twinQueue = 8    // chunks in flight
)

// startTwin builds the twin and starts it, before the first instruction.
func (c *Core) startTwin() {
	twin, err := New(&c.cfg)
	if err != nil { // c's configuration was validated: cannot happen
		c.fail("retire hook cost: " + err.Error())
		return
	}
	twin.noSkip = c.noSkip
	twin.commit.cost.rec = true
	twin.setExtras()
	r := &twinRunner{core: twin, in: make(chan []cpu.DynInst, twinQueue), free: make(chan []cpu.DynInst, twinQueue+2),
		out: make(chan []uint64, twinQueue+2), buf: make([]cpu.DynInst, 0, twinChunk)}
	c.commit.cost.twin = r
	c.setExtras()
	go func() {
		tc := &twin.commit.cost
		for chunk := range r.in {
			twin.Retire(chunk)
			r.out <- tc.takeRecs()
			select {
			case r.free <- chunk[:0]:
			default:
			}
		}
		r.err = twin.Finish()
		r.out <- tc.takeRecs()
		close(r.out)
	}()
}

// takeRecs returns the twin's commit cycles noted since the last call.
func (h *hookCost) takeRecs() []uint64 {
	r := h.recs
	h.recs = make([]uint64, 0, twinChunk)
	return r
}

// feed copies a batch into the twin's chunk, sending the chunk when full.
func (h *hookCost) feed(batch []cpu.DynInst) {
	r := h.twin
	for len(batch) > 0 {
		n := min(len(batch), twinChunk-len(r.buf))
		r.buf = append(r.buf, batch[:n]...)
		batch = batch[n:]
		if len(r.buf) == twinChunk {
			h.send()
		}
	}
}

// send hands the chunk to the twin, taking its commit cycles while it
// waits for room.
func (h *hookCost) send() {
	r := h.twin
	for {
		select {
		case r.in <- r.buf:
			select {
			case r.buf = <-r.free:
			default:
				r.buf = make([]cpu.DynInst, 0, twinChunk)
			}
			return
		case b := <-r.out:
			h.twinAt = append(h.twinAt, b...)
		}
	}
}

// poll takes the twin's commit cycles that are ready and accounts the
// positions both cores have committed.
func (h *hookCost) poll() {
	for {
		select {
		case b := <-h.twin.out:
			h.twinAt = append(h.twinAt, b...)
			continue
		default:
		}
		break
	}
	h.settle()
}

// finishTwin sends the last chunk, waits for the twin to finish and
// accounts every position (the core has finished too).
func (h *hookCost) finishTwin() error {
	r := h.twin
	if len(r.buf) > 0 {
		h.send()
	}
	close(r.in)
	for b := range r.out {
		h.twinAt = append(h.twinAt, b...)
	}
	r.finished = true
	h.settle()
	return r.err
}

// committed notes the commit cycle of the positions [from, to), which
// commit now.
func (h *hookCost) committed(now, from, to uint64) {
	for p := from; p < to; p++ {
		if h.rec {
			h.recs = append(h.recs, now)
		} else {
			h.at = append(h.at, now)
			h.causes = append(h.causes, int32(h.cause))
		}
	}
}

// settle accounts the positions both cores have committed.
func (h *hookCost) settle() {
	n := min(len(h.at)-h.atHead, len(h.twinAt)-h.twinHead)
	for i := 0; i < n; i++ {
		a, t := h.at[h.atHead+i], h.twinAt[h.twinHead+i]
		h.setLag(int64(a)-int64(t), int(h.causes[h.atHead+i]))
	}
	h.atHead += n
	h.twinHead += n
	h.done += uint64(n)
	// Drop what is accounted once it is most of the queues.
	if h.atHead > 1024 && 2*h.atHead > len(h.at) {
		k := copy(h.at, h.at[h.atHead:])
		copy(h.causes, h.causes[h.atHead:])
		h.at, h.causes, h.atHead = h.at[:k], h.causes[:k], 0
	}
	if h.twinHead > 1024 && 2*h.twinHead > len(h.twinAt) {
		k := copy(h.twinAt, h.twinAt[h.twinHead:])
		h.twinAt, h.twinHead = h.twinAt[:k], 0
	}
}

// setLag moves the lag to l, attributing the change (see hookCost).
func (h *hookCost) setLag(l int64, cause int) {
	old, now := max(h.lag, 0), max(l, 0)
	switch {
	case now > old:
		d := uint64(now - old)
		if n := len(h.parts); n > 0 && h.parts[n-1].cause == cause {
			h.parts[n-1].cycles += d
		} else {
			h.parts = append(h.parts, lagPart{cause, d})
		}
	case now < old:
		d := uint64(old - now)
		for d > 0 {
			top := &h.parts[len(h.parts)-1]
			k := min(d, top.cycles)
			top.cycles -= k
			d -= k
			if top.cycles == 0 {
				h.parts = h.parts[:len(h.parts)-1]
			}
		}
	}
	h.lag = l
}

// real is the cost so far: the lag, or 0 when it is negative.
func (h *hookCost) real() uint64 { return uint64(max(h.lag, 0)) }

// HookStallCycles returns the cycles the retire hook's stalls really cost
// the run, by cause (Commit.Cause; see hookcost.go): the run's cycles
// minus those it would have had without the stalls, split among the
// causes. Complete after Finish.
func (c *Core) HookStallCycles() []uint64 {
	var out []uint64
	for _, p := range c.commit.cost.parts {
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
	return h.blocked, h.real(), h.lag
}

// SetDropHookStalls makes the core call the retire hook as usual but
// ignore the stalls it asks for (a debugging and test setting: the run
// then has the cycles it would have without the stalls, and the hook sees
// the same instructions). Set it before the first Retire.
func (c *Core) SetDropHookStalls(drop bool) { c.commit.cost.drop = drop }
