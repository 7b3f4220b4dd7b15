package pathprof

import (
	"fmt"
	"math/bits"
)

// Index is the Hot Path Table's index function (§5, §8.1).
type Index uint8

// The index functions.
const (
	IndexAddr Index = iota // bits of the start address
	IndexPB                // start address XOR direction bits ("pb")
	IndexPLB               // start address XOR length XOR direction bits ("plb")
)

var indexNames = []string{"addr", "pb", "plb"}

func (x Index) String() string { return indexNames[x] }

// HPT is the Hot Path Table (§5, Fig. 7): sets of ways, each a path
// descriptor and a 32-bit accumulator, with LFU replacement.
type HPT struct {
	sets, ways int
	setBits    uint
	lenShift   uint   // where plb puts the length (6 bits) in the index
	dirMask    uint64 // all ones if the index uses the direction bits (pb, plb)
	lenMask    uint64 // all ones if it uses the length (plb)
	index      Index
	ents       []hptEntry

	Hits, Misses, Replacements uint64
}

// hptEntry is one way: the descriptor packed in two words (start;
// direction bits, length and a valid bit) and the accumulator, together
// so that a set's lookup reads adjacent memory.
type hptEntry struct {
	start uint64
	key   uint64 // direction bits | length<<32 | 1<<40 (0: invalid)
	acc   uint32
}

// MaxHPTWays bounds the associativity: a lookup scans its set.
const MaxHPTWays = 64

// NewHPT builds an HPT of entries entries and ways ways (both powers of
// two, ways <= entries, ways <= MaxHPTWays).
func NewHPT(entries, ways int, index Index) (*HPT, error) {
	if entries <= 0 || ways <= 0 || entries&(entries-1) != 0 || ways&(ways-1) != 0 || ways > entries || ways > MaxHPTWays {
		return nil, fmt.Errorf("hpt: %d entries, %d ways: both must be powers of two with ways <= entries and ways <= %d", entries, ways, MaxHPTWays)
	}
	sets := entries / ways
	setBits := uint(bits.TrailingZeros(uint(sets)))
	if setBits > 21 {
		return nil, fmt.Errorf("hpt: %d sets: at most 2^21", sets)
	}
	h := &HPT{sets: sets, ways: ways, setBits: setBits, lenShift: max(setBits, 6) - 6, index: index,
		ents: make([]hptEntry, entries)}
	if index != IndexAddr {
		h.dirMask = ^uint64(0)
	}
	if index == IndexPLB {
		h.lenMask = ^uint64(0)
	}
	return h, nil
}

// Set is the set a descriptor indexes. The address drops its low bit
// (RISC-V instructions are 2-byte aligned); the 32 direction bits (pb)
// and the length (plb, §8.1) are XORed in, and the value is folded to the
// set bits by XOR of successive chunks.
func (h *HPT) Set(d Desc) int {
	// The index function's fields are masks (all ones or zero), so that
	// the lookup has no branch on the index kind.
	// The shift counts are below 64 (setBits <= 21): masking them spares
	// the compiler's out-of-range handling.
	v := d.Start>>1 ^ uint64(d.Dirs)&h.dirMask ^ uint64(d.Len)<<(h.lenShift&63)&h.lenMask
	b := h.setBits & 63
	return int((v ^ v>>b ^ v>>(2*b&63) ^ v>>(3*b&63)) & uint64(h.sets-1))
}

// Update adds count to the path's accumulator (saturating at 2^32-1) or,
// on a miss, replaces the least frequently used way of its set (an
// invalid way first; among equals the lowest way). It reports a hit.
func (h *HPT) Update(d Desc, count uint64) bool {
	k1 := uint64(d.Dirs) | uint64(d.Len)<<32 | 1<<40
	base := h.Set(d) * h.ways
	set := h.ents[base : base+h.ways]
	for w := range set {
		if e := &set[w]; e.key == k1 && e.start == d.Start {
			h.Hits++
			e.acc = uint32(min(uint64(e.acc)+count, 1<<32-1))
			return true
		}
	}
	// LFU: an invalid way scores 0, a valid one its count + 1; the first
	// way with the lowest score is the victim.
	victim, best := 0, uint64(1<<63)
	for w := range set {
		var score uint64
		if set[w].key != 0 {
			score = uint64(set[w].acc) + 1
		}
		if score < best {
			victim, best = w, score
		}
	}
	h.Misses++
	if best != 0 {
		h.Replacements++
	}
	set[victim] = hptEntry{start: d.Start, key: k1, acc: uint32(min(count, 1<<32-1))}
	return false
}

func (e *hptEntry) desc() Desc {
	return Desc{Start: e.start, Dirs: uint32(e.key), Len: uint8(e.key >> 32)}
}

// Reset empties the table.
func (h *HPT) Reset() {
	clear(h.ents)
}

// Entry is one valid HPT entry.
type Entry struct {
	Desc
	Count    uint32
	Set, Way int
}

// Entries lists the valid entries in set and way order.
func (h *HPT) Entries() []Entry {
	var out []Entry
	for i := range h.ents {
		if e := &h.ents[i]; e.key != 0 {
			out = append(out, Entry{Desc: e.desc(), Count: e.acc, Set: i / h.ways, Way: i % h.ways})
		}
	}
	return out
}

// Weights is the table as a profile: descriptor -> accumulator.
func (h *HPT) Weights() map[Desc]uint64 {
	m := make(map[Desc]uint64, len(h.ents))
	for i := range h.ents {
		if e := &h.ents[i]; e.key != 0 {
			m[e.desc()] += uint64(e.acc)
		}
	}
	return m
}

// MissCycles is the LFU replacement's search latency (§8.2: log2 of the
// associativity).
func (h *HPT) MissCycles() uint64 { return uint64(bits.TrailingZeros(uint(h.ways))) }

// StorageBits is the table's size: per entry a descriptor (start address,
// 6-bit length, 32 direction bits), a 32-bit accumulator and a valid bit.
func (h *HPT) StorageBits() uint64 {
	return uint64(len(h.ents)) * (64 + 6 + 32 + 32 + 1)
}
