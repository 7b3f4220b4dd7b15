package pipeline

// storeQueue is the store half of the LSQ: a ring of entries in program
// order. An entry is allocated at dispatch, its address becomes known when
// the store issues (an address event), and at commit the store writes the
// D-cache; the entry stays (as a store buffer) until that write completes,
// in order, so younger loads can still forward from it.
//
//	[head, commit)    committed, draining into the D-cache
//	[commit, unknown) in flight, address known
//	[unknown, tail)   in flight; unknown is the oldest whose address is unknown
//
// A bucket table (granuleBuckets) maps each 8-byte granule, by its low
// bits, to the youngest store writing a granule of that bucket; each entry
// links to the previous youngest store of each of its granules' buckets, so
// a load finds the youngest older store overlapping its bytes by walking
// one or two chains. Chains only ever link to older stores, so a walk stops
// at the first store that has left the queue, and nothing is deleted when
// a store drains. The table is filled with the oracle addresses at
// dispatch, but the LSQ uses it only for loads that have no older store of
// unknown address.
type storeQueue struct {
	e                           []sqEntry
	mask                        uint64
	head, commit, unknown, tail uint64
	lastDrain                   uint64 // drain cycle of the youngest committed store (writes drain in order)
	// unknownPos is the position of the entry at unknown if there is one
	// (unknown < tail), else ^0: every load reads it (olderUnknown), so it
	// is a field, not a ring index each time.
	unknownPos uint64
	gran       granuleBuckets
	// pre: Async's producer looks loads up (storeLookup, fdist) and keeps
	// the bucket table, until Async.Finish hands it back (handBack).
	pre bool
}

// sqEntry is one store (or AMO, or successful SC).
type sqEntry struct {
	pos     uint64    // the store's position in the stream
	addr    uint64    // oracle address
	size    uint8     // bytes
	dataAt  uint64    // committed: when the store data was ready
	drainAt uint64    // committed: the cycle its D-cache write completes and the entry frees
	prev    [2]uint64 // 1 + index of the previous youngest store in each granule's bucket, 0: none
	waiters int32     // loads parked on this store (edge list), -1: none
}

func (q *storeQueue) init(sq int) {
	n := 1
	for n < sq {
		n <<= 1
	}
	q.e, q.mask = make([]sqEntry, n), uint64(n-1)
	q.unknownPos = ^uint64(0)
	q.gran.init(n)
}

func (q *storeQueue) at(i uint64) *sqEntry { return &q.e[i&q.mask] }

func granulesOf(addr uint64, size uint8) (uint64, uint64) {
	if size == 0 {
		size = 1
	}
	return addr >> 3, (addr + uint64(size) - 1) >> 3
}

// alloc gives store u the next entry (at dispatch) and returns its index.
func (q *storeQueue) alloc(u *uop) uint64 {
	i := q.tail
	q.tail++
	e := q.at(i)
	// Field by field, not a literal (which zeroes the whole entry): dataAt
	// and drainAt are written at retire before anything reads them, and
	// prev below (prev[1] is read only for an entry of two granules).
	e.pos, e.addr, e.size, e.waiters = u.pos, u.addr, u.size, -1
	if q.unknown == i { // the oldest store of unknown address
		q.unknownPos = u.pos
	}
	if q.pre { // (the producer's storeLookup keeps the chains)
		return i
	}
	g0, g1 := granulesOf(e.addr, e.size)
	e.prev[0] = q.gran.push(g0, i)
	if g1 != g0 { // g0+1: another bucket (the table has at least two)
		e.prev[1] = q.gran.push(g1, i)
	}
	return i
}

// youngestOlder returns 1 + the index of the youngest store older than
// load u (all stores in the queue are, at u's dispatch) that overlaps u's
// bytes, or 0.
func (q *storeQueue) youngestOlder(u *uop) uint64 {
	g0, g1 := granulesOf(u.addr, u.size)
	best := q.walk(u, g0)
	if g1 != g0 {
		best = max(best, q.walk(u, g1))
	}
	return best
}

// lookup is youngestOlder for load u at its dispatch: the producer's
// answer when it looked the load up (pre).
func (q *storeQueue) lookup(u *uop) uint64 {
	if !q.pre {
		return q.youngestOlder(u)
	}
	return q.fwdOf(u)
}

// fwdOf is youngestOlder for load u from the producer's lookup (pre): the
// store u.fdist back is the youngest older one overlapping u's bytes, and
// youngestOlder finds it if it is still in the queue, or nothing (every
// older one has drained before it). Without pre, its value is no answer.
func (q *storeQueue) fwdOf(u *uop) uint64 {
	if d := uint64(u.fdist); d-1 < q.tail-q.head { // (d = 0: none, and d-1 is past any count)
		return q.tail - d + 1
	}
	return 0
}

// walk returns 1 + the index of the youngest store in the queue that
// overlaps u's bytes and is on granule g's bucket chain, or 0. The chain
// holds stores of other granules too (those sharing the bucket): the
// overlap test skips them.
func (q *storeQueue) walk(u *uop, g uint64) uint64 {
	bm := q.gran.mask
	for p := q.gran.b[g&bm]; p != 0 && p-1 >= q.head; {
		e := q.at(p - 1)
		if e.addr < u.addr+uint64(u.size) && u.addr < e.addr+uint64(e.size) {
			return p
		}
		// e is on this chain by its first granule or by its second (the
		// next one), whichever falls in g's bucket.
		p = e.prev[(g-e.addr>>3)&bm&1]
	}
	return 0
}

// covers reports whether entry e writes every byte load u reads.
func (e *sqEntry) covers(u *uop) bool {
	return e.addr <= u.addr && u.addr+uint64(u.size) <= e.addr+uint64(e.size)
}

// olderUnknown reports whether a store older than pos has an unknown address.
func (q *storeQueue) olderUnknown(pos uint64) bool {
	return q.unknownPos < pos
}

// unknownLimit returns the position of the oldest store of unknown
// address (loads before it may issue), or ^0.
func (q *storeQueue) unknownLimit() uint64 {
	return q.unknownPos
}

// advance moves the unknown pointer past stores whose address is known.
func (q *storeQueue) advance(c *Core) {
	i, tail, e, m, win, wm := q.unknown, q.tail, q.e, q.mask, c.win, c.mask
	_, _ = e[m], win[wm] // m < len(e), wm < len(win): no bounds checks in the loop
	for i < tail && win[e[i&m].pos&wm].flags&fAddrKnown != 0 {
		i++
	}
	q.unknown = i
	q.unknownPos = ^uint64(0)
	if i < tail {
		q.unknownPos = e[i&m].pos
	}
}

// retire commits store u (the oldest uncommitted store) whose D-cache
// write completes at done. It reports false if u is not that store (a
// model bug).
func (q *storeQueue) retire(u *uop, done uint64) bool {
	e := q.at(q.commit)
	if q.commit == q.tail || e.pos != u.pos {
		return false
	}
	q.commit++
	q.lastDrain = max(q.lastDrain, done)
	e.dataAt, e.drainAt = u.dataAt, q.lastDrain
	return true
}

// drain frees the committed stores whose writes have completed by now and
// wakes the loads parked on them; it returns how many it freed.
func (q *storeQueue) drain(c *Core) int {
	n := 0
	for q.head < q.commit {
		e := q.at(q.head)
		if e.drainAt > c.now {
			break
		}
		if e.waiters >= 0 {
			c.wakeList(&e.waiters)
		}
		q.head++
		c.sig.sqUsed--
		n++
	}
	return n
}

// nextDrain returns the cycle the oldest committed store frees, or ^0.
func (q *storeQueue) nextDrain() uint64 {
	if q.head < q.commit {
		return q.at(q.head).drainAt
	}
	return ^uint64(0)
}

// granuleBuckets maps 8-byte granules, by their low bits, to the youngest
// store with a granule in that bucket (1 + its store-queue index, 0: none).
// The entries it names head chains through sqEntry.prev; a bucket's entry
// is simply overwritten by the next store, and stale entries (stores that
// have drained) end a walk, so there is no deletion. The low bits keep
// nearby granules (a stack frame, an array) in distinct buckets.
type granuleBuckets struct {
	b    []uint64
	mask uint64
}

func (t *granuleBuckets) init(stores int) {
	n := 64
	for n < 16*stores {
		n <<= 1
	}
	t.b, t.mask = make([]uint64, n), uint64(n-1)
}

// push makes store index v the youngest of g's bucket and returns the
// previous youngest (1 + its index, 0: none).
func (t *granuleBuckets) push(g, v uint64) uint64 {
	p := &t.b[g&t.mask]
	old := *p
	*p = v + 1
	return old
}

// storeLookup is the store queue's load lookup (youngestOlder) run ahead
// in program order, on Async's producer thread: which store a load may
// forward from depends only on the stream (the oracle addresses, and the
// stores before the load), not on timing, except whether that store is
// still in the queue at the load's dispatch, which the model decides
// (storeQueue.lookup). The producer's queue allocates every store as
// rename will, in the same order from the same index, and keeps the
// bucket chains; its head trails its tail by the store queue's size, the
// most stores the model's queue can hold at a load's dispatch (rename
// admits a store only while fewer are in it), so every store the model's
// walk could find is in reach, and a walk that goes past the model's head
// finds only stores the model has drained, which lookup discards.
type storeLookup struct {
	q     storeQueue
	reach uint64 // the store queue's entries (config)
}

// uop looks load u up (its fdist) and allocates store u, in program
// order (an AMO does both, the lookup first, as rename does).
func (l *storeLookup) uop(u *uop) {
	q := &l.q
	if u.flags&fLoad != 0 {
		q.head = q.tail - min(q.tail, l.reach)
		u.fdist = 0
		if y := q.youngestOlder(u); y != 0 {
			u.fdist = uint16(q.tail - (y - 1))
		}
	}
	if u.flags&fStore != 0 {
		q.alloc(u)
	}
}

// pass runs uop over the staged slots dst, whose uops are in ring (of
// stageRing) from position pos on, and copies the loads' fdist into dst.
func (l *storeLookup) pass(ring []uop, pos uint64, dst []staged) {
	for i := range dst {
		if u := &ring[(pos+uint64(i))&(stageRing-1)]; u.flags&(fLoad|fStore) != 0 {
			l.uop(u)
			dst[i].fdist = u.fdist
		}
	}
}

// takeOver makes the producer's lookup continue model queue m's (as
// NewAsync does, m at rest): the same tail, entries and chains; m's
// chains are the producer's from then on (m.pre).
func (l *storeLookup) takeOver(m *storeQueue, reach int) {
	l.q.init(reach)
	l.reach = uint64(reach)
	l.q.head, l.q.tail = m.head, m.tail
	copy(l.q.e, m.e)
	copy(l.q.gran.b, m.gran.b)
	m.pre = true
}

// handBack gives model queue m (at rest: every store looked up has been
// allocated there) the producer's chains, which its own lookups use from
// then on (Async.Finish).
func (l *storeLookup) handBack(m *storeQueue) {
	for i := range m.e {
		m.e[i].prev = l.q.e[i].prev
	}
	copy(m.gran.b, l.q.gran.b)
	m.pre = false
}
