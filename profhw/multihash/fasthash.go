package multihash

import "github.com/rvsim/rvsim/profhw/tuple"

// fastHash computes tuple.Hash.Index with 16 table lookups: randomize
// works byte by byte, flip permutes bytes and xor-fold is linear in xor,
// so index = xor over byte positions i of fold(flip(r_i(pc_i))) and
// fold(r_i(w_i)), where r_i is position i's random byte table placed at
// position i. The tables are read out of the §3.5 hash through its
// public methods (the same hash, faster in software; one table lookup
// per byte, as the hardware's hard-wired randomize would be).
type fastHash struct {
	pc [8][256]uint32
	w  [8][256]uint32
}

func newFastHash(h *tuple.Hash) *fastHash {
	f := &fastHash{}
	bits := h.Bits()
	for i := uint(0); i < 8; i++ {
		mask := uint64(0xff) << (8 * i)
		for b := uint64(0); b < 256; b++ {
			c := h.Randomize(b<<(8*i)) & mask
			f.pc[i][b] = uint32(tuple.XorFold(tuple.Flip(c), bits))
			f.w[i][b] = uint32(tuple.XorFold(c, bits))
		}
	}
	return f
}

func (f *fastHash) index(t tuple.Tuple) uint64 {
	pc, w := t.PC, t.W
	x := f.pc[0][uint8(pc)] ^ f.pc[1][uint8(pc>>8)] ^ f.pc[2][uint8(pc>>16)] ^ f.pc[3][uint8(pc>>24)] ^
		f.pc[4][uint8(pc>>32)] ^ f.pc[5][uint8(pc>>40)] ^ f.pc[6][uint8(pc>>48)] ^ f.pc[7][uint8(pc>>56)]
	x ^= f.w[0][uint8(w)] ^ f.w[1][uint8(w>>8)] ^ f.w[2][uint8(w>>16)] ^ f.w[3][uint8(w>>24)] ^
		f.w[4][uint8(w>>32)] ^ f.w[5][uint8(w>>40)] ^ f.w[6][uint8(w>>48)] ^ f.w[7][uint8(w>>56)]
	return uint64(x)
}

// packedHash computes the indices of n §3.5 hash functions of the same
// width at once (SWAR): the index is linear in xor over byte positions,
// so one table per byte position holds every function's folded index of
// that byte side by side, function j in bits [j·width, (j+1)·width).
// Eight lookups give all n indices of the word; the PC's part depends
// only on the static instruction, so it comes from a small
// direct-mapped cache keyed by PC (eight more lookups on a miss).
type packedHash struct {
	w     [8][256]uint64
	pc    [8][256]uint64
	hi0   uint64 // the high four bytes' part of a word below 2^32
	off   uint64 // xor-ed into every PC's part (newLaneHash: the tables' offsets)
	cache [pcCacheSize]pcPart
	width uint // bits per function's lane
	mask  uint64
	n     int
}

// pcPart is a cached PC's packed part.
type pcPart struct{ pc, x uint64 }

// pcCacheSize is the PC cache's entries (32 KiB): lisp's test input
// missed 9% of its loads' PCs at 512 entries, 3% at 2048.
const pcCacheSize = 2048

// packable reports whether n functions of width bits fit one word.
func packable(n int, bits uint) bool { return n >= 1 && uint(n)*bits <= 64 }

// newPackedHash packs the hashes (all of hs[0].Bits() bits; packable).
func newPackedHash(hs []*tuple.Hash) *packedHash { return packHashes(hs, hs[0].Bits(), 0) }

// Lane hashes: four functions, each index in a 16-bit lane.
const (
	laneBits   = 16
	laneTables = 4
)

// laneable reports whether n functions of bits bits make a lane hash: four
// of them, whose counters (all four tables) fit a lane's 16 bits.
func laneable(n int, bits uint) bool { return n == laneTables && bits+2 <= laneBits }

// newLaneHash packs four hashes of bits bits (laneable) in 16-bit lanes
// with function j's table offset (j·2^bits, its counters' start in
// Profiler.counters) or-ed into lane j: lane j is the tuple's counter in
// table j as an absolute index, read with a constant shift (the packed
// hash's shifts by its width are variable, and with the table offsets
// added they were a fifth of the update's host instructions).
func newLaneHash(hs []*tuple.Hash) *packedHash {
	bits, off := hs[0].Bits(), uint64(0)
	for j := range hs {
		off |= uint64(j) << bits << (uint(j) * laneBits)
	}
	return packHashes(hs, laneBits, off)
}

// packHashes packs the hashes, function j's index in bits [j·lane,
// (j+1)·lane), with off xor-ed in.
func packHashes(hs []*tuple.Hash, lane uint, off uint64) *packedHash {
	p := &packedHash{n: len(hs), width: lane, off: off}
	p.mask = 1<<p.width - 1
	for j, h := range hs {
		f := newFastHash(h)
		for i := range 8 {
			for b := range 256 {
				p.w[i][b] |= uint64(f.w[i][b]) << (uint(j) * p.width)
				p.pc[i][b] |= uint64(f.pc[i][b]) << (uint(j) * p.width)
			}
		}
	}
	p.hi0 = p.w[4][0] ^ p.w[5][0] ^ p.w[6][0] ^ p.w[7][0]
	x := p.pcPacked(0)
	for i := range p.cache {
		p.cache[i] = pcPart{0, x} // PC 0's part: every slot starts valid
	}
	return p
}

func (p *packedHash) pcPacked(pc uint64) uint64 {
	return p.off ^ p.pc[0][uint8(pc)] ^ p.pc[1][uint8(pc>>8)] ^ p.pc[2][uint8(pc>>16)] ^ p.pc[3][uint8(pc>>24)] ^
		p.pc[4][uint8(pc>>32)] ^ p.pc[5][uint8(pc>>40)] ^ p.pc[6][uint8(pc>>48)] ^ p.pc[7][uint8(pc>>56)]
}

// indices returns the n indices packed (function j's is
// indices>>(j·width) & mask).
func (p *packedHash) indices(pc, w uint64) uint64 {
	c := &p.cache[(pc>>1)%pcCacheSize]
	if c.pc != pc {
		c.pc, c.x = pc, p.pcPacked(pc)
	}
	x := c.x ^ p.w[0][uint8(w)] ^ p.w[1][uint8(w>>8)] ^ p.w[2][uint8(w>>16)] ^ p.w[3][uint8(w>>24)]
	// Most loaded words are below 2^32 (small integers, and pointers into
	// a program's data and heap): their high bytes' part is a constant.
	if w>>32 == 0 {
		return x ^ p.hi0
	}
	return x ^ p.w[4][uint8(w>>32)] ^ p.w[5][uint8(w>>40)] ^ p.w[6][uint8(w>>48)] ^ p.w[7][uint8(w>>56)]
}
