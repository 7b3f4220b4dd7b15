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

	// Statistics.
	insts uint64
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
		// The writers as one word, a distance back each (compacted, zero-filled, none is 0).
		for ds := binary.LittleEndian.Uint32(u.srcd[:]); ds != 0; ds >>= 8 {
			w := pos - uint64(uint8(ds))
			if w < head {
				continue // the value is in the architectural state
			}
			p := &win[w&mask]
			if p.flags&fIssued != 0 {
				ready = max(ready, p.doneAt)
			} else {
				c.edges.add(&p.deps, pos, edgeSrc)
				u.pending++
			}
		}
		// (Without the distances, fTable, dispatchRare renames the sources.)
		u.readyAt = ready
		if u.flags&(fIntDest|fFPDest) != 0 { // (static flags: u.dest != 0 and its register file)
			if u.flags&fIntDest != 0 {
				sg.intUsed++
			} else {
				sg.fpUsed++
			}
		}
		if u.flags&fDispatchRare != 0 { // (a load, store or serializing instruction, a data operand, a pseudo-register)
			if u.flags&(fLoad|fStore|fSerial|fTable) == fLoad && u.dsrc|u.pseudo == 0 {
				// A plain load: dispatchRare's share, one call fewer.
				sg.lqUsed++
				u.fwd = c.sq.lookup(u)
			} else if u.flags&(fLoad|fStore|fSerial|fTable) == fStore && u.pseudo == 0 {
				// A plain store: dispatchRare's share, one call fewer.
				if w := pos - uint64(u.ddist); w != pos && w >= head { // (ddist 0: none)
					p := &win[w&mask]
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
				ready = r.dispatchRare(c, u, ready)
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
	r.insts += pos - start
	return int(pos - start)
}

// dispatchRare does the parts of dispatch only some instructions need: a
// store's data operand, the load/store queues, serialization, and the
// general path's sources (fTable). It returns ready (the sources'
// completion) raised by the general path.
func (r *renameStage) dispatchRare(c *Core, u *uop, ready uint64) uint64 {
	sg := &c.sig
	if u.flags&fTable != 0 {
		ready = r.tableSources(c, u, u.pos, ready)
		u.readyAt = ready
	}
	if d := uint64(u.ddist); d-1 < u.pos-c.head {
		p := &c.win[(u.pos-d)&c.mask]
		if p.flags&fIssued != 0 {
			u.dataAt = max(u.dataAt, p.doneAt)
		} else {
			c.edges.add(&p.deps, u.pos, edgeData)
			u.pendData++
		}
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
	return ready
}

// tableSources is the renaming of u's sources, its data operand and its
// results by the model's own last-writer table, the general path (fTable:
// with a ROB of more than 256 entries a writer in flight may be further
// back than a byte of srcd counts; and tests): it links u to the in-flight
// writers, or returns ready raised to their completion.
func (r *renameStage) tableSources(c *Core, u *uop, pos, ready uint64) uint64 {
	win, mask, head := c.win, c.mask, c.head
	for srcs := binary.LittleEndian.Uint32(u.src[:]); srcs != 0; srcs >>= 8 {
		w := c.lastWriter[uint8(srcs)]
		if w == 0 || w-1 < head {
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
	if u.dest != 0 {
		c.lastWriter[u.dest] = pos + 1
	}
	if w := c.lastWriter[u.dsrc]; u.dsrc != 0 && w != 0 && w-1 >= head {
		p := &win[(w-1)&mask]
		if p.flags&fIssued != 0 {
			u.dataAt = max(u.dataAt, p.doneAt)
		} else {
			c.edges.add(&p.deps, pos, edgeData)
			u.pendData++
		}
	}
	if u.pseudo&1 != 0 {
		c.lastWriter[regFFlags] = pos + 1
	}
	if u.pseudo&2 != 0 {
		c.lastWriter[regFRM] = pos + 1
	}
	return ready
}

// writers is rename's last-writer table run ahead, at intake, in program
// order (inline in Core.Retire, on Async's producer thread in stage): which
// instruction last wrote a register before another reads it is a fact of
// the stream; what depends on timing is only whether that writer is still
// in flight at the reader's dispatch, which rename decides from the
// distance back alone (a writer further back than the reader is from the
// ROB's head has committed). At dispatch a reader is fewer than rob
// positions from the head, so a writer rob or more back has committed:
// the distances (below 256 with a ROB of at most 256 entries) fit a byte.
type writers struct {
	// w is per unified register (a uint8 index: no bounds check) the
	// position of its youngest writer plus wBias, 0: none (as if written
	// wBias before position 0: out of reach).
	w     [256]uint64
	reach uint64 // distances below it are handed on (the ROB's size); 0: none, each slot takes fTable
}

// wBias offsets writers.w's positions, so that none (0) is out of reach
// with no test of its own.
const wBias = 256

// pass gives the n slots of ring win (index mask) from position pos on
// their writers' distances (srcd, ddist) and records each as the writer
// of its results, in rename's order: the sources, the destination, the
// data operand, the pseudo-registers. (One loop, no call per slot.)
func (t *writers) pass(win []uop, mask, pos uint64, n int) {
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	reach, end := t.reach, pos+uint64(n)
	if reach == 0 { // (the general path: the model's table)
		for ; pos < end; pos++ {
			u := &win[pos&mask]
			u.srcd, u.ddist = [4]uint8{}, 0
			u.flags |= fTable | fDispatchRare
		}
		return
	}
	for ; pos < end; pos++ {
		u := &win[pos&mask]
		at := pos + wBias // (a register written at at-d is d back)
		var ds uint32
		k := uint(0)
		for srcs := binary.LittleEndian.Uint32(u.src[:]); srcs != 0; srcs >>= 8 {
			if d := at - t.w[uint8(srcs)]; d < reach {
				ds |= uint32(d) << (k & 31)
				k += 8
			}
		}
		binary.LittleEndian.PutUint32(u.srcd[:], ds)
		t.w[u.dest] = at // (dest 0, none: register 0's entry is read only below, with dsrc 0, which it ignores)
		u.ddist = 0
		if d := at - t.w[u.dsrc]; d < reach && u.dsrc != 0 {
			u.ddist = uint8(d)
		}
		if u.pseudo != 0 {
			if u.pseudo&1 != 0 {
				t.w[regFFlags] = at
			}
			if u.pseudo&2 != 0 {
				t.w[regFRM] = at
			}
		}
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
