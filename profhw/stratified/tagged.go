package stratified

import (
	"math/bits"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// Tagged is the tagged compressor of stratified-sampling.md §4: the §3.5
// hash indexes a set, a partial tag xor-fold(pc xor w, tag bits) tells
// tuples apart, and each entry runs the Empty/Valid/Evict machine of
// Fig. 6 with a hit and a miss counter.
type Tagged struct {
	ents      []tagEntry
	ways      int
	hash      *tuple.Hash
	pcs       *pcCache
	tagBits   uint
	hitBits   uint
	missBits  uint
	hitSat    uint64 // the hit counter's largest value
	missSat   uint64
	evictHits uint64 // ShouldEvict: hit count (with this hit) ≥ evictHits
	replace   uint64 // ShouldReplace: miss count ≥ replace
	clock     uint64

	// Transitions counts each transition taken (tests, summaries).
	Transitions [numTransitions]uint64
}

// The entry states of Fig. 6.
const (
	Empty uint8 = iota
	Valid
	Evict
)

// The transitions of Fig. 6.
const (
	E1  = iota // Empty -> Valid: allocate (the hit counter keeps a count handed over by E6)
	E2         // Valid -> Empty: the hit counter saturates; message (tuple, count)
	E3         // Valid -> Valid: a hit
	E4         // Valid -> Evict: a miss (another tuple wants the entry)
	E5         // Evict -> Valid: ShouldReplace; the new tuple takes the entry and both counts
	E5a        // Evict -> Evict: a miss, counted
	E6         // Evict -> Empty: ShouldEvict on a hit; message; the miss count becomes the hit count
	E6a        // Evict -> Evict: a hit, counted, not yet enough to evict
	numTransitions
)

// TransitionNames names the transitions in order.
var TransitionNames = [numTransitions]string{"E1", "E2", "E3", "E4", "E5", "E5a", "E6", "E6a"}

type tagEntry struct {
	state     uint8
	tag       uint64
	hit, miss uint64
	used      uint64 // LRU stamp within the set
}

// NewTagged builds the compressor; evictHits and replaceMiss are the
// ShouldEvict and ShouldReplace thresholds (clamped to the counters).
func NewTagged(s TaggedSpec, evictHits, replaceMiss, seed uint64) *Tagged {
	sets := s.Entries / s.Ways
	t := &Tagged{
		ents: make([]tagEntry, s.Entries), ways: int(s.Ways),
		hash:    tuple.NewHash(seed, uint(bits.TrailingZeros64(sets))),
		tagBits: s.TagBits, hitBits: s.HitBits, missBits: s.MissBits,
		hitSat: 1<<s.HitBits - 1, missSat: 1<<s.MissBits - 1,
	}
	t.pcs = newPCCache(t.hash)
	t.evictHits = min(max(evictHits, 1), t.hitSat)
	t.replace = min(max(replaceMiss, 1), t.missSat)
	return t
}

// Push runs one tuple through its entry's state machine (§4.1, Fig. 6).
func (c *Tagged) Push(t tuple.Tuple, out []Message) []Message {
	c.clock++
	base := int(c.pcs.index(t)) * c.ways
	set := c.ents[base : base+c.ways]
	tag := tuple.Tag(t, c.tagBits)
	var free, lru *tagEntry
	for i := range set {
		e := &set[i]
		if e.state == Empty {
			if free == nil {
				free = e
			}
			continue
		}
		if e.tag == tag {
			e.used = c.clock
			return c.hit(e, t, out)
		}
		if lru == nil || e.used < lru.used {
			lru = e
		}
	}
	if free != nil { // E1: allocate; the count E6 handed over is the new tuple's
		c.Transitions[E1]++
		free.state, free.tag, free.miss, free.used = Valid, tag, 0, c.clock
		return c.add(free, t, out)
	}
	e := lru
	e.used = c.clock
	if e.state == Valid { // E4: the entry waits, in Evict, for its tuple to come back
		c.Transitions[E4]++
		e.state, e.miss = Evict, 1
		return out
	}
	if e.miss < c.missSat {
		e.miss++
	}
	if e.miss < c.replace { // E5a
		c.Transitions[E5a]++
		return out
	}
	// E5: give up; the new tuple takes the entry with the hit and miss
	// counts ("do not drop counts": the stream length is kept).
	c.Transitions[E5]++
	e.state, e.tag = Valid, tag
	e.hit += e.miss - 1 // add counts this occurrence
	e.miss = 0
	return c.add(e, t, out)
}

// hit handles a tag match: E3/E2 in Valid, E6a/E6 in Evict.
func (c *Tagged) hit(e *tagEntry, t tuple.Tuple, out []Message) []Message {
	if e.state == Valid {
		if e.hit < c.hitSat {
			c.Transitions[E3]++
		}
		return c.add(e, t, out)
	}
	if e.hit+1 < c.evictHits && e.hit < c.hitSat { // E6a: not enough hits yet
		c.Transitions[E6a]++
		e.hit++
		return out
	}
	// E6: the tuple is here again, complete: report it and empty the
	// entry; the misses it saw start the next tuple's hit count.
	c.Transitions[E6]++
	out = append(out, Message{T: t, Count: e.hit + 1})
	e.state, e.hit, e.miss = Empty, e.miss, 0
	return out
}

// add counts one occurrence of t in a Valid entry, or, when the counter
// is already saturated, takes E2 (the message carries 2^hit bits: an 8-bit
// counter is a sampling rate of 256, §5.4). A count handed over by E5 that
// overflows the counter leaves at once the same way, so none is dropped.
func (c *Tagged) add(e *tagEntry, t tuple.Tuple, out []Message) []Message {
	if e.hit < c.hitSat {
		e.hit++
		return out
	}
	c.Transitions[E2]++
	out = append(out, Message{T: t, Count: e.hit + 1})
	e.state, e.hit, e.miss = Empty, 0, 0
	return out
}

// StorageBits is §4.2's accounting: per entry the tag, the hit and miss
// counters and one state bit (Evict is a Valid entry with a non-zero miss
// counter), plus ceil(log2(ways!)) LRU bits per set.
func (c *Tagged) StorageBits() uint64 {
	n := uint64(len(c.ents))
	per := uint64(c.tagBits + c.hitBits + c.missBits + 1)
	return n*per + n/uint64(c.ways)*lruBits(c.ways)
}

// lruBits is the bits of true LRU order among w ways: ceil(log2(w!)).
func lruBits(w int) uint64 {
	f := 1.0
	for i := 2; i <= w; i++ {
		f *= float64(i)
	}
	b := uint64(0)
	for v := 1.0; v < f; v *= 2 {
		b++
	}
	return b
}

// State returns entry i's state and counters (tests).
func (c *Tagged) State(i int) (state uint8, tag, hit, miss uint64) {
	e := &c.ents[i]
	return e.state, e.tag, e.hit, e.miss
}
