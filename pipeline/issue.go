package pipeline

import "math/bits"

// issueStage selects up to issue_width ready instructions a cycle, oldest
// first, subject to functional-unit availability, and executes them: the
// completion cycle is known at issue (a fixed latency, or the cache
// model's answer for a load), so issue wakes the consumers at once by
// following the producer's dependency edges.
//
// Ready instructions wait in one set of window slots per unit kind (a bit
// per slot, slotSet); the selection compares the sets' oldest entries. Instructions whose operands
// become ready in the future wait on the timing wheel, drained at the start
// of each cycle (wakeup). The store queue is a ring in program order with a
// pointer to the oldest store whose address is still unknown; loads younger
// than it wait in the blocked heap until its address event.
type issueStage struct {
	width     int
	lat       [numFU]uint64
	count     [numFU]int
	pipelined [numFU]bool
	pipeMask  uint8           // bit per pipelined unit kind
	busy      [numFU][]uint64 // unpipelined units: the cycle each is free again
	firstFree [numFU]uint64   // unpipelined kinds: the earliest cycle a unit is free
	ready     [numFU]slotSet
	top       [numFU]uint64 // ready[f]'s oldest, ^0 if empty: selection reads one cache line
	nonEmpty  uint8         // bit per unit kind with a non-empty ready heap
	// soon holds the consumers wake found ready next cycle; tick puts them
	// into their ready sets as it ends (not into the wheel, whose wakeup
	// would do the same at the start of the next cycle; not at once, where
	// this cycle's selection would see them). It holds too the stores that
	// issued with an address known next cycle: their address events are
	// handled as tick ends, which no stage can tell from the start of the
	// next cycle (rename and fetch read neither the flag nor the store
	// queue's unknown-address pointer, and a store allocated in between
	// lands at the pointer, as it would have).
	soon      []uint64
	wheelOnly bool    // tests: every wakeup and address event goes through the wheel (the general path)
	scanAll   bool    // tests: every address event scans the store queue (the general path)
	blocked   posHeap // loads waiting for an older store's address
	fwdLat    uint64
	penalty   uint64
	disePen   uint64 // the redirect penalty of a taken DISE branch

	// Statistics.
	issued                                                     [numFU]uint64
	busyCycles                                                 [numFU]uint64
	loadsBlocked, forwards, fwdWaits, partialWaits, addrEvents uint64
}

func (s *issueStage) init(c *Core) {
	s.width = c.cfg.Core.IssueWidth
	fu := &c.cfg.FU
	for i, u := range []struct {
		count, lat int
		pipe       bool
	}{
		{fu.IntALU.Count, fu.IntALU.Latency, fu.IntALU.Pipelined},
		{fu.IntMul.Count, fu.IntMul.Latency, fu.IntMul.Pipelined},
		{fu.IntDiv.Count, fu.IntDiv.Latency, fu.IntDiv.Pipelined},
		{fu.FPAdd.Count, fu.FPAdd.Latency, fu.FPAdd.Pipelined},
		{fu.FPMul.Count, fu.FPMul.Latency, fu.FPMul.Pipelined},
		{fu.FPDiv.Count, fu.FPDiv.Latency, fu.FPDiv.Pipelined},
		{fu.MemPort.Count, fu.MemPort.Latency, fu.MemPort.Pipelined},
	} {
		s.count[i], s.lat[i], s.pipelined[i] = u.count, uint64(u.lat), u.pipe
		if u.pipe {
			s.pipeMask |= 1 << i
		} else {
			s.busy[i] = make([]uint64, u.count)
		}
	}
	for f := range s.top {
		s.top[f] = ^uint64(0)
		s.ready[f].init(len(c.win))
	}
	s.blocked.init(c.cfg.Core.LQ)
	s.soon = make([]uint64, 0, len(c.win)) // a position is woken once
	s.fwdLat = uint64(c.cfg.Core.ForwardLatency)
	s.penalty = uint64(c.cfg.Core.RedirectPenalty)
	s.disePen = uint64(c.cfg.Core.DISERedirect())
}

// redirect signals the resolution of a mispredicted branch to fetch, or of
// a taken DISE branch to decode.
func (s *issueStage) redirect(c *Core, u *uop) {
	if u.flags&fMispred != 0 {
		c.sig.redirectAt = u.doneAt + s.penalty
	} else {
		c.sig.diseRedirectAt = u.doneAt + s.disePen
	}
}

func (s *issueStage) push(f uint8, pos uint64) {
	s.ready[f].add(pos)
	s.nonEmpty |= 1 << f
	s.top[f] = min(s.top[f], pos)
}

// wakeup drains this cycle's wheel events: instructions whose operands are
// ready go to the ready heaps; store address events advance the
// unknown-address pointer and release the loads it held. Its progress is
// the address events it handled (addrEvents' rise).
func (s *issueStage) wakeup(c *Core) int {
	win, mask, events := c.win, c.mask, s.addrEvents
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	for _, pos := range c.wheel.take(c.now) {
		u := &win[pos&mask]
		if u.flags&(fIssued|fStore|fAddrKnown) == fIssued|fStore {
			s.addressKnown(c, u)
			continue
		}
		s.push(u.fu, pos)
	}
	for c.wheel.over.len() != 0 { // (the heap is nearly always empty: no call then)
		pos, ok := c.wheel.takeFar(c.now)
		if !ok {
			break
		}
		u := &win[pos&mask]
		if u.flags&(fIssued|fStore|fAddrKnown) == fIssued|fStore {
			s.addressKnown(c, u)
			continue
		}
		s.push(u.fu, pos)
	}
	return int(s.addrEvents - events)
}

// addressKnown handles a store's address event. (It returns nothing: a
// result would raise its inlining cost past the budget, and it is called
// for every store.)
func (s *issueStage) addressKnown(c *Core, u *uop) {
	u.flags |= fAddrKnown
	s.addrEvents++
	// Only the store at the unknown-address pointer can move it (every
	// older one's address is known, no younger one's flag is read before
	// it moves), and the limit the blocked loads wait on moves only with
	// it: a store that issued out of order has nothing to release.
	if u.sidx == c.sq.unknown || s.scanAll {
		s.advanceUnknown(c)
	}
}

// advanceUnknown moves the store queue's unknown-address pointer past
// stores whose address is known and releases the loads older than the new
// oldest unknown-address store.
//
// It is kept out of line (noinline): inlined into addressKnown, as the
// profile-guided build did, it made addressKnown too large to inline into
// wakeup and tick, so every store's address event was a call.
//
//go:noinline
func (s *issueStage) advanceUnknown(c *Core) {
	c.sq.advance(c)
	// A load waits for stores strictly older than itself; an AMO may be
	// the oldest unknown-address store itself.
	limit := c.sq.unknownLimit()
	for s.blocked.len() > 0 && s.blocked.top() <= limit {
		p := s.blocked.pop()
		s.push(fuMem, p)
	}
}

// freeUnit returns the index of a free unpipelined unit of kind f, or -1.
func (s *issueStage) freeUnit(f int, now uint64) int {
	if now < s.firstFree[f] {
		return -1
	}
	for i, t := range s.busy[f] {
		if t <= now {
			return i
		}
	}
	return -1
}

// take marks unpipelined unit i of kind f busy until `until`.
func (s *issueStage) take(f, i int, until uint64) {
	b := s.busy[f]
	b[i] = until
	first := b[0]
	for _, t := range b[1:] {
		first = min(first, t)
	}
	s.firstFree[f] = first
}

// freeAt returns the first cycle after now a unit of kind f is free.
func (s *issueStage) freeAt(f int, now uint64) uint64 {
	if s.pipelined[f] {
		return now + 1
	}
	return max(s.firstFree[f], now+1)
}

// tick is kept out of Core.cycle (noinline): inlined there with every
// other stage, the selection loop's values spilled around each call
// (docs/TIMING.md, the fifth round).
//
//go:noinline
func (s *issueStage) tick(c *Core) int {
	now := c.now
	// The unit kinds that can take an operation this cycle: every pipelined
	// kind, and the unpipelined ones with a free unit (checked only when
	// something waits for them).
	avail := s.pipeMask
	for m := s.nonEmpty &^ s.pipeMask; m != 0; m &= m - 1 {
		if f := bits.TrailingZeros8(m); now >= s.firstFree[f] {
			avail |= 1 << f
		}
	}
	win, mask, left := c.win, c.mask, s.width // left: issue slots this cycle
	free := s.count                           // pipelined units left this cycle, per kind
	_ = win[mask]                             // mask < len(win): no bounds check on win[x&mask] below (left counts down, so width is not live in the loop)
	for left > 0 {
		cand := s.nonEmpty & avail
		if cand == 0 {
			break
		}
		best := bits.TrailingZeros8(cand)
		bestPos := s.top[best]
		for m := cand & (cand - 1); m != 0; m &= m - 1 {
			if f := bits.TrailingZeros8(m); s.top[f] < bestPos {
				best, bestPos = f, s.top[f]
			}
		}
		h := &s.ready[best]
		h.del(bestPos)
		if h.n == 0 {
			s.nonEmpty &^= 1 << best
			s.top[best] = ^uint64(0)
		} else if p, ok := h.near(bestPos + 1); ok { // h.next, its common case inline
			s.top[best] = p
		} else {
			s.top[best] = h.nextFar(bestPos + 1)
		}
		u := &win[bestPos&mask]
		if u.flags&fLoad != 0 && !s.loadReady(c, u) {
			continue
		}
		// Take the unit.
		if s.pipelined[best] {
			s.busyCycles[best]++
			if free[best]--; free[best] == 0 {
				avail &^= 1 << best
			}
		} else {
			s.take(best, s.freeUnit(best, now), now+s.lat[best])
			s.busyCycles[best] += s.lat[best]
			if now < s.firstFree[best] {
				avail &^= 1 << best
			}
		}
		// Execute: the completion cycle is known now.
		lat := s.lat[best]
		u.flags |= fIssued
		s.issued[best]++
		switch {
		case u.flags&(fLoad|fStore) == 0:
			u.doneAt = now + lat
		case u.flags&fLoad != 0: // doneAt set by loadReady
			if u.flags&fStore != 0 { // an AMO: its store data is its result
				u.dataAt = u.doneAt
				c.wheel.add(now+lat, now, u.pos) // address event
			}
		default:
			u.doneAt = now + lat
			if lat == 1 && !s.wheelOnly {
				s.soon = append(s.soon, u.pos) // address event next cycle: no wheel round trip
			} else if !c.wheel.tryAdd(u.doneAt, now, u.pos) { // address event
				c.wheel.addSlow(u.doneAt, now, u.pos)
			}
		}
		if u.flags&(fMispred|fDISEBranch) != 0 {
			s.redirect(c, u)
		}
		if u.deps >= 0 {
			// Wake the consumers along u's dependency edges (inline: a
			// call per issued producer spills the selection's state).
			// Each learns when its operand is ready; one whose last
			// operand is scheduled becomes ready (next cycle: soon; later:
			// the wheel). A store whose data is scheduled releases the
			// loads parked on it.
			done, edges := u.doneAt, c.edges.e
			for i := u.deps; ; {
				e := &edges[i]
				v := &win[e.to&mask]
				if e.kind == edgeData {
					v.dataAt = max(v.dataAt, done)
					if v.pendData--; v.pendData == 0 {
						if w := &c.sq.at(v.sidx).waiters; *w >= 0 { // (usually none: no call)
							c.wakeList(w)
						}
					}
				} else {
					v.readyAt = max(v.readyAt, done)
					if v.pending--; v.pending == 0 {
						if v.readyAt <= now+1 && !s.wheelOnly {
							s.soon = append(s.soon, e.to) // ready next cycle: no wheel round trip
						} else if !c.wheel.tryAdd(v.readyAt, now, e.to) {
							c.wheel.addSlow(v.readyAt, now, e.to)
						}
					}
				}
				if e.next < 0 { // the last edge: the whole list goes back to the free list
					e.next = c.edges.free
					break
				}
				i = e.next
			}
			c.edges.free, u.deps = u.deps, -1
		}
		left--
	}
	if len(s.soon) > 0 {
		for _, pos := range s.soon {
			if u := &win[pos&mask]; u.flags&(fIssued|fStore|fAddrKnown) == fIssued|fStore {
				s.addressKnown(c, u) // a store's address, known next cycle
			} else {
				s.push(u.fu, pos)
			}
		}
		s.soon = s.soon[:0]
	}
	n := s.width - left
	c.sig.iqUsed -= n
	return n
}

// loadReady decides whether load u can issue now and, if so, sets its
// completion cycle: from a forwarding store, or from the D-cache.
func (s *issueStage) loadReady(c *Core, u *uop) bool {
	if c.sq.olderUnknown(u.pos) {
		// An older store's address is unknown: wait for it.
		s.blocked.push(u.pos)
		s.loadsBlocked++
		return false
	}
	agen := c.now + s.lat[fuMem]
	if u.fwd != 0 && u.fwd-1 >= c.sq.head {
		i := u.fwd - 1
		e := c.sq.at(i)
		if !e.covers(u) {
			// Partial overlap: the load reads the cache once the store has
			// written it (drained).
			c.edges.add(&e.waiters, u.pos, edgeWait)
			s.partialWaits++
			return false
		}
		dataAt := e.dataAt
		if i >= c.sq.commit { // still in flight
			st := &c.win[e.pos&c.mask]
			if st.pendData != 0 {
				c.edges.add(&e.waiters, u.pos, edgeWait)
				s.fwdWaits++
				return false
			}
			dataAt = st.dataAt
		}
		u.doneAt = max(agen, dataAt) + s.fwdLat
		u.flags |= fForwarded
		s.forwards++
		return true
	}
	done, hit := c.l1d.Access(u.addr, false, agen)
	u.doneAt = done
	u.ev |= EvL1DAccess
	if !hit {
		u.ev |= missEvents(c.l1d, EvL1DMiss)
		u.flags |= fDMiss
	}
	return true
}
