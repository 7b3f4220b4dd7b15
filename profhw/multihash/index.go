package multihash

import "github.com/rvsim/rvsim/profhw/tuple"

// tupleIndex maps tuples to small integers: the tag match of the fully
// associative tables (a CAM in hardware) and the perfect profiler's
// counts. Open addressing with linear probing; deletion shifts the
// following run back, so lookups never see tombstones.
type tupleIndex struct {
	keys []tuple.Tuple
	vals []int32 // -1: empty slot
	n    int
	mask uint64
}

func newTupleIndex(capacity int) *tupleIndex {
	size := 16
	for size < 2*capacity {
		size <<= 1
	}
	ix := &tupleIndex{}
	ix.alloc(size)
	return ix
}

func (ix *tupleIndex) alloc(size int) {
	ix.keys = make([]tuple.Tuple, size)
	ix.vals = make([]int32, size)
	for i := range ix.vals {
		ix.vals[i] = -1
	}
	ix.mask = uint64(size - 1)
	ix.n = 0
}

func slotHash(t tuple.Tuple) uint64 {
	h := t.PC*0x9e3779b97f4a7c15 + (t.W^uint64(t.Tag)<<56)*0xc2b2ae3d27d4eb4f
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// get returns the tuple's value, or -1.
func (ix *tupleIndex) get(t tuple.Tuple) int32 {
	for i := slotHash(t) & ix.mask; ; i = (i + 1) & ix.mask {
		v := ix.vals[i]
		if v < 0 {
			return -1
		}
		if ix.keys[i] == t {
			return v
		}
	}
}

// put sets the tuple's value (inserting it).
func (ix *tupleIndex) put(t tuple.Tuple, v int32) {
	if 2*(ix.n+1) > len(ix.keys) {
		ix.grow()
	}
	for i := slotHash(t) & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.vals[i] < 0 {
			ix.keys[i], ix.vals[i] = t, v
			ix.n++
			return
		}
		if ix.keys[i] == t {
			ix.vals[i] = v
			return
		}
	}
}

// del removes the tuple, if present.
func (ix *tupleIndex) del(t tuple.Tuple) {
	i := slotHash(t) & ix.mask
	for {
		if ix.vals[i] < 0 {
			return
		}
		if ix.keys[i] == t {
			break
		}
		i = (i + 1) & ix.mask
	}
	// Backward-shift deletion: move later members of the run into the hole
	// when their home slot does not lie (cyclically) between hole and them.
	hole := i
	for j := (i + 1) & ix.mask; ix.vals[j] >= 0; j = (j + 1) & ix.mask {
		home := slotHash(ix.keys[j]) & ix.mask
		if (j-home)&ix.mask >= (j-hole)&ix.mask {
			ix.keys[hole], ix.vals[hole] = ix.keys[j], ix.vals[j]
			hole = j
		}
	}
	ix.vals[hole] = -1
	ix.n--
}

func (ix *tupleIndex) grow() {
	keys, vals := ix.keys, ix.vals
	ix.alloc(2 * len(keys))
	for i, v := range vals {
		if v >= 0 {
			ix.put(keys[i], v)
		}
	}
}

// clear empties the index, keeping its size.
func (ix *tupleIndex) clear() {
	if ix.n == 0 {
		return
	}
	for i := range ix.vals {
		ix.vals[i] = -1
	}
	ix.n = 0
}

// len is the number of tuples held.
func (ix *tupleIndex) len() int { return ix.n }
