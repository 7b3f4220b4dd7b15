// Package multihash is the interval-based hardware profiler of
// multi-hash-profiling.md (Narayanasamy et al., HPCA 2003): single-hash
// (§5.2) and multi-hash (§6.1) filters in front of a tagged accumulator
// table, with shielding, retaining (§5.4.1), resetting (§5.4.2) and
// conservative update (§6.1); the perfect interval profiler and the error
// metric of §5.5; and, beyond the paper, Space-Saving and Count-Min with
// conservative update and a top-k table run over the same intervals at
// the same storage, and stratified-sampling.md's H[P] compressor (the
// stratified unit's) as a non-interval baseline.
package multihash

import (
	"fmt"
	"math"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// Params are an interval profiler's parameters.
type Params struct {
	Interval     uint64  // events (tuples) per interval (§5.1)
	ThresholdPct float64 // candidate threshold, percent of the interval (§5.1)
	Tables       int     // hash tables n (1: the single-hash profiler of §5.2)
	Entries      int     // hash-table counters in all, split evenly over the tables (§6.3)
	Conservative bool    // C1: conservative update (§6.1)
	Reset        bool    // R1: reset the hash counters of a promoted tuple (§5.4.2)
	Retain       bool    // P1: retaining (§5.4.1)
	AccEntries   int     // accumulator entries; 0: the 100/t bound (§5.2)
	HashBits     uint    // hash counter width (saturating); paper §7: 24
	AccBits      uint    // accumulator counter width (saturating); 0: enough for a whole interval
	TupleBits    uint    // bits of a stored tuple (tag width of the accumulator), for storage
	Seed         uint64  // hash function i uses the §3.5 tables of seed+i
}

// Threshold is the candidate threshold in events: a tuple is a candidate
// when it occurs at least ceil(t% × interval) times (§5.2: "greater than
// or equal to").
func Threshold(interval uint64, pct float64) uint64 {
	t := math.Ceil(float64(interval)*pct/100 - 1e-9)
	return max(uint64(t), 1)
}

// AccBound is the 100/t bound on the accumulator table (§5.2): at most
// floor(100/t) tuples can each take t% of an interval.
func AccBound(pct float64) int { return int(math.Floor(100/pct + 1e-9)) }

// BitsFor is the width of a counter that holds n.
func BitsFor(n uint64) uint {
	b := uint(1)
	for n>>b != 0 {
		b++
	}
	return b
}

// Accumulator entry states.
type accState uint8

const (
	accEmpty    accState = iota
	accLocked            // promoted (or retained and re-crossed) this interval: non-replaceable
	accRetained          // kept from the last interval (§5.4.1): matched, replaceable, count from 0
	accStale             // last interval's entry without retaining: readable, not matched, replaceable
)

// AccEntry is one accumulator table entry as software reads it.
type AccEntry struct {
	T     tuple.Tuple
	Count uint64
	State accState
}

// Cand is a candidate tuple with its frequency.
type Cand struct {
	T     tuple.Tuple
	Count uint64
}

// Profiler is the single- or multi-hash interval profiler (§5.2, §6.1).
type Profiler struct {
	p        Params
	thresh   uint64
	hashMax  uint64
	accMax   uint64
	counters []uint64 // n tables of per counters, table j at [j·per, (j+1)·per)
	per      int
	hashes   []*fastHash
	src      []*tuple.Hash
	packed   *packedHash            // all n indices at once, when they fit a word (else hashes)
	lanes    *packedHash            // the presets' shape (fast): the counters' absolute indices in 16-bit lanes, keying the accumulator
	laneCtr  *[1 << laneBits]uint64 // with lanes: counters' backing array, every lane in bounds
	idx      []uint64               // scratch: the tuple's counter in each table (absolute)
	acc      []AccEntry
	accIndex *accIndex // matched entries (locked and retained)
	accByX   bool      // accIndex is keyed by the packed indices (else slotHash)
	free     [4]int    // entries per state

	Promotions     uint64 // tuples moved into the accumulator
	FailedPromotes uint64 // promotions refused: no empty or replaceable entry (accumulator overflow)

	// The current interval's share of Promotions and FailedPromotes.
	ivPromotions, ivFailed uint64
}

// EngineStats is what an interval profiler's accumulator did in one
// interval, read at its end: the promotions (tuples that reached the
// threshold in every hash table and entered the accumulator, false
// positives included; with retaining, last interval's candidates
// re-cross inside the accumulator and are not promoted again), the failed
// promotions (occurrences of tuples at the threshold that found every
// entry locked: accumulator overflow) and the accumulator's occupancy
// (entries in use, and those locked as candidates).
type EngineStats struct {
	Promotions       uint64
	FailedPromotions uint64
	AccUsed          int
	AccCandidates    int
	AccEntries       int
}

// IntervalStats is the current interval's EngineStats.
func (pr *Profiler) IntervalStats() EngineStats {
	return EngineStats{Promotions: pr.ivPromotions, FailedPromotions: pr.ivFailed,
		AccUsed: len(pr.acc) - pr.free[accEmpty], AccCandidates: pr.free[accLocked], AccEntries: len(pr.acc)}
}

// ParamError is a bad parameter: Key names the configuration key.
type ParamError struct{ Key, Msg string }

func (e *ParamError) Error() string { return e.Msg }

func paramErr(key, format string, args ...any) error {
	return &ParamError{key, fmt.Sprintf(format, args...)}
}

// Bounds on the sizes a configuration gives or derives, so that a setting
// such as threshold_percent = 1e-6 (a 100/t accumulator of 100M entries)
// is refused with an error naming its key instead of exhausting memory.
const (
	MaxCounters = 1 << 24 // hash-table (and Count-Min) counters in all
	MaxEntries  = 1 << 20 // tagged entries: accumulator, Space-Saving, Count-Min's top-k
)

// CheckEntries refuses n tagged entries past MaxEntries; key names the
// setting that gave n, how says how (e.g. "the 100/t bound of
// threshold_percent = 1e-06").
func CheckEntries(key, how string, n uint64) error {
	if n > MaxEntries {
		return paramErr(key, "%s gives %d tagged entries; at most %d are modelled", how, n, MaxEntries)
	}
	return nil
}

// CheckCounter refuses a saturating counter of bits that cannot count to
// the threshold: its candidates would never reach it.
func CheckCounter(key string, bits uint, thresh uint64) error {
	if bits < 64 && maxOf(bits) < thresh {
		return paramErr(key, "a %d-bit counter saturates at %d, below the threshold of %d events; want at least %d bits", bits, maxOf(bits), thresh, BitsFor(thresh))
	}
	return nil
}

// NewProfiler checks p and builds the profiler.
func NewProfiler(p Params) (*Profiler, error) {
	if p.Interval == 0 || p.ThresholdPct <= 0 || p.ThresholdPct > 100 {
		return nil, paramErr("interval", "want interval > 0 and threshold in (0, 100]")
	}
	if p.Tables < 1 || p.Entries < p.Tables || p.Entries%p.Tables != 0 {
		return nil, paramErr("tables", "hash entries %d do not split evenly over %d tables", p.Entries, p.Tables)
	}
	if p.Entries > MaxCounters {
		return nil, paramErr("entries", "%d hash counters; at most %d are modelled", p.Entries, MaxCounters)
	}
	per := p.Entries / p.Tables
	if per&(per-1) != 0 {
		return nil, paramErr("tables", "each of the %d hash tables would have %d counters; the §5.3 hash indexes a power of two", p.Tables, per)
	}
	thresh := Threshold(p.Interval, p.ThresholdPct)
	if p.AccEntries == 0 {
		// §5.2's 100/t bound, derived from the threshold.
		n := math.Floor(100/p.ThresholdPct + 1e-9)
		if err := CheckEntries("threshold_percent", fmt.Sprintf("the accumulator's 100/t bound (§5.2) at threshold_percent = %g", p.ThresholdPct), uint64(min(n, 1<<62))); err != nil {
			return nil, err
		}
		p.AccEntries = int(n)
	} else if err := CheckEntries("accumulator.entries", "accumulator.entries", uint64(p.AccEntries)); err != nil {
		return nil, err
	}
	if p.AccBits == 0 {
		p.AccBits = BitsFor(p.Interval)
	}
	if p.HashBits == 0 || p.HashBits > 64 || p.AccBits > 64 {
		return nil, paramErr("counter_bits", "counter widths must be 1..64 bits")
	}
	pr := &Profiler{p: p, thresh: thresh, hashMax: maxOf(p.HashBits), accMax: maxOf(p.AccBits)}
	if thresh > pr.hashMax {
		return nil, paramErr("counter_bits", "the threshold %d does not fit a %d-bit hash counter (max %d)", thresh, p.HashBits, pr.hashMax)
	}
	// An accumulator counter that saturates below the threshold loses
	// every candidate at the next interval (a retained entry can never
	// re-cross; a count reads as less than the tuple's true frequency).
	if err := CheckCounter("accumulator.counter_bits", p.AccBits, thresh); err != nil {
		return nil, err
	}
	bits := uint(0)
	for 1<<bits < per {
		bits++
	}
	pr.counters, pr.per = make([]uint64, p.Entries), per
	for i := 0; i < p.Tables; i++ {
		h := tuple.NewHash(p.Seed+uint64(i), bits)
		pr.src = append(pr.src, h)
		pr.hashes = append(pr.hashes, newFastHash(h))
	}
	pr.idx = make([]uint64, p.Tables)
	pr.acc = make([]AccEntry, p.AccEntries)
	pr.accIndex = newAccIndex(p.AccEntries)
	pr.repack()
	pr.free[accEmpty] = p.AccEntries
	return pr, nil
}

func maxOf(bits uint) uint64 {
	if bits >= 64 {
		return math.MaxUint64
	}
	return 1<<bits - 1
}

// Params returns the parameters (with defaults filled in).
func (pr *Profiler) Params() Params { return pr.p }

// Threshold is the candidate threshold in events.
func (pr *Profiler) Threshold() uint64 { return pr.thresh }

// StorageBits counts the hardware as §4.2 of stratified-sampling.md does:
// hash counters, and per accumulator entry the tuple (its tag), the
// counter and two state bits (valid, replaceable).
func (pr *Profiler) StorageBits() uint64 {
	return uint64(pr.p.Entries)*uint64(pr.p.HashBits) + uint64(pr.p.AccEntries)*uint64(pr.p.TupleBits+pr.p.AccBits+2)
}

// Add takes one tuple.
func (pr *Profiler) Add(t tuple.Tuple) {
	if pr.fast() {
		v := [1]cpu.TapValue{{PC: t.PC, Value: t.W}}
		pr.AddAllValues(v[:], t.Tag)
		return
	}
	var x uint64 // the packed indices (packed hash only)
	ph := pr.packed
	if ph != nil {
		x = ph.indices(t.PC, t.W)
	}
	h := x
	if !pr.accByX {
		h = slotHash(t)
	}
	// §5.2: a tuple in the accumulator table increments only there
	// (shielding: it no longer touches the hash tables).
	if i := pr.accIndex.get(t, h); i >= 0 {
		pr.hit(i)
		return
	}
	minC := pr.update(t, x, ph)
	// §6.1: promoted only when the counter reaches the threshold in every table.
	if minC >= pr.thresh {
		pr.crossed(t, minC, h)
	}
}

// AddAll is Add on each tuple in order; with the presets' shape (four
// packed tables keying the accumulator, conservative update) runs of one
// tag go to AddAllValues' loop as value records.
func (pr *Profiler) AddAll(ts []tuple.Tuple) {
	if !pr.fast() {
		for i := range ts {
			pr.Add(ts[i])
		}
		return
	}
	var buf [256]cpu.TapValue
	for len(ts) > 0 {
		tag, n := ts[0].Tag, 0
		for ; n < len(ts) && n < len(buf) && ts[n].Tag == tag; n++ {
			buf[n] = cpu.TapValue{PC: ts[n].PC, Value: ts[n].W}
		}
		pr.AddAllValues(buf[:n], tag)
		ts = ts[n:]
	}
}

// AddAllValues is AddAll on the value tap's records, each the tuple
// ⟨PC, value⟩ with tag (no tuples made).
func (pr *Profiler) AddAllValues(vals []cpu.TapValue, tag uint8) {
	if !pr.fast() {
		for _, v := range vals {
			pr.Add(tuple.Tuple{PC: v.PC, W: v.Value, Tag: tag})
		}
		return
	}
	for len(vals) > 0 {
		n, minC, x, j := pr.laneRun(vals, tag)
		if n == len(vals) {
			return
		}
		// Tuple n, counted, needs more: a retained entry re-crossed, or
		// a promotion.
		if j >= 0 {
			pr.setState(int(j), accLocked)
		} else {
			pr.crossed4(tuple.Tuple{PC: vals[n].PC, W: vals[n].Value, Tag: tag}, minC, x)
		}
		vals = vals[n+1:]
	}
}

// laneRun is the fast shape's loop (Add, AddAll and AddAllValues take
// it) as a leaf: no calls, so the loop's state stays in registers, and
// the profiler's thresholds are read from it, not kept in locals (with
// the lane hash, the accumulator's lookup, hit and the counters' update
// as calls it took about 150 host instructions a tuple; as a leaf with
// its thresholds in locals, 118; now 112). It counts vals from the first
// as the general path does (§5.2 shielding, §6.1 conservative update),
// up to the first tuple that needs more than counting. It returns that
// tuple's index n, counted, and either its accumulator entry j (a
// retained entry that re-crossed the threshold: hit's state change is
// left to do) or, with j = -1, its estimate minC at the threshold and its
// lane hash x (crossed4 is left to do); n = len(vals) when every tuple
// was counted.
func (pr *Profiler) laneRun(vals []cpu.TapValue, tag uint8) (n int, minC, x uint64, j int32) {
	lh, cs := pr.lanes, pr.laneCtr
	slots, acc := pr.accIndex.slots, pr.acc
	amask := uint32(len(slots) - 1)
	const m = 1<<laneBits - 1
	for i := range vals {
		pc, w := vals[i].PC, vals[i].Value
		// lh.indices(pc, w), pcPacked inline too
		c := &lh.cache[(pc>>1)%pcCacheSize]
		if c.pc != pc {
			c.pc = pc
			c.x = lh.off ^ lh.pc[0][uint8(pc)] ^ lh.pc[1][uint8(pc>>8)] ^ lh.pc[2][uint8(pc>>16)] ^ lh.pc[3][uint8(pc>>24)] ^
				lh.pc[4][uint8(pc>>32)] ^ lh.pc[5][uint8(pc>>40)] ^ lh.pc[6][uint8(pc>>48)] ^ lh.pc[7][uint8(pc>>56)]
		}
		x := c.x ^ lh.w[0][uint8(w)] ^ lh.w[1][uint8(w>>8)] ^ lh.w[2][uint8(w>>16)] ^ lh.w[3][uint8(w>>24)]
		if w>>32 == 0 {
			x ^= lh.hi0
		} else {
			x ^= lh.w[4][uint8(w>>32)] ^ lh.w[5][uint8(w>>40)] ^ lh.w[6][uint8(w>>48)] ^ lh.w[7][uint8(w>>56)]
		}
		// pr.accIndex.get: §5.2 shielding, then hit.
		k := uint32((x*0x9e3779b97f4a7c15)>>32) & amask
		for ; slots[k].v >= 0; k = (k + 1) & amask {
			if s := &slots[k]; s.pc == pc && s.w == w && s.tag == tag {
				e := &acc[s.v]
				if e.Count < pr.accMax {
					e.Count++
				}
				if e.State == accRetained && e.Count >= pr.thresh {
					return i, 0, 0, s.v
				}
				goto next
			}
		}
		// §6.1 conservative update of the four counters (lanes of x),
		// incremented only where they hold the smallest count; then
		// crossed4 if the estimate reached the threshold.
		{
			k0, k1, k2, k3 := x&m, x>>laneBits&m, x>>(2*laneBits)&m, x>>(3*laneBits)
			c0, c1, c2, c3 := cs[k0], cs[k1], cs[k2], cs[k3]
			minC := min(c0, c1, c2, c3)
			inc := uint64(0)
			if minC < pr.hashMax {
				inc = 1
			}
			var d0, d1, d2, d3 uint64
			if c0 == minC {
				d0 = inc
			}
			if c1 == minC {
				d1 = inc
			}
			if c2 == minC {
				d2 = inc
			}
			if c3 == minC {
				d3 = inc
			}
			cs[k0], cs[k1], cs[k2], cs[k3] = c0+d0, c1+d1, c2+d2, c3+d3
			if minC+inc >= pr.thresh {
				return i, minC + inc, x, -1
			}
		}
	next:
	}
	return len(vals), 0, 0, -1
}

// fast reports whether the profiler has the presets' shape (four tables
// in a lane hash, conservative update).
func (pr *Profiler) fast() bool { return pr.lanes != nil }

// hit counts a tuple that accumulator entry i holds.
func (pr *Profiler) hit(i int32) {
	e := &pr.acc[i]
	if e.Count < pr.accMax {
		e.Count++
	}
	// §5.4.1: a retained entry that crosses the threshold again is
	// unmarked as replaceable.
	if e.State == accRetained && e.Count >= pr.thresh {
		pr.setState(int(i), accLocked)
	}
}

// crossed promotes t, whose counters (pr.idx) all reached the threshold
// at minC; h is its accumulator hash.
func (pr *Profiler) crossed(t tuple.Tuple, minC, h uint64) {
	if !pr.promote(t, minC, h) {
		pr.FailedPromotes++
		pr.ivFailed++
		return
	}
	pr.Promotions++
	pr.ivPromotions++
	if pr.p.Reset {
		// §5.4.2 resetting: the promoted tuple's counters restart at 0.
		for _, k := range pr.idx {
			pr.counters[k] = 0
		}
	}
}

// update counts an unshielded tuple in the hash tables (x: its packed
// indices, if ph) and returns its new estimate, the smallest of its
// counters; pr.idx holds its counters.
func (pr *Profiler) update(t tuple.Tuple, x uint64, ph *packedHash) uint64 {
	minC := uint64(math.MaxUint64)
	if ph != nil {
		base := uint64(0)
		for j := range pr.idx {
			k := base + x&ph.mask
			pr.idx[j] = k
			minC = min(minC, pr.counters[k])
			x >>= ph.width
			base += uint64(pr.per)
		}
	} else {
		for j, h := range pr.hashes {
			k := uint64(j*pr.per) + h.index(t)
			pr.idx[j] = k
			minC = min(minC, pr.counters[k])
		}
	}
	// A counter at minC is below the maximum exactly when minC is.
	inc := uint64(0)
	if minC < pr.hashMax {
		inc = 1
	}
	if pr.p.Conservative {
		// §6.1 conservative update: only the smallest counters (all of them on a tie).
		for _, k := range pr.idx {
			c := pr.counters[k]
			if c == minC {
				c += inc
			}
			pr.counters[k] = c
		}
	} else {
		for _, k := range pr.idx {
			if c := &pr.counters[k]; *c < pr.hashMax {
				*c++
			}
		}
	}
	return minC + inc
}

// crossed4 is crossed for the fast shape: x is t's lane hash, which
// holds its counters.
func (pr *Profiler) crossed4(t tuple.Tuple, minC, x uint64) {
	idx := pr.idx[:4]
	for j := range idx {
		idx[j] = x >> (j * laneBits) & (1<<laneBits - 1)
	}
	pr.crossed(t, minC, x)
}

// accHash is the accumulator index's hash of t (as Add computes it).
func (pr *Profiler) accHash(t tuple.Tuple) uint64 {
	if pr.lanes != nil {
		return pr.lanes.indices(t.PC, t.W)
	}
	if pr.accByX {
		return pr.packed.indices(t.PC, t.W)
	}
	return slotHash(t)
}

// promote moves t into the accumulator with count c: empty entries first,
// then replaceable ones (§5.4.1): stale entries before retained ones, and
// among retained entries the one with the smallest count (lowest index on
// a tie). It fails when every entry is locked (§5.2: "the event is not put
// into the accumulator table").
func (pr *Profiler) promote(t tuple.Tuple, c, h uint64) bool {
	victim := -1
	switch {
	case pr.free[accEmpty] > 0:
		victim = pr.first(accEmpty)
	case pr.free[accStale] > 0:
		victim = pr.first(accStale)
	case pr.free[accRetained] > 0:
		for i := range pr.acc {
			if pr.acc[i].State == accRetained && (victim < 0 || pr.acc[i].Count < pr.acc[victim].Count) {
				victim = i
			}
		}
	default:
		return false
	}
	e := &pr.acc[victim]
	if e.State == accRetained {
		pr.accIndex.del(e.T, pr.accHash(e.T))
	}
	e.T, e.Count = t, min(c, pr.accMax)
	pr.setState(victim, accLocked)
	pr.accIndex.put(t, h, int32(victim))
	return true
}

func (pr *Profiler) first(s accState) int {
	for i := range pr.acc {
		if pr.acc[i].State == s {
			return i
		}
	}
	panic("multihash: accumulator state counts are inconsistent")
}

func (pr *Profiler) setState(i int, s accState) {
	pr.free[pr.acc[i].State]--
	pr.acc[i].State = s
	pr.free[s]++
}

// Candidates appends the interval's candidates (the locked entries, all
// at or above the threshold) to dst, in table order.
func (pr *Profiler) Candidates(dst []Cand) []Cand {
	for i := range pr.acc {
		if e := &pr.acc[i]; e.State == accLocked {
			dst = append(dst, Cand{e.T, e.Count})
		}
	}
	return dst
}

// Accumulator is the accumulator table as it stands.
func (pr *Profiler) Accumulator() []AccEntry { return pr.acc }

// EndInterval ends an interval (§5.2): the hash tables are flushed; the
// accumulator entries become replaceable. With retaining (§5.4.1) the
// entries at or above the threshold stay matched with count 0 and the
// others are flushed; without it every entry stays readable (stale) but
// is no longer matched.
func (pr *Profiler) EndInterval() {
	pr.ivPromotions, pr.ivFailed = 0, 0
	clear(pr.counters)
	for i := range pr.acc {
		e := &pr.acc[i]
		switch e.State {
		case accLocked:
			if pr.p.Retain {
				e.Count = 0
				pr.setState(i, accRetained)
			} else {
				pr.accIndex.del(e.T, pr.accHash(e.T))
				pr.setState(i, accStale)
			}
		case accRetained:
			pr.accIndex.del(e.T, pr.accHash(e.T))
			e.T, e.Count = tuple.Tuple{}, 0
			pr.setState(i, accEmpty)
		}
	}
}

// HashCounter returns counter k of table j (tests).
func (pr *Profiler) HashCounter(j int, k uint64) uint64 { return pr.counters[uint64(j*pr.per)+k] }

// HashIndex returns t's index in table j (tests).
func (pr *Profiler) HashIndex(j int, t tuple.Tuple) uint64 { return pr.hashes[j].index(t) }

// setHash replaces hash function j (tests: hand-made tables).
func (pr *Profiler) setHash(j int, h *tuple.Hash) {
	pr.hashes[j], pr.src[j] = newFastHash(h), h
	pr.repack()
}

// repack builds the packed hash from the functions, if they fit a word.
func (pr *Profiler) repack() {
	if pr.accIndex.occupied() {
		panic("multihash: hash functions replaced while the accumulator holds tuples")
	}
	pr.packed = nil
	if packable(len(pr.src), pr.src[0].Bits()) {
		pr.packed = newPackedHash(pr.src)
	}
	// The packed indices key the accumulator when they have bits enough
	// to spread its tuples.
	pr.accByX = pr.packed != nil && uint(len(pr.src))*pr.src[0].Bits() >= 16
	// The presets' shape takes the fast path, whose lane hash keys the
	// accumulator instead (when the packed indices would).
	pr.lanes = nil
	if pr.accByX && pr.p.Conservative && laneable(len(pr.src), pr.src[0].Bits()) {
		pr.lanes = newLaneHash(pr.src)
		if pr.laneCtr == nil {
			pr.laneCtr = new([1 << laneBits]uint64)
			copy(pr.laneCtr[:], pr.counters)
			pr.counters = pr.laneCtr[:len(pr.counters):len(pr.counters)]
		}
	}
}
