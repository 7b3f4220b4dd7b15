// Package stratified is the stream-compression profiler of
// stratified-sampling.md (Sastry, Bodík, Smith, ISCA 2001): selectors make
// tuples of retired instructions, a tuple queue absorbs bursts, a
// compressor built from the paper's components (R_r, P_r, C, H[X_r]_n,
// A_k, the tagged compressor) turns them into (tuple, count) messages, and
// a message buffer interrupts the core to hand them to software. The unit
// (kind "stratified") reports the profile software folds, the exact
// profile of the same stream, the §5.3.1 error, and the analytic cost.
package stratified

import (
	"math/bits"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// Message is what a compressor sends to software: a tuple and the number
// of occurrences it stands for (§3.3: r for samplers without a counter,
// the count since the last sample with one).
type Message struct {
	T     tuple.Tuple
	Count uint64
}

// Options are the compressor's settings that the notation leaves open.
type Options struct {
	Seed        uint64 // the random samplers' RNG and the hash tables (§3.5)
	CountBits   uint   // the C component's counter width (saturates)
	AssocBits   uint   // A_k's counter width
	EvictHits   uint64 // tagged: ShouldEvict holds when the hit counter reaches this (Fig. 6, E6/E6a)
	ReplaceMiss uint64 // tagged: ShouldReplace holds when the miss counter reaches this (E5/E5a)
}

// DefaultOptions are the settings a unit uses unless configured. The
// tagged thresholds are those the sweep of experiments/stratified chooses
// by its stated rule (docs/EXPERIMENTS.md: the fewest messages among the
// thresholds at least 10% more accurate than H[P256]2048 on the suite);
// the paper gives neither.
var DefaultOptions = Options{Seed: 1, CountBits: 16, AssocBits: 8, EvictHits: 128, ReplaceMiss: 3}

// Compressor is a built compressor: a first level (a sampler, possibly
// hash-split, or the tagged compressor) and an optional A_k second level.
// Push appends messages to Out; the caller drains it. The components are
// concrete types chosen by a switch, so pushing a tuple costs no interface
// or indirect call.
type Compressor struct {
	Spec  Spec
	samp  *Sampler
	tag   *Tagged
	assoc *Assoc
	mid   []Message // first-level messages on their way to A_k
	Out   []Message

	FirstLevel uint64 // messages the first level sent (before A_k)
}

// New builds the compressor of spec.
func New(spec Spec, o Options) *Compressor {
	c := &Compressor{Spec: spec}
	if spec.Tagged != nil {
		c.tag = NewTagged(*spec.Tagged, o.EvictHits, o.ReplaceMiss, o.Seed)
	} else {
		c.samp = NewSampler(spec, o)
	}
	if spec.Assoc != 0 {
		// A counter of messages whose count is implied (R, P, D: each
		// stands for r) and of counts when messages carry them (C, tagged).
		unit := spec.Rate
		if spec.Counter || spec.Tagged != nil {
			unit = 1
		}
		c.assoc = NewAssoc(int(spec.Assoc), o.AssocBits, unit)
	}
	return c
}

// Push compresses one tuple.
func (c *Compressor) Push(t tuple.Tuple) {
	if c.assoc == nil {
		n := len(c.Out)
		if c.tag != nil {
			c.Out = c.tag.Push(t, c.Out)
		} else {
			c.Out = c.samp.Push(t, c.Out)
		}
		c.FirstLevel += uint64(len(c.Out) - n)
		return
	}
	if c.tag != nil {
		c.mid = c.tag.Push(t, c.mid[:0])
	} else {
		c.mid = c.samp.Push(t, c.mid[:0])
	}
	c.FirstLevel += uint64(len(c.mid))
	for _, m := range c.mid {
		c.Out = c.assoc.Push(m, c.Out)
	}
}

// PushAll compresses tuples in order, as Push on each would. The preset's
// shape, H[P_r]_n with no second level, has a loop of its own.
func (c *Compressor) PushAll(ts []tuple.Tuple) {
	if c.assoc != nil || c.tag != nil {
		for _, t := range ts {
			c.Push(t)
		}
		return
	}
	n := len(c.Out)
	c.Out = c.samp.PushAll(ts, c.Out)
	c.FirstLevel += uint64(len(c.Out) - n)
}

// PushAllValues is PushAll on a value tap's records, each the tuple
// ⟨PC, value⟩ with tag: only the messages' tuples are made.
func (c *Compressor) PushAllValues(vals []cpu.TapValue, tag uint8) {
	if c.assoc != nil || c.tag != nil {
		for _, v := range vals {
			c.Push(tuple.Tuple{PC: v.PC, W: v.Value, Tag: tag})
		}
		return
	}
	n := len(c.Out)
	c.Out = c.samp.PushAllValues(vals, tag, c.Out)
	c.FirstLevel += uint64(len(c.Out) - n)
}

// Drain appends what the compressor can still report at the end of a run:
// A_k's entries hold complete tuples and are read out; the first level's
// partial counts have no tuple (a sampler's counter, a tagged entry's
// partial tag) and are lost, as in the hardware.
func (c *Compressor) Drain() {
	if c.assoc != nil {
		c.Out = c.assoc.Drain(c.Out)
	}
}

// StorageBits is the compressor's state in bits (§4.2's accounting; the
// components' methods say what each counts).
func (c *Compressor) StorageBits() uint64 {
	var b uint64
	if c.tag != nil {
		b = c.tag.StorageBits()
	} else {
		b = c.samp.StorageBits()
	}
	if c.assoc != nil {
		b += c.assoc.StorageBits()
	}
	return b
}

// widthOf is the number of bits a counter needs to count 0..n-1.
func widthOf(n uint64) uint {
	if n <= 1 {
		return 0
	}
	return uint(bits.Len64(n - 1))
}

// rng is splitmix64: a tiny seeded generator for the random samplers
// (hardware would use an LFSR; the statistics are what matter here).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Sampler is R_r, P_r or D_r, with or without the counter C, alone or
// behind the hash splitter H[·]_n (§3.1–§3.3, §3.5): one counter per
// substream in a table indexed by the tuple's hash.
type Sampler struct {
	base    Base
	counter bool
	r       uint64
	thresh  uint64 // R: a draw below thresh selects (probability 1/r)
	cntMax  uint64 // the C counter saturates here
	hash    *tuple.Hash
	pcs     *pcCache
	// cnt is per substream: P_r's position (0..r-1); D_r's countdown;
	// the C counter's count since the last sample (CR, CD; for CP it
	// equals the position plus one, so P's counter serves).
	cnt   []uint32 // < 2r ≤ 2^25: half the host cache of uint64s
	since []uint64
	rnd   rng
}

// NewSampler builds the first level of a non-tagged spec.
func NewSampler(spec Spec, o Options) *Sampler {
	n := spec.Hash
	if n == 0 {
		n = 1
	}
	s := &Sampler{base: spec.Base, counter: spec.Counter, r: spec.Rate, rnd: rng{s: o.Seed}}
	s.thresh = ^uint64(0) / spec.Rate
	if spec.Rate == 1 {
		s.thresh = ^uint64(0)
	}
	s.cntMax = 1<<o.CountBits - 1
	if o.CountBits >= 64 {
		s.cntMax = ^uint64(0)
	}
	if spec.Hash != 0 {
		s.hash = tuple.NewHash(o.Seed, uint(bits.TrailingZeros64(spec.Hash)))
		s.pcs = newPCCache(s.hash)
	}
	s.cnt = make([]uint32, n)
	if spec.Counter && spec.Base != Periodic {
		s.since = make([]uint64, n)
	}
	if spec.Base == Countdown {
		for i := range s.cnt {
			s.cnt[i] = uint32(s.reload())
		}
	}
	return s
}

// reload is D_r's countdown start: uniform over the integers of (1, 2r),
// i.e. 1..2r-1, whose mean is r.
func (s *Sampler) reload() uint64 {
	if s.r == 1 {
		return 1
	}
	return 1 + s.rnd.next()%(2*s.r-1)
}

// Push samples one tuple, appending its message (if any) to out.
func (s *Sampler) Push(t tuple.Tuple, out []Message) []Message {
	i := uint64(0)
	if s.hash != nil {
		i = s.pcs.index(t)
	}
	switch s.base {
	case Periodic:
		// §3.5: the counter is incremented; at r it is reset and the tuple
		// sent with the implied count r.
		s.cnt[i]++
		if uint64(s.cnt[i]) == s.r {
			s.cnt[i] = 0
			out = append(out, Message{T: t, Count: s.r})
		}
	case Random:
		if s.since != nil && s.since[i] < s.cntMax {
			s.since[i]++
		}
		if s.rnd.next() < s.thresh {
			out = s.emit(t, i, out)
		}
	case Countdown:
		if s.since != nil && s.since[i] < s.cntMax {
			s.since[i]++
		}
		s.cnt[i]--
		if s.cnt[i] == 0 {
			s.cnt[i] = uint32(s.reload())
			out = s.emit(t, i, out)
		}
	}
	return out
}

// PushAll is Push on each tuple; the hashed periodic sampler (§3.5's
// H[P_r]_n, the paper's best design) has its own loop.
func (s *Sampler) PushAll(ts []tuple.Tuple, out []Message) []Message {
	if s.base != Periodic || s.hash == nil {
		for _, t := range ts {
			out = s.Push(t, out)
		}
		return out
	}
	cnt, r, mask := s.cnt, uint32(s.r), uint64(len(s.cnt)-1) // n is a power of two
	// Indices first, a block at a time, then the counters: the hashes of
	// a block are independent and overlap in the host's pipeline.
	var idx [32]uint32
	for len(ts) > 0 {
		blk := ts[:min(len(ts), len(idx))]
		ts = ts[len(blk):]
		pcs, h := s.pcs, s.hash
		for k := range blk {
			t := &blk[k]
			// pcs.index, by hand: the compiler does not inline it.
			// The index is IndexPC ^ IndexWHi ^ IndexWLo, the first two
			// cached per PC (a load's values mostly share their top
			// five bytes: pointers into one heap, small numbers).
			e := &pcs.ents[(t.PC>>1^t.PC>>10)&(pcCacheSize-1)]
			if e.key != t.PC|1 {
				*e = pcEntry{key: t.PC | 1, idx: h.IndexPC(t.PC), hi: noHi}
			}
			if e.hi != t.W>>24 {
				e.hi, e.hiIdx = t.W>>24, e.idx^h.IndexWHi(t.W)
			}
			idx[k] = (e.hiIdx ^ h.IndexWLo(t.W)) & uint32(mask)
		}
		for k := range blk {
			i := idx[k]
			cnt[i]++
			if cnt[i] == r {
				cnt[i] = 0
				out = append(out, Message{T: blk[k], Count: s.r})
			}
		}
	}
	return out
}

// PushAllValues is PushAll on a value tap's records, each the tuple
// ⟨PC, value⟩ with tag. The hashed periodic sampler's loop reads the
// records as they are (16 bytes, against a tuple's 24) and makes tuples
// of the messages only.
func (s *Sampler) PushAllValues(vals []cpu.TapValue, tag uint8, out []Message) []Message {
	if s.base != Periodic || s.hash == nil {
		for _, v := range vals {
			out = s.Push(tuple.Tuple{PC: v.PC, W: v.Value, Tag: tag}, out)
		}
		return out
	}
	cnt, r := s.cnt, uint32(s.r)
	var idx [valueBlock]uint32
	for len(vals) > 0 {
		blk := vals[:min(len(vals), len(idx))]
		vals = vals[len(blk):]
		s.valueIndices(blk, &idx)
		for k := range blk {
			i := idx[k]
			cnt[i]++
			if cnt[i] == r {
				cnt[i] = 0
				out = append(out, Message{T: tuple.Tuple{PC: blk[k].PC, W: blk[k].Value, Tag: tag}, Count: s.r})
			}
		}
	}
	return out
}

// valueBlock is PushAllValues' block: the indices of a block first (their
// hashes are independent and overlap in the host's pipeline), then the
// counters.
const valueBlock = 64

// valueIndices sets idx[k] to the substream of blk[k]: pcs.index by hand,
// IndexPC too, so that the loop calls nothing and keeps its state in
// registers (PushAll's loop calls IndexPC on a PC cache miss, and
// reloads its state from the stack for every tuple).
func (s *Sampler) valueIndices(blk []cpu.TapValue, idx *[valueBlock]uint32) {
	ents := &s.pcs.ents
	fpc, fw := s.hash.Folded()
	mask := uint32(len(s.cnt) - 1) // n is a power of two
	for k := range blk {
		pc, w := blk[k].PC, blk[k].Value
		e := &ents[(pc>>1^pc>>10)&(pcCacheSize-1)]
		if e.key != pc|1 {
			x := fpc[0][uint8(pc)] ^ fpc[1][uint8(pc>>8)] ^ fpc[2][uint8(pc>>16)] ^ fpc[3][uint8(pc>>24)] ^
				fpc[4][uint8(pc>>32)] ^ fpc[5][uint8(pc>>40)] ^ fpc[6][uint8(pc>>48)] ^ fpc[7][uint8(pc>>56)]
			*e = pcEntry{key: pc | 1, idx: x, hi: noHi}
		}
		if e.hi != w>>24 {
			e.hi = w >> 24
			e.hiIdx = e.idx ^ fw[3][uint8(w>>24)] ^ fw[4][uint8(w>>32)] ^ fw[5][uint8(w>>40)] ^ fw[6][uint8(w>>48)] ^ fw[7][uint8(w>>56)]
		}
		idx[k&(valueBlock-1)] = (e.hiIdx ^ fw[0][uint8(w)] ^ fw[1][uint8(w>>8)] ^ fw[2][uint8(w>>16)]) & mask
	}
}

// emit sends a random sampler's message: the count since the last sample
// with the counter (§3.3), r without.
func (s *Sampler) emit(t tuple.Tuple, i uint64, out []Message) []Message {
	c := s.r
	if s.since != nil {
		c = s.since[i]
		s.since[i] = 0
	}
	return append(out, Message{T: t, Count: c})
}

// StorageBits: P_r and D_r keep a counter of width log2(r) (D: log2(2r))
// per substream; C adds its counter per substream; R is stateless (its
// random source is not counted, as the paper does not). The hash's
// random tables (8×256 bytes, §3.5) are not counted either, as in §4.2:
// HashBits reports them.
func (s *Sampler) StorageBits() uint64 {
	n := uint64(len(s.cnt))
	var per uint64
	switch s.base {
	case Periodic:
		per = uint64(widthOf(s.r))
	case Countdown:
		per = uint64(widthOf(2 * s.r))
	}
	if s.since != nil {
		per += uint64(bits.Len64(s.cntMax))
	}
	return n * per
}

// HashBits is the size of the hash's random tables (0 without a splitter).
func (c *Compressor) HashBits() uint64 {
	if (c.samp != nil && c.samp.hash != nil) || c.tag != nil {
		return 8 * 256 * 8
	}
	return 0
}

// pcCache remembers the PC word's share of the §3.5 index for recent
// PCs: it depends on the static instruction only, and a program's loads
// are few, so the simulator computes it once per PC (the index is the
// same: TestPCCacheIndex).
type pcCache struct {
	h    *tuple.Hash
	ents [pcCacheSize]pcEntry
}

// pcEntry's key is PC|1: instructions are 2-byte aligned, so the key is
// never 0, the value of an empty entry.
// hiIdx is idx ^ IndexWHi of the words whose top five bytes are hi, the
// last such word's (a load's values mostly share them: one IndexWHi per
// change, not per tuple; hi starts as noHi, no word's top bytes).
type pcEntry struct {
	key, hi    uint64
	idx, hiIdx uint32
}

const pcCacheSize = 512

const noHi = ^uint64(0)

func newPCCache(h *tuple.Hash) *pcCache { return &pcCache{h: h} }

func (c *pcCache) index(t tuple.Tuple) uint64 {
	e := &c.ents[(t.PC>>1^t.PC>>10)&(pcCacheSize-1)]
	if e.key != t.PC|1 {
		*e = pcEntry{key: t.PC | 1, idx: c.h.IndexPC(t.PC), hi: noHi}
	}
	if e.hi != t.W>>24 {
		e.hi, e.hiIdx = t.W>>24, e.idx^c.h.IndexWHi(t.W)
	}
	return uint64(e.hiIdx ^ c.h.IndexWLo(t.W))
}
