package metrics

import (
	"math"
	"sort"

	"github.com/rvsim/rvsim/profhw/stratified"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// Metric names: the column headers of rvsim compare's tables, each naming
// its paper and section. The JSON result and the CSV use the same names.
const (
	Invariance   = "invariance error % (strat §5.3.1)"
	FormulaOne   = "formula (1) error % (multi-hash §5.5.2, T=1%)"
	TopK         = "top-10 recall %"
	OverlapFull  = "overlap complete % (hpp §8)"
	OverlapDyn   = "overlap dynamic % (hpp §8)"
	RegionMetric = "region error % (hps §5.3)"
	HotMetric    = "hot error % (hps §5.3)"
	TopKCount    = 10   // k of TopK
	FormulaOneT  = 0.01 // formula (1)'s candidate threshold, a share of the run's events (multi-hash §5.1: 1%)
)

// ForType lists the metrics scored for a profile type, in column order.
func ForType(typ string) []string {
	switch typ {
	case "value", "edge":
		return []string{Invariance, FormulaOne, TopK}
	case "path":
		return []string{OverlapFull, OverlapDyn, TopK}
	case "code region", "method", "call pair":
		return []string{RegionMetric, HotMetric, TopK}
	}
	return nil
}

// Sorted returns a profile's keys by count, highest first, ties in key
// order (less).
func Sorted[K comparable](p map[K]uint64, less func(a, b K) bool) []K {
	ks := make([]K, 0, len(p))
	for k := range p {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if p[ks[i]] != p[ks[j]] {
			return p[ks[i]] > p[ks[j]]
		}
		return less(ks[i], ks[j])
	})
	return ks
}

func keys[K comparable](p map[K]uint64, less func(a, b K) bool) []K {
	ks := make([]K, 0, len(p))
	for k := range p {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return less(ks[i], ks[j]) })
	return ks
}

func total[K comparable](p map[K]uint64) uint64 {
	var t uint64
	for _, n := range p {
		t += n
	}
	return t
}

// TopKRecall is the share, in percent, of the exact profile's k heaviest
// keys that are among the estimated profile's k heaviest (ties broken in
// key order in both). With fewer than k keys in the exact profile, its
// keys are the k. ok is false when the exact profile is empty.
func TopKRecall[K comparable](exact, est map[K]uint64, k int, less func(a, b K) bool) (pct float64, ok bool) {
	top := Sorted(exact, less)
	if len(top) == 0 {
		return 0, false
	}
	top = top[:min(k, len(top))]
	mine := map[K]bool{}
	for _, key := range Sorted(est, less)[:min(k, len(est))] {
		mine[key] = true
	}
	hit := 0
	for _, key := range top {
		if mine[key] {
			hit++
		}
	}
	return 100 * float64(hit) / float64(len(top)), true
}

// Overlap is the overlap percentage of two profiles
// (hardware-path-profiling.md §8, after Ball and Larus): each is
// normalised to sum to 1 and the overlap is Σ min(a_k, b_k) over the keys
// both hold, in percent. Two empty profiles overlap 100%; ok is false
// when exact is empty.
func Overlap[K comparable](exact, est map[K]uint64, less func(a, b K) bool) (pct float64, ok bool) {
	ta, tb := total(exact), total(est)
	if ta == 0 {
		return 0, false
	}
	if tb == 0 {
		return 0, true
	}
	var s float64
	for _, k := range keys(exact, less) {
		if n, in := est[k]; in {
			s += math.Min(float64(exact[k])/float64(ta), float64(n)/float64(tb))
		}
	}
	return 100 * s, true
}

// Formula1 is multi-hash-profiling.md §5.5.2 formula (1) over a whole
// run: E = Σ |f_p − f_h| / f_p · f_p / Σ f_p over the candidates, the keys
// whose exact count f_p or estimated count f_h reaches the threshold
// (t × the exact profile's total events, rounded up, at least 1). f_h is
// the estimated count times scale (a sampled profile's counts are scaled
// to the events they stand for; 1 for a profile of event counts). ok is
// false when there is no candidate.
func Formula1[K comparable](exact, est map[K]uint64, t, scale float64, less func(a, b K) bool) (pct float64, ok bool) {
	thr := math.Max(1, math.Ceil(t*float64(total(exact))))
	cand := map[K]bool{}
	for k, n := range exact {
		if float64(n) >= thr {
			cand[k] = true
		}
	}
	for k, n := range est {
		if float64(n)*scale >= thr {
			cand[k] = true
		}
	}
	var num, den float64
	for _, k := range keys(boolCounts(cand), less) {
		fp, fh := float64(exact[k]), float64(est[k])*scale
		num += math.Abs(fp - fh)
		den += fp
	}
	if len(cand) == 0 {
		return 0, false
	}
	if den == 0 {
		return 100, true // only false positives: every candidate is wrong
	}
	return 100 * num / den, true
}

func boolCounts[K comparable](m map[K]bool) map[K]uint64 {
	out := make(map[K]uint64, len(m))
	for k := range m {
		out[k] = 1
	}
	return out
}

// InvarianceError is stratified-sampling.md §5.3.1's frequency-weighted
// invariance error with the paper's filters (stratified.PaperFilter): the
// unit's own implementation, so the two never disagree. ok is false when
// no tuple passes the filters.
func InvarianceError(exact, est tuple.Counts) (pct float64, ok bool) {
	e, n := stratified.Error(exact, est, stratified.PaperFilter)
	return e, n > 0
}

// TupleLess orders tuples by PC, word, tag.
func TupleLess(a, b tuple.Tuple) bool {
	if a.PC != b.PC {
		return a.PC < b.PC
	}
	if a.W != b.W {
		return a.W < b.W
	}
	return a.Tag < b.Tag
}
