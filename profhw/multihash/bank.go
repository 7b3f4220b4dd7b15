package multihash

import (
	"sync"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// An engine is one hardware profiler as the interval clock sees it at an
// interval's end (the per-tuple Add is called on concrete types).
type engine interface {
	Candidates(dst []Cand) []Cand
	EndInterval()
	StorageBits() uint64
}

// Track is one engine's accuracy over the run.
type Track struct {
	Name      string
	Intervals []IntervalError
	// Lists keeps, for the first KeepLists intervals, the hardware's and
	// the perfect profiler's candidates and the accumulator table at the
	// interval's end.
	KeepLists int
	Lists     []IntervalLists
	// Profile is the sum over intervals of the hardware's candidate counts.
	Profile tuple.Counts
	// Stats are, per complete interval, what an interval profiler's
	// accumulator did (EngineStats); empty for the other engines.
	Stats []EngineStats
	// OnEnd, if set, is called at each interval's end before the engine
	// moves on (the memory-mapped window latches the accumulator here).
	OnEnd func(interval int)
	eng   engine
}

// IntervalLists are one interval's candidate lists.
type IntervalLists struct {
	Hardware    []Cand
	Perfect     []Cand
	Accumulator []AccEntry // interval profilers only
}

// Bank runs engines over one stream with one interval clock and one
// perfect profiler (so experiments compare many configurations in one
// run at the cost of one reference). The engines run on the caller's
// goroutine; the reference (the perfect profiler, the exact profile and
// the scoring) on a profhw.Offload: Sync (or Finish) before reading the
// tracks' results, Distinct, PerfectCands or Exact.
type Bank struct {
	interval uint64
	thresh   uint64
	pos      uint64 // events in the current interval
	ended    int    // intervals ended
	Events   uint64
	mh       []*Profiler
	ss       []*SpaceSaving
	cm       []*CountMin
	st       []*Stratified
	tracks   []*Track
	only     *Profiler // the bank's one engine, if it is an interval profiler (the unit's case)
	ref      *profhw.Pipe[*refBatch]
	refBatch *refBatch // tuples not yet handed to the reference
	endsMu   sync.Mutex
	ends     []*intervalEnd // latched at interval ends, not yet scored
	finished bool
	noRef    bool // DropReference: the engines alone
	scratch  []tuple.Tuple

	// The reference model's state (the consumer's until Sync).
	refPos  uint64 // tuples of the current interval it has seen
	perfect perfectTable
	run     runProfile
	seen    *tupleIndex
	exact   tuple.Counts // the exact profile as a map, built on demand after Finish
	// Distinct and PerfectCands are the perfect profiler's distinct tuples
	// and candidates per complete interval (Fig. 4 and 5); NewCands the
	// candidates that were not candidates in the interval before.
	Distinct     []int
	PerfectCands []int
	NewCands     []int
	prevCands    *tupleIndex // the last interval's perfect candidates
	curCands     *tupleIndex
}

// NewBank builds an empty bank with the interval and threshold percent.
func NewBank(interval uint64, pct float64) *Bank {
	b := &Bank{interval: interval, thresh: Threshold(interval, pct), seen: newTupleIndex(256), prevCands: newTupleIndex(256), curCands: newTupleIndex(256)}
	b.perfect.countTable = newCountTable(12)
	b.run = newRunProfile()
	spares := make([]*refBatch, refDepth)
	for i := range spares {
		spares[i] = newRefBatch()
	}
	b.refBatch = newRefBatch()
	b.ref = profhw.NewPipe(spares, b.consume)
	return b
}

// refBatchLen tuples go to the reference per batch (192 KiB: the host's
// L2), refDepth batches may be in flight.
const (
	refBatchLen = 8192
	refDepth    = 4
)

// refBatch is tuples for the reference, in order: tuples, or the value
// tap's records, each the tuple ⟨PC, value⟩ with tag (a batch holds one
// form; the records are copied as they are, 16 bytes each, where a
// tuple is 24 and had to be built one by one).
type refBatch struct {
	tuples []tuple.Tuple
	vals   []cpu.TapValue
	tag    uint8
}

func newRefBatch() *refBatch {
	return &refBatch{tuples: make([]tuple.Tuple, 0, refBatchLen), vals: make([]cpu.TapValue, 0, refBatchLen)}
}

// toRef hands ts to the reference (in bulk: one copy per batch).
func (b *Bank) toRef(ts []tuple.Tuple) {
	if len(b.refBatch.vals) > 0 {
		b.sendRef()
	}
	fillRef(b, ts, func(r *refBatch) *[]tuple.Tuple { return &r.tuples })
}

// valsToRef hands the value records to the reference.
func (b *Bank) valsToRef(vals []cpu.TapValue, tag uint8) {
	if r := b.refBatch; len(r.tuples) > 0 || len(r.vals) > 0 && r.tag != tag {
		b.sendRef()
	}
	b.refBatch.tag = tag
	fillRef(b, vals, func(r *refBatch) *[]cpu.TapValue { return &r.vals })
}

// fillRef appends xs to the batch's slice field picks, sending each
// batch that fills; the next batch keeps the tag.
func fillRef[T any](b *Bank, xs []T, field func(*refBatch) *[]T) {
	for len(xs) > 0 {
		cur := field(b.refBatch)
		n := min(len(xs), cap(*cur)-len(*cur))
		*cur = append(*cur, xs[:n]...)
		xs = xs[n:]
		if len(*cur) == cap(*cur) {
			tag := b.refBatch.tag
			b.sendRef()
			b.refBatch.tag = tag
		}
	}
}

func (b *Bank) sendRef() {
	if r := b.refBatch; len(r.tuples) > 0 || len(r.vals) > 0 {
		b.refBatch = b.ref.Send(r)
		b.refBatch.tuples, b.refBatch.vals = b.refBatch.tuples[:0], b.refBatch.vals[:0]
	}
}

// DropReference runs the engines without the reference (error.exact =
// false): no perfect profiler, no scores, no exact profile; the tracks
// keep their profiles and lists (with no perfect candidates). Call it
// before the first tuple.
func (b *Bank) DropReference() {
	b.noRef = true
	b.ref.Close()
}

// Reference reports whether the bank keeps its reference.
func (b *Bank) Reference() bool { return !b.noRef }

// Intervals is the number of complete intervals so far.
func (b *Bank) Intervals() int { return b.ended }

// Threshold is the candidate threshold in events.
func (b *Bank) Threshold() uint64 { return b.thresh }

// Interval is the interval length in events.
func (b *Bank) Interval() uint64 { return b.interval }

func (b *Bank) track(name string, e engine) *Track {
	t := &Track{Name: name, eng: e, Profile: tuple.Counts{}}
	b.tracks = append(b.tracks, t)
	b.only = nil
	if p, ok := e.(*Profiler); ok && len(b.tracks) == 1 {
		b.only = p
	}
	return t
}

// AddProfiler adds an interval profiler (its interval and threshold must
// be the bank's).
func (b *Bank) AddProfiler(name string, p *Profiler) *Track {
	b.mh = append(b.mh, p)
	return b.track(name, p)
}

// AddSpaceSaving adds a Space-Saving summary.
func (b *Bank) AddSpaceSaving(name string, s *SpaceSaving) *Track {
	b.ss = append(b.ss, s)
	return b.track(name, s)
}

// AddCountMin adds a Count-Min sketch with its top-k table.
func (b *Bank) AddCountMin(name string, c *CountMin) *Track {
	b.cm = append(b.cm, c)
	return b.track(name, c)
}

// AddStratified adds a stratified-sampling baseline.
func (b *Bank) AddStratified(name string, s *Stratified) *Track {
	b.st = append(b.st, s)
	return b.track(name, s)
}

// Tracks are the engines' results, in the order they were added.
func (b *Bank) Tracks() []*Track { return b.tracks }

// Add takes one tuple; the interval ends after its last tuple.
func (b *Bank) Add(t tuple.Tuple) {
	b.add(t)
	if !b.noRef {
		b.toRef([]tuple.Tuple{t})
	}
}

// AddAll takes the tuples in order. The engines see them first: an
// interval that ends among them has its lists queued before the
// reference can reach its end.
func (b *Bank) AddAll(ts []tuple.Tuple) {
	if b.only == nil {
		for _, t := range ts {
			b.add(t)
		}
	} else {
		// The unit's case: the interval profiler takes the tuples up to
		// each interval's end in one call.
		for rest := ts; len(rest) > 0; {
			n := min(uint64(len(rest)), b.interval-b.pos)
			b.only.AddAll(rest[:n])
			rest = rest[n:]
			b.advance(n)
		}
	}
	if !b.noRef {
		b.toRef(ts)
	}
}

// AddAllValues is AddAll on the value tap's records, each the tuple
// ⟨PC, value⟩ with tag: the interval profiler and the reference read
// them as they are.
func (b *Bank) AddAllValues(vals []cpu.TapValue, tag uint8) {
	if b.only == nil {
		b.scratch = b.scratch[:0]
		for _, v := range vals {
			b.scratch = append(b.scratch, tuple.Tuple{PC: v.PC, W: v.Value, Tag: tag})
		}
		b.AddAll(b.scratch)
		return
	}
	for rest := vals; len(rest) > 0; {
		n := min(uint64(len(rest)), b.interval-b.pos)
		b.only.AddAllValues(rest[:n], tag)
		rest = rest[n:]
		b.advance(n)
	}
	if !b.noRef {
		b.valsToRef(vals, tag)
	}
}

// advance counts n tuples the engine took, ending the interval at its
// last.
func (b *Bank) advance(n uint64) {
	b.Events += n
	if b.pos += n; b.pos == b.interval {
		b.endInterval()
	}
}

// add runs the engines on one tuple (the reference gets it separately).
func (b *Bank) add(t tuple.Tuple) {
	if b.only != nil {
		b.only.Add(t)
	} else {
		for _, p := range b.mh {
			p.Add(t)
		}
		for _, s := range b.ss {
			s.Add(t)
		}
		for _, c := range b.cm {
			c.Add(t)
		}
		for _, s := range b.st {
			s.Add(t)
		}
	}
	b.Events++
	b.pos++
	if b.pos == b.interval {
		b.endInterval()
	}
}

// Partial is the number of events in the unfinished last interval.
func (b *Bank) Partial() uint64 { return b.pos }

// endInterval latches every engine's candidates (and, for the kept
// lists, its accumulator) for the reference to score, then starts the
// next interval.
func (b *Bank) endInterval() {
	n := b.ended
	b.ended++
	e := &intervalEnd{cands: make([][]Cand, len(b.tracks)), acc: make([][]AccEntry, len(b.tracks))}
	for i, tr := range b.tracks {
		e.cands[i] = tr.eng.Candidates(nil)
		if n < tr.KeepLists {
			if p, ok := tr.eng.(*Profiler); ok {
				e.acc[i] = append([]AccEntry(nil), p.Accumulator()...)
			}
		}
		if p, ok := tr.eng.(*Profiler); ok {
			tr.Stats = append(tr.Stats, p.IntervalStats())
		}
		if tr.OnEnd != nil {
			tr.OnEnd(n)
		}
		tr.eng.EndInterval()
	}
	b.pos = 0
	if b.noRef {
		for i, tr := range b.tracks {
			tr.addProfile(e.cands[i])
			if n < tr.KeepLists {
				tr.Lists = append(tr.Lists, IntervalLists{Hardware: e.cands[i], Accumulator: e.acc[i]})
			}
		}
		return
	}
	b.endsMu.Lock()
	b.ends = append(b.ends, e)
	b.endsMu.Unlock()
}

// Sync waits until the reference has seen every tuple added so far.
func (b *Bank) Sync() {
	b.sendRef()
	b.ref.Sync()
}

// Finish ends the run: the reference sees the last tuples and stops (the
// partial last interval counts in the exact profile; it is not scored:
// an interval is a fixed number of events).
func (b *Bank) Finish() {
	b.sendRef()
	b.ref.Close()
	b.run.add(&b.perfect)
	b.perfect.reset()
	b.finished = true
}

// Exact is the run's exact profile (complete intervals and the partial
// last one); call it after Finish.
func (b *Bank) Exact() tuple.Counts {
	b.Sync()
	if b.finished && b.exact != nil {
		return b.exact
	}
	c := b.run.counts()
	for _, i := range b.perfect.order {
		s := &b.perfect.slots[i]
		c[slotTuple(s)] += s.n & countMask
	}
	if b.finished {
		b.exact = c
	}
	return c
}

// Net is a track's mean over intervals (§5.5.2: the net error is the
// simple average of the intervals' errors), with the mean of each
// category and the mean measured false-positive rate: false positives
// over the interval's distinct non-candidate tuples.
type Net struct {
	Error, FalsePos, FalseNeg, NeutralPos, NeutralNeg float64
	FPRate                                            float64
	Intervals                                         int
}

// Net averages the track's intervals.
func (t *Track) Net() Net {
	var n Net
	n.Intervals = len(t.Intervals)
	if n.Intervals == 0 {
		return n
	}
	for _, r := range t.Intervals {
		n.Error += r.Error
		n.FalsePos += r.FalsePos
		n.FalseNeg += r.FalseNeg
		n.NeutralPos += r.NeutralPos
		n.NeutralNeg += r.NeutralNeg
		if nc := r.Distinct - r.Perfect; nc > 0 {
			n.FPRate += float64(r.NFalsePos) / float64(nc)
		}
	}
	k := float64(n.Intervals)
	n.Error /= k
	n.FalsePos /= k
	n.FalseNeg /= k
	n.NeutralPos /= k
	n.NeutralNeg /= k
	n.FPRate /= k
	return n
}

// StorageBits is the track's engine's storage.
func (t *Track) StorageBits() uint64 { return t.eng.StorageBits() }
