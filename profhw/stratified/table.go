package stratified

import (
	"iter"
	"math/bits"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// countTable is a tuple profile in an open-addressing table: the
// per-event exact count costs one multiply-hash and a probe, no map
// machinery (the unit's hottest line). A count of 0 marks a free slot.
type countTable struct {
	ents  []countEntry
	n     int
	shift uint // 64 - log2(len(ents))
}

type countEntry struct {
	t tuple.Tuple
	n uint64
}

func newCountTable() *countTable {
	const initial = 1 << 10
	return &countTable{ents: make([]countEntry, initial), shift: 64 - uint(bits.TrailingZeros(initial))}
}

func (c *countTable) slot(t tuple.Tuple) uint64 {
	x := t.PC*0x9e3779b97f4a7c15 ^ t.W*0xc2b2ae3d27d4eb4f ^ uint64(t.Tag)
	x ^= x >> 29
	return (x * 0xbf58476d1ce4e5b9) >> c.shift
}

// Add adds n (> 0) occurrences of t.
func (c *countTable) Add(t tuple.Tuple, n uint64) {
	mask := uint64(len(c.ents) - 1)
	for i := c.slot(t); ; i = (i + 1) & mask {
		e := &c.ents[i]
		if e.n == 0 {
			e.t, e.n = t, n
			c.n++
			if 2*c.n > len(c.ents) {
				c.grow()
			}
			return
		}
		if e.t == t {
			e.n += n
			return
		}
	}
}

func (c *countTable) grow() {
	old := c.ents
	c.ents = make([]countEntry, 2*len(old))
	c.shift--
	c.n = 0
	for _, e := range old {
		if e.n != 0 {
			c.Add(e.t, e.n)
		}
	}
}

// Get returns t's count.
func (c *countTable) Get(t tuple.Tuple) uint64 {
	mask := uint64(len(c.ents) - 1)
	for i := c.slot(t); ; i = (i + 1) & mask {
		e := &c.ents[i]
		if e.n == 0 {
			return 0
		}
		if e.t == t {
			return e.n
		}
	}
}

// Len is the number of distinct tuples.
func (c *countTable) Len() int { return c.n }

// All yields every tuple and its count.
func (c *countTable) All() iter.Seq2[tuple.Tuple, uint64] {
	return func(yield func(tuple.Tuple, uint64) bool) {
		for _, e := range c.ents {
			if e.n != 0 && !yield(e.t, e.n) {
				return
			}
		}
	}
}

// Counts is the profile as a map (outputs, tests).
func (c *countTable) Counts() tuple.Counts {
	m := make(tuple.Counts, c.n)
	for t, n := range c.All() {
		m[t] = n
	}
	return m
}

// Profile is what the error metric reads of a profile.
type Profile interface {
	All() iter.Seq2[tuple.Tuple, uint64]
	Get(t tuple.Tuple) uint64
}

// CountsProfile reads a tuple.Counts as a Profile.
type CountsProfile tuple.Counts

func (c CountsProfile) All() iter.Seq2[tuple.Tuple, uint64] {
	return func(yield func(tuple.Tuple, uint64) bool) {
		for t, n := range c {
			if !yield(t, n) {
				return
			}
		}
	}
}

func (c CountsProfile) Get(t tuple.Tuple) uint64 { return c[t] }
