package stratified

import (
	"encoding/json"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/stretchr/testify/require"
)

// runLoads feeds a unit the loads (pc, value) in order and returns its
// summary as JSON.
func runLoads(t *testing.T, vals map[string]any, loads [][2]uint64) (*Unit, map[string]any) {
	t.Helper()
	cfg, err := ReadConfig(profhw.NewUnitConfig("u", "stratified", vals))
	require.NoError(t, err)
	u := NewUnit("u", cfg, profhw.Env{})
	recs := make([]cpu.DynInst, len(loads))
	for i, l := range loads {
		recs[i] = cpu.DynInst{PC: l[0], Result: l[1], Inst: isa.Inst{Class: isa.Load}}
	}
	for len(recs) > 0 { // in batches, as the hub gives them
		n := min(len(recs), 700)
		u.Retire(recs[:n])
		recs = recs[n:]
	}
	require.NoError(t, u.Finish(profhw.End{}))
	data, err := json.Marshal(u.Summary())
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return u, m
}

func repeat(n int, pc, v uint64) [][2]uint64 {
	out := make([][2]uint64, n)
	for i := range out {
		out[i] = [2]uint64{pc, v}
	}
	return out
}

// requireNull checks that key is null with a reason containing why.
func requireNull(t *testing.T, m map[string]any, key, why string) {
	t.Helper()
	v, ok := m[key]
	require.True(t, ok, "%s is written", key)
	require.Nil(t, v, key)
	reasons, _ := m["no_answer"].(map[string]any)
	require.Contains(t, reasons[key], why, key)
}

// Values with no answer are null with the reason, never a 0 that reads as
// a measurement; values with one are numbers, computed by hand here.
func TestNoAnswer(t *testing.T) {
	t.Run("no tuple selected", func(t *testing.T) {
		// 999 executions of one load: below §5.3.1's 1000, nothing is selected.
		_, m := runLoads(t, map[string]any{"compressor": "P1", "convergence.every": int64(100)}, repeat(999, 0x100, 7))
		require.Equal(t, 0.0, m["selected_tuples"])
		requireNull(t, m, "error_percent", "selected_tuples = 0")
		requireNull(t, m, "events_to_reach_target", "never: no convergence point had a selected tuple")
		requireNull(t, m, "events_to_stay_below_target", "never: no convergence point had a selected tuple")
	})
	t.Run("exact profile off", func(t *testing.T) {
		_, m := runLoads(t, map[string]any{"error.exact": false}, repeat(5000, 0x100, 7))
		requireNull(t, m, "error_percent", "error.exact = false")
		require.NotContains(t, m, "events_to_reach_target")
	})
	t.Run("no message", func(t *testing.T) {
		_, m := runLoads(t, map[string]any{"compressor": "P256", "convergence.every": int64(0)}, repeat(100, 0x100, 7))
		require.Equal(t, 0.0, m["messages"])
		requireNull(t, m, "analytic_cycles_per_message", "no message")
	})
	t.Run("exact, and reached at once", func(t *testing.T) {
		// P1 sends every tuple: the error is 0 (an answer), and the first
		// point with a selected tuple (1000 executions) is below 5%.
		_, m := runLoads(t, map[string]any{"compressor": "P1", "convergence.every": int64(500)}, repeat(3000, 0x100, 7))
		require.Equal(t, 0.0, m["error_percent"])
		require.Equal(t, 1.0, m["selected_tuples"])
		require.Equal(t, 1000.0, m["events_to_reach_target"])
		require.Equal(t, 1000.0, m["events_to_stay_below_target"])
		require.NotContains(t, m, "no_answer")
		require.Equal(t, 30.0, m["analytic_cycles_per_message"], "§5.3.2: 30 cycles per message")
		require.Equal(t, 3000.0*30, m["overhead_cycles_analytic"])
	})
	t.Run("reached, then left", func(t *testing.T) {
		// 2000 × A, then 2000 pairs (A, B) through P2: every message of
		// the pairs is B. At 1000 and 2000 events the error is 0; at 3000
		// the exact profile is A 2500, B 500 (I = 5/6, 1/6) and the
		// estimate A 2000, B 1000 (2/3, 1/3): 16.7% > 5%. At the end the
		// exact is A 4000, B 2000 (2/3, 1/3), the estimate A 2000, B 4000
		// (1/3, 2/3): |2/3 − 1/3| for both, 33.3%.
		loads := repeat(2000, 0x100, 0xA)
		for i := 0; i < 2000; i++ {
			loads = append(loads, [2]uint64{0x100, 0xA}, [2]uint64{0x100, 0xB})
		}
		u, m := runLoads(t, map[string]any{"compressor": "P2", "convergence.every": int64(1000)}, loads)
		require.InDelta(t, 100.0/3, m["error_percent"], 1e-9)
		require.Equal(t, 1000.0, m["events_to_reach_target"])
		requireNull(t, m, "events_to_stay_below_target", "never: the last convergence point was not below")
		pts := u.Points()
		require.Len(t, pts, 6)
		require.Equal(t, []float64{0, 0}, []float64{pts[0].Error, pts[1].Error})
		require.InDelta(t, 100.0/6, pts[2].Error, 1e-9)
		require.InDelta(t, 100.0/3, pts[5].Error, 1e-9)
	})
	t.Run("never below the target", func(t *testing.T) {
		_, m := runLoads(t, map[string]any{"compressor": "P1", "convergence.every": int64(500), "convergence.target_percent": 0.0}, repeat(3000, 0x100, 7))
		requireNull(t, m, "events_to_reach_target", "never: no convergence point was below target_percent")
		requireNull(t, m, "events_to_stay_below_target", "never: no convergence point was below target_percent")
		require.Equal(t, 0.0, m["error_percent"])
	})
}
