package metrics

// The accuracy metrics of sampled profiles
// (hps-phase-aware-remote-profiling.md §5.3, "Profile Accuracy vs
// Overhead"): a sampled profile, scaled up to the whole run, against the
// exhaustive profile of the same run. Profiles are plain maps from an
// event's key (a branch PC, a method, a call pair) to its count.

import (
	"cmp"
	"math"
	"slices"
)

// HotFraction is the paper's "hot": the top 15% of the most frequently
// executed events (§5.3).
const HotFraction = 0.15

// Scale multiplies a sampled profile by s: the estimate of the whole run's
// profile from a sample of 1/s of it.
func Scale[K comparable](sampled map[K]uint64, s float64) map[K]float64 {
	out := make(map[K]float64, len(sampled))
	for k, v := range sampled {
		out[k] = float64(v) * s
	}
	return out
}

// Weighted is the estimate Σ w_i·samples_i: each sample stands for w_i
// intervals of the run (a phase's representative weighted by its phase's
// intervals, hps §4).
func Weighted[K comparable](samples []map[K]uint64, w []float64) map[K]float64 {
	out := map[K]float64{}
	for i, s := range samples {
		for k, v := range s {
			out[k] += float64(v) * w[i]
		}
	}
	return out
}

// ErrorPercent is the paper's code-region error (§5.3): the element-wise
// difference Σ_k |estimate_k − exhaustive_k| over every event of either
// profile, divided by the exhaustive total, in percent. An event the
// estimate misses counts its whole exhaustive count; one it invents counts
// its whole estimate. It is 0 for two empty profiles, +Inf for a non-empty
// estimate of an empty exhaustive profile. The sums run in key order, so
// the same profiles give the same bits every time.
func ErrorPercent[K cmp.Ordered](estimate map[K]float64, exhaustive map[K]uint64) float64 {
	var diff, total float64
	for _, k := range sortedKeys(exhaustive) {
		e := exhaustive[k]
		total += float64(e)
		diff += math.Abs(estimate[k] - float64(e))
	}
	for _, k := range sortedKeys(estimate) {
		if _, ok := exhaustive[k]; !ok {
			diff += math.Abs(estimate[k])
		}
	}
	return percent(diff, total)
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// RegionError is ErrorPercent of a sampled profile scaled by s.
func RegionError[K cmp.Ordered](sampled map[K]uint64, s float64, exhaustive map[K]uint64) float64 {
	return ErrorPercent(Scale(sampled, s), exhaustive)
}

// Hot is the hot set of a profile: the ceil(frac·n) events of the n with a
// non-zero count that have the highest counts (ties broken by the smaller
// key, so the set is deterministic). frac is HotFraction in the paper.
func Hot[K cmp.Ordered, V uint64 | float64](p map[K]V, frac float64) []K {
	keys := make([]K, 0, len(p))
	for k, v := range p {
		if v > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b K) int {
		if c := cmp.Compare(p[b], p[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	n := int(math.Ceil(frac * float64(len(keys))))
	return keys[:min(n, len(keys))]
}

// HotErrorPercent is the error over the hot events (§5.3, Fig. 12): the
// element-wise difference between the estimate and the exhaustive profile
// over the exhaustive profile's hot set (Hot with frac), divided by the
// hot set's exhaustive total, in percent. A hot event the sample missed
// costs its whole count, so missing one of a few hot call pairs is a large
// error, as the paper observes for bzip2.
func HotErrorPercent[K cmp.Ordered](estimate map[K]float64, exhaustive map[K]uint64, frac float64) float64 {
	var diff, total float64
	for _, k := range Hot(exhaustive, frac) {
		e := float64(exhaustive[k])
		total += e
		diff += math.Abs(estimate[k] - e)
	}
	return percent(diff, total)
}

// HotMissPercent is the share of the exhaustive hot set that is not in the
// estimate's hot set, in percent: how often sampling misidentifies a hot
// event (0 when both are empty).
func HotMissPercent[K cmp.Ordered](estimate map[K]float64, exhaustive map[K]uint64, frac float64) float64 {
	want := Hot(exhaustive, frac)
	got := map[K]bool{}
	for _, k := range Hot(estimate, frac) {
		got[k] = true
	}
	miss := 0
	for _, k := range want {
		if !got[k] {
			miss++
		}
	}
	return percent(float64(miss), float64(len(want)))
}

// PercentSampled is the share of the run a strategy sampled, in percent
// (the x axis of Fig. 11, 12 and 15a): sampled over total instructions or
// intervals.
func PercentSampled(sampled, total uint64) float64 {
	return percent(float64(sampled), float64(total))
}

func percent(num, den float64) float64 {
	switch {
	case den == 0 && num == 0:
		return 0
	case den == 0:
		return math.Inf(1)
	}
	return 100 * num / den
}
