package profhw_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw"
)

// A field with no answer is written as null, with its reason under
// no_answer; a unit field set before is dropped; the others keep their
// values (0 stays 0: it is an answer).
func TestSummaryNoAnswer(t *testing.T) {
	s := &profhw.Summary{Unit: "u", Kind: "k", ErrorPercent: 0}
	s.Set("events_to_reach_target", uint64(0))
	s.Set("kept", 0)
	require.True(t, s.Answered("error_percent"))
	s.Null("error_percent", "no tuple selected")
	s.Null("events_to_reach_target", "never")
	require.False(t, s.Answered("error_percent"))
	require.False(t, s.Answered("events_to_reach_target"))
	require.True(t, s.Answered("kept"))
	data, err := json.Marshal(s)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	for _, k := range []string{"error_percent", "events_to_reach_target"} {
		v, ok := m[k]
		require.True(t, ok, k)
		require.Nil(t, v, k)
	}
	require.Equal(t, 0.0, m["kept"])
	require.Equal(t, 0.0, m["stall_cycles"])
	require.Equal(t, map[string]any{"error_percent": "no tuple selected", "events_to_reach_target": "never"}, m["no_answer"])

	// The last call wins: an answer after a Null is an answer.
	s.Null("late", "not yet")
	s.Set("late", 7)
	require.True(t, s.Answered("late"))
	require.NotContains(t, s.NoAnswer, "late")

	// No null field: no no_answer key.
	data, err = json.Marshal(&profhw.Summary{Unit: "v"})
	require.NoError(t, err)
	require.NotContains(t, string(data), "no_answer")
}

// §5.3.2's formula against hand computations: the paper's model charges
// 30 cycles per message (the 214-cycle interrupt is inside them); the
// split model charges the interrupt apart, 7% more at 100 messages per
// interrupt.
func TestDeliveryCycles(t *testing.T) {
	d := profhw.PaperDelivery
	require.Equal(t, profhw.PaperCost, d.Model)
	require.Equal(t, uint64(3500*30), d.Cycles(3500, 35))
	require.Equal(t, uint64(0), d.Cycles(0, 0))
	d.Model = profhw.SplitCost
	require.Equal(t, uint64(35*214+3500*30), d.Cycles(3500, 35)) // 112,490
	require.InDelta(t, 1.0713, float64(d.Cycles(100, 1))/float64(profhw.PaperDelivery.Cycles(100, 1)), 1e-4)

	for _, tc := range []struct {
		desc string
		vals map[string]any
		want profhw.Delivery
		err  string
	}{
		{"default: the paper's", nil, profhw.PaperDelivery, ""},
		{"split", map[string]any{"delivery.cost_model": "split", "delivery.interrupt_cycles": int64(1000)},
			profhw.Delivery{Buffer: 100, Model: profhw.SplitCost, InterruptCycles: 1000, MessageCycles: 30}, ""},
		{"paper, 10 per message", map[string]any{"delivery.cost_model": "paper", "delivery.message_cycles": int64(10)},
			profhw.Delivery{Buffer: 100, Model: profhw.PaperCost, InterruptCycles: 214, MessageCycles: 10}, ""},
		{"interrupt cycles without split", map[string]any{"delivery.interrupt_cycles": int64(214)}, profhw.Delivery{},
			`<config>: unit u: delivery.interrupt_cycles: charged only by delivery.cost_model = "split" (the paper's model, the default, has the interrupt inside message_cycles: docs/PROFHW.md)`},
		{"unknown model", map[string]any{"delivery.cost_model": "anderson"}, profhw.Delivery{},
			`<config>: unit u: delivery.cost_model: "anderson" is not one of paper, split`},
		{"bounded", map[string]any{"delivery.message_cycles": int64(1 << 21)}, profhw.Delivery{},
			`<config>: unit u: delivery.message_cycles: 2097152 is out of range [0, 1048576]`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c := profhw.NewUnitConfig("u", "k", tc.vals)
			got := profhw.ReadDelivery(c, profhw.PaperDelivery)
			if tc.err != "" {
				require.EqualError(t, c.Err(), tc.err)
				return
			}
			require.NoError(t, c.Err())
			require.Equal(t, tc.want, got)
		})
	}
}

// TestSummaryNumber: every numeric type a unit stores reads back as a
// float64; a missing or non-numeric field is NaN.
func TestSummaryNumber(t *testing.T) {
	var s profhw.Summary
	s.Set("f", 1.5)
	s.Set("u", uint64(7))
	s.Set("i", 3)
	s.Set("i64", int64(-2))
	s.Set("str", "x")
	for k, want := range map[string]float64{"f": 1.5, "u": 7, "i": 3, "i64": -2} {
		if got := s.Number(k); got != want {
			t.Errorf("Number(%q) = %v, want %v", k, got, want)
		}
	}
	for _, k := range []string{"str", "absent"} {
		if got := s.Number(k); !math.IsNaN(got) {
			t.Errorf("Number(%q) = %v, want NaN", k, got)
		}
	}
}
