package tuple

import (
	"math/bits"
	"math/rand/v2"
)

// Hash is the tuple hash of stratified-sampling.md §3.5:
//
//	npc = flip(randomize(pc)); nw = randomize(w)
//	index = xor-fold(npc xor nw, index-size)
//
// randomize looks each byte of a word up in a 256-entry table of random
// bytes (one table per byte position) and composes the results; flip
// reverses the bytes; xor-fold splits a word into n-bit chunks and xors
// them. The tables come from a seed, so runs are deterministic; the
// multi-hash profiler (multi-hash-profiling.md §6.1) builds one Hash per
// hash function from different seeds.
type Hash struct {
	tab  [8][256]uint8
	wide [8][256]uint64 // tab[i][b] << 8i: Randomize is eight loads and ors
	bits uint
}

// NewHash builds the hash for a table of 1<<bits entries from seed.
func NewHash(seed uint64, bits uint) *Hash {
	h := &Hash{bits: bits}
	r := rand.New(rand.NewPCG(seed, 0x5eed_7ab1e5))
	for i := range h.tab {
		for j := range h.tab[i] {
			h.tab[i][j] = uint8(r.Uint32())
		}
	}
	h.widen()
	return h
}

func (h *Hash) widen() {
	for i := range h.tab {
		for j, v := range h.tab[i] {
			h.wide[i][j] = uint64(v) << (8 * i)
		}
	}
}

// NewHashTables builds a hash from given tables (tests, hand-computed
// values).
func NewHashTables(tab [8][256]uint8, bits uint) *Hash {
	h := &Hash{tab: tab, bits: bits}
	h.widen()
	return h
}

// Bits is the index width.
func (h *Hash) Bits() uint { return h.bits }

// Randomize replaces each byte of w by its position's table entry.
func (h *Hash) Randomize(w uint64) uint64 {
	t := &h.wide
	return t[0][uint8(w)] | t[1][uint8(w>>8)] | t[2][uint8(w>>16)] | t[3][uint8(w>>24)] |
		t[4][uint8(w>>32)] | t[5][uint8(w>>40)] | t[6][uint8(w>>48)] | t[7][uint8(w>>56)]
}

// Flip reverses the bytes of w.
func Flip(w uint64) uint64 { return bits.ReverseBytes64(w) }

// XorFold splits w into n-bit chunks (from the low end) and xors them.
func XorFold(w uint64, n uint) uint64 {
	if n == 0 {
		return 0
	}
	if n >= 64 {
		return w
	}
	mask := uint64(1)<<n - 1
	var r uint64
	for w != 0 {
		r ^= w & mask
		w >>= n
	}
	return r
}

// Signature is flip(randomize(pc)) xor randomize(w), before folding.
func (h *Hash) Signature(pc, w uint64) uint64 {
	return Flip(h.Randomize(pc)) ^ h.Randomize(w)
}

// Index is the tuple's table index.
func (h *Hash) Index(t Tuple) uint64 {
	return XorFold(h.Signature(t.PC, t.W), h.bits)
}

// Tag is the partial tag of the tagged compressor (§4.1):
// xor-fold(pc xor w, tag-size).
func Tag(t Tuple, bits uint) uint64 { return XorFold(t.PC^t.W, bits) }
