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
	// Per entry: the descriptor packed in two words (start; direction
	// bits, length and a valid bit), and the accumulator.
	key [][2]uint64
	acc []uint32

	Hits, Misses, Replacements uint64
}

// NewHPT builds an HPT of entries entries and ways ways (both powers of
// two, ways <= entries).
func NewHPT(entries, ways int, index Index) (*HPT, error) {
	if entries <= 0 || ways <= 0 || entries&(entries-1) != 0 || ways&(ways-1) != 0 || ways > entries {
		return nil, fmt.Errorf("hpt: %d entries, %d ways: both must be powers of two with ways <= entries", entries, ways)
	}
	sets := entries / ways
	setBits := uint(bits.TrailingZeros(uint(sets)))
	h := &HPT{sets: sets, ways: ways, setBits: setBits, lenShift: max(setBits, 6) - 6, index: index,
		key: make([][2]uint64, entries), acc: make([]uint32, entries)}
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
	v := d.Start>>1 ^ uint64(d.Dirs)&h.dirMask ^ uint64(d.Len)<<h.lenShift&h.lenMask
	b := h.setBits
	return int((v ^ v>>b ^ v>>(2*b) ^ v>>(3*b)) & uint64(h.sets-1))
}

// Update adds count to the path's accumulator (saturating at 2^32-1) or,
// on a miss, replaces the least frequently used way of its set (an
// invalid way first; among equals the lowest way). It reports a hit.
func (h *HPT) Update(d Desc, count uint64) bool {
	k1 := uint64(d.Dirs) | uint64(d.Len)<<32 | 1<<40
	base := h.Set(d) * h.ways
	end := base + h.ways
	keys, acc := h.key[:end], h.acc[:end]
	victim, best := base, uint64(1<<63)
	for w := base; w < end; w++ {
		k := keys[w][1]
		if k == k1 && keys[w][0] == d.Start {
			h.Hits++
			acc[w] = uint32(min(uint64(acc[w])+count, 1<<32-1))
			return true
		}
		// LFU: an invalid way scores 0, a valid one its count + 1; the
		// first way with the lowest score is the victim.
		var score uint64
		if k != 0 {
			score = uint64(acc[w]) + 1
		}
		if score < best {
			victim, best = w, score
		}
	}
	h.Misses++
	if best != 0 {
		h.Replacements++
	}
	keys[victim] = [2]uint64{d.Start, k1}
	acc[victim] = uint32(min(count, 1<<32-1))
	return false
}

func unpack(k [2]uint64) Desc { return Desc{Start: k[0], Dirs: uint32(k[1]), Len: uint8(k[1] >> 32)} }

// Reset empties the table.
func (h *HPT) Reset() {
	clear(h.key)
	clear(h.acc)
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
	for i, k := range h.key {
		if k[1] != 0 {
			out = append(out, Entry{Desc: unpack(k), Count: h.acc[i], Set: i / h.ways, Way: i % h.ways})
		}
	}
	return out
}

// Weights is the table as a profile: descriptor -> accumulator.
func (h *HPT) Weights() map[Desc]uint64 {
	m := make(map[Desc]uint64, len(h.key))
	for i, k := range h.key {
		if k[1] != 0 {
			m[unpack(k)] += uint64(h.acc[i])
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
	return uint64(len(h.key)) * (64 + 6 + 32 + 32 + 1)
}
