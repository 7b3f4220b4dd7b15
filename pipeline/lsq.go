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
	*e = sqEntry{pos: u.pos, addr: u.addr, size: u.size, waiters: -1}
	if q.unknown == i { // the oldest store of unknown address
		q.unknownPos = u.pos
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
