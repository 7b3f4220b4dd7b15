package compare

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
)

// The hps §5.3 metrics of a sampled profile, by hand. The sample holds 3
// events of a run of 400, so it is scaled by 400/3: a = 133.33,
// b = 266.67, and d is missed. Region error = (33.33 + 16.67 + 50) / 400
// = 25%. The hot set is the top 15% of the exact profile's 3 events,
// ceil(0.45) = 1: b, off by 16.67 of 250 = 6.67%. Top-10 recall: a and b
// of a, b, d = 66.67%.
func TestACFScoresByHand(t *testing.T) {
	exact := map[string]uint64{"a": 100, "b": 250, "d": 50}
	sampled := map[string]uint64{"a": 1, "b": 2}
	assert.InDelta(t, 400.0/3, acfScale(sampled, exact), 1e-12)
	got := acfScores(sampled, exact, "")
	require.Len(t, got, 3)
	want := map[string]float64{metrics.RegionMetric: 25, metrics.HotMetric: 100 * (800.0/3 - 250) / 250, metrics.TopK: 200.0 / 3}
	for _, s := range got {
		require.NotNil(t, s.Value, s.Metric)
		assert.InDelta(t, want[s.Metric], *s.Value, 1e-9, s.Metric)
	}
	// An invented event costs its whole scaled count: e (1 of 4 samples,
	// 100 of 400 events) is all error, and a, b are 0 off.
	got = acfScores(map[string]uint64{"a": 1, "b": 2, "e": 1}, map[string]uint64{"a": 100, "b": 200, "d": 100}, "")
	assert.InDelta(t, 50.0, *got[0].Value, 1e-9, "(100 for d + 100 for e) / 400")
	// A sample of nothing misses everything.
	got = acfScores(map[string]uint64{}, exact, "")
	assert.Equal(t, 100.0, *got[0].Value)
	assert.Equal(t, 100.0, *got[1].Value)
	assert.Zero(t, *got[2].Value)
	// A run without events has no error to measure.
	got = acfScores(map[string]uint64{}, map[string]uint64{}, "")
	for _, s := range got {
		assert.Nil(t, s.Value)
		assert.Contains(t, s.Why, "no event")
	}
	assert.Equal(t, 1.0, acfScale(nil, exact))
}

// directACF runs lz's test input under an ACF here, without compare (m
// nil: functional mode), with obs attached.
func directACF(t *testing.T, ss SuiteSpec, m *config.Machine, limit uint64, acf string, obs ...cpu.Observer) (sim.Result, *sim.Machine) {
	t.Helper()
	return directRun(t, ss, m, func(cfg *sim.Config) {
		dc := defaultDISE()
		cfg.DISE = &sim.DISEOptions{ACF: []string{filepath.Join("../acf", acf+".acf")}, Handlers: handlers, Config: &dc, MaxAppInstructions: limit}
		cfg.Observers = obs
	})
}

// On a program, every ACF profiler is scored: the exhaustive ones exactly
// (their tables equal the exact profile: 0% error, full recall), the
// 1/100 ones with an error that is neither 0 nor everything.
func TestACFScoresOnProgram(t *testing.T) {
	ss := built(t)
	ps := profilers(t, "call-pair", "hot-method", "call-pair-hps-event", "hot-method-hps-event", "hot-code-region-hps-event", "call-pair-dise-event")
	res, err := Compare(Options{Spec: Spec{Profilers: ps, Suite: ss, Benchmarks: []string{"lz"}, Input: "test", Handlers: handlers}, Jobs: 2})
	require.NoError(t, err)
	require.Empty(t, res.Failed())
	for _, p := range []string{"call-pair", "hot-method"} {
		r := res.Runs["lz"][p]
		for _, m := range []string{metrics.RegionMetric, metrics.HotMetric} {
			v, ok := r.Score(m)
			require.True(t, ok, "%s %s: %+v", p, m, r.Scores)
			assert.Zero(t, v, "%s: exhaustive, %s", p, m)
		}
		v, ok := r.Score(metrics.TopK)
		require.True(t, ok)
		assert.Equal(t, 100.0, v, p)
	}
	for _, p := range []string{"call-pair-hps-event", "hot-method-hps-event", "hot-code-region-hps-event", "call-pair-dise-event"} {
		r := res.Runs["lz"][p]
		v, ok := r.Score(metrics.RegionMetric)
		require.True(t, ok, "%s: %+v", p, r.Scores)
		assert.Greater(t, v, 0.0, p)
		assert.Less(t, v, 100.0, p)
		_, ok = r.Score(metrics.HotMetric)
		assert.True(t, ok, p)
		for _, sc := range r.Scores {
			if sc.Value != nil {
				t.Logf("lz %s: %s = %.2f", p, sc.Metric, *sc.Value)
			}
		}
	}
	// Exhaustive code regions run a handler per branch: a bounded run
	// (the bound is in application instructions, so both profiles see the
	// same ones).
	bounded, err := Compare(Options{Spec: Spec{Profilers: profilers(t, "hot-code-region"), Suite: ss, Benchmarks: []string{"lz"},
		Input: "test", Handlers: handlers, MaxInsts: 300000}, Jobs: 1})
	require.NoError(t, err)
	require.Empty(t, bounded.Failed())
	for _, m := range []string{metrics.RegionMetric, metrics.HotMetric} {
		v, ok := bounded.Runs["lz"]["hot-code-region"].Score(m)
		require.True(t, ok, m)
		assert.Zero(t, v, "hot-code-region: exhaustive, %s", m)
	}
	// DISE alone and HPS sample the same 100th call: the same profile.
	a, _ := res.Runs["lz"]["call-pair-hps-event"].Score(metrics.RegionMetric)
	b, _ := res.Runs["lz"]["call-pair-dise-event"].Score(metrics.RegionMetric)
	assert.Equal(t, a, b)

	// The scale is the realised 1/100: a run's calls over the calls its
	// handler recorded is 100 to within one sample.
	x := profile.NewExact()
	_, mc := directACF(t, ss, nil, 0, "call-pair-hps-event", x)
	got, err := mc.HandlerCounts()
	require.NoError(t, err)
	s, e := got.Events(profile.CallPair), x.Counts.Events(profile.CallPair)
	require.NotZero(t, s)
	assert.GreaterOrEqual(t, float64(e)/float64(s), 100.0)
	assert.Less(t, float64(e)/float64(s), 100.0*float64(s+1)/float64(s))
}

// The exact profile is an observer: attaching it changes neither the
// instructions nor the cycles of the run it watches. compare's cell (with
// its exact profiler) and a run without one give the same counts.
func TestACFExactIsObserver(t *testing.T) {
	ss := built(t)
	m, err := config.Preset("hps")
	require.NoError(t, err)
	const limit = 100000
	want, _ := directACF(t, ss, m, limit, "call-pair-hps-event")
	opt := Options{Spec: Spec{Profilers: profilers(t, "call-pair-hps-event"), Suite: ss, Benchmarks: []string{"lz"}, Input: "test",
		Timing: true, Machine: config.Format(m), MachineName: "hps", MaxInsts: limit, Handlers: handlers}, Jobs: 1}
	res, err := Compare(opt)
	require.NoError(t, err)
	require.Empty(t, res.Failed())
	r := res.Runs["lz"]["call-pair-hps-event"]
	assert.Equal(t, want.Cycles, r.Cycles)
	assert.Equal(t, want.Instructions, r.Instructions)
	assert.NotZero(t, r.Cycles)
	_, ok := r.Score(metrics.RegionMetric)
	assert.True(t, ok, "scored in timing mode too: %+v", r.Scores)
}
