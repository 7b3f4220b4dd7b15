package stratified

import (
	"math"
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

// ErrorOf is Error on any profiles. Per-PC sums live in tuple.Tables
// keyed by (PC, 0, tag): a convergence point makes a few passes over the
// exact profile, so they are several times cheaper than maps.
func ErrorOf(exact, est Profile, f Filter) (percent float64, selected int) {
	key := func(t tuple.Tuple) tuple.Tuple { return tuple.Tuple{PC: t.PC, Tag: t.Tag} }
	pcExact := tuple.NewTable()
	exact.Each(func(t tuple.Tuple, n uint64) { pcExact.Add(key(t), n) })
	invariant := func(n, tot uint64) bool {
		return tot >= f.MinPCCount && float64(n) >= f.MinTupleFrac*float64(tot)
	}
	covered := tuple.NewTable()
	exact.Each(func(t tuple.Tuple, n uint64) {
		if k := key(t); invariant(n, pcExact.Get(k)) {
			covered.Add(k, n)
		}
	})
	chosen := func(k tuple.Tuple) bool {
		c := covered.Get(k)
		return c != 0 && float64(c) >= f.MinCovered*float64(pcExact.Get(k))
	}
	pcEst := tuple.NewTable()
	est.Each(func(t tuple.Tuple, n uint64) {
		if k := key(t); chosen(k) {
			pcEst.Add(k, n)
		}
	})
	var terms []term
	exact.Each(func(t tuple.Tuple, n uint64) {
		k := key(t)
		tot := pcExact.Get(k)
		if !invariant(n, tot) || !chosen(k) {
			return
		}
		ii := float64(n) / float64(tot)
		ip := 0.0
		if d := pcEst.Get(k); d != 0 {
			ip = float64(est.Get(t)) / float64(d)
		}
		terms = append(terms, term{t, n, math.Abs(ii - ip)})
	})
	return weigh(terms)
}

// term is one selected tuple's part of the error: its exact count and
// |I_i − I_p|.
type term struct {
	t tuple.Tuple
	n uint64
	e float64
}

// weigh is the frequency-weighted mean of the terms, in percent, summed
// in tuple order (table order would change the last bits), and their
// number.
func weigh(terms []term) (percent float64, selected int) {
	if len(terms) == 0 {
		return 0, 0
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

// ErrorPC is ErrorOf on per-instruction tables, term for term (the same
// value, to the last bit: TestErrorPCEqualsErrorOf). Only each
// instruction's heavy words are visited when exact tracks the filter's
// MinTupleFrac (tuple.NewPCTable(f.MinTupleFrac)): a convergence point
// then costs a pass over the instructions, not over every tuple.
func ErrorPC(exact, est *tuple.PCTable, f Filter) (percent float64, selected int) {
	var terms []term
	exact.EachHeavy(f.MinTupleFrac, func(in *tuple.PCInst, tot uint64, heavy []tuple.WordCount) {
		if tot < f.MinPCCount {
			return
		}
		var covered uint64
		for _, x := range heavy {
			covered += x.N
		}
		if covered == 0 || float64(covered) < f.MinCovered*float64(tot) {
			return
		}
		var d uint64
		ein := est.Inst(in.PC, in.Tag)
		if ein != nil {
			d = ein.Total
		}
		for _, x := range heavy {
			ii := float64(x.N) / float64(tot)
			ip := 0.0
			if d != 0 {
				ip = float64(ein.Count(x.W)) / float64(d)
			}
			terms = append(terms, term{tuple.Tuple{PC: in.PC, W: x.W, Tag: in.Tag}, x.N, math.Abs(ii - ip)})
		}
	})
	return weigh(terms)
}
