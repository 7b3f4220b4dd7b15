package pipeline

import "math/bits"

// Scheduling structures: dependency edges from a free list, a timing wheel
// of future events, and min-heaps of positions. None allocates per
// instruction once warmed up.

// Edge kinds.
const (
	edgeSrc  = iota // the consumer needs the producer's result to issue
	edgeData        // a store's data operand: needed to commit and to forward
	edgeWait        // a load parked on a store (its data, or its commit)
)

// edge links a producer to one consumer.
type edge struct {
	to   uint64 // consumer position
	kind uint8
	next int32
}

// edgePool is a free list of edges.
type edgePool struct {
	e    []edge
	free int32
}

func (p *edgePool) init(n int) {
	p.e = make([]edge, 0, n)
	p.free = -1
}

// add pushes an edge to consumer `to` onto the list at *head.
func (p *edgePool) add(head *int32, to uint64, kind uint8) {
	var i int32
	if p.free >= 0 {
		i = p.free
		p.free = p.e[i].next
	} else {
		i = int32(len(p.e))
		p.e = append(p.e, edge{})
	}
	p.e[i] = edge{to: to, kind: kind, next: *head}
	*head = i
}

// releaseOne returns edge i to the free list.
func (p *edgePool) releaseOne(i int32) {
	p.e[i].next = p.free
	p.free = i
}

// Wheel sizing: events 1..wheelSize-1 cycles ahead go into a bucket of
// bucketCap entries; later events, and those a full bucket cannot take,
// wait in a time-ordered heap.
const (
	wheelBits = 6
	wheelSize = 1 << wheelBits
	wheelMask = wheelSize - 1
	bucketCap = 32
)

// wheel is a timing wheel of positions keyed by cycle. The buckets are one
// flat array, so the common add is a few instructions and inlines.
type wheel struct {
	slots    [wheelSize * bucketCap]uint64
	cnt      [wheelSize]uint8
	nonEmpty uint64   // bit per bucket
	over     timeHeap // far events and bucket overflow
	n        int      // events held, the heap's included
}

// add schedules pos for cycle t; a t not after now means now+1.
func (w *wheel) add(t, now, pos uint64) {
	if !w.tryAdd(t, now, pos) {
		w.addSlow(t, now, pos)
	}
}

// tryAdd is add's common case (a near cycle, room in its bucket), small
// enough to inline into the stage loops; false means call addSlow.
func (w *wheel) tryAdd(t, now, pos uint64) bool {
	b := t & wheelMask
	c := w.cnt[b]
	if t-now-1 >= wheelSize-1 || c >= bucketCap {
		return false
	}
	w.slots[(b*bucketCap+uint64(c))&(wheelSize*bucketCap-1)] = pos
	w.cnt[b] = c + 1
	w.nonEmpty |= 1 << b
	w.n++
	return true
}

func (w *wheel) addSlow(t, now, pos uint64) {
	if t <= now {
		t = now + 1
		if w.tryAdd(t, now, pos) {
			return
		}
	}
	w.n++
	w.over.push(t, pos)
}

// due reports whether cycle now's bucket holds an event or the heap holds
// any (which may be due): wakeup has nothing to take otherwise.
func (w *wheel) due(now uint64) bool {
	return w.nonEmpty>>(now&wheelMask)&1 != 0 || w.over.len() != 0
}

// take returns (and empties) the bucket of cycle now. The slice stays
// valid while events are added: none can land in this bucket before
// cycle now+wheelSize. Events in the heap are taken with takeFar.
func (w *wheel) take(now uint64) []uint64 {
	b := now & wheelMask
	c := w.cnt[b]
	if c == 0 {
		return nil
	}
	w.cnt[b] = 0
	w.nonEmpty &^= 1 << b
	w.n -= int(c)
	return w.slots[b*bucketCap : b*bucketCap+uint64(c)]
}

// takeFar returns an event from the heap due by now, if any.
func (w *wheel) takeFar(now uint64) (uint64, bool) {
	if w.over.len() == 0 || w.over.topTime() > now {
		return 0, false
	}
	_, p := w.over.pop()
	w.n--
	return p, true
}

// next returns the first cycle after now with an event, or ^0 if none.
func (w *wheel) next(now uint64) uint64 {
	if w.n == 0 {
		return ^uint64(0)
	}
	best := ^uint64(0)
	if w.over.len() > 0 {
		best = w.over.topTime()
	}
	if w.nonEmpty != 0 {
		// Rotate so that bit 0 is the bucket of cycle now+1.
		start := (now + 1) & wheelMask
		k := uint64(bits.TrailingZeros64(bits.RotateLeft64(w.nonEmpty, -int(start))))
		best = min(best, now+1+k)
	}
	return best
}

// posHeap is a min-heap of positions (oldest first) in an array sized
// once (it holds at most the issue queue's entries), with an explicit
// length: pushes and pops write no slice header.
type posHeap struct {
	a []uint64
	n int
}

func (h *posHeap) init(capacity int) { h.a = make([]uint64, max(capacity, 1)) }
func (h *posHeap) len() int          { return h.n }
func (h *posHeap) top() uint64       { return h.a[0] }

func (h *posHeap) push(v uint64) {
	if h.n == len(h.a) { // cannot happen when sized by the queue it serves
		h.a = append(h.a, 0)
		h.a = h.a[:cap(h.a)]
	}
	a := h.a
	i := h.n
	h.n++
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= v {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = v
}

func (h *posHeap) pop() uint64 {
	a := h.a
	top := a[0]
	h.n--
	n := h.n
	v := a[n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && a[r] < a[l] {
			l = r
		}
		if v <= a[l] {
			break
		}
		a[i] = a[l]
		i = l
	}
	a[i] = v
	return top
}

// timeHeap is a min-heap of (cycle, position) for far-future events.
type timeHeap struct{ t, p []uint64 }

func (h *timeHeap) len() int           { return len(h.t) }
func (h *timeHeap) topTime() uint64    { return h.t[0] }
func (h *timeHeap) less(i, j int) bool { return h.t[i] < h.t[j] || h.t[i] == h.t[j] && h.p[i] < h.p[j] }
func (h *timeHeap) swap(i, j int) {
	h.t[i], h.t[j] = h.t[j], h.t[i]
	h.p[i], h.p[j] = h.p[j], h.p[i]
}

func (h *timeHeap) push(t, p uint64) {
	h.t, h.p = append(h.t, t), append(h.p, p)
	for i := len(h.t) - 1; i > 0; {
		par := (i - 1) / 2
		if !h.less(i, par) {
			break
		}
		h.swap(i, par)
		i = par
	}
}

func (h *timeHeap) pop() (uint64, uint64) {
	t, p := h.t[0], h.p[0]
	n := len(h.t) - 1
	h.swap(0, n)
	h.t, h.p = h.t[:n], h.p[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && h.less(r, l) {
			l = r
		}
		if !h.less(l, i) {
			break
		}
		h.swap(i, l)
		i = l
	}
	return t, p
}

// slotSet is a set of window positions, a bit per window slot: the ready
// instructions of one unit kind. It replaces a min-heap of positions
// (docs/TIMING.md, "Speed"): an insert sets a bit, and the oldest member
// is the first set bit at or after a known lower bound, in ring order.
// Every member must lie in [lo, lo+slots) for the lower bound lo passed to
// next, which holds for the in-flight instructions of the window ring.
//
// The bitmap is an array of the largest window's size (maxWindow slots),
// of which the window's first slots/64 words are used: indexed by a
// position masked to the window (below maxWindow), its accesses need no
// bounds check.
type slotSet struct {
	w    [maxWindow / 64]uint64
	mask uint64 // the window's slot mask (slots-1); slots is a power of two >= 128 (New's sizing)
	nw   uint64 // the words in use: slots/64
	n    int
}

// maxWindow is the largest window ring (New's sizing of the largest
// machine the configuration allows: rob 8192, decode 64x64, fetch queue
// 4096 and its lookahead, a chunk: 20,544 slots, rounded up to a power of
// two).
const maxWindow = 1 << 15

func (s *slotSet) init(slots int) {
	s.nw = uint64(slots / 64)
	s.mask = uint64(slots - 1)
}

func (s *slotSet) len() int { return s.n }

// add inserts pos, which must not be a member.
func (s *slotSet) add(pos uint64) {
	i := pos & s.mask
	s.w[i>>6&(maxWindow/64-1)] |= 1 << (i & 63)
	s.n++
}

// del removes member pos.
func (s *slotSet) del(pos uint64) {
	i := pos & s.mask
	s.w[i>>6&(maxWindow/64-1)] &^= 1 << (i & 63)
	s.n--
}

// next returns the smallest member >= lo; the set must not be empty.
func (s *slotSet) next(lo uint64) uint64 {
	if p, ok := s.near(lo); ok {
		return p
	}
	return s.nextFar(lo)
}

// near is next's common case, small enough to inline: the smallest member
// >= lo in lo's own word of the bitmap, if there is one.
func (s *slotSet) near(lo uint64) (uint64, bool) {
	start := lo & s.mask
	m := s.w[start>>6&(maxWindow/64-1)] & (^uint64(0) << (start & 63))
	return lo + uint64(bits.TrailingZeros64(m)) - start&63, m != 0
}

// nextFar is next's search past lo's word.
func (s *slotSet) nextFar(lo uint64) uint64 {
	start := lo & s.mask
	w := &s.w
	nw := s.nw
	wi := start >> 6
	for k := uint64(1); k <= nw; k++ {
		j := (wi + k) & (nw - 1) // nw is a power of two
		if m := w[j&(maxWindow/64-1)]; m != 0 {
			slot := j<<6 + uint64(bits.TrailingZeros64(m))
			return lo + ((slot - start) & s.mask)
		}
	}
	panic("pipeline: slotSet.next on an empty set")
}
