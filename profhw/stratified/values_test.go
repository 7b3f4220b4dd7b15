package stratified_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/stratified"
)

// The value tap's records (RetireValues: with the compressor on the
// measurement's goroutine they go over as they are and become tuples
// there) give what the full records of the same loads give (Retire):
// the same summary, profiles and convergence curve, with and without
// the exact profile, inline and offloaded, in batches of any size that
// cut across convergence points and with both kinds of call in one run.
func TestValuesEqualRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []cpu.DynInst
	var vals []cpu.TapValue
	for range 60000 {
		pc := 0x10000 + 4*uint64(rng.IntN(40))
		v := uint64(rng.IntN(1 + int(pc>>2)%7)) // skewed, few values per PC
		if rng.IntN(4) == 0 {
			v = rng.Uint64()
		}
		r := cpu.DynInst{PC: pc, NextPC: pc + 4, Result: v}
		r.Inst.Class, r.Inst.Len = isa.Load, 4
		recs = append(recs, r)
		vals = append(vals, cpu.TapValue{PC: pc, Value: v})
	}
	for _, exact := range []bool{true, false} {
		settings := map[string]any{"convergence.every": int64(1000), "error.exact": exact}
		if !exact {
			settings = map[string]any{"error.exact": false}
		}
		run := func(procs int, feed func(u *stratified.Unit)) *stratified.Unit {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			cfg, err := stratified.ReadConfig(profhw.NewUnitConfig("u", "stratified", settings))
			require.NoError(t, err)
			u := stratified.NewUnit("u", cfg, profhw.Env{Mode: profhw.Functional})
			require.True(t, u.TakesValues())
			require.True(t, u.Offloaded())
			feed(u)
			require.NoError(t, u.Finish(profhw.End{}))
			return u
		}
		want := run(1, func(u *stratified.Unit) {
			for i := 0; i < len(recs); i += 100 {
				u.Retire(recs[i:min(i+100, len(recs))])
			}
		})
		require.NotZero(t, want.Summary().Events)
		if exact {
			require.Greater(t, len(want.Points()), 10)
		}
		same := func(got *stratified.Unit, msg string, procs int) {
			require.Equal(t, want.Summary(), got.Summary(), "%s, GOMAXPROCS %d", msg, procs)
			require.Equal(t, want.Estimated(), got.Estimated(), "%s, GOMAXPROCS %d", msg, procs)
			require.Equal(t, want.Exact(), got.Exact(), "%s, GOMAXPROCS %d", msg, procs)
			require.Equal(t, want.Points(), got.Points(), "%s, GOMAXPROCS %d", msg, procs)
		}
		for _, procs := range []int{1, 2} {
			same(run(procs, func(u *stratified.Unit) {
				for i, n := 0, 0; i < len(vals); i += n {
					n = min(1+(i*7)%5000, len(vals)-i)
					u.RetireValues(vals[i : i+n])
				}
			}), "values", procs)
			same(run(procs, func(u *stratified.Unit) {
				// Chunks of 700, every third as records.
				for c, i := 0, 0; i < len(recs); c, i = c+1, i+700 {
					if c%3 == 0 {
						u.Retire(recs[i:min(i+700, len(recs))])
					} else {
						u.RetireValues(vals[i:min(i+700, len(vals))])
					}
				}
			}), "records and values", procs)
		}
	}
}
