package metrics

import (
	"math"
	"slices"
	"testing"
)

// Hand-computed cases of the §5.3 metrics.

func TestRegionError(t *testing.T) {
	exh := map[string]uint64{"a": 60, "b": 30, "c": 10} // total 100
	for _, tc := range []struct {
		desc    string
		sampled map[string]uint64
		scale   float64
		want    float64
	}{
		{"exact after scaling", map[string]uint64{"a": 6, "b": 3, "c": 1}, 10, 0},
		// 10·{5,4,1} = {50,40,10}: |50-60| + |40-30| + 0 = 20 of 100.
		{"two off by ten", map[string]uint64{"a": 5, "b": 4, "c": 1}, 10, 20},
		// c missed: 10; a: |70-60| = 10; b: 0 -> 20.
		{"a missed event costs its count", map[string]uint64{"a": 7, "b": 3}, 10, 20},
		// d invented: 10·2 = 20 on top of exact a, b, c.
		{"an invented event costs its estimate", map[string]uint64{"a": 6, "b": 3, "c": 1, "d": 2}, 10, 20},
		{"nothing sampled", map[string]uint64{}, 10, 100},
		// scale 2.5: {25, 12.5, 2.5} vs {60,30,10}: 35+17.5+7.5 = 60.
		{"fractional scale", map[string]uint64{"a": 10, "b": 5, "c": 1}, 2.5, 60},
	} {
		if got := RegionError(tc.sampled, tc.scale, exh); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: RegionError = %g, want %g", tc.desc, got, tc.want)
		}
	}
	if got := RegionError(map[string]uint64{}, 1, map[string]uint64{}); got != 0 {
		t.Errorf("empty against empty: %g, want 0", got)
	}
	if got := RegionError(map[string]uint64{"a": 1}, 1, map[string]uint64{}); !math.IsInf(got, 1) {
		t.Errorf("something against empty: %g, want +Inf", got)
	}
}

func TestWeighted(t *testing.T) {
	// Two phase representatives: phase 1 stands for 3 intervals, phase 2 for 1.
	got := Weighted([]map[uint64]uint64{{1: 4, 2: 1}, {2: 5}}, []float64{3, 1})
	want := map[uint64]float64{1: 12, 2: 8}
	if len(got) != len(want) || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Weighted = %v, want %v", got, want)
	}
}

func TestHot(t *testing.T) {
	// 20 non-zero events and a zero one: 15% of 20 = 3 hottest.
	p := map[int]uint64{100: 0}
	for i := 1; i <= 20; i++ {
		p[i] = uint64(i)
	}
	if got := Hot(p, HotFraction); !slices.Equal(got, []int{20, 19, 18}) {
		t.Errorf("Hot = %v, want [20 19 18]", got)
	}
	// 7 events: ceil(1.05) = 2; a tie goes to the smaller key.
	q := map[string]uint64{"x": 5, "y": 9, "z": 5, "a": 5, "b": 1, "c": 1, "d": 1}
	if got := Hot(q, HotFraction); !slices.Equal(got, []string{"y", "a"}) {
		t.Errorf("Hot with ties = %v, want [y a]", got)
	}
	if got := Hot(map[string]uint64{}, HotFraction); len(got) != 0 {
		t.Errorf("Hot of nothing = %v", got)
	}
}

func TestHotError(t *testing.T) {
	// 10 events, counts 10..100: hot = ceil(1.5) = 2: the 100 and the 90.
	exh := map[int]uint64{}
	est := map[int]float64{}
	for i := 1; i <= 10; i++ {
		exh[i] = uint64(10 * i)
		est[i] = float64(10 * i)
	}
	est[10] = 80 // hot: off by 20
	est[9] = 90  // exact
	est[1] = 500 // cold: ignored by the hot error
	// 20 of 190.
	if got, want := HotErrorPercent(est, exh, HotFraction), 100*20.0/190; math.Abs(got-want) > 1e-9 {
		t.Errorf("HotErrorPercent = %g, want %g", got, want)
	}
	// The estimate's hot set is {1 (500), 9 (90)}: event 10 is missed, 1 of 2.
	if got := HotMissPercent(est, exh, HotFraction); got != 50 {
		t.Errorf("HotMissPercent = %g, want 50", got)
	}
	delete(est, 10)
	// The missed hot event costs its 100: 100 of 190.
	if got, want := HotErrorPercent(est, exh, HotFraction), 100*100.0/190; math.Abs(got-want) > 1e-9 {
		t.Errorf("HotErrorPercent with a hot event missed = %g, want %g", got, want)
	}
}

func TestPercentSampled(t *testing.T) {
	if got := PercentSampled(3, 60); got != 5 {
		t.Errorf("PercentSampled(3, 60) = %g", got)
	}
	if got := PercentSampled(0, 0); got != 0 {
		t.Errorf("PercentSampled(0, 0) = %g", got)
	}
}

// ErrorPercent sums in key order: the same profiles give the same bits
// however the maps iterate (a map-order sum of these differs in the last
// bits from run to run).
func TestErrorPercentDeterministic(t *testing.T) {
	est, exh := map[int]float64{}, map[int]uint64{}
	for k := range 200 {
		exh[k] = uint64(k*k%97 + 1)
		est[k] = float64(exh[k]) * (1 + float64(k%7)/3)
	}
	first := ErrorPercent(est, exh)
	for range 50 {
		if got := ErrorPercent(est, exh); got != first {
			t.Fatalf("ErrorPercent gave %v, then %v", first, got)
		}
	}
}
