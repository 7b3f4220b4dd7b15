package stratified

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Fig. 4 on a small grid: the three equivalence classes of §3.3,
// {R, H[R]} > {P, CR} > {H[P], H[CR]}, within 15% inside a class and at
// least 5% (R over P; theory: 16%) and 50% (P over H[P]) between classes. Two jobs and
// one give the same numbers (each trial has its own seed).
func TestMonteCarloClasses(t *testing.T) {
	cfg := MCConfig{Ns: []int{2000, 5000}, Rate: 10, Substreams: 16, Trials: 1500, Frac: 0.3, Seed: 1, Jobs: 2, Ratio: true}
	pts, err := MonteCarlo(cfg)
	require.NoError(t, err)
	cfg.Jobs = 1
	again, err := MonteCarlo(cfg)
	require.NoError(t, err)
	require.Equal(t, pts, again, "deterministic")
	at := func(s string, n int) float64 {
		for _, p := range pts {
			if p.Sampler == s && p.N == n {
				return p.MeanErr
			}
		}
		t.Fatalf("no point %s %d", s, n)
		return 0
	}
	same := func(a, b float64) bool { return a < 1.15*b && b < 1.15*a }
	for _, n := range cfg.Ns {
		R, HR, P, CR, HP, HCR := at("R10", n), at("H[R10]16", n), at("P10", n), at("CR10", n), at("H[P10]16", n), at("H[CR10]16", n)
		t.Logf("N=%d: R %.2f H[R] %.2f P %.2f CR %.2f H[P] %.2f H[CR] %.2f", n, R, HR, P, CR, HP, HCR)
		require.True(t, same(R, HR), "N=%d: R %.2f ~ H[R] %.2f", n, R, HR)
		require.True(t, same(P, CR), "N=%d: P %.2f ~ CR %.2f", n, P, CR)
		require.True(t, same(HP, HCR), "N=%d: H[P] %.2f ~ H[CR] %.2f", n, HP, HCR)
		require.Greater(t, min(R, HR), 1.05*max(P, CR), "N=%d: {R, H[R]} above {P, CR}", n)
		require.Greater(t, min(P, CR), 1.5*max(HP, HCR), "N=%d: {P, CR} above {H[P], H[CR]}", n)
	}
	// The error falls with the stream length.
	require.Less(t, at("R10", 5000), at("R10", 2000))
	require.Less(t, at("H[P10]16", 5000), at("H[P10]16", 2000))
}

// With §3.3's literal estimator (the sum of p's messages' counts) CR is
// no better than R: the random gaps add variance (docs/PROFHW.md).
func TestMonteCarloSumEstimator(t *testing.T) {
	cfg := MCConfig{Ns: []int{4000}, Rate: 10, Substreams: 16, Trials: 600, Frac: 0.3, Seed: 2, Samplers: []string{"R10", "CR10", "P10"}}
	pts, err := MonteCarlo(cfg)
	require.NoError(t, err)
	R, CR, P := pts[0].MeanErr, pts[1].MeanErr, pts[2].MeanErr
	require.Greater(t, CR, R)
	require.Greater(t, R, P)
}

func TestFirstBelow(t *testing.T) {
	pts := []MCPoint{{"A", 1000, 9}, {"A", 2000, 3}, {"A", 3000, 5}, {"A", 4000, 2}, {"B", 1000, 8}}
	require.Equal(t, map[string]int{"A": 2000, "B": 0}, FirstBelow(pts, 4))
}
