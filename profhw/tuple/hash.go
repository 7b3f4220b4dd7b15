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
	// The index, folded in advance: randomize replaces bytes in place,
	// flip permutes them and xor-fold is linear in xor, so the index is
	// the xor over byte positions i of fold(flip(r_i(pc_i))) and
	// fold(r_i(w_i)). foldPC and foldW hold those terms: an index is
	// sixteen loads and xors (eight with the PC half cached), the same
	// value Index's word-wide definition gives (TestFoldedIndex).
	foldPC, foldW [8][256]uint32
	bits          uint
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
			h.foldPC[i][j] = uint32(XorFold(Flip(h.wide[i][j]), h.bits))
			h.foldW[i][j] = uint32(XorFold(h.wide[i][j], h.bits))
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

// Index is the tuple's table index: xor-fold(Signature(pc, w)).
func (h *Hash) Index(t Tuple) uint64 {
	return uint64(h.IndexPC(t.PC) ^ h.IndexW(t.W))
}

// IndexPC is the PC word's share of the index: it depends on the static
// instruction only, so a caller may cache it per PC.
func (h *Hash) IndexPC(pc uint64) uint32 {
	f := &h.foldPC
	return f[0][uint8(pc)] ^ f[1][uint8(pc>>8)] ^ f[2][uint8(pc>>16)] ^ f[3][uint8(pc>>24)] ^
		f[4][uint8(pc>>32)] ^ f[5][uint8(pc>>40)] ^ f[6][uint8(pc>>48)] ^ f[7][uint8(pc>>56)]
}

// Folded returns the tables IndexPC and IndexW read (position i's byte
// b at [i][b]), for a caller that computes the index in a loop of its
// own without calls.
func (h *Hash) Folded() (pc, w *[8][256]uint32) { return &h.foldPC, &h.foldW }

// IndexW is the second word's share of the index.
func (h *Hash) IndexW(w uint64) uint32 {
	f := &h.foldW
	return f[0][uint8(w)] ^ f[1][uint8(w>>8)] ^ f[2][uint8(w>>16)] ^ f[3][uint8(w>>24)] ^
		f[4][uint8(w>>32)] ^ f[5][uint8(w>>40)] ^ f[6][uint8(w>>48)] ^ f[7][uint8(w>>56)]
}

// IndexWHi and IndexWLo split IndexW: the top five bytes' share and the
// low three bytes'; IndexW(w) = IndexWHi(w) ^ IndexWLo(w). A caller may
// cache the first for words whose top five bytes repeat (a load's
// values: small numbers, or pointers into one heap).
func (h *Hash) IndexWHi(w uint64) uint32 {
	f := &h.foldW
	return f[3][uint8(w>>24)] ^ f[4][uint8(w>>32)] ^ f[5][uint8(w>>40)] ^ f[6][uint8(w>>48)] ^ f[7][uint8(w>>56)]
}

// IndexWLo is the low three bytes' share of IndexW.
func (h *Hash) IndexWLo(w uint64) uint32 {
	f := &h.foldW
	return f[0][uint8(w)] ^ f[1][uint8(w>>8)] ^ f[2][uint8(w>>16)]
}

// Tag is the partial tag of the tagged compressor (§4.1):
// xor-fold(pc xor w, tag-size).
func Tag(t Tuple, bits uint) uint64 { return XorFold(t.PC^t.W, bits) }
