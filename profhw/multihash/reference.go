package multihash

import (
	"math/bits"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// The reference model: the perfect interval profiler (§5.5.1), the run's
// exact profile and the per-interval scoring of every engine against the
// perfect one. No hardware has it, so it runs on a profhw.Pipe: the bank
// hands over the tuples in batches (copied in bulk) and, at each
// interval's end, queues the engines' candidates as they stood; the
// consumer counts the tuples, so it knows where each interval ends, and
// takes the next latched lists there. It sees the same stream in the same
// order, every run.

// intervalEnd is what the scoring needs of the hardware at an interval's
// end: each track's candidates and, for kept lists, its accumulator.
type intervalEnd struct {
	cands [][]Cand
	acc   [][]AccEntry
}

// The perfect profiler counts each tuple in a small table that holds the
// current interval only (it stays in the host's cache); at the interval's
// end its counts are merged into the run's table (one access per
// distinct tuple instead of one per tuple, with the run table's cache
// misses overlapped).

// countSlot is a tuple and its count (tag in the top byte, count below;
// 0: an empty slot).
type countSlot struct {
	pc, w uint64
	n     uint64
}

const countMask = 1<<56 - 1

func slotTuple(s *countSlot) tuple.Tuple {
	return tuple.Tuple{PC: s.pc, W: s.w, Tag: uint8(s.n >> 56)}
}

func (s *countSlot) is(t tuple.Tuple) bool {
	return s.pc == t.PC && s.w == t.W && uint8(s.n>>56) == t.Tag
}

// countTable is an open-addressing table of countSlots (linear probing,
// power-of-two size, grown at half full).
type countTable struct {
	slots []countSlot
	shift uint
	n     int
	sink  uint64
}

func newCountTable(logSize int) countTable {
	return countTable{slots: make([]countSlot, 1<<logSize), shift: uint(64 - logSize)}
}

func (c *countTable) home(pc, w uint64, tag uint8) uint64 {
	h := (pc*0x9e3779b97f4a7c15 ^ w ^ uint64(tag)<<59) * 0xc2b2ae3d27d4eb4f
	return (h ^ h>>29) >> c.shift
}

// find returns t's slot, or the empty slot where it belongs.
func (c *countTable) find(t tuple.Tuple) (uint64, bool) {
	mask := uint64(len(c.slots) - 1)
	for i := c.home(t.PC, t.W, t.Tag); ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.n == 0 {
			return i, false
		}
		if s.is(t) {
			return i, true
		}
	}
}

// place puts a slot (its tuple absent) where it belongs; it returns where.
func (c *countTable) place(s countSlot) uint64 {
	mask := uint64(len(c.slots) - 1)
	i := c.home(s.pc, s.w, uint8(s.n>>56))
	for c.slots[i].n != 0 {
		i = (i + 1) & mask
	}
	c.slots[i] = s
	c.n++
	return i
}

// full reports whether one more tuple would pass half full.
func (c *countTable) full() bool { return 2*(c.n+1) > len(c.slots) }

// grown returns the table doubled, and each old slot's new place via moved.
func (c *countTable) grow(moved func(old, now uint64)) {
	old := c.slots
	*c = newCountTable(bits.TrailingZeros(uint(len(old))) + 1)
	for i := range old {
		if old[i].n != 0 {
			now := c.place(old[i])
			if moved != nil {
				moved(uint64(i), now)
			}
		}
	}
}

// perfectTable is the perfect interval profiler (§5.5.1): the current
// interval's tuples with their counts, and their first-occurrence order.
type perfectTable struct {
	countTable
	order []uint32 // slots, in first-occurrence order
	where []uint32 // scratch (grow)
}

// add counts one occurrence of t.
func (p *perfectTable) add(t tuple.Tuple) {
	i, ok := p.find(t)
	if ok {
		p.slots[i].n++
		return
	}
	p.insert(t, i)
}

// insert counts the first occurrence of t, absent from the table; i is
// the empty slot find gave.
func (p *perfectTable) insert(t tuple.Tuple, i uint64) {
	if p.full() {
		p.growKeepOrder()
		i, _ = p.find(t)
	}
	p.slots[i] = countSlot{pc: t.PC, w: t.W, n: uint64(t.Tag)<<56 | 1}
	p.n++
	p.order = append(p.order, uint32(i))
}

func (p *perfectTable) growKeepOrder() {
	// Map old slots to new through a scratch index by old slot.
	if cap(p.where) < len(p.slots) {
		p.where = make([]uint32, len(p.slots))
	}
	where := p.where[:len(p.slots)]
	p.grow(func(old, now uint64) { where[old] = uint32(now) })
	for k, o := range p.order {
		p.order[k] = where[o]
	}
}

// Count is t's count in the interval.
func (p *perfectTable) Count(t tuple.Tuple) uint64 {
	if i, ok := p.find(t); ok {
		return p.slots[i].n & countMask
	}
	return 0
}

// candidates appends the tuples counted at least thresh times, in
// first-occurrence order.
func (p *perfectTable) candidates(dst []Cand, thresh uint64) []Cand {
	for _, i := range p.order {
		s := &p.slots[i]
		if c := s.n & countMask; c >= thresh {
			dst = append(dst, Cand{slotTuple(s), c})
		}
	}
	return dst
}

// reset empties the table (only the slots in use are cleared).
func (p *perfectTable) reset() {
	for _, i := range p.order {
		p.slots[i] = countSlot{}
	}
	p.order = p.order[:0]
	p.n = 0
}

// entries appends the interval's slots, in first-occurrence order.
func (p *perfectTable) entries(dst []countSlot) []countSlot {
	for _, i := range p.order {
		dst = append(dst, p.slots[i])
	}
	return dst
}

// entries appends the table's slots in use.
func (c *countTable) entries(dst []countSlot) []countSlot {
	for i := range c.slots {
		if c.slots[i].n != 0 {
			dst = append(dst, c.slots[i])
		}
	}
	return dst
}

// clear empties the table, keeping its size.
func (c *countTable) clear() {
	clear(c.slots)
	c.n = 0
}

// addSlots adds the counts of list (distinct tuples). The first pass
// touches every home slot with independent loads, so that the host
// overlaps their cache misses on a big table; the second inserts.
func (c *countTable) addSlots(list []countSlot, homes []uint64) []uint64 {
	for c.n+len(list) > len(c.slots)/2 {
		c.grow(nil)
	}
	homes = homes[:0]
	var sink uint64
	for k := range list {
		s := &list[k]
		h := c.home(s.pc, s.w, uint8(s.n>>56))
		homes = append(homes, h)
		sink |= c.slots[h].n
	}
	c.sink = sink // keeps the touching loads
	mask := uint64(len(c.slots) - 1)
	for k := range list {
		s := &list[k]
		for j := homes[k]; ; j = (j + 1) & mask {
			d := &c.slots[j]
			if d.n == 0 {
				*d = *s
				c.n++
				break
			}
			if d.pc == s.pc && d.w == s.w && d.n>>56 == s.n>>56 {
				d.n += s.n & countMask
				break
			}
		}
	}
	return homes
}

// counts adds the table's counts to a profile.
func (c *countTable) countsInto(m tuple.Counts) {
	for i := range c.slots {
		if s := &c.slots[i]; s.n != 0 {
			m[slotTuple(s)] += s.n & countMask
		}
	}
}

// stageLog is the size of the table that gathers several intervals'
// counts before they go to the run's table (it stays in the host's
// cache; a tuple that recurs in those intervals costs the big table one
// access, not one per interval).
const stageLog = 16

// runProfile is the run's exact profile: a staging table and the run's.
type runProfile struct {
	stage, run countTable
	list, all  []countSlot
	homes      []uint64
}

func newRunProfile() runProfile {
	return runProfile{stage: newCountTable(stageLog), run: newCountTable(16)}
}

// add adds an interval's counts.
func (r *runProfile) add(p *perfectTable) {
	r.list = p.entries(r.list[:0])
	if r.stage.n+len(r.list) > len(r.stage.slots)/2 {
		r.flush()
	}
	r.homes = r.stage.addSlots(r.list, r.homes)
}

// flush moves the staged counts to the run's table.
func (r *runProfile) flush() {
	r.all = r.stage.entries(r.all[:0])
	r.homes = r.run.addSlots(r.all, r.homes)
	r.stage.clear()
}

// counts is the run's profile as a map.
func (r *runProfile) counts() tuple.Counts {
	m := make(tuple.Counts, r.run.n+r.stage.n)
	r.run.countsInto(m)
	r.stage.countsInto(m)
	return m
}

// consume is the Pipe's consumer: the reference model's whole work.
func (b *Bank) consume(batch *[]tuple.Tuple) {
	x := &b.perfect
	ts := *batch
	for len(ts) > 0 {
		n := min(uint64(len(ts)), b.interval-b.refPos)
		for i := range ts[:n] {
			// perfectTable.add, its hit inline.
			t := &ts[i]
			if j, ok := x.find(*t); ok {
				x.slots[j].n++
			} else {
				x.insert(*t, j)
			}
		}
		ts = ts[n:]
		b.refPos += n
		if b.refPos == b.interval {
			b.endsMu.Lock()
			e := b.ends[0]
			b.ends = b.ends[1:]
			b.endsMu.Unlock()
			b.scoreInterval(e)
			b.refPos = 0
		}
	}
}

// addProfile folds an interval's candidates into the track's profile
// (what software reading the accumulator at each interval's end builds).
func (t *Track) addProfile(cands []Cand) {
	for _, c := range cands {
		t.Profile[c.T] += c.Count
	}
}

// scoreInterval scores every engine's candidates against the perfect
// profile of the interval that just ended, then starts the next one.
func (b *Bank) scoreInterval(e *intervalEnd) {
	x := &b.perfect
	n := len(b.Distinct)
	b.Distinct = append(b.Distinct, len(x.order))
	pc := x.candidates(nil, b.thresh)
	fresh := 0
	b.curCands.clear()
	for i, c := range pc {
		if b.prevCands.get(c.T) < 0 {
			fresh++
		}
		b.curCands.put(c.T, int32(i))
	}
	b.prevCands, b.curCands = b.curCands, b.prevCands
	b.NewCands = append(b.NewCands, fresh)
	for i, tr := range b.tracks {
		hw := e.cands[i]
		r := score(x, len(x.order), pc, b.thresh, hw, b.seen)
		r.NewCands = fresh
		tr.Intervals = append(tr.Intervals, r)
		tr.addProfile(hw)
		if n < tr.KeepLists {
			tr.Lists = append(tr.Lists, IntervalLists{Hardware: hw, Perfect: pc, Accumulator: e.acc[i]})
		}
	}
	b.PerfectCands = append(b.PerfectCands, len(pc))
	b.run.add(x)
	x.reset()
}
