package stratified

import (
	"sort"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// Filter is §5.3.1's selection of the tuples an optimizer would use: a
// static instruction (a PC and selector tag) that executes at least
// MinPCCount times; a tuple that accounts for at least MinTupleFrac of its
// PC's executions ("sufficiently invariant"); a PC whose sufficiently
// invariant tuples cover at least MinCovered of its executions.
type Filter struct {
	MinPCCount   uint64
	MinTupleFrac float64
	MinCovered   float64
}

// PaperFilter is §5.3.1's: 1000 executions, 10%, 40%.
var PaperFilter = Filter{MinPCCount: 1000, MinTupleFrac: 0.10, MinCovered: 0.40}

type pcKey struct {
	pc  uint64
	tag uint8
}

// Error is §5.3.1's frequency-weighted invariance error, in percent:
// e = Σ f(v)/f · |I_i(v) − I_p(v)| over the tuples v the filter selects
// from the exact profile, with I(v) = n(v)/n(pc) in each profile (n_p(pc)
// is everything the estimated profile holds for the PC; a PC it never saw
// has I_p = 0). It also returns how many tuples were selected (0: the
// error is 0 and means nothing). Edge and call-target profiles use the same
// metric over (PC, target) tuples.
func Error(exact, est tuple.Counts, f Filter) (percent float64, selected int) {
	return ErrorOf(CountsProfile(exact), CountsProfile(est), f)
}

// ErrorOf is Error on any profiles.
func ErrorOf(exact, est Profile, f Filter) (percent float64, selected int) {
	pcExact := make(map[pcKey]uint64)
	for t, n := range exact.All() {
		pcExact[pcKey{t.PC, t.Tag}] += n
	}
	covered := make(map[pcKey]uint64)
	for t, n := range exact.All() {
		k := pcKey{t.PC, t.Tag}
		if tot := pcExact[k]; tot >= f.MinPCCount && float64(n) >= f.MinTupleFrac*float64(tot) {
			covered[k] += n
		}
	}
	for k, c := range covered {
		if float64(c) < f.MinCovered*float64(pcExact[k]) {
			delete(covered, k)
		}
	}
	if len(covered) == 0 {
		return 0, 0
	}
	pcEst := make(map[pcKey]uint64, len(covered))
	for t, n := range est.All() {
		k := pcKey{t.PC, t.Tag}
		if _, ok := covered[k]; ok {
			pcEst[k] += n
		}
	}
	// Sum in tuple order: map order would change the last bits.
	type term struct {
		t tuple.Tuple
		n uint64
		e float64
	}
	var terms []term
	for t, n := range exact.All() {
		k := pcKey{t.PC, t.Tag}
		if _, ok := covered[k]; !ok {
			continue
		}
		if float64(n) < f.MinTupleFrac*float64(pcExact[k]) {
			continue
		}
		ii := float64(n) / float64(pcExact[k])
		ip := 0.0
		if d := pcEst[k]; d != 0 {
			ip = float64(est.Get(t)) / float64(d)
		}
		e := ii - ip
		if e < 0 {
			e = -e
		}
		terms = append(terms, term{t, n, e})
	}
	sort.Slice(terms, func(i, j int) bool {
		a, b := terms[i].t, terms[j].t
		if a.PC != b.PC {
			return a.PC < b.PC
		}
		if a.W != b.W {
			return a.W < b.W
		}
		return a.Tag < b.Tag
	})
	var sum, weight float64
	for _, x := range terms {
		sum += float64(x.n) * x.e
		weight += float64(x.n)
	}
	return 100 * sum / weight, len(terms)
}
