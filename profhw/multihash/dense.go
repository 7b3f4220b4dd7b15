package multihash

import (
	"math/bits"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// The run's exact profile counts an instruction's dense words in arrays
// (chunks of 4,096 counts), not as tuples in the sorted runs. On lisp's
// ref input 2.1M of the 2.64M distinct tuples are of that kind: one load
// reads a counter (1.88M words, each once, in [0, 0x1d1230]) and about
// fifty read heap pointers (14–16K words each, 32 or 16 bytes apart in
// 512 KiB), and those fifty recur in every interval: the staging table
// saw 18.7M counts, let 12.4M through, and the runs' merges rewrote the
// pointers' 0.76M tuples at every level. A chunk is an instruction's
// 4,096 consecutive words a stride apart (a power of two up to 64, the
// largest for which nine tenths of its words are in one class modulo
// it: heap pointers 32 bytes apart at 16 past a multiple of 32 have the
// stride 32 and the offset 16); it is made when a staging table's flush
// holds at least chunkMin of its words in its range, so only where words
// are at least a sixteenth dense. An interval's counts that
// fall in a chunk go there before the staging table; the rest (other
// instructions, words off the stride or outside every chunk) go on to
// the sorted runs. A tuple can have counts in both: the profile is their
// sum.
type denseWords struct {
	insts  []denseInst
	instAt pairMap // (PC, tag) → index in insts
	chunks []*[chunkSize]uint64
	info   []chunkInfo
	at     pairMap // (instruction, chunk number) → index in chunks
	min    int     // chunkMin; the tests lower it
	// A bit per hash of (PC, tag), set for the instructions with
	// chunks (on lisp's ref input 47 of 1,419): it spares the
	// others' counts a lookup in instAt.
	filter [filterBits / 64]uint64
	// flush's scratch, by instruction
	seen   []int32
	modAt  []int32                 // an instruction's counts in mod (-1: none)
	mod    [][1 << maxStride]int32 // words modulo 64, of instructions choosing a stride
	cand   *[candSize]candEnt
	staged []stagedSlot
}

type denseInst struct {
	pc     uint64
	tag    uint8
	ref    uint64 // the words are ref + k·stride (ref < stride)
	shift  int8   // the stride's log2; -1: not chosen yet
	chunks int32  // chunks made
	// The chunks of numbers lo to lo+len(dir)-1 (-1: none), where most
	// are: a lookup there is an index; far counts those outside, which
	// only at has.
	lo  uint64
	dir []int32
	far int32
}

type chunkInfo struct {
	inst int32
	num  uint64 // the chunk's first word is ref + num << chunkLog << shift
}

const (
	chunkLog  = 12
	chunkSize = 1 << chunkLog
	// chunkMin is how many of an instruction's distinct words a flush
	// must hold in one chunk's range to make it (and how many choose
	// its stride).
	chunkMin = 256
	// maxStride is the largest stride's log2 (64 bytes).
	maxStride = 6
)

const filterLog, filterBits = 12, 1 << 12

func filterBit(pc uint64, tag uint8) uint64 {
	return ((pc ^ uint64(tag)<<56) * keyMul1) >> (64 - filterLog)
}

func newDenseWords() denseWords {
	return denseWords{instAt: newPairMap(8), at: newPairMap(8), cand: new([candSize]candEnt), min: chunkMin}
}

// find is where ⟨pc, w, tag⟩ is counted: its chunk's index and its place
// in it (index << chunkLog | place), if it has a chunk.
func (d *denseWords) find(pc, w uint64, tag uint8) (uint64, bool) {
	if h := filterBit(pc, tag); d.filter[h>>6]&(1<<(h&63)) == 0 {
		return 0, false // no chunks
	}
	i := d.instAt.get(pc, uint64(tag))
	if i < 0 {
		return 0, false
	}
	return d.findIn(i, w)
}

// findIn is find for a word of instruction i (the index of its entry).
func (d *denseWords) findIn(i int32, w uint64) (uint64, bool) {
	in := &d.insts[i]
	if in.chunks == 0 || (w-in.ref)&(1<<in.shift-1) != 0 {
		return 0, false
	}
	k := (w - in.ref) >> in.shift
	c := int32(-1)
	if j := k>>chunkLog - in.lo; j < uint64(len(in.dir)) {
		c = in.dir[j]
	} else if in.far > 0 {
		c = d.at.get(uint64(i), k>>chunkLog)
	}
	if c < 0 {
		return 0, false
	}
	return uint64(c)<<chunkLog | k&(chunkSize-1), true
}

// denseHit is a count and where it goes (find's place).
type denseHit struct{ at, n uint64 }

// addHits adds the counts where they go: apart from the lookups, so that
// the chunks' cache misses (6 MiB of heap pointers' chunks on lisp, read
// at random) overlap.
func (d *denseWords) addHits(hs []denseHit) {
	for _, h := range hs {
		d.chunks[h.at>>chunkLog][h.at&(chunkSize-1)] += h.n
	}
}

// take moves the staged counts that belong in chunks there, first
// choosing strides and making chunks for the instructions whose staged
// words are dense enough (the staged tuples are distinct, so a count of
// them is a count of distinct words). A staged tuple cannot be in a
// chunk made before this flush (add would have counted it there), so
// only the chunks made now take any.
func (d *denseWords) take(stage *countTable) {
	// The staged words by instruction.
	clear(d.seen)
	d.staged = d.staged[:0]
	for k := range stage.slots {
		s := &stage.slots[k]
		if s.n == 0 {
			continue
		}
		i := d.inst(s.pc, uint8(s.n>>56))
		d.staged = append(d.staged, stagedSlot{slot: int32(k), inst: i})
		d.seen[i]++
	}
	d.chooseStrides(stage)
	some := false
	for i := range d.insts {
		some = some || d.insts[i].shift >= 0 && int(d.seen[i]) >= d.min
	}
	if !some {
		return
	}
	// Chunks that a flush's words fill to d.min or more.
	clear(d.cand[:])
	made := false
	for _, e := range d.staged {
		s := &stage.slots[e.slot]
		in := &d.insts[e.inst]
		if in.shift < 0 || int(d.seen[e.inst]) < d.min || (s.w-in.ref)&(1<<in.shift-1) != 0 {
			continue
		}
		num := (s.w - in.ref) >> in.shift >> chunkLog
		c := &d.cand[((uint64(e.inst)*keyMul1^num)*keyMul2)>>(64-candLog)]
		if c.n == 0 || c.inst != e.inst || c.num != num {
			*c = candEnt{inst: e.inst, num: num} // (another's count lost)
		}
		if c.n++; int(c.n) == d.min {
			d.at.put(uint64(e.inst), num, int32(len(d.chunks)))
			d.chunks = append(d.chunks, new([chunkSize]uint64))
			d.info = append(d.info, chunkInfo{inst: e.inst, num: num})
			in.chunks++
			d.place(e.inst, num, int32(len(d.chunks)-1))
			h := filterBit(in.pc, in.tag)
			d.filter[h>>6] |= 1 << (h & 63)
			made = true
		}
	}
	if !made {
		return
	}
	// The staged counts in chunks leave the stage (which is emptied
	// after this flush: its probe chains need not hold).
	for _, e := range d.staged {
		s := &stage.slots[e.slot]
		if d.insts[e.inst].chunks == 0 {
			continue
		}
		if at, ok := d.findIn(e.inst, s.w); ok {
			d.chunks[at>>chunkLog][at&(chunkSize-1)] += s.n & countMask
			*s = countSlot{}
			stage.n--
		}
	}
}

// The chunks a flush may make, counted in a direct-mapped table: two
// that meet there restart each other's count, which can only delay a
// chunk (a map of every candidate grew with a sparse instruction's
// words, one chunk number each, and was cleared at every flush).
const (
	candLog  = 12
	candSize = 1 << candLog
)

type candEnt struct {
	num     uint64
	inst, n int32
}

// chooseStrides gives a stride to each instruction that has none and
// d.min staged words or more: the largest power of two (up to 64) for
// which nine tenths of its words are in one class modulo it (ref is that
// class), from a count of its words modulo 64, so that a few words
// outside (0, odd ones) do not change it.
func (d *denseWords) chooseStrides(stage *countTable) {
	d.mod = d.mod[:0]
	for i := range d.insts {
		if d.insts[i].shift < 0 && int(d.seen[i]) >= d.min {
			d.modAt[i] = int32(len(d.mod))
			d.mod = append(d.mod, [1 << maxStride]int32{})
		} else {
			d.modAt[i] = -1
		}
	}
	if len(d.mod) == 0 {
		return
	}
	for _, e := range d.staged {
		if m := d.modAt[e.inst]; m >= 0 {
			d.mod[m][stage.slots[e.slot].w&(1<<maxStride-1)]++
		}
	}
	for i := range d.insts {
		m := d.modAt[i]
		if m < 0 {
			continue
		}
		in := &d.insts[i]
		for t := maxStride; t >= 0; t-- {
			best, at := int32(0), 0
			for x := range 1 << t { // the class x modulo 2^t
				var n int32
				for y := x; y < 1<<maxStride; y += 1 << t {
					n += d.mod[m][y]
				}
				if n > best {
					best, at = n, x
				}
			}
			if 10*int(best) >= 9*int(d.seen[i]) {
				in.shift, in.ref = int8(t), uint64(at)
				break
			}
		}
	}
}

// stagedSlot is a staged tuple's slot and instruction (take's scratch).
type stagedSlot struct{ slot, inst int32 }

// place puts a new chunk in its instruction's directory, widening it
// while it stays within twice the chunks (and 16 more), or counts it far.
func (d *denseWords) place(i int32, num uint64, c int32) {
	in := &d.insts[i]
	if j := num - in.lo; j < uint64(len(in.dir)) {
		in.dir[j] = c
		return
	}
	lo, hi := num, num
	if len(in.dir) > 0 {
		lo, hi = min(in.lo, num), max(in.lo+uint64(len(in.dir))-1, num)
	}
	if hi-lo >= 2*uint64(in.chunks)+16 {
		in.far++
		return
	}
	dir := make([]int32, hi-lo+1)
	for j := range dir {
		dir[j] = -1
	}
	in.lo, in.dir, in.far = lo, dir, 0
	for k, inf := range d.info { // the far ones that now fall inside, too
		if inf.inst != i {
			continue
		}
		if j := inf.num - lo; j < uint64(len(dir)) {
			dir[j] = int32(k)
		} else {
			in.far++
		}
	}
}

// inst is the index of the instruction's entry, made if absent.
func (d *denseWords) inst(pc uint64, tag uint8) int32 {
	i := d.instAt.get(pc, uint64(tag))
	if i < 0 {
		i = int32(len(d.insts))
		d.insts = append(d.insts, denseInst{pc: pc, tag: tag, shift: -1})
		d.instAt.put(pc, uint64(tag), i)
		d.seen, d.modAt = append(d.seen, 0), append(d.modAt, -1)
	}
	return i
}

// each calls f with every tuple the chunks count and its count.
func (d *denseWords) each(f func(pc, w uint64, tag uint8, n uint64)) {
	for c, ch := range d.chunks {
		inf := d.info[c]
		in := &d.insts[inf.inst]
		for j, n := range ch {
			if n != 0 {
				f(in.pc, in.ref+(inf.num<<chunkLog|uint64(j))<<in.shift, in.tag, n)
			}
		}
	}
}

// countsInto adds the chunks' counts to a profile.
func (d *denseWords) countsInto(m tuple.Counts) {
	d.each(func(pc, w uint64, tag uint8, n uint64) { m[tuple.Tuple{PC: pc, W: w, Tag: tag}] += n })
}

// sorted appends the chunks' counts to dst as a run (key order), for
// the exact profile merged from the runs.
func (d *denseWords) sorted(dst []runEntry) []runEntry {
	base := len(dst)
	d.each(func(pc, w uint64, tag uint8, n uint64) {
		dst = append(dst, runEntry{key: runKey(pc, w, tag), pc: pc, n: uint64(tag)<<56 | n})
	})
	sortRun(dst[base:])
	return dst
}

// pairMap maps a pair of words to an int32 (open addressing, linear
// probing, grown at half full).
type pairMap struct {
	ents  []pairEnt
	used  int
	shift uint
}

type pairEnt struct {
	a, b uint64
	v    int32 // the value + 1; 0: empty
}

func newPairMap(logSize int) pairMap {
	return pairMap{ents: make([]pairEnt, 1<<logSize), shift: uint(64 - logSize)}
}

func (m *pairMap) home(a, b uint64) uint64 { return ((a*keyMul1 ^ b) * keyMul2) >> m.shift }

// get is the pair's value, -1 if absent.
func (m *pairMap) get(a, b uint64) int32 {
	mask := uint64(len(m.ents) - 1)
	for i := m.home(a, b); m.ents[i].v != 0; i = (i + 1) & mask {
		if e := &m.ents[i]; e.a == a && e.b == b {
			return e.v - 1
		}
	}
	return -1
}

// put adds the pair (absent) with its value.
func (m *pairMap) put(a, b uint64, v int32) {
	if 2*(m.used+1) > len(m.ents) {
		old := m.ents
		*m = newPairMap(bits.TrailingZeros(uint(len(old))) + 1)
		for _, e := range old {
			if e.v != 0 {
				m.put(e.a, e.b, e.v-1)
			}
		}
	}
	mask := uint64(len(m.ents) - 1)
	i := m.home(a, b)
	for m.ents[i].v != 0 {
		i = (i + 1) & mask
	}
	m.ents[i] = pairEnt{a: a, b: b, v: v + 1}
	m.used++
}
