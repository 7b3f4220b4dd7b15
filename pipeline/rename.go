package pipeline

import "encoding/binary"

// renameStage renames and dispatches up to rename_width instructions a
// cycle from the decode pipe into the ROB and the issue queue, allocating
// load/store queue entries and physical registers. The first structure
// found full stops dispatch for the cycle and the cause is counted.
// Renaming links each source operand to its in-flight producer (an edge
// the producer follows when it issues) or, if the producer has issued,
// takes its completion cycle at once.
type renameStage struct {
	width                int
	rob, iq, lq, sq, lsq int
	intRegs, fpRegs      int  // rename registers: physical minus the 32 architectural
	noRoom               bool // tests: check every instruction (room is 0)

	// Statistics: none of its own (its instruction count is the
	// position it advances, c.dispatched).
}

func (r *renameStage) init(c *Core) {
	k := &c.cfg.Core
	r.width = k.RenameWidth
	r.rob, r.iq, r.lq, r.sq, r.lsq = k.ROB, k.IQ, k.LQ, k.SQ, k.LSQ
	r.intRegs, r.fpRegs = k.IntRegs-32, k.FPRegs-32
}

// tick is not inlined into Core.cycle (which the profile-guided build
// otherwise does): in a function of its own the loop keeps more of its
// values in registers (0.45% fewer host instructions; commit's and
// decode's ticks gain nothing from the same, so they stay inlined).
//
//go:noinline
func (r *renameStage) tick(c *Core) int {
	win, mask, now, sg := c.win, c.mask, c.now, &c.sig
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	start := c.dispatched
	end := min(c.decoded, start+uint64(r.width))
	pos, lim := start, start+r.room(c) // up to lim every instruction fits everywhere
	for ; pos < end; pos++ {
		u := &win[pos&mask]
		if u.readyAt > now {
			break
		}
		if u.flags&fSerial != 0 || pos >= lim {
			// The common case fits everywhere; anything else asks blocked.
			if u.flags&fSerial != 0 || sg.serialInFlight || int(pos-c.head) >= r.rob ||
				sg.iqUsed >= r.iq || sg.intUsed >= r.intRegs || sg.fpUsed >= r.fpRegs ||
				u.flags&(fLoad|fStore) != 0 && !r.lsqRoom(sg, u.flags) {
				if why := r.blocked(c, u, pos); why >= 0 {
					c.stall(stRename, why)
					break
				}
			}
			lim = 0 // after a serializing instruction nothing fits
		}
		// Rename the sources: link each to its producer, or take its completion cycle.
		ready, head := now+1, c.head
		// The sources as one word, a byte each (compacted, zero-filled, none is 0).
		for srcs := binary.LittleEndian.Uint32(u.src[:]); srcs != 0; srcs >>= 8 {
			w := c.lastWriter[uint8(srcs)]
			if w <= head { // (w-1 < head, or w = 0: none)
				continue // the value is in the architectural state
			}
			p := &win[(w-1)&mask]
			if p.flags&fIssued != 0 {
				ready = max(ready, p.doneAt)
			} else {
				c.edges.add(&p.deps, pos, edgeSrc)
				u.pending++
			}
		}
		u.readyAt = ready
		// No branch on whether there is a destination, or of which file
		// (the host mispredicted both): each count adds its flag's bit, and
		// none writes slot 0 (regZero). (The block keeps the line count it
		// had with its branches, so that default.pgo's line offsets, and
		// the inlining they decide, stay as they were: docs/TIMING.md.)
		sg.intUsed += int(u.flags / fIntDest & 1)
		sg.fpUsed += int(u.flags / fFPDest & 1)
		c.lastWriter[u.dest] = pos + 1
		if u.flags&fDispatchRare != 0 { // (a load, store or serializing instruction, a data operand, a pseudo-register)
			if u.flags&(fLoad|fStore|fSerial) == fLoad && u.dsrc|u.pseudo == 0 {
				// A plain load: dispatchRare's share, one call fewer.
				sg.lqUsed++
				u.fwd = c.sq.lookup(u)
			} else if u.flags&(fLoad|fStore|fSerial) == fStore && u.pseudo == 0 {
				// A plain store: dispatchRare's share, one call fewer.
				if w := c.lastWriter[u.dsrc]; w > head { // (as above)
					p := &win[(w-1)&mask]
					if p.flags&fIssued != 0 {
						u.dataAt = max(u.dataAt, p.doneAt)
					} else {
						c.edges.add(&p.deps, pos, edgeData)
						u.pendData++
					}
				}
				sg.sqUsed++
				u.sidx = c.sq.alloc(u)
			} else {
				r.dispatchRare(c, u)
			}
		}
		sg.iqUsed++
		// (c.dispatched is written after the loop: blocked takes pos.)
		if u.pending == 0 {
			if ready == now+1 {
				// Ready next cycle: straight into the ready set. Issue ran
				// before rename this cycle, so it first sees the entry next
				// cycle, as it would after the wheel's wakeup; selection is
				// by age, so the order of insertion does not matter.
				c.issue.push(u.fu, pos)
			} else if !c.wheel.tryAdd(ready, now, pos) {
				c.wheel.addSlow(ready, now, pos)
			}
		}
	}
	c.dispatched = pos
	// (the instructions renamed are c.dispatched: no count per call)
	return int(pos - start)
}

// dispatchRare does the parts of dispatch only some instructions need: a
// store's data operand, the FP pseudo-registers, the load/store queues and
// serialization.
func (r *renameStage) dispatchRare(c *Core, u *uop) {
	sg := &c.sig
	if reg := u.dsrc; reg != 0 {
		if w := c.lastWriter[reg]; w > c.head { // (w-1 >= head: w = 0, none, is not)
			p := &c.win[(w-1)&c.mask]
			if p.flags&fIssued != 0 {
				u.dataAt = max(u.dataAt, p.doneAt)
			} else {
				c.edges.add(&p.deps, u.pos, edgeData)
				u.pendData++
			}
		}
	}
	if u.pseudo&1 != 0 {
		c.lastWriter[regFFlags] = u.pos + 1
	}
	if u.pseudo&2 != 0 {
		c.lastWriter[regFRM] = u.pos + 1
	}
	if u.flags&fLoad != 0 {
		sg.lqUsed++
		u.fwd = c.sq.lookup(u)
	}
	if u.flags&fStore != 0 {
		sg.sqUsed++
		u.sidx = c.sq.alloc(u)
	}
	if u.flags&fSerial != 0 {
		sg.serialInFlight = true
	}
}

// room returns how many instructions from c.dispatched on are sure to
// fit in every structure dispatch allocates (the ROB, the issue queue,
// the load and store queues and the unified LSQ, the physical registers),
// whatever they are: each takes at most one entry of each (two of the
// unified LSQ), and nothing frees an entry while rename runs. Serializing
// instructions are checked apart.
func (r *renameStage) room(c *Core) uint64 {
	s := &c.sig
	if s.serialInFlight || r.noRoom {
		return 0
	}
	n := min(r.rob-int(c.dispatched-c.head), r.iq-s.iqUsed, r.intRegs-s.intUsed, r.fpRegs-s.fpUsed,
		r.lq-s.lqUsed, r.sq-s.sqUsed)
	if r.lsq > 0 {
		n = min(n, (r.lsq-s.lqUsed-s.sqUsed)/2)
	}
	return uint64(max(n, 0))
}

// lsqRoom reports whether the load and store queues (and the unified LSQ,
// if configured) have room for an instruction with these flags.
func (r *renameStage) lsqRoom(s *signals, flags uint32) bool {
	need := 0
	if flags&fLoad != 0 {
		if s.lqUsed >= r.lq {
			return false
		}
		need++
	}
	if flags&fStore != 0 {
		if s.sqUsed >= r.sq {
			return false
		}
		need++
	}
	return r.lsq <= 0 || s.lqUsed+s.sqUsed+need <= r.lsq
}

// blocked returns the stall cause that keeps u, at position pos (the
// next to dispatch), from dispatching, or -1.
func (r *renameStage) blocked(c *Core, u *uop, pos uint64) int {
	s := &c.sig
	switch {
	case s.serialInFlight, u.flags&fSerial != 0 && c.head != pos:
		return stallSerialize
	case int(pos-c.head) >= r.rob:
		return stallROB
	case s.iqUsed >= r.iq:
		return stallIQ
	}
	if u.flags&(fLoad|fStore) != 0 && !r.lsqRoom(s, u.flags) {
		return stallLSQ
	}
	switch {
	case u.dest == 0:
	case isIntReg(u.dest):
		if s.intUsed >= r.intRegs {
			return stallRegs
		}
	default:
		if s.fpUsed >= r.fpRegs {
			return stallRegs
		}
	}
	return -1
}
