package tuple

import (
	"math/bits"
	"sort"
)

// PCTable counts tuples exactly, grouped by static instruction (the
// tuple's PC and tag): one small table of second words per instruction.
// Exact reference profiles count every tuple of a run, and a program's
// instructions differ: an invariant load's few values stay in a table of
// a cache line or two, and only instructions with many distinct words
// have big tables. Per instruction it also keeps the total and,
// optionally, the words that may hold at least a given share of it
// (§5.3.1's "sufficiently invariant" tuples), so that measuring a
// share-filtered error costs a pass over those, not over every tuple.
type PCTable struct {
	idx   pcIndex
	insts []PCInst
	share float64 // > 0: track the words that may hold this share of their instruction
	n     int
	// AddAll's pending counts (nil until it is used).
	comb    *[combSize]combEnt
	pending bool
	// Entries evicted from comb, waiting to land in a group (land).
	evicted [32]combEnt
	nev     int
	sink    uint64 // land's slot reads end here, so they are not dropped
}

// PCInst is one instruction's counts.
type PCInst struct {
	PC    uint64
	Tag   uint8
	Total uint64
	words wordTable
	// heavy holds every word whose count is at least share·Total (and
	// some that were, once): a word's share can only grow when it is
	// counted, and a word dropped from heavy had less than share·Total
	// then, so less now. Its entries carry heavyFlag.
	heavy []uint64
}

// heavyFlag marks a word that is in its instruction's heavy list (the
// top bit of the count: no count reaches it).
const heavyFlag = 1 << 63

// NewPCTable returns an empty table; share > 0 keeps the heavy words.
func NewPCTable(share float64) *PCTable {
	t := &PCTable{share: share}
	t.idx.init(1 << 8)
	return t
}

// Add adds n (≥ 1) to the tuple's count.
func (t *PCTable) Add(k Tuple, n uint64) { t.addAt(t.inst(k.PC, k.Tag), k.W, n) }

// AddAll adds one to each tuple's count. Repeats are combined first, in
// a small direct-mapped cache of pending counts, and reach the tables
// when evicted or when the table is read (settle): a program's hot tuples
// (the top few thousand are most of its loads) then cost a cache-resident
// increment, and only the long tail touches the per-instruction tables,
// which are far bigger than the host's caches. The counts are the same;
// the heavy words too (a word's share is checked when its pending count
// lands, against a total that is at most the total when it is read).
func (t *PCTable) AddAll(ts []Tuple) {
	if t.comb == nil {
		t.comb = new([combSize]combEnt)
	}
	c := t.comb
	for _, k := range ts {
		e := &c[(k.PC*0x9e3779b97f4a7c15^k.W*0xc2b2ae3d27d4eb4f^uint64(k.Tag))>>(64-combBits)]
		if e.w == k.W && e.pc == k.PC && e.tag == k.Tag && e.n != 0 {
			e.n++
			continue
		}
		if e.n != 0 {
			t.evicted[t.nev] = *e
			if t.nev++; t.nev == len(t.evicted) {
				t.land()
			}
		}
		*e = combEnt{pc: k.PC, w: k.W, n: 1, tag: k.Tag}
	}
	t.pending = true
}

// land adds the evicted pending counts to the tables, a group at a time:
// first it reads each one's table slot, so that the group's cache misses
// are in flight together, then it counts.
func (t *PCTable) land() {
	ev := t.evicted[:t.nev]
	var idx [len(t.evicted)]int
	var sink uint64
	for i := range ev {
		idx[i] = t.inst(ev[i].pc, ev[i].tag)
		if wt := &t.insts[idx[i]].words; len(wt.ents) != 0 {
			sink += wt.ents[wt.slot(ev[i].w)].n
		}
	}
	for i := range ev {
		t.addAt(idx[i], ev[i].w, ev[i].n)
	}
	t.sink += sink
	t.nev = 0
}

// The combining cache: 16384 entries of 32 bytes, half the host's L2.
const (
	combBits = 14
	combSize = 1 << combBits
)

type combEnt struct {
	pc, w, n uint64 // n == 0: empty
	tag      uint8
}

// settle lands the pending counts; every reader calls it first.
func (t *PCTable) settle() {
	if !t.pending {
		return
	}
	t.land()
	for i := range t.comb {
		if e := &t.comb[i]; e.n != 0 {
			t.addAt(t.inst(e.pc, e.tag), e.w, e.n)
			e.n = 0
		}
	}
	t.pending = false
}

func (t *PCTable) addAt(inst int, w, n uint64) {
	in := &t.insts[inst]
	in.Total += n
	e, fresh := in.words.add(w)
	if fresh {
		t.n++
	}
	e.n += n
	if t.share > 0 && e.n&heavyFlag == 0 && float64(e.n) >= t.share*float64(in.Total) {
		e.n |= heavyFlag
		in.heavy = append(in.heavy, w)
		if len(in.heavy) > 2*int(1/t.share)+8 {
			in.prune(t.share)
		}
	}
}

// prune drops the words that hold less than share of the instruction now.
func (in *PCInst) prune(share float64) {
	kept := in.heavy[:0]
	for _, w := range in.heavy {
		e := in.words.find(w)
		if float64(e.n&^heavyFlag) >= share*float64(in.Total) {
			kept = append(kept, w)
		} else {
			e.n &^= heavyFlag
		}
	}
	in.heavy = kept
}

// inst returns the index of the instruction's counts, adding them.
func (t *PCTable) inst(pc uint64, tag uint8) int {
	i, ok := t.idx.find(pc, tag)
	if !ok {
		i = len(t.insts)
		t.insts = append(t.insts, PCInst{PC: pc, Tag: tag})
		t.idx.put(pc, tag, i)
	}
	return i
}

// Get returns the tuple's count.
func (t *PCTable) Get(k Tuple) uint64 {
	t.settle()
	i, ok := t.idx.find(k.PC, k.Tag)
	if !ok {
		return 0
	}
	if e := t.insts[i].words.find(k.W); e != nil {
		return e.n &^ heavyFlag
	}
	return 0
}

// Len is the number of distinct tuples.
func (t *PCTable) Len() int {
	t.settle()
	return t.n
}

// Insts are the instructions' counts, in first-seen order.
func (t *PCTable) Insts() []PCInst {
	t.settle()
	return t.insts
}

// Inst returns an instruction's counts (nil: never counted).
func (t *PCTable) Inst(pc uint64, tag uint8) *PCInst {
	t.settle()
	if i, ok := t.idx.find(pc, tag); ok {
		return &t.insts[i]
	}
	return nil
}

// Each calls f for every tuple (in table order).
func (t *PCTable) Each(f func(k Tuple, n uint64)) {
	t.settle()
	for i := range t.insts {
		in := &t.insts[i]
		in.Each(func(w, n uint64) { f(Tuple{PC: in.PC, W: w, Tag: in.Tag}, n) })
	}
}

// Each calls f for every word of the instruction.
func (in *PCInst) Each(f func(w, n uint64)) {
	for _, e := range in.words.ents {
		if e.n != 0 {
			f(e.w, e.n&^heavyFlag)
		}
	}
}

// Count is the word's count.
func (in *PCInst) Count(w uint64) uint64 {
	if e := in.words.find(w); e != nil {
		return e.n &^ heavyFlag
	}
	return 0
}

// Heavy calls f for every word that holds at least share of the
// instruction's total (the table's share; in word order), and for no
// other. Without a share, it calls f for every word.
func (t *PCTable) Heavy(in *PCInst, share float64, f func(w, n uint64)) {
	if t.share <= 0 || share < t.share {
		var ws []uint64
		in.Each(func(w, n uint64) {
			if float64(n) >= share*float64(in.Total) {
				ws = append(ws, w)
			}
		})
		sortWords(ws)
		for _, w := range ws {
			f(w, in.Count(w))
		}
		return
	}
	ws := append([]uint64(nil), in.heavy...)
	sortWords(ws)
	for _, w := range ws {
		if n := in.Count(w); float64(n) >= share*float64(in.Total) {
			f(w, n)
		}
	}
}

func sortWords(ws []uint64) { sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] }) }

// Counts returns the table as a map.
func (t *PCTable) Counts() Counts {
	c := make(Counts, t.n)
	t.Each(func(k Tuple, n uint64) { c[k] = n })
	return c
}

// wordTable is an instruction's open-addressing table of words (linear
// probing, power-of-two size, grown at half full); n == 0 is empty.
type wordTable struct {
	ents  []wordEnt
	used  int
	shift uint
}

type wordEnt struct{ w, n uint64 }

func (wt *wordTable) slot(w uint64) uint64 { return (w * 0x9e3779b97f4a7c15) >> wt.shift }

// add returns the word's entry, making it (count 0) if absent.
func (wt *wordTable) add(w uint64) (*wordEnt, bool) {
	if 2*(wt.used+1) > len(wt.ents) {
		wt.grow()
	}
	mask := uint64(len(wt.ents) - 1)
	for i := wt.slot(w); ; i = (i + 1) & mask {
		e := &wt.ents[i]
		if e.n == 0 {
			e.w = w
			wt.used++
			return e, true
		}
		if e.w == w {
			return e, false
		}
	}
}

func (wt *wordTable) find(w uint64) *wordEnt {
	if len(wt.ents) == 0 {
		return nil
	}
	mask := uint64(len(wt.ents) - 1)
	for i := wt.slot(w); wt.ents[i].n != 0; i = (i + 1) & mask {
		if wt.ents[i].w == w {
			return &wt.ents[i]
		}
	}
	return nil
}

func (wt *wordTable) grow() {
	old := wt.ents
	size := max(4, 2*len(old))
	wt.ents = make([]wordEnt, size)
	wt.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)
	for _, e := range old {
		if e.n == 0 {
			continue
		}
		i := wt.slot(e.w)
		for wt.ents[i].n != 0 {
			i = (i + 1) & mask
		}
		wt.ents[i] = e
	}
}

// pcIndex maps an instruction (PC, tag) to its index in insts.
type pcIndex struct {
	ents  []pcEnt
	used  int
	shift uint
}

type pcEnt struct {
	pc  uint64
	tag uint16 // the tag + 1: 0 is an empty entry
	i   int32
}

func (p *pcIndex) init(size int) {
	p.ents = make([]pcEnt, size)
	p.shift = uint(64 - bits.TrailingZeros(uint(size)))
	p.used = 0
}

func (p *pcIndex) slot(pc uint64, tag uint8) uint64 {
	return ((pc ^ uint64(tag)<<56) * 0x9e3779b97f4a7c15) >> p.shift
}

func (p *pcIndex) find(pc uint64, tag uint8) (int, bool) {
	mask := uint64(len(p.ents) - 1)
	t := uint16(tag) + 1
	for i := p.slot(pc, tag); p.ents[i].tag != 0; i = (i + 1) & mask {
		if e := &p.ents[i]; e.pc == pc && e.tag == t {
			return int(e.i), true
		}
	}
	return 0, false
}

func (p *pcIndex) put(pc uint64, tag uint8, v int) {
	if 2*(p.used+1) > len(p.ents) {
		old := p.ents
		p.init(2 * len(old))
		for _, e := range old {
			if e.tag != 0 {
				p.put(e.pc, uint8(e.tag-1), int(e.i))
			}
		}
	}
	mask := uint64(len(p.ents) - 1)
	i := p.slot(pc, tag)
	for p.ents[i].tag != 0 {
		i = (i + 1) & mask
	}
	p.ents[i] = pcEnt{pc: pc, tag: uint16(tag) + 1, i: int32(v)}
	p.used++
}
