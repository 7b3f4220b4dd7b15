package tuple

import "math/bits"

// Table counts tuples exactly: an open-addressing hash table (linear
// probing, power-of-two size, grown at half full) with a multiplicative
// hash. Exact reference profiles count every selected tuple of a run, so
// this is on the per-instruction path of every unit that keeps one: it is
// several times faster than a Go map keyed by Tuple.
type Table struct {
	keys  []Tuple
	vals  []uint64 // 0: empty slot (a present tuple has a count ≥ 1)
	n     int
	shift uint
}

// NewTable returns an empty table.
func NewTable() *Table {
	t := &Table{}
	t.resize(1 << 10)
	return t
}

func (t *Table) resize(size int) {
	oldK, oldV := t.keys, t.vals
	t.keys, t.vals = make([]Tuple, size), make([]uint64, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	t.n = 0
	for i, v := range oldV {
		if v != 0 {
			t.Add(oldK[i], v)
		}
	}
}

func (t *Table) slot(k Tuple) uint64 {
	h := (k.PC*0x9e3779b97f4a7c15 ^ k.W*0xc2b2ae3d27d4eb4f ^ uint64(k.Tag)*0x165667b19e3779f9) * 0xff51afd7ed558ccd
	return h >> t.shift
}

// Add adds n (≥ 1) to the tuple's count.
func (t *Table) Add(k Tuple, n uint64) {
	mask := uint64(len(t.vals) - 1)
	for i := t.slot(k); ; i = (i + 1) & mask {
		if t.vals[i] == 0 {
			if 2*(t.n+1) > len(t.vals) {
				t.resize(2 * len(t.vals))
				t.Add(k, n)
				return
			}
			t.keys[i], t.vals[i] = k, n
			t.n++
			return
		}
		if t.keys[i] == k {
			t.vals[i] += n
			return
		}
	}
}

// Get returns the tuple's count.
func (t *Table) Get(k Tuple) uint64 {
	mask := uint64(len(t.vals) - 1)
	for i := t.slot(k); t.vals[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == k {
			return t.vals[i]
		}
	}
	return 0
}

// Len is the number of distinct tuples.
func (t *Table) Len() int { return t.n }

// Each calls f for every tuple (in table order).
func (t *Table) Each(f func(k Tuple, n uint64)) {
	for i, v := range t.vals {
		if v != 0 {
			f(t.keys[i], v)
		}
	}
}

// Counts returns the table as a map.
func (t *Table) Counts() Counts {
	c := make(Counts, t.n)
	t.Each(func(k Tuple, n uint64) { c[k] = n })
	return c
}

// Reset empties the table, keeping its size.
func (t *Table) Reset() {
	clear(t.vals)
	t.n = 0
}
