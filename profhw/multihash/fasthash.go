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
