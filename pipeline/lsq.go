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
// A granule table maps each 8-byte granule to the youngest store writing
// it; each entry links to the previous youngest store of its granules, so a
// load finds the youngest older store overlapping its bytes. The table is
// filled with the oracle addresses at dispatch, but the LSQ uses it only
// for loads that have no older store of unknown address.
type storeQueue struct {
	e                           []sqEntry
	mask                        uint64
	head, commit, unknown, tail uint64
	lastDrain                   uint64 // drain cycle of the youngest committed store (writes drain in order)
	gran                        granuleTable
}

// sqEntry is one store (or AMO, or successful SC).
type sqEntry struct {
	pos     uint64    // the store's position in the stream
	addr    uint64    // oracle address
	size    uint8     // bytes
	dataAt  uint64    // committed: when the store data was ready
	drainAt uint64    // committed: the cycle its D-cache write completes and the entry frees
	prev    [2]uint64 // 1 + index of the previous youngest store of each granule, 0: none
	waiters int32     // loads parked on this store (edge list), -1: none
}

func (q *storeQueue) init(sq int) {
	n := 1
	for n < sq {
		n <<= 1
	}
	q.e, q.mask = make([]sqEntry, n), uint64(n-1)
	q.gran.init(2 * n)
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
	g0, g1 := granulesOf(e.addr, e.size)
	e.prev[0] = q.gran.swap(g0, i)
	if g1 != g0 {
		e.prev[1] = q.gran.swap(g1, i)
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

func (q *storeQueue) walk(u *uop, g uint64) uint64 {
	for p := q.gran.get(g); p != 0 && p-1 >= q.head; {
		e := q.at(p - 1)
		if e.addr < u.addr+uint64(u.size) && u.addr < e.addr+uint64(e.size) {
			return p
		}
		g0, _ := granulesOf(e.addr, e.size)
		p = e.prev[g-g0]
	}
	return 0
}

// covers reports whether entry e writes every byte load u reads.
func (e *sqEntry) covers(u *uop) bool {
	return e.addr <= u.addr && u.addr+uint64(u.size) <= e.addr+uint64(e.size)
}

// olderUnknown reports whether a store older than pos has an unknown address.
func (q *storeQueue) olderUnknown(pos uint64) bool {
	return q.unknown < q.tail && q.at(q.unknown).pos < pos
}

// unknownLimit returns the position of the oldest store of unknown
// address (loads before it may issue), or ^0.
func (q *storeQueue) unknownLimit() uint64 {
	if q.unknown < q.tail {
		return q.at(q.unknown).pos
	}
	return ^uint64(0)
}

// advance moves the unknown pointer past stores whose address is known.
func (q *storeQueue) advance(c *Core) {
	i, tail, e, m, win, wm := q.unknown, q.tail, q.e, q.mask, c.win, c.mask
	for i < tail && win[e[i&m].pos&wm].flags&fAddrKnown != 0 {
		i++
	}
	q.unknown = i
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
		g0, g1 := granulesOf(e.addr, e.size)
		q.gran.del(g0, q.head)
		if g1 != g0 {
			q.gran.del(g1, q.head)
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

// granuleTable maps 8-byte granules to a store index: open addressing with
// linear probing and backward-shift deletion.
type granuleTable struct {
	key  []uint64 // granule + 1, 0: empty
	val  []uint64 // store index
	mask uint64
}

func (t *granuleTable) init(stores int) {
	n := 16
	for n < 4*stores {
		n <<= 1
	}
	t.key, t.val, t.mask = make([]uint64, n), make([]uint64, n), uint64(n-1)
}

func (t *granuleTable) slot(g uint64) uint64 { return (g * 0x9e3779b97f4a7c15 >> 20) & t.mask }

// get returns 1 + the store index recorded for g, or 0.
func (t *granuleTable) get(g uint64) uint64 {
	for i := t.slot(g); ; i = (i + 1) & t.mask {
		switch t.key[i] {
		case 0:
			return 0
		case g + 1:
			return t.val[i] + 1
		}
	}
}

// swap records v for g and returns what get(g) returned before.
func (t *granuleTable) swap(g, v uint64) uint64 {
	for i := t.slot(g); ; i = (i + 1) & t.mask {
		switch t.key[i] {
		case 0:
			t.key[i], t.val[i] = g+1, v
			return 0
		case g + 1:
			old := t.val[i]
			t.val[i] = v
			return old + 1
		}
	}
}

// del removes g if it records v.
func (t *granuleTable) del(g, v uint64) {
	i := t.slot(g)
	for ; t.key[i] != g+1; i = (i + 1) & t.mask {
		if t.key[i] == 0 {
			return
		}
	}
	if t.val[i] != v {
		return
	}
	for {
		t.key[i] = 0
		j := i
		for {
			j = (j + 1) & t.mask
			if t.key[j] == 0 {
				return
			}
			home := t.slot(t.key[j] - 1)
			// Move j into the hole at i unless its home lies cyclically in (i, j].
			if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
				t.key[i], t.val[i] = t.key[j], t.val[j]
				i = j
				break
			}
		}
	}
}
