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

// accIndex is the accumulator's tag match (a CAM in hardware): tuple ->
// entry, open addressing keyed by a hash the caller gives (the packed
// hash indices when they have enough bits: no second hash per tuple).
// Each slot holds its key and home, so a lookup reads one slot and
// deletion can shift back without rehashing.
type accIndex struct {
	slots []accSlot
}

type accSlot struct {
	pc, w uint64
	home  uint32
	v     int32 // entry; -1: empty
	tag   uint8
}

func newAccIndex(capacity int) *accIndex {
	size := 16
	for size < 2*capacity {
		size <<= 1
	}
	ix := &accIndex{slots: make([]accSlot, size)}
	for i := range ix.slots {
		ix.slots[i].v = -1
	}
	return ix
}

// home is h's home slot: bits 32 up of its Fibonacci hash (a constant
// shift, which the variable one by the size was not).
func (ix *accIndex) home(h uint64) uint32 {
	return uint32((h*0x9e3779b97f4a7c15)>>32) & uint32(len(ix.slots)-1)
}

// get returns t's entry, or -1; h is t's hash.
func (ix *accIndex) get(t tuple.Tuple, h uint64) int32 {
	mask := uint32(len(ix.slots) - 1)
	for i := ix.home(h); ; i = (i + 1) & mask {
		s := &ix.slots[i]
		if s.v < 0 {
			return -1
		}
		if s.pc == t.PC && s.w == t.W && s.tag == t.Tag {
			return s.v
		}
	}
}

// put inserts t (not present) as entry v.
func (ix *accIndex) put(t tuple.Tuple, h uint64, v int32) {
	mask := uint32(len(ix.slots) - 1)
	home := ix.home(h)
	i := home
	for ix.slots[i].v >= 0 {
		i = (i + 1) & mask
	}
	ix.slots[i] = accSlot{pc: t.PC, w: t.W, home: home, v: v, tag: t.Tag}
}

// del removes t, if present.
func (ix *accIndex) del(t tuple.Tuple, h uint64) {
	mask := uint32(len(ix.slots) - 1)
	i := ix.home(h)
	for {
		s := &ix.slots[i]
		if s.v < 0 {
			return
		}
		if s.pc == t.PC && s.w == t.W && s.tag == t.Tag {
			break
		}
		i = (i + 1) & mask
	}
	hole := i
	for j := (i + 1) & mask; ix.slots[j].v >= 0; j = (j + 1) & mask {
		if (j-ix.slots[j].home)&mask >= (j-hole)&mask {
			ix.slots[hole] = ix.slots[j]
			hole = j
		}
	}
	ix.slots[hole].v = -1
}

// occupied reports whether any tuple is held.
func (ix *accIndex) occupied() bool {
	for i := range ix.slots {
		if ix.slots[i].v >= 0 {
			return true
		}
	}
	return false
}
