package pipeline

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStoreQueueYoungestOlder checks the store queue's load lookup (the
// granule buckets and their chains) against a scan of the queue: random
// stores allocated and drained (the ring reused many times over), each
// followed by loads answered alike. Addresses come from a few regions a
// multiple of the bucket table's span apart, so granules share buckets,
// with sizes 1..8 at any offset, so stores and loads straddle granules.
func TestStoreQueueYoungestOlder(t *testing.T) {
	for _, sq := range []int{1, 4, 16} {
		var q storeQueue
		q.init(sq)
		rnd, addr := storeQueueRand(&q, 7)
		for i := uint64(0); i < 30000; i++ {
			if q.tail-q.head == uint64(len(q.e)) || q.tail > q.head && rnd(3) == 0 {
				q.head++ // drain the oldest (the lookup sees committed stores too)
				q.commit, q.unknown = max(q.commit, q.head), max(q.unknown, q.head)
				continue
			}
			st := uop{pos: 2 * i}
			st.addr, st.size = addr(), uint8(1+rnd(8))
			idx := q.tail
			require.Equal(t, idx, q.alloc(&st))
			for k := 0; k < 4; k++ {
				ld := uop{pos: 2*i + 1}
				ld.addr, ld.size = addr(), uint8(1+rnd(8))
				want := uint64(0)
				for j := q.tail; j > q.head; j-- {
					if e := q.at(j - 1); e.addr < ld.addr+uint64(ld.size) && ld.addr < e.addr+uint64(e.size) {
						want = j
						break
					}
				}
				require.Equal(t, want, q.youngestOlder(&ld), "sq %d, op %d: load of %d at %#x", sq, i, ld.size, ld.addr)
			}
		}
	}
}

// storeQueueRand returns a deterministic random source (xorshift, from
// seed) and addresses for q's tests: from a few regions a multiple of the
// bucket table's span apart (granules share buckets), at any offset.
func storeQueueRand(q *storeQueue, seed uint64) (rnd func(uint64) uint64, addr func() uint64) {
	span := (q.gran.mask + 1) * 8 // bytes mapped before the buckets repeat
	x := seed
	rnd = func(n uint64) uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x % n
	}
	return rnd, func() uint64 { return 0x10000 + rnd(3)*span + rnd(40) }
}

// TestStoreQueueCached: the value the store queue keeps as a field
// (unknownPos) equals what the ring holds (the general path) at
// every commit, under every preset, on the mixed program, the DISE stream
// and the stream built to defeat the decode cache (stores, AMOs, SCs).
func TestStoreQueueCached(t *testing.T) {
	atEveryCommit(t, nil, func(c *Core, where string) int {
		q := &c.sq
		unknown := ^uint64(0)
		if q.unknown < q.tail {
			unknown = q.at(q.unknown).pos
		}
		if q.unknownPos != unknown {
			t.Fatalf("%s: cycle %d: unknownPos %d, want %d", where, c.now, q.unknownPos, unknown)
		}
		if unknown != ^uint64(0) {
			return 1
		}
		return 0
	})
}

// TestStoreLookup checks the producer's lookup (storeLookup, Async) and
// the model queue's use of it (lookup, pre) against the model's own walk
// (youngestOlder, the general path) on a queue fed the same stores and
// drained alike: random stores, loads and AMOs in program order, the
// queue drained at random and never holding more stores than its size
// when a store is allocated (as rename admits them), addresses sharing
// buckets and straddling granules. After handBack the model queue's own
// walk takes over and must agree too.
func TestStoreLookup(t *testing.T) {
	for _, sq := range []int{1, 3, 4, 16} {
		var ref, m storeQueue
		ref.init(sq)
		m.init(sq)
		var l storeLookup
		l.takeOver(&m, sq)
		rnd, addr := storeQueueRand(&ref, 11)
		drain := func() {
			ref.head++
			ref.commit, ref.unknown = max(ref.commit, ref.head), max(ref.unknown, ref.head)
			m.head, m.commit, m.unknown = ref.head, ref.commit, ref.unknown
		}
		for i := uint64(0); i < 40000; i++ {
			if i == 30000 {
				l.handBack(&m)
				require.False(t, m.pre)
			}
			for ref.tail > ref.head && rnd(3) == 0 {
				drain()
			}
			u := uop{pos: i}
			u.addr, u.size = addr(), uint8(1+rnd(8))
			switch rnd(5) {
			case 0, 1:
				u.flags = fStore
			case 2:
				u.flags = fLoad | fStore // an AMO: looked up, then allocated
			default:
				u.flags = fLoad
			}
			for u.flags&fStore != 0 && ref.tail-ref.head >= uint64(sq) {
				drain() // (rename admits a store only with room for it)
			}
			if m.pre {
				l.uop(&u)
			}
			if u.flags&fLoad != 0 {
				want := ref.youngestOlder(&u)
				require.Equal(t, want, m.lookup(&u), "sq %d, op %d: load of %d at %#x (fdist %d)", sq, i, u.size, u.addr, u.fdist)
			}
			if u.flags&fStore != 0 {
				require.Equal(t, ref.alloc(&u), m.alloc(&u))
			}
		}
	}
}
