package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw/phase"
)

func TestPeriodicChoice(t *testing.T) {
	c := periodicChoice(10, 3)
	if !slices.Equal(c.ivs, []int{3, 6, 9}) {
		t.Fatalf("periodic 3 of 10: %v, want [3 6 9] (as --trigger periodic: on at N·L, never interval 0)", c.ivs)
	}
	for _, w := range c.w {
		if math.Abs(w-10.0/3) > 1e-12 {
			t.Errorf("weight %g, want 10/3", w)
		}
	}
}

func TestRandomChoice(t *testing.T) {
	a, b := randomChoice(1000, 10, 7), randomChoice(1000, 10, 7)
	if !slices.Equal(a.ivs, b.ivs) {
		t.Fatal("the same seed chose differently")
	}
	if n := len(a.ivs); n < 60 || n > 140 || slices.Contains(a.ivs, 0) {
		t.Errorf("1/10 of 1000 intervals: %d chosen (interval 0 never)", n)
	}
	if c := randomChoice(1000, 10, 8); slices.Equal(a.ivs, c.ivs) {
		t.Error("seeds 7 and 8 chose the same intervals")
	}
}

// The phase-aware estimate's weights: phase 1 has 4 intervals and one
// sample, phase 2 has 2 and two samples, phase 3 (1 interval) none: the 6
// covered intervals stand for all 7.
func TestPhaseChoiceWeights(t *testing.T) {
	r := phaseRun{seq: []int{1, 1, 2, 1, 2, 3, 1}, samples: []phase.Sample{{Interval: 1, Phase: 1}, {Interval: 2, Phase: 2}, {Interval: 4, Phase: 2}}}
	c := r.choice()
	want := []float64{4 * 7.0 / 6, 1 * 7.0 / 6, 1 * 7.0 / 6}
	if !slices.Equal(c.ivs, []int{1, 2, 4}) {
		t.Fatalf("intervals %v", c.ivs)
	}
	for i := range want {
		if math.Abs(c.w[i]-want[i]) > 1e-12 {
			t.Errorf("weight %d = %g, want %g", i, c.w[i], want[i])
		}
	}
}

// evaluate: the exhaustive choice (every interval, weight 1) has no error.
func TestEvaluateExhaustive(t *testing.T) {
	mk := func(a, b uint64) interval {
		var iv interval
		for k := range iv.prof {
			iv.prof[k] = map[string]uint64{"x": a, "y": b}
		}
		iv.events = [nTypes]uint64{a + b, a, b}
		return iv
	}
	ivs := []interval{mk(1, 2), mk(3, 0), mk(5, 5)}
	exh := exhaustive(ivs)
	o := evaluate(ivs, exh, choice{ivs: []int{0, 1, 2}, w: []float64{1, 1, 1}})
	for k := range nTypes {
		if o.err[k] != 0 || o.hot[k] != 0 {
			t.Errorf("type %d: error %g, hot %g", k, o.err[k], o.hot[k])
		}
	}
	if o.pct != 100 || o.events[region] != 16 {
		t.Errorf("pct %g events %d", o.pct, o.events[region])
	}
	// Interval 2 alone, scaled ×3: x 15 vs 9, y 15 vs 7: (6+8)/16.
	o = evaluate(ivs, exh, choice{ivs: []int{2}, w: []float64{3}})
	if math.Abs(o.err[region]-100*14.0/16) > 1e-9 {
		t.Errorf("error %g, want %g", o.err[region], 100*14.0/16)
	}
}

// Fig. 11 is drawn from the curves the tables print: a line per strategy
// through its (percent sampled, code-region error) points.
func TestFig11(t *testing.T) {
	dir := t.TempDir()
	var p1, p2 point
	p1.pct, p1.err[region] = 1, 30
	p2.pct, p2.err[region] = 10, 4
	link, err := fig11([]curve{{name: "periodic", pts: []point{p1, p2}}}, "", filepath.Join(dir, "figures"), dir)
	require.NoError(t, err)
	require.Equal(t, "![Fig. 11: code-region error against percent sampled (means over the benchmarks)](figures/phase-fig11.svg)\n", link)
	svg, err := os.ReadFile(filepath.Join(dir, "figures", "phase-fig11.svg"))
	require.NoError(t, err)
	require.Contains(t, string(svg), "periodic")
}
