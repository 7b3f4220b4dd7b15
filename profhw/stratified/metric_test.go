package stratified

import (
	"testing"

	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// §5.3.1's error on hand-computed profiles.
func TestError(t *testing.T) {
	f := PaperFilter
	// Load 0x10: 2000 executions, value 1 ×1200 (60%), 2 ×600 (30%), 3 ×200 (10%):
	// all three sufficiently invariant, covering 100%.
	// Load 0x20: 999 executions: too rare. Load 0x30: 1000 executions of
	// 20 values at 5% each: none invariant. Load 0x40: 1000 executions,
	// value 7 ×300 (30%), 7 others ×100 (10% each, invariant too).
	exact := tuple.Counts{
		tp(0x10, 1): 1200, tp(0x10, 2): 600, tp(0x10, 3): 200,
		tp(0x20, 1): 999,
	}
	for v := uint64(0); v < 20; v++ {
		exact[tp(0x30, v)] = 50
	}
	exact[tp(0x40, 7)] = 300
	for v := uint64(100); v < 107; v++ {
		exact[tp(0x40, v)] = 100
	}
	for _, tc := range []struct {
		desc     string
		est      tuple.Counts
		want     float64
		selected int
	}{
		{"exact estimate", exact, 0, 11},
		{"nothing estimated: every I_p is 0", tuple.Counts{}, 100 * (1200*0.6 + 600*0.3 + 200*0.1 + 300*0.3 + 700*0.1) / 3000, 11},
		{
			// 0x10 estimated 256×(5, 3, 0) = I_p 5/8, 3/8, 0: errors 0.025, 0.075, 0.1;
			// 0x40 estimated only value 7: I_p 1: error 0.7 on 300, 0.1 on each 100.
			"sampled",
			tuple.Counts{tp(0x10, 1): 5 * 256, tp(0x10, 2): 3 * 256, tp(0x40, 7): 256, tp(0x20, 1): 256},
			100 * (1200*0.025 + 600*0.075 + 200*0.1 + 300*0.7 + 700*0.1) / 3000, 11,
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, n := Error(exact, tc.est, f)
			require.Equal(t, tc.selected, n)
			require.InDelta(t, tc.want, got, 1e-9)
		})
	}
	// MinCovered: 0x40 with only 30% covered by invariant tuples drops out.
	got, n := Error(exact, exact, Filter{MinPCCount: 1000, MinTupleFrac: 0.2, MinCovered: 0.4})
	require.Equal(t, 2, n, "0x10's 1 and 2 (≥20%); 0x40 covers only 30%")
	require.Zero(t, got)
	_, n = Error(tuple.Counts{tp(1, 1): 10}, nil, f)
	require.Zero(t, n)
}

// ErrorPC on per-instruction tables equals ErrorOf, to the last bit, at
// every point of skewed random streams (words drift, so heavy words come
// and go), for filters with and without a share to track.
func TestErrorPCEqualsErrorOf(t *testing.T) {
	for _, f := range []Filter{
		PaperFilter,
		{MinPCCount: 1, MinTupleFrac: 0.3, MinCovered: 0},
		{MinPCCount: 50, MinTupleFrac: 0, MinCovered: 0.5},
		{MinPCCount: 10, MinTupleFrac: 0.02, MinCovered: 0.1},
	} {
		r := rng{s: 11}
		exact, est := tuple.NewPCTable(f.MinTupleFrac), tuple.NewPCTable(0)
		oracleX, oracleE := tuple.NewTable(), tuple.NewTable()
		selected := 0
		for i := 1; i <= 200000; i++ {
			pc := 0x1000 + 4*(r.next()%40)
			// Skewed words whose favourites change with time.
			var w uint64
			switch r.next() % 4 {
			case 0, 1:
				w = (pc>>2)%3 + uint64(i/40000)
			case 2:
				w = r.next() % 4
			default:
				w = r.next() % 1000
			}
			k := tuple.Tuple{PC: pc, W: w, Tag: uint8(r.next() % 2)}
			exact.Add(k, 1)
			oracleX.Add(k, 1)
			if r.next()%16 == 0 {
				est.Add(k, 16)
				oracleE.Add(k, 16)
			}
			if i%25000 == 0 {
				want, wn := ErrorOf(oracleX, oracleE, f)
				got, gn := ErrorPC(exact, est, f)
				require.Equal(t, wn, gn, "filter %+v, event %d: selected", f, i)
				require.Equal(t, want, got, "filter %+v, event %d", f, i)
				require.Equal(t, oracleX.Len(), exact.Len())
				require.Equal(t, oracleX.Counts(), exact.Counts())
				selected = max(selected, gn)
			}
		}
		require.Positive(t, selected, "filter %+v selects something", f)
	}
}
