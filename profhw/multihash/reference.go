package multihash

import (
	"math/bits"

	"github.com/rvsim/rvsim/cpu"
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
}

func newCountTable(logSize int) countTable {
	return countTable{slots: make([]countSlot, 1<<logSize), shift: uint(64 - logSize)}
}

func (c *countTable) home(pc, w uint64, tag uint8) uint64 {
	return (runKey(pc, w, tag) >> 32 * uint64(len(c.slots))) >> 32 // key >> c.shift, by a multiply (countRun)
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

// clear empties the table, keeping its size.
func (c *countTable) clear() {
	clear(c.slots)
	c.n = 0
}

// addSlots adds the counts of list (distinct tuples).
func (c *countTable) addSlots(list []countSlot) {
	for c.n+len(list) > len(c.slots)/2 {
		c.grow(nil)
	}
	mask := uint64(len(c.slots) - 1)
	for k := range list {
		s := &list[k]
		for j := c.home(s.pc, s.w, uint8(s.n>>56)); ; j = (j + 1) & mask {
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
// counts before they go to the run's profile (it stays in the host's
// cache; a tuple that recurs in those intervals costs the run's profile
// one entry, not one per interval).
const stageLog = 16

// runProfile is the run's exact profile: a staging table and, below it,
// sorted runs merged as they pile up (a log-structured merge). A hash
// table of the run's 2.6M distinct tuples (lisp's ref input; 8M on
// raytrace) took a cache miss per staged tuple and rehashed hundreds of
// MiB as it grew: 2.1 s of the reference's 3.2 s. A run is a staging
// table's counts in key order, and merging two runs reads and writes
// memory in sequence; each count is merged about log2(distinct / staged)
// times.
type runProfile struct {
	dense denseWords // dense words, in arrays
	stage countTable
	list  []countSlot
	hits  []denseHit
	runs  [][]runEntry // sorted; runs[i] is at level levels[i] (merged that many times)
	level []int
	free  [][]runEntry // merge buffers to reuse
	s1    mergeStream  // merge4's two halves
	s2    mergeStream
}

// runEntry is a tuple's count in a run: its key (runKey, the order),
// PC, tag and count; the key and the PC give back the value word
// (runKey is invertible), so a run is 24 bytes a tuple.
type runEntry struct {
	key, pc uint64
	n       uint64 // tag in the top byte, count below (as countSlot's)
}

func newRunProfile() runProfile {
	return runProfile{stage: newCountTable(stageLog), dense: newDenseWords()}
}

// The multipliers of runKey, and the inverse of the second.
const (
	keyMul1 = 0x9e3779b97f4a7c15
	keyMul2 = 0xc2b2ae3d27d4eb4f
)

var keyMul2Inv = func() uint64 {
	x := uint64(keyMul2) // Newton's iteration: correct to 3, 6, 12, ... bits
	for range 6 {
		x *= 2 - keyMul2*x
	}
	return x
}()

// runKey is a tuple's key in the runs: its hash in the count tables,
// whose top bits are its home slot, so a table's slots from an empty one
// on are almost in key order. It is a bijection of the value word for a
// given PC and tag (runValue inverts it).
func runKey(pc, w uint64, tag uint8) uint64 {
	h := (pc*keyMul1 ^ w ^ uint64(tag)<<59) * keyMul2
	return h ^ h>>29
}

// runValue is the value word whose runKey with pc and tag is key.
func runValue(key, pc uint64, tag uint8) uint64 {
	h := key ^ key>>29 ^ key>>58
	return h*keyMul2Inv ^ pc*keyMul1 ^ uint64(tag)<<59
}

func (e *runEntry) tuple() tuple.Tuple {
	tag := uint8(e.n >> 56)
	return tuple.Tuple{PC: e.pc, W: runValue(e.key, e.pc, tag), Tag: tag}
}

// before orders run entries: by key, then by PC and tag (keys can
// collide; with the PC and tag the key fixes the value word).
func (a *runEntry) before(b *runEntry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.pc != b.pc {
		return a.pc < b.pc
	}
	return a.n>>56 < b.n>>56
}

func (a *runEntry) same(b *runEntry) bool {
	return a.key == b.key && a.pc == b.pc && a.n>>56 == b.n>>56
}

// add adds an interval's counts: those of dense words to their chunks,
// the others to the staging table.
func (r *runProfile) add(p *perfectTable) {
	r.list, r.hits = r.list[:0], r.hits[:0]
	for _, i := range p.order {
		s := &p.slots[i]
		if at, ok := r.dense.find(s.pc, s.w, uint8(s.n>>56)); ok {
			r.hits = append(r.hits, denseHit{at, s.n & countMask})
		} else {
			r.list = append(r.list, *s)
		}
	}
	r.dense.addHits(r.hits)
	if r.stage.n+len(r.list) > len(r.stage.slots)/2 {
		r.flush()
	}
	r.stage.addSlots(r.list)
}

// mergeWays runs of one level are merged into one of the next: each
// count is written about log4(distinct / staged) times.
const mergeWays = 4

// flush moves the staged counts to a run and merges the last mergeWays
// runs while they are of one level.
func (r *runProfile) flush() {
	if r.stage.n == 0 {
		return
	}
	if r.dense.take(&r.stage); r.stage.n == 0 {
		r.stage.clear()
		return
	}
	run := r.stage.sorted(r.buffer(r.stage.n))
	r.stage.clear()
	r.runs, r.level = append(r.runs, run), append(r.level, 0)
	for k := len(r.runs); k >= mergeWays && r.level[k-mergeWays] == r.level[k-1]; k = len(r.runs) {
		in := r.runs[k-mergeWays:]
		n := 0
		for _, x := range in {
			n += len(x)
		}
		m := r.merge4(r.buffer(n), in[0], in[1], in[2], in[3])
		r.free = append(r.free, in...)
		l := r.level[k-1] + 1
		r.runs, r.level = append(r.runs[:k-mergeWays], m), append(r.level[:k-mergeWays], l)
	}
}

// mergeBlock is the size of merge4's buffers for its two halves (they
// stay in the host's cache: only the merged run goes to memory).
const mergeBlock = 2048

// mergeStream is the merge of two runs, a block at a time.
type mergeStream struct {
	a, b []runEntry
	buf  []runEntry // the current block
}

// start sets the runs and merges the first block.
func (s *mergeStream) start(a, b []runEntry) {
	if s.buf == nil {
		s.buf = make([]runEntry, 0, mergeBlock)
	}
	s.a, s.b = a, b
	s.refill()
}

// refill merges the next block (empty when both runs are drained).
func (s *mergeStream) refill() {
	buf, i, j := mergeSome(s.buf[:0], s.a, s.b, mergeBlock)
	s.a, s.b = s.a[i:], s.b[j:]
	if len(s.a) == 0 {
		s.a, s.b = s.b, s.a
	}
	if len(s.b) == 0 { // the rest of a, as far as the block goes
		k := copy(buf[len(buf):mergeBlock], s.a)
		buf, s.a = buf[:len(buf)+k], s.a[k:]
	}
	s.buf = buf
}

// merge4 appends the merge of four runs to dst (which has room for
// them all): the merges of a with b and of c with d, a block at a time,
// merged.
func (r *runProfile) merge4(dst, a, b, c, d []runEntry) []runEntry {
	s1, s2 := &r.s1, &r.s2
	s1.start(a, b)
	s2.start(c, d)
	x, y := s1.buf, s2.buf
	for len(x) > 0 && len(y) > 0 {
		var i, j int
		dst, i, j = mergeSome(dst, x, y, cap(dst))
		x, y = x[i:], y[j:]
		if len(x) == 0 {
			s1.refill()
			x = s1.buf
		}
		if len(y) == 0 {
			s2.refill()
			y = s2.buf
		}
	}
	for ; len(x) > 0; x = s1.buf {
		dst = append(dst, x...)
		s1.refill()
	}
	for ; len(y) > 0; y = s2.buf {
		dst = append(dst, y...)
		s2.refill()
	}
	return dst
}

// buffer returns an empty run with room for n entries: the smallest free
// one that fits (the big ones are hundreds of MiB, so they are reused,
// not left to the collector and faulted in again).
func (r *runProfile) buffer(n int) []runEntry {
	best := -1
	for i, f := range r.free {
		if cap(f) >= n && (best < 0 || cap(f) < cap(r.free[best])) {
			best = i
		}
	}
	if best < 0 {
		if len(r.free) > 6 { // keep the free list short: drop the smallest
			small := 0
			for i, f := range r.free {
				if cap(f) < cap(r.free[small]) {
					small = i
				}
			}
			r.free = append(r.free[:small], r.free[small+1:]...)
		}
		return make([]runEntry, 0, 1<<bits.Len(uint(n+n/4)))
	}
	f := r.free[best]
	r.free = append(r.free[:best], r.free[best+1:]...)
	return f[:0]
}

// sorted appends the table's slots in use to dst as a run (key order):
// from an empty slot on, the slots are in home order but for the
// entries displaced within a cluster, which an insertion sort puts back.
func (c *countTable) sorted(dst []runEntry) []runEntry {
	n := len(c.slots)
	start := 0
	for start < n && c.slots[start].n != 0 {
		start++
	}
	base := len(dst)
	for k := range n {
		s := &c.slots[(start+k)&(n-1)]
		if s.n == 0 {
			continue
		}
		e := runEntry{key: runKey(s.pc, s.w, uint8(s.n>>56)), pc: s.pc, n: s.n}
		i := len(dst)
		dst = append(dst, e)
		for i > base && e.before(&dst[i-1]) {
			dst[i] = dst[i-1]
			i--
		}
		dst[i] = e
	}
	return dst
}

// mergeSome appends to dst the merge of runs a and b, a tuple in both
// once with the sum of its counts, until dst holds limit entries or a
// run is drained; it returns how many entries of each it took. The keys
// are random, so the choice of the next entry is made without a branch.
func mergeSome(dst, a, b []runEntry, limit int) ([]runEntry, int, int) {
	k := len(dst)
	dst = dst[:limit]
	i, j := 0, 0
	for i < len(a) && j < len(b) && k < len(dst) {
		x, y := &a[i], &b[j]
		if x.key == y.key {
			switch {
			case x.same(y):
				e := *x
				e.n += y.n & countMask
				dst[k] = e
				i++
				j++
			case x.before(y):
				dst[k] = *x
				i++
			default:
				dst[k] = *y
				j++
			}
			k++
			continue
		}
		p, di := y, 0
		if x.key < y.key {
			p, di = x, 1
		}
		dst[k] = *p
		k++
		i += di
		j += 1 - di
	}
	return dst[:k], i, j
}

// counts is the run's profile as a map.
func (r *runProfile) counts() tuple.Counts {
	n := r.stage.n
	for _, run := range r.runs {
		n += len(run)
	}
	m := make(tuple.Counts, n)
	for _, run := range r.runs {
		for k := range run {
			m[run[k].tuple()] += run[k].n & countMask
		}
	}
	r.stage.countsInto(m)
	r.dense.countsInto(m)
	return m
}

// consume is the Pipe's consumer: the reference model's whole work.
func (b *Bank) consume(batch *refBatch) {
	if len(batch.vals) > 0 {
		b.countValues(batch.vals, batch.tag)
	} else {
		b.countTuples(batch.tuples)
	}
}

// countTuples counts the tuples in the perfect profiler, scoring each
// interval at its end.
func (b *Bank) countTuples(ts []tuple.Tuple) {
	x := &b.perfect
	for len(ts) > 0 {
		n := min(uint64(len(ts)), b.interval-b.refPos)
		// perfectTable.add with find inline (BenchmarkReference: 36 to
		// 32 ns a tuple, best of four); an insert may grow the table.
		slots, shift := x.slots, x.shift
		mask := uint64(len(slots) - 1)
		for i := range ts[:n] {
			t := &ts[i]
			for j := runKey(t.PC, t.W, t.Tag) >> shift; ; j = (j + 1) & mask {
				s := &slots[j]
				if s.n == 0 {
					x.insert(*t, j)
					slots, shift = x.slots, x.shift
					mask = uint64(len(slots) - 1)
					break
				}
				if s.pc == t.PC && s.w == t.W && uint8(s.n>>56) == t.Tag {
					s.n++
					break
				}
			}
		}
		ts = ts[n:]
		b.refPos += n
		b.intervalEnded()
	}
}

// countValues is countTuples on value records, each the tuple ⟨PC,
// value⟩ with tag.
func (b *Bank) countValues(vals []cpu.TapValue, tag uint8) {
	x := &b.perfect
	for len(vals) > 0 {
		n := min(uint64(len(vals)), b.interval-b.refPos)
		x.addValues(vals[:n], tag)
		vals = vals[n:]
		b.refPos += n
		b.intervalEnded()
	}
}

// addValues counts each of vals, tuples ⟨PC, value⟩ with tag.
func (p *perfectTable) addValues(vals []cpu.TapValue, tag uint8) {
	for len(vals) > 0 {
		k, j := p.countRun(vals, tag)
		if k == len(vals) {
			return
		}
		p.insert(tuple.Tuple{PC: vals[k].PC, W: vals[k].Value, Tag: tag}, j)
		vals = vals[k+1:]
	}
}

// countRun counts vals, tuples ⟨PC, value⟩ with tag, up to the first
// that needs the table grown or its order's array grown: it returns that
// one's index and the empty slot where it belongs (len(vals) when it
// counted them all). A leaf: with insert's call in the loop
// (countTuples) the loop's state was reloaded from the stack on every
// tuple, about 60 host instructions a tuple.
func (p *perfectTable) countRun(vals []cpu.TapValue, tag uint8) (int, uint64) {
	slots := p.slots
	// home's top bits of the key by a multiply (size 2^k: key>>32 · 2^k
	// >> 32 is key >> (64−k)), not a shift by a variable, whose count
	// must be in one register (CX) that the loop then shuffles.
	size := uint64(len(slots))
	hi := uint64(tag) << 56
	for i := range vals {
		pc, w := vals[i].PC, vals[i].Value
		for j := (runKey(pc, w, tag) >> 32 * size) >> 32; ; j = (j + 1) & (size - 1) {
			s := &slots[j]
			if s.n == 0 {
				// insert, when it need not grow anything (the table
				// and the order in memory: few registers are left)
				if 2*(p.n+1) > len(slots) || len(p.order) == cap(p.order) {
					return i, j
				}
				*s = countSlot{pc: pc, w: w, n: hi | 1}
				p.n++
				p.order = p.order[:len(p.order)+1]
				p.order[len(p.order)-1] = uint32(j)
				break
			}
			if s.pc == pc && s.w == w && s.n&^countMask == hi {
				s.n++
				break
			}
		}
	}
	return len(vals), 0
}

// intervalEnded scores the interval if the reference has seen its last
// tuple.
func (b *Bank) intervalEnded() {
	if b.refPos == b.interval {
		b.endsMu.Lock()
		e := b.ends[0]
		b.ends = b.ends[1:]
		b.endsMu.Unlock()
		b.scoreInterval(e)
		b.refPos = 0
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
