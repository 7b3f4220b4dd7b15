package multihash

import (
	"math"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// Perfect is the perfect interval profiler (§5.5.1): the exact count of
// every tuple in the current interval.
type Perfect struct {
	index  *tupleIndex
	tuples []tuple.Tuple
	counts []uint64
}

// NewPerfect builds a perfect profiler.
func NewPerfect() *Perfect { return &Perfect{index: newTupleIndex(1024)} }

// Add counts one tuple.
func (p *Perfect) Add(t tuple.Tuple) {
	if i := p.index.get(t); i >= 0 {
		p.counts[i]++
		return
	}
	p.index.put(t, int32(len(p.tuples)))
	p.tuples = append(p.tuples, t)
	p.counts = append(p.counts, 1)
}

// Count is t's count in the interval.
func (p *Perfect) Count(t tuple.Tuple) uint64 {
	if i := p.index.get(t); i >= 0 {
		return p.counts[i]
	}
	return 0
}

// Distinct is the number of distinct tuples in the interval.
func (p *Perfect) Distinct() int { return len(p.tuples) }

// Candidates appends the tuples that occurred at least thresh times, in
// first-occurrence order.
func (p *Perfect) Candidates(dst []Cand, thresh uint64) []Cand {
	for i, c := range p.counts {
		if c >= thresh {
			dst = append(dst, Cand{p.tuples[i], c})
		}
	}
	return dst
}

// FoldInto adds the interval's counts to a run profile.
func (p *Perfect) FoldInto(run tuple.Counts) {
	for i, t := range p.tuples {
		run[t] += p.counts[i]
	}
}

// AddInto adds the interval's counts to another perfect profiler (the
// run's exact counts).
func (p *Perfect) AddInto(run *Perfect) {
	for i, t := range p.tuples {
		run.AddN(t, p.counts[i])
	}
}

// AddN counts n occurrences of t.
func (p *Perfect) AddN(t tuple.Tuple, n uint64) {
	if i := p.index.get(t); i >= 0 {
		p.counts[i] += n
		return
	}
	p.index.put(t, int32(len(p.tuples)))
	p.tuples = append(p.tuples, t)
	p.counts = append(p.counts, n)
}

// Reset starts a new interval.
func (p *Perfect) Reset() {
	p.index.clear()
	p.tuples = p.tuples[:0]
	p.counts = p.counts[:0]
}

// IntervalError is one interval's accuracy (§5.5): the weighted error of
// formula (1), E = Σ|f_p − f_h| / Σ f_p over the candidates of either
// profiler, split into the four categories of Fig. 3 (their parts add up
// to E), with the number of tuples in each.
type IntervalError struct {
	Error                           float64 // percent
	FalsePos, FalseNeg              float64 // percent parts of Error
	NeutralPos, NeutralNeg          float64
	NFalsePos, NFalseNeg            int
	NNeutralPos, NNeutralNeg, NSame int
	Perfect, Hardware               int // candidates of each profiler
	Distinct                        int // distinct tuples in the interval
	// NewCands are the perfect candidates that were not perfect
	// candidates in the previous interval (all of them in the first): a
	// property of the stream, set by the Bank.
	NewCands int
}

// Score compares the hardware's candidates hw with the perfect profiler's
// of the same interval. A hardware candidate is "In" for the hardware; a
// perfect candidate it does not hold has f_h = 0 (§5.5.2). An interval
// with no candidate in either profile has error 0. seen is scratch.
func Score(perfect *Perfect, thresh uint64, hw []Cand, seen *tupleIndex) IntervalError {
	return score(perfect, perfect.Distinct(), perfect.Candidates(nil, thresh), thresh, hw, seen)
}

// score is Score over any perfect profile: its counts, its distinct
// tuples and its candidates (at or above thresh, in its order).
func score(perfect interface{ Count(tuple.Tuple) uint64 }, distinct int, pcands []Cand, thresh uint64, hw []Cand, seen *tupleIndex) IntervalError {
	var r IntervalError
	r.Distinct = distinct
	r.Hardware = len(hw)
	seen.clear()
	var num, den, fp, fn, np, nn float64
	for i, c := range hw {
		seen.put(c.T, int32(i))
		fp64 := perfect.Count(c.T)
		d := math.Abs(float64(fp64) - float64(c.Count))
		den += float64(fp64)
		num += d
		switch {
		case fp64 < thresh:
			fp += d
			r.NFalsePos++
		case c.Count > fp64:
			np += d
			r.NNeutralPos++
		case c.Count < fp64:
			nn += d
			r.NNeutralNeg++
		default:
			r.NSame++
		}
	}
	for _, c := range pcands {
		r.Perfect++
		if seen.get(c.T) >= 0 {
			continue
		}
		den += float64(c.Count)
		num += float64(c.Count)
		fn += float64(c.Count)
		r.NFalseNeg++
	}
	if den == 0 {
		return r
	}
	r.Error = 100 * num / den
	r.FalsePos, r.FalseNeg = 100*fp/den, 100*fn/den
	r.NeutralPos, r.NeutralNeg = 100*np/den, 100*nn/den
	return r
}

// FPBound is §6.2's approximate bound on the probability that a tuple
// becomes a false positive: (100n / tZ)^n for n tables of Z counters in
// all and a t% threshold (capped at 1).
func FPBound(n, z int, pct float64) float64 {
	return math.Min(1, math.Pow(100*float64(n)/(pct*float64(z)), float64(n)))
}
