package pipeline

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
// hookCost measures it exactly: a twin core, the same machine without the
// hook, takes the same instructions (timing never changes what executes),
// and for every instruction the commit stages of both note its commit
// cycle. The lag of instruction i is c_i - t_i, its commit cycle here
// minus the twin's; both runs end one cycle after their last commit, so
// the lag of the last instruction is the run's cycles minus those it
// would have had without the stalls. TestStallCostTwin checks it against
// a separate run with the stalls dropped (SetDropHookStalls). It costs a
// second timing model while a hook is installed.
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
	drop bool  // ignore the hook's stalls (SetDropHookStalls)
	twin *Core // the same machine without the stalls; nil: none
	// twinOf is, in a twin, the real core's account it reports to.
	twinOf *hookCost
	// Per position (index pos & mask): the commit cycle here and in the
	// twin, and the cause of the latest stall honoured before it
	// committed here. Positions below done are accounted.
	at, twinAt []uint64
	causeAt    []int32
	mask, done uint64
	lag        int64 // c - t of the last instruction accounted
	cause      int   // the cause of the latest stall honoured
	next       int   // 1 + the cause of a stall honoured this cycle (0: none)
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

// startTwin builds the twin, before the first instruction.
func (c *Core) startTwin() {
	h := &c.commit.cost
	twin, err := New(&c.cfg)
	if err != nil { // c's configuration was validated: cannot happen
		c.fail("retire hook cost: " + err.Error())
		return
	}
	twin.noSkip = c.noSkip
	twin.commit.cost.twinOf = h
	n := uint64(2 * len(c.win)) // positions in flight in either core, and a chunk
	h.twin = twin
	h.at, h.twinAt, h.causeAt = make([]uint64, n), make([]uint64, n), make([]int32, n)
	h.mask = n - 1
}

// committed notes the commit cycle of the positions [from, to), which
// commit now. False: the positions are too far ahead of those accounted
// for the rings (a model bug).
func (h *hookCost) committed(now, from, to uint64) bool {
	if t := h.twinOf; t != nil {
		if to-t.done > uint64(len(t.twinAt)) {
			return false
		}
		for p := from; p < to; p++ {
			t.twinAt[p&t.mask] = now
		}
		return true
	}
	if to-h.done > uint64(len(h.at)) {
		return false
	}
	for p := from; p < to; p++ {
		h.at[p&h.mask] = now
		h.causeAt[p&h.mask] = int32(h.cause)
	}
	return true
}

// settle accounts the positions both cores have committed, below end.
func (h *hookCost) settle(end uint64) {
	for p := h.done; p < end; p++ {
		k := p & h.mask
		h.setLag(int64(h.at[k])-int64(h.twinAt[k]), int(h.causeAt[k]))
	}
	h.done = max(h.done, end)
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
