package tuple

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/rvsim/rvsim/cpu"
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
	landing [32]combEnt
	nland   int
	pend    []uint64 // EachHeavy's pending totals, by instruction
	sink    uint64   // land's slot reads end here, so they are not dropped
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
		e := &c[combSlot(k.PC, k.W, k.Tag)]
		if e.w == k.W && e.pc == k.PC && e.tag == k.Tag && e.n != 0 {
			e.n++
			continue
		}
		t.addPast(e, k.PC, k.W, k.Tag)
	}
	t.pending = true
}

// addPast counts the tuple ⟨pc, w⟩ with tag that missed the combining
// cache at e (AddAll's and AddAllValues' rarer path).
func (t *PCTable) addPast(e *combEnt, pc, w uint64, tag uint8) {
	i := t.inst(pc, tag)
	if wt := &t.insts[i].words; wt.sh == 0 && w-wt.base < uint64(len(wt.dense)) {
		// A word of a counter (a dense table of stride one) lands at
		// once, in sequence, and leaves the cache to the words that
		// recur (lisp's counter load, 1.9M words each seen once,
		// evicted as many pending counts).
		t.addAt(i, w, 1)
		return
	}
	if e.n != 0 {
		t.toLand(e)
	}
	*e = combEnt{pc: pc, w: w, n: 1, inst: int32(i), tag: tag}
}

// AddAllValues is AddAll on a value tap's records, each the tuple
// ⟨PC, value⟩ with tag: the same counts, no tuples made.
func (t *PCTable) AddAllValues(vals []cpu.TapValue, tag uint8) {
	if t.comb == nil {
		t.comb = new([combSize]combEnt)
	}
	c := t.comb
	for _, v := range vals {
		e := &c[combSlot(v.PC, v.Value, tag)]
		if e.w == v.Value && e.pc == v.PC && e.tag == tag && e.n != 0 {
			e.n++
			continue
		}
		t.addPast(e, v.PC, v.Value, tag)
	}
	t.pending = true
}

func combSlot(pc, w uint64, tag uint8) uint64 {
	return (pc*0x9e3779b97f4a7c15 ^ w*0xc2b2ae3d27d4eb4f ^ uint64(tag)) >> (64 - combBits)
}

// toLand queues a pending count to land (and empties its entry).
func (t *PCTable) toLand(e *combEnt) {
	t.landing[t.nland] = *e
	e.n = 0
	if t.nland++; t.nland == len(t.landing) {
		t.land()
	}
}

// land adds the queued pending counts to the tables, a group at a time:
// first it reads each one's table slot, so that the group's cache misses
// are in flight together, then it counts.
func (t *PCTable) land() {
	ev := t.landing[:t.nland]
	var sink uint64
	for i := range ev {
		sink += t.insts[ev[i].inst].words.peek(ev[i].w)
	}
	for i := range ev {
		t.addAt(int(ev[i].inst), ev[i].w, ev[i].n)
	}
	t.sink += sink
	t.nland = 0
}

// The combining cache: 16384 entries of 32 bytes, half the host's L2.
const (
	combBits = 14
	combSize = 1 << combBits
)

type combEnt struct {
	pc, w, n uint64 // n == 0: empty
	inst     int32  // the instruction's index in insts
	tag      uint8
}

// settle lands the pending counts; every reader calls it first.
func (t *PCTable) settle() {
	if !t.pending {
		return
	}
	for i := range t.comb {
		if e := &t.comb[i]; e.n != 0 {
			t.toLand(e)
		}
	}
	t.land()
	t.pending = false
}

func (t *PCTable) addAt(inst int, w, n uint64) {
	in := &t.insts[inst]
	in.Total += n
	c, fresh := in.words.add(w)
	if fresh {
		t.n++
	}
	*c += n
	if t.share > 0 && *c&heavyFlag == 0 && float64(*c) >= t.share*float64(in.Total) {
		*c |= heavyFlag
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
		c := in.words.find(w)
		if float64(*c&^heavyFlag) >= share*float64(in.Total) {
			kept = append(kept, w)
		} else {
			*c &^= heavyFlag
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
	if c := t.insts[i].words.find(k.W); c != nil {
		return *c &^ heavyFlag
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
	for i, c := range in.words.dense {
		if c != 0 {
			f(in.words.base+uint64(i)<<in.words.sh, c&^heavyFlag)
		}
	}
	for _, e := range in.words.ents {
		if e.n != 0 {
			f(e.w, e.n&^heavyFlag)
		}
	}
}

// Count is the word's count.
func (in *PCInst) Count(w uint64) uint64 {
	if c := in.words.find(w); c != nil {
		return *c &^ heavyFlag
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

// WordCount is a word and its count.
type WordCount struct{ W, N uint64 }

// EachHeavy calls f for every instruction with its total and the words
// that hold at least share of it (Heavy's words, in word order, with
// their counts): what Insts and Heavy give, but without landing the
// combining cache whole. A convergence point reads the table every
// 100,000 events or so, and landing every pending count each time cost
// a cache miss per entry (2.6M on lisp's ref input, as many as its
// distinct tuples). Here only the entries that may make a word heavy
// land: a word not in its instruction's heavy list has a landed count
// under share·T (T the landed total; see heavy), so with a pending
// count under share·P (P the instruction's pending total) it is under
// share·(T+P), the total when read. Pending counts of the heavy list's
// words are read from the cache. heavy is only valid during f.
func (t *PCTable) EachHeavy(share float64, f func(in *PCInst, total uint64, heavy []WordCount)) {
	var ws []WordCount
	if !t.pending || t.share <= 0 || share < t.share {
		t.settle()
		for i := range t.insts {
			in := &t.insts[i]
			ws = ws[:0]
			t.Heavy(in, share, func(w, n uint64) { ws = append(ws, WordCount{w, n}) })
			f(in, in.Total, ws)
		}
		return
	}
	t.land()
	if cap(t.pend) < len(t.insts) {
		t.pend = make([]uint64, len(t.insts))
	}
	pend := t.pend[:len(t.insts)]
	clear(pend)
	for i := range t.comb {
		if e := &t.comb[i]; e.n != 0 {
			pend[e.inst] += e.n
		}
	}
	// A pending count lands when it may hold share of its instruction's
	// pending total (with a margin of one for the products' rounding).
	// What lands leaves that total, so the test lets more of the
	// instruction's later entries land, never fewer: what stays is under
	// share of the total at the start. pend ends as what stays.
	for i := range t.comb {
		if e := &t.comb[i]; e.n != 0 && float64(e.n)+1 >= t.share*float64(pend[e.inst]) {
			pend[e.inst] -= e.n
			t.toLand(e)
		}
	}
	t.land()
	for i := range t.insts {
		in := &t.insts[i]
		total := in.Total + pend[i]
		ws = ws[:0]
		for _, w := range in.heavy {
			n := in.Count(w)
			if pend[i] != 0 {
				n += t.pendingOf(in.PC, w, in.Tag)
			}
			if float64(n) >= share*float64(total) {
				ws = append(ws, WordCount{w, n})
			}
		}
		sort.Slice(ws, func(a, b int) bool { return ws[a].W < ws[b].W })
		f(in, total, ws)
	}
}

// pendingOf is the tuple's count in the combining cache.
func (t *PCTable) pendingOf(pc, w uint64, tag uint8) uint64 {
	if e := &t.comb[combSlot(pc, w, tag)]; e.n != 0 && e.pc == pc && e.w == w && e.tag == tag {
		return e.n
	}
	return 0
}

func sortWords(ws []uint64) { sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] }) }

// Counts returns the table as a map.
func (t *PCTable) Counts() Counts {
	c := make(Counts, t.n)
	t.Each(func(k Tuple, n uint64) { c[k] = n })
	return c
}

// wordTable is an instruction's open-addressing table of words (linear
// probing, power-of-two size, grown at half full); n == 0 is empty. Or,
// when its words are dense (dense != nil), their counts by word: the
// count of base+i·stride at dense[i] (0: absent).
//
// With a stride of one (sh == 0, ents nil): an instruction whose words
// fill most of a range (a counter, an index) takes that form when its
// table grows past denseMin words spanning at most twice as many: 8
// bytes a word instead of 32–64, and a word's neighbours in its cache
// line and page, where the hash scatters them (on lisp's ref input one
// load's 1.9M distinct words, each seen once, were most of the exact
// profile's 2.6M and its biggest table, 64 MiB). It widens to take a
// word outside its range while the range stays within four times its
// words, and becomes a hash table again past that.
//
// With a stride of 2–64 (sh > 0): an instruction whose words are nine
// tenths in one class modulo a power of two, and those fill most of a
// range at that stride (heap pointers 16 or 32 bytes apart: on lisp's
// ref input about fifty loads of 14–16K words each, in 512 KiB), keeps
// that class's words in the range as counts, and the other words (off
// the stride, or outside the range, which does not move) in ents, an
// overflow hash table. Once the overflow holds as many words as the
// counts, it all becomes a hash table again. A word has one place, the
// counts or the overflow, fixed by the range and the stride.
type wordTable struct {
	ents  []wordEnt
	used  int // words, in both parts
	shift uint
	dense []uint64
	base  uint64
	sh    uint // the dense words' stride, log2
	nd    int  // words in dense
}

type wordEnt struct{ w, n uint64 }

const denseMin = 1 << 12

func (wt *wordTable) slot(w uint64) uint64 { return (w * 0x9e3779b97f4a7c15) >> wt.shift }

// denseAt is the word's place in dense, and whether it has one (on the
// stride, in the range).
func (wt *wordTable) denseAt(w uint64) (uint64, bool) {
	d := w - wt.base
	i := d >> wt.sh
	return i, d&(1<<wt.sh-1) == 0 && i < uint64(len(wt.dense))
}

// peek reads the word's first slot (for land: a read whose cache miss
// overlaps others).
func (wt *wordTable) peek(w uint64) uint64 {
	if wt.dense != nil {
		if i, ok := wt.denseAt(w); ok {
			return wt.dense[i]
		}
	}
	if len(wt.ents) == 0 {
		return 0
	}
	return wt.ents[wt.slot(w)].n
}

// add returns the word's count, making it (0) if absent.
func (wt *wordTable) add(w uint64) (*uint64, bool) {
	if wt.dense != nil {
		if i, ok := wt.denseAt(w); ok {
			c := &wt.dense[i]
			if *c == 0 {
				wt.used++
				wt.nd++
				return c, true
			}
			return c, false
		}
		if wt.sh == 0 {
			wt.widen(w)
			return wt.add(w)
		}
	}
	if 2*(wt.used-wt.nd+1) > len(wt.ents) {
		wt.grow()
		return wt.add(w)
	}
	mask := uint64(len(wt.ents) - 1)
	for i := wt.slot(w); ; i = (i + 1) & mask {
		e := &wt.ents[i]
		if e.n == 0 {
			e.w = w
			wt.used++
			return &e.n, true
		}
		if e.w == w {
			return &e.n, false
		}
	}
}

func (wt *wordTable) find(w uint64) *uint64 {
	if wt.dense != nil {
		if i, ok := wt.denseAt(w); ok {
			if wt.dense[i] != 0 {
				return &wt.dense[i]
			}
			return nil
		}
	}
	if len(wt.ents) == 0 {
		return nil
	}
	mask := uint64(len(wt.ents) - 1)
	for i := wt.slot(w); wt.ents[i].n != 0; i = (i + 1) & mask {
		if wt.ents[i].w == w {
			return &wt.ents[i].n
		}
	}
	return nil
}

// grow makes room in the hash table (the whole table, or the strided
// form's overflow), or takes a dense form.
func (wt *wordTable) grow() {
	old := wt.ents
	if wt.dense != nil { // the strided form's overflow
		if wt.used-wt.nd >= wt.nd {
			wt.rehash(1 << bits.Len(uint(4*wt.used)))
		} else {
			wt.rehashEnts(max(4, 2*len(old)), old)
		}
		return
	}
	if wt.used >= denseMin {
		lo, hi := ^uint64(0), uint64(0)
		for _, e := range old {
			if e.n != 0 {
				lo, hi = min(lo, e.w), max(hi, e.w)
			}
		}
		if hi-lo < 2*uint64(wt.used) {
			wt.toDense(lo, hi)
			return
		}
		if wt.toStrided() {
			return
		}
	}
	wt.rehash(max(4, 2*len(old)))
}

// rehash moves the words to a hash table of size entries.
func (wt *wordTable) rehash(size int) {
	old, dense, base, sh := wt.ents, wt.dense, wt.base, wt.sh
	wt.dense, wt.sh, wt.nd = nil, 0, 0
	wt.rehashEnts(size, old)
	for i, c := range dense {
		if c != 0 {
			wt.put(wordEnt{base + uint64(i)<<sh, c})
		}
	}
}

// rehashEnts makes the hash table size entries and puts old's words in.
func (wt *wordTable) rehashEnts(size int, old []wordEnt) {
	wt.ents = make([]wordEnt, size)
	wt.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, e := range old {
		if e.n != 0 {
			wt.put(e)
		}
	}
}

// put places a word absent from the hash table.
func (wt *wordTable) put(e wordEnt) {
	mask := uint64(len(wt.ents) - 1)
	i := wt.slot(e.w)
	for wt.ents[i].n != 0 {
		i = (i + 1) & mask
	}
	wt.ents[i] = e
}

// toDense moves the words, all in [lo, hi], to counts by word, with room
// for as many again above hi.
func (wt *wordTable) toDense(lo, hi uint64) {
	n := 2 * (hi - lo + 1)
	base := lo
	if base+n-1 < base { // past the top word
		base = -n
	}
	wt.dense = make([]uint64, n)
	wt.base, wt.sh, wt.nd = base, 0, wt.used
	for _, e := range wt.ents {
		if e.n != 0 {
			wt.dense[e.w-base] = e.n
		}
	}
	wt.ents = nil
}

// strideClass is the largest power of two up to 64 (its log2, sh) for
// which nine tenths of the table's words are in one class modulo it, and
// that class (off); sh == 0 if none is.
func (wt *wordTable) strideClass() (sh uint, off uint64) {
	var class [64]int
	for _, e := range wt.ents {
		if e.n != 0 {
			class[e.w&63]++
		}
	}
	for s := uint(6); s >= 1; s-- {
		m := uint64(1)<<s - 1
		for c := uint64(0); c <= m; c++ {
			k := 0
			for j := c; j < 64; j += m + 1 {
				k += class[j]
			}
			if 10*k >= 9*wt.used {
				return s, c
			}
		}
	}
	return 0, 0
}

// toStrided takes the strided form if the words allow it (see
// wordTable): the narrowest range of the class's words that holds nine
// tenths of all words, if they fill at least half of it at the stride,
// as counts (with room for as many again above), and the other words in
// the overflow (a pointer load's stray words, 0 or a far one, are in
// the class as often as not).
func (wt *wordTable) toStrided() bool {
	sh, off := wt.strideClass()
	if sh == 0 {
		return false
	}
	m := uint64(1)<<sh - 1
	ws := make([]uint64, 0, wt.used)
	for _, e := range wt.ents {
		if e.n != 0 && e.w&m == off {
			ws = append(ws, e.w)
		}
	}
	slices.Sort(ws)
	need := (9*wt.used + 9) / 10 // ≤ len(ws): strideClass
	lo := 0
	for i := 1; i+need <= len(ws); i++ {
		if ws[i+need-1]-ws[i] < ws[lo+need-1]-ws[lo] {
			lo = i
		}
	}
	span := (ws[lo+need-1]-ws[lo])>>sh + 1
	if span > 2*uint64(need) {
		return false
	}
	n := 2 * span
	g, top := (ws[lo]-off)>>sh, (^uint64(0)-off)>>sh // grid places: the range's first, the top class word's
	if n-1 > top-g {
		g = top - (n - 1)
	}
	old := wt.ents
	wt.dense, wt.base, wt.sh, wt.nd = make([]uint64, n), g<<sh+off, sh, 0
	for _, e := range old {
		if _, ok := wt.denseAt(e.w); ok && e.n != 0 {
			wt.nd++
		}
	}
	wt.ents = make([]wordEnt, max(4, 1<<bits.Len(uint(4*(wt.used-wt.nd)))))
	wt.shift = uint(64 - bits.TrailingZeros(uint(len(wt.ents))))
	for _, e := range old {
		if e.n == 0 {
			continue
		}
		if i, ok := wt.denseAt(e.w); ok {
			wt.dense[i] = e.n
		} else {
			wt.put(e)
		}
	}
	return true
}

// widen makes the dense counts' range take w, with as much room again
// on w's side, or makes the table a hash table when the range would
// pass four times its words (stride one only).
func (wt *wordTable) widen(w uint64) {
	lo, hi := min(wt.base, w), max(wt.base+uint64(len(wt.dense))-1, w)
	limit := 4 * uint64(wt.used+1)
	if hi-lo >= limit {
		wt.rehash(1 << bits.Len(uint(4*wt.used)))
		return
	}
	span := hi - lo + 1
	n := max(span, min(2*span, limit))
	base := lo // room above
	if w < wt.base {
		if base = hi - (n - 1); base > hi { // room below, not under 0
			base = 0
		}
	} else if base+n-1 < base {
		base = -n
	}
	dense := make([]uint64, n)
	copy(dense[wt.base-base:], wt.dense)
	wt.dense, wt.base = dense, base
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
