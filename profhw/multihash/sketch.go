package multihash

import (
	"fmt"

	"github.com/rvsim/rvsim/profhw/stratified"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// topTable is a k-entry tagged table ordered by count (a min-heap with
// positions): Space-Saving's summary and Count-Min's top-k table.
type topTable struct {
	t     []tuple.Tuple
	count []uint64
	err   []uint64 // Space-Saving's overestimation bound
	heap  []int32  // entry numbers, smallest count first
	pos   []int32  // entry -> heap position
	index *tupleIndex
	max   uint64 // counter saturation
}

func newTopTable(k int, counterBits uint) *topTable {
	return &topTable{
		t: make([]tuple.Tuple, 0, k), count: make([]uint64, 0, k), err: make([]uint64, 0, k),
		heap: make([]int32, 0, k), pos: make([]int32, 0, k), index: newTupleIndex(k), max: maxOf(counterBits),
	}
}

func (tt *topTable) full() bool { return len(tt.t) == cap(tt.t) }

func (tt *topTable) less(a, b int) bool {
	ea, eb := tt.heap[a], tt.heap[b]
	if tt.count[ea] != tt.count[eb] {
		return tt.count[ea] < tt.count[eb]
	}
	return ea < eb
}

func (tt *topTable) swap(a, b int) {
	tt.heap[a], tt.heap[b] = tt.heap[b], tt.heap[a]
	tt.pos[tt.heap[a]], tt.pos[tt.heap[b]] = int32(a), int32(b)
}

func (tt *topTable) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !tt.less(i, p) {
			return
		}
		tt.swap(i, p)
		i = p
	}
}

func (tt *topTable) down(i int) {
	n := len(tt.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && tt.less(r, l) {
			m = r
		}
		if !tt.less(m, i) {
			return
		}
		tt.swap(i, m)
		i = m
	}
}

// insert adds a new entry (the table is not full).
func (tt *topTable) insert(t tuple.Tuple, c, e uint64) {
	i := int32(len(tt.t))
	tt.t, tt.count, tt.err = append(tt.t, t), append(tt.count, min(c, tt.max)), append(tt.err, e)
	tt.heap = append(tt.heap, i)
	tt.pos = append(tt.pos, int32(len(tt.heap)-1))
	tt.index.put(t, i)
	tt.up(len(tt.heap) - 1)
}

// setCount raises entry i's count.
func (tt *topTable) setCount(i int32, c uint64) {
	tt.count[i] = min(c, tt.max)
	tt.down(int(tt.pos[i]))
}

// replaceMin puts t in the smallest entry's place.
func (tt *topTable) replaceMin(t tuple.Tuple, c, e uint64) {
	i := tt.heap[0]
	tt.index.del(tt.t[i])
	tt.t[i], tt.count[i], tt.err[i] = t, min(c, tt.max), e
	tt.index.put(t, i)
	tt.down(0)
}

func (tt *topTable) minCount() uint64 { return tt.count[tt.heap[0]] }

func (tt *topTable) candidates(dst []Cand, thresh uint64) []Cand {
	for i, c := range tt.count {
		if c >= thresh {
			dst = append(dst, Cand{tt.t[i], c})
		}
	}
	return dst
}

func (tt *topTable) reset() {
	tt.t, tt.count, tt.err, tt.heap, tt.pos = tt.t[:0], tt.count[:0], tt.err[:0], tt.heap[:0], tt.pos[:0]
	tt.index.clear()
}

// SpaceSaving is Metwally, Agrawal and El Abbadi's Space-Saving (ICDT
// 2005) over the same intervals: k counters; a new tuple takes the
// smallest counter's place with count min+1 (and error min). Candidates
// are the entries whose count reaches the threshold at the interval's
// end; the summary is cleared for the next interval.
type SpaceSaving struct {
	top       *topTable
	thresh    uint64
	entryBits uint
}

// NewSpaceSaving builds a k-entry summary; counterBits is the width of
// each count and error counter, tupleBits the stored tuple's.
func NewSpaceSaving(k int, thresh uint64, counterBits, tupleBits uint) (*SpaceSaving, error) {
	if k < 1 {
		return nil, fmt.Errorf("space-saving needs at least one entry")
	}
	return &SpaceSaving{top: newTopTable(k, counterBits), thresh: thresh, entryBits: tupleBits + 2*counterBits}, nil
}

// Add takes one tuple.
func (s *SpaceSaving) Add(t tuple.Tuple) {
	tt := s.top
	if i := tt.index.get(t); i >= 0 {
		tt.setCount(i, tt.count[i]+1)
		return
	}
	if !tt.full() {
		tt.insert(t, 1, 0)
		return
	}
	m := tt.minCount()
	tt.replaceMin(t, m+1, m)
}

// Candidates appends the entries at or above the threshold.
func (s *SpaceSaving) Candidates(dst []Cand) []Cand { return s.top.candidates(dst, s.thresh) }

// EndInterval clears the summary.
func (s *SpaceSaving) EndInterval() { s.top.reset() }

// StorageBits: per entry the tuple, its count and its error.
func (s *SpaceSaving) StorageBits() uint64 { return uint64(cap(s.top.t)) * uint64(s.entryBits) }

// Entries is k.
func (s *SpaceSaving) Entries() int { return cap(s.top.t) }

// SpaceSavingEntries is the largest k whose storage fits bits.
func SpaceSavingEntries(bits uint64, counterBits, tupleBits uint) int {
	return int(bits / uint64(tupleBits+2*counterBits))
}

// CountMin is a Count-Min sketch (Cormode and Muthukrishnan 2005) with
// conservative update (Estan and Varghese 2002) and a top-k table of
// tagged entries: each tuple's estimate is its smallest counter after
// the update; a tuple outside the table enters it when the table has
// room or its estimate beats the table's smallest. No shielding and no
// threshold gate: the table holds the k largest estimates. Candidates are
// the table's entries at or above the threshold at the interval's end;
// sketch and table are cleared for the next interval.
type CountMin struct {
	rows      [][]uint64
	hashes    []*fastHash
	packed    *packedHash // all rows' indices at once, when they fit a word
	idx       []uint64
	max       uint64
	top       *topTable
	thresh    uint64
	bits      uint64
	countBits uint
}

// NewCountMin builds d rows of w counters (w a power of two) of
// counterBits each, and a k-entry top table.
func NewCountMin(d, w, k int, thresh uint64, counterBits, accBits, tupleBits uint, seed uint64) (*CountMin, error) {
	if d < 1 || w < 1 || w&(w-1) != 0 || k < 1 {
		return nil, fmt.Errorf("count-min needs rows >= 1, a power-of-two width and a top-k table")
	}
	bits := uint(0)
	for 1<<bits < w {
		bits++
	}
	cm := &CountMin{max: maxOf(counterBits), top: newTopTable(k, accBits), thresh: thresh, idx: make([]uint64, d), countBits: counterBits}
	var src []*tuple.Hash
	for i := 0; i < d; i++ {
		cm.rows = append(cm.rows, make([]uint64, w))
		h := tuple.NewHash(seed+uint64(i), bits)
		src = append(src, h)
		cm.hashes = append(cm.hashes, newFastHash(h))
	}
	if packable(d, bits) {
		cm.packed = newPackedHash(src)
	}
	cm.bits = uint64(d*w)*uint64(counterBits) + uint64(k)*uint64(tupleBits+accBits)
	return cm, nil
}

// Add takes one tuple.
func (cm *CountMin) Add(t tuple.Tuple) {
	m := uint64(1<<64 - 1)
	if ph := cm.packed; ph != nil {
		x := ph.indices(t.PC, t.W)
		for j := range cm.idx {
			k := x & ph.mask
			cm.idx[j] = k
			m = min(m, cm.rows[j][k])
			x >>= ph.width
		}
	} else {
		for j, h := range cm.hashes {
			k := h.index(t)
			cm.idx[j] = k
			m = min(m, cm.rows[j][k])
		}
	}
	for j, k := range cm.idx {
		if c := &cm.rows[j][k]; *c == m && *c < cm.max {
			*c++
		}
	}
	if m < cm.max {
		m++
	}
	tt := cm.top
	if i := tt.index.get(t); i >= 0 {
		tt.setCount(i, m)
		return
	}
	switch {
	case !tt.full():
		tt.insert(t, m, 0)
	case m > tt.minCount():
		tt.replaceMin(t, m, 0)
	}
}

// Candidates appends the table's entries at or above the threshold.
func (cm *CountMin) Candidates(dst []Cand) []Cand { return cm.top.candidates(dst, cm.thresh) }

// EndInterval clears the sketch and the table.
func (cm *CountMin) EndInterval() {
	for _, r := range cm.rows {
		clear(r)
	}
	cm.top.reset()
}

// StorageBits: the counters, and per table entry the tuple and its count.
func (cm *CountMin) StorageBits() uint64 { return cm.bits }

// Stratified is stratified-sampling.md's compressor (the stratified
// unit's, built from its notation, e.g. H[P10]2048) as an interval
// baseline: the hardware runs across intervals; software adds each
// message's count (r for P_r) to the tuple's count for the interval in
// which the message arrives. Candidates are the tuples software counted
// at or above the threshold.
type Stratified struct {
	c        *stratified.Compressor
	thresh   uint64
	soft     *Perfect // software's per-interval counts
	Messages uint64
}

// NewStratified builds the compressor named by spec (the stratified
// unit's notation) with the unit's default options and seed.
func NewStratified(spec string, thresh, seed uint64) (*Stratified, error) {
	sp, err := stratified.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	o := stratified.DefaultOptions
	o.Seed = seed
	return &Stratified{c: stratified.New(sp, o), thresh: thresh, soft: NewPerfect()}, nil
}

// Add takes one tuple.
func (s *Stratified) Add(t tuple.Tuple) {
	s.c.Push(t)
	if len(s.c.Out) > 0 {
		for _, m := range s.c.Out {
			s.soft.AddN(m.T, m.Count)
		}
		s.Messages += uint64(len(s.c.Out))
		s.c.Out = s.c.Out[:0]
	}
}

// Candidates appends software's tuples whose estimate reaches the
// threshold.
func (s *Stratified) Candidates(dst []Cand) []Cand { return s.soft.Candidates(dst, s.thresh) }

// EndInterval starts software's next interval; the hardware runs on.
func (s *Stratified) EndInterval() { s.soft.Reset() }

// StorageBits is the compressor's (§4.2 of stratified-sampling.md).
func (s *Stratified) StorageBits() uint64 { return s.c.StorageBits() }

// Spec is the compressor's name in the notation.
func (s *Stratified) Spec() string { return s.c.Spec.String() }
