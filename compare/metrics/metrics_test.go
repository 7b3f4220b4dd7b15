package metrics

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw/tuple"
)

func strLess(a, b string) bool { return a < b }

// Each metric on a constructed profile equals the hand computation in
// its comment.
func TestTopKRecall(t *testing.T) {
	for _, tc := range []struct {
		desc       string
		exact, est map[string]uint64
		k          int
		want       float64
		ok         bool
	}{
		// exact top 2 {a, b}; estimated top 2 {a, c}: 1 of 2.
		{"half", map[string]uint64{"a": 5, "b": 4, "c": 3}, map[string]uint64{"a": 9, "c": 8, "b": 1}, 2, 50, true},
		// ties in key order: exact top 2 {a, b}, estimated top 2 {b, c}.
		{"ties", map[string]uint64{"a": 1, "b": 1, "c": 1}, map[string]uint64{"c": 2, "b": 2, "a": 1}, 2, 50, true},
		// fewer keys than k: the exact profile's 2 keys, both found.
		{"short", map[string]uint64{"a": 1, "b": 2}, map[string]uint64{"a": 1, "b": 1, "z": 7}, 10, 100, true},
		{"empty estimate", map[string]uint64{"a": 1}, nil, 10, 0, true},
		{"empty exact", nil, map[string]uint64{"a": 1}, 10, 0, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, ok := TopKRecall(tc.exact, tc.est, tc.k, strLess)
			assert.Equal(t, tc.ok, ok)
			assert.InDelta(t, tc.want, got, 1e-12)
		})
	}
}

func TestOverlap(t *testing.T) {
	// Shares: exact a .75, b .25; estimated a .5, c .5; Σ min = min(.75, .5) = .5.
	got, ok := Overlap(map[string]uint64{"a": 3, "b": 1}, map[string]uint64{"a": 1, "c": 1}, strLess)
	require.True(t, ok)
	assert.InDelta(t, 50, got, 1e-12)
	got, ok = Overlap(map[string]uint64{"a": 2, "b": 6}, map[string]uint64{"b": 3, "a": 1}, strLess)
	require.True(t, ok)
	assert.InDelta(t, 100, got, 1e-12, "the same shares")
	got, ok = Overlap(map[string]uint64{"a": 2}, nil, strLess)
	assert.True(t, ok)
	assert.Zero(t, got)
	_, ok = Overlap(nil, map[string]uint64{"a": 2}, strLess)
	assert.False(t, ok)
}

func TestFormula1(t *testing.T) {
	// 1000 events, T = 1%: threshold 10. Exact candidates a, b, d; with the
	// estimate scaled by 2: a 80, b 60, c 12 (a false positive), d 0 (a
	// false negative). E = (|100-80| + |50-60| + |5-12| + |845-0|) /
	// (100 + 50 + 5 + 845) = 882 / 1000.
	exact := map[string]uint64{"a": 100, "b": 50, "c": 5, "d": 845}
	est := map[string]uint64{"a": 40, "b": 30, "c": 6, "e": 1}
	got, ok := Formula1(exact, est, 0.01, 2, strLess)
	require.True(t, ok)
	assert.InDelta(t, 88.2, got, 1e-9)
	// A perfect estimate: 0; the non-candidate e (count 1) does not count.
	got, ok = Formula1(exact, exact, 0.01, 1, strLess)
	require.True(t, ok)
	assert.Zero(t, got)
	_, ok = Formula1(map[string]uint64{}, map[string]uint64{}, 0.01, 1, strLess)
	assert.False(t, ok, "no candidate")
}

func TestInvarianceError(t *testing.T) {
	// PC 0x100 runs 2000 times: values 1, 2, 3 at 1200, 600, 200, each
	// ≥ 10% of the PC's executions, together ≥ 40%: selected. PC 0x200
	// runs 500 times (< 1000): not selected. The estimate has 50 and 50
	// at PC 0x100: I_p = .5, .5, 0 against I_i = .6, .3, .1, so
	// e = (1200·.1 + 600·.2 + 200·.1) / 2000 = 13%.
	tp := func(pc, w uint64) tuple.Tuple { return tuple.Tuple{PC: pc, W: w} }
	exact := tuple.Counts{tp(0x100, 1): 1200, tp(0x100, 2): 600, tp(0x100, 3): 200, tp(0x200, 9): 500}
	est := tuple.Counts{tp(0x100, 1): 50, tp(0x100, 2): 50, tp(0x200, 7): 99}
	got, ok := InvarianceError(exact, est)
	require.True(t, ok)
	assert.InDelta(t, 13, got, 1e-9)
	_, ok = InvarianceError(tuple.Counts{tp(0x200, 9): 500}, est)
	assert.False(t, ok, "nothing selected")
}

func TestForType(t *testing.T) {
	assert.Equal(t, []string{Invariance, FormulaOne, TopK}, ForType("value"))
	assert.Equal(t, []string{OverlapFull, OverlapDyn, TopK}, ForType("path"))
	assert.Equal(t, []string{RegionMetric, HotMetric, TopK}, ForType("call pair"))
	assert.Nil(t, ForType("phase"))
}
