package pipeline

// commitStage commits up to commit_width complete instructions a cycle
// from the ROB head, in order. Stores write the D-cache here (the write
// itself is off the critical path: commit does not wait for a store miss).
// The retire hook sees each instruction once, when it is ready to commit,
// and may stall commit. Commit also frees the queue entries and physical
// registers, ends serialization, releases loads parked on a store, and
// restarts fetch after a trap.
type commitStage struct {
	width        int
	penalty      uint64
	blockedUntil uint64   // the retire hook stalls commit until this cycle
	cost         hookCost // what the hook's stalls really cost (hookcost.go)
	extras       bool     // the tail has work: a hook, a twin, intervals or a cycle sink (setExtras)
	allTail      bool     // tests: run the tail every cycle (the general path)

	// Statistics.
	stores, loads, hookStalls uint64 // (instructions: c.head)
}

func (s *commitStage) init(c *Core) {
	s.width = c.cfg.Core.CommitWidth
	s.penalty = uint64(c.cfg.Core.RedirectPenalty)
}

func (s *commitStage) tick(c *Core) {
	if q := &c.sq; q.head < q.commit && q.at(q.head).drainAt <= c.now {
		c.progress += q.drain(c)
	}
	if c.now < s.blockedUntil {
		c.account(cpiProfiler) // the stall was counted when the hook charged it
		return
	}
	win, mask, now, sg := c.win, c.mask, c.now, &c.sig
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	head := c.head
	end := min(c.dispatched, head+uint64(s.width))
	for ; head < end; head++ {
		u := &win[head&mask]
		if u.doneAt > now { // (^0 until issued)
			break
		}
		if u.flags&(fStore|fSerial|fTrapRedirect|fHook) == 0 {
			// A plain load: retireRare's share, without the call, and without a
			// branch (the host mispredicted whether it is a load): fLoad is 1.
			sg.lqUsed -= int(u.flags & fLoad)
			s.loads += uint64(u.flags & fLoad)
		} else {
			if u.flags&fStore != 0 && (u.flags&fAddrKnown == 0 || u.pendData != 0 || u.dataAt > now) {
				break
			}
			if u.flags&fStore != 0 && u.ev&EvL1DAccess == 0 {
				// The write happens here, before the hook, so the hook sees
				// its events; a stalled store does not write twice.
				var hit bool
				u.wdone, hit = c.l1d.Access(u.addr, true, now)
				u.ev |= EvL1DAccess
				if !hit {
					u.ev |= missEvents(c.l1d, EvL1DMiss)
				}
			}
			if u.flags&(fHook|fHooked) == fHook {
				u.flags |= fHooked
				c.commitRec = Commit{D: &c.dyn[head&mask], Cycle: now, Ev: u.ev}
				if st := c.hook(&c.commitRec); st > 0 {
					if s.cost.drop {
						s.cost.dropped += st
					} else {
						s.blockedUntil = now + st
						s.hookStalls++
						c.stalls[stallProfiler] += st
						s.cost.blocked += st
						s.cost.next = c.commitRec.Cause + 1 // from the end of this cycle
						break
					}
				}
			}
			if u.flags&(fStore|fLoad|fSerial|fTrapRedirect) == fStore && c.sq.retire(u, u.wdone) {
				s.stores++ // a plain store: retireRare's share, without the call
			} else if !s.retireRare(c, u) {
				c.head = head
				return
			}
		}
		// No branch on whether there is a destination, or of which file,
		// as in rename: each count takes its flag's bit. (The block keeps
		// the line count it had with its branches, for default.pgo's line
		// offsets, as rename's does: a shorter block moved the calls below
		// it off the profile's lines.)
		sg.intUsed -= int(u.flags / fIntDest & 1)
		sg.fpUsed -= int(u.flags / fFPDest & 1)
	}
	n := int(head - c.head)
	from := c.head
	if s.extras {
		s.tail(c, head)
	}
	c.head = head
	// (the instructions committed are c.head: no count per cycle)
	if n > 0 {
		c.account(cpiCommit)
		if s.extras && c.cyc.sink != nil {
			c.chargeCycles(from, head)
		}
		c.progress += n
		return
	}
	// Nothing committed: say why.
	switch {
	case c.now < s.blockedUntil:
		c.account(cpiProfiler)
	case c.head == c.dispatched:
		switch c.fetch.stallWhy {
		case stallICache:
			if c.now < c.fetch.stallUntil {
				c.account(cpiICache)
				return
			}
		case stallMispredict:
			if c.now < c.fetch.stallUntil {
				c.account(cpiMispredict)
				return
			}
		}
		if c.fetch.blocked && c.fetch.blockedWhy == stallMispredict {
			c.account(cpiMispredict)
			return
		}
		c.account(cpiFrontend)
	default:
		u := &c.win[c.head&c.mask]
		if u.flags&fDMiss != 0 {
			c.stall(stCommit, stallDCache)
			c.account(cpiDCache)
		} else {
			c.account(cpiExecute)
		}
	}
	return
}

// tail is the part of commit's tick after its loop that only a retire
// hook, a hook-cost twin or an interval writer needs (extras): it is
// called before c.head moves to head, and moves it.
func (s *commitStage) tail(c *Core, head uint64) {
	if head > c.head && (s.cost.twin != nil || s.cost.rec) {
		s.cost.committed(c.now, c.head, head)
	}
	if s.cost.next != 0 { // the instructions committed before the stall were not its
		s.cost.cause, s.cost.next = s.cost.next-1, 0
	}
	c.head = head
	if c.interval.n != 0 && head >= c.interval.next {
		c.interval.flush(c, false)
	}
}

// setExtras says whether commit's tick needs its tail (after any of the
// settings tail reads changes).
func (c *Core) setExtras() {
	s := &c.commit
	s.extras = s.allTail || c.hook != nil || s.cost.twin != nil || s.cost.rec || c.interval.n != 0 || c.cyc.sink != nil
}

// retireRare does the parts of committing only some instructions need:
// stores write the D-cache, queue entries free, serialization ends, and
// fetch restarts after a trap. False means the model is inconsistent (it
// has failed).
func (s *commitStage) retireRare(c *Core, u *uop) bool {
	sg := &c.sig
	if u.flags&fStore != 0 {
		if !c.sq.retire(u, u.wdone) {
			c.fail("the committing store is not the oldest in the store queue")
			return false
		}
		s.stores++
	}
	if u.flags&fLoad != 0 {
		sg.lqUsed--
		s.loads++
	}
	if u.flags&fSerial != 0 {
		sg.serialInFlight = false
	}
	if u.flags&fTrapRedirect != 0 {
		sg.redirectAt = c.now + s.penalty
	}
	return true
}

// account puts this cycle in a CPI-stack bucket.
func (c *Core) account(b int8) {
	c.cpiCur = b
	c.cpi[b]++
}
