package main

// The sampling strategies of hps-phase-aware-remote-profiling.md §5.3 over
// a benchmark's recorded intervals, and their accuracy by the metrics of
// compare/metrics.

import (
	"math"

	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profhw/phase"
)

// choice is the intervals a strategy sampled and the weight of each
// sample in the whole-run estimate.
type choice struct {
	ivs []int
	w   []float64
}

// periodicChoice samples every nth interval, as --trigger
// periodic:n·L:L does (on at n·L, 2n·L, ...; never interval 0).
func periodicChoice(nIv, n int) choice {
	s := dise.Trigger{Period: uint64(n), Length: 1}.Start()
	return timerChoice(nIv, s)
}

// randomChoice samples each interval with probability 1/p, as --trigger
// random:p:L:seed does.
func randomChoice(nIv, p int, seed uint64) choice {
	s := dise.Trigger{Random: true, Period: uint64(p), Length: 1, Seed: seed}.Start()
	return timerChoice(nIv, s)
}

// timerChoice runs a trigger schedule in units of intervals (LENGTH 1):
// interval k is sampled if sampling is on after the boundary at k.
func timerChoice(nIv int, s *dise.Schedule) choice {
	var c choice
	for k := 1; k < nIv; k++ {
		for s.Next() <= uint64(k) {
			s.Fire()
		}
		if s.On() {
			c.ivs = append(c.ivs, k)
		}
	}
	for range c.ivs {
		c.w = append(c.w, float64(nIv)/float64(len(c.ivs)))
	}
	return c
}

// phaseRun is a phase-aware strategy's run over the recorded signatures.
type phaseRun struct {
	seq      []int
	samples  []phase.Sample
	phases   int
	replaced int
}

// info is the run's phaseInfo.
func (r phaseRun) info() phaseInfo {
	sampled := map[int]bool{}
	for _, s := range r.samples {
		sampled[s.Phase] = true
	}
	un := 0
	for _, p := range r.seq {
		if !sampled[p] {
			un++
		}
	}
	return phaseInfo{phases: r.phases, uncovered: 100 * float64(un) / float64(max(len(r.seq), 1)), replaced: r.replaced}
}

// trackerConfig is the tracker of the sampling experiments at threshold
// th (percent of the interval).
func trackerConfig(length uint64, th float64) phase.Config {
	c := phase.DefaultConfig()
	c.Interval, c.Threshold = length, th
	return c
}

// runPhase drives a tracker and a daemon over the recorded signatures,
// as the phase trigger does at each boundary: pol with the given
// predictor (the oracle predictor and the oracle policies use a first
// pass over the same signatures).
func runPhase(sigs [][]uint32, length uint64, th float64, pol phase.Policy, pred phase.Predictor, seed int64) phaseRun {
	first := func() []int {
		tr, _ := phase.NewTracker(trackerConfig(length, th))
		for _, s := range sigs {
			tr.EndInterval(s)
		}
		return tr.Sequence
	}
	cfg := trackerConfig(length, th)
	cfg.Predictor = pred
	var seq []int
	if pred == phase.Oracle || !pol.Online() {
		seq = first()
		if pred == phase.Oracle {
			cfg.Oracle = seq
		}
	}
	tr, err := phase.NewTracker(cfg)
	if err != nil {
		panic(err) // the configurations are the program's own
	}
	var d *phase.Daemon
	if pol.Online() {
		d, _ = phase.NewDaemon(pol, tr)
	} else {
		plan, _ := phase.Plan(pol, seq, sigs, seed)
		d = phase.NewPlanned(pol, tr, plan)
	}
	d.Start()
	for _, s := range sigs {
		d.End(tr.EndInterval(s))
	}
	return phaseRun{seq: tr.Sequence, samples: d.Samples, phases: tr.Distinct(), replaced: tr.Replaced}
}

// choice weights each sample by its phase's intervals over the phase's
// samples, then scales the estimate by the run's intervals over the
// intervals of the phases sampled (docs/PROFHW.md: a phase with no sample
// is stood for by the others in proportion).
func (r phaseRun) choice() choice {
	n := map[int]float64{}
	for _, p := range r.seq {
		n[p]++
	}
	k := map[int]float64{}
	for _, s := range r.samples {
		k[s.Phase]++
	}
	covered := 0.0
	for p := range k {
		covered += n[p]
	}
	var c choice
	for _, s := range r.samples {
		c.ivs = append(c.ivs, s.Interval)
		c.w = append(c.w, n[s.Phase]/k[s.Phase]*float64(len(r.seq))/covered)
	}
	return c
}

// outcome is a choice's accuracy and cost.
type outcome struct {
	pct    float64         // percent of the intervals sampled
	err    [nTypes]float64 // whole-profile error, percent
	hot    [nTypes]float64 // hot error, percent
	events [nTypes]uint64  // instrumentation events in the sampled intervals
}

// evaluate scores a choice against the exhaustive profiles.
func evaluate(ivs []interval, exh [nTypes]map[string]uint64, c choice) outcome {
	o := outcome{pct: metrics.PercentSampled(uint64(len(c.ivs)), uint64(len(ivs)))}
	for t := range nTypes {
		samples := make([]map[string]uint64, len(c.ivs))
		for j, i := range c.ivs {
			samples[j] = ivs[i].prof[t]
			o.events[t] += ivs[i].events[t]
		}
		est := metrics.Weighted(samples, c.w)
		o.err[t] = metrics.ErrorPercent(est, exh[t])
		o.hot[t] = metrics.HotErrorPercent(est, exh[t], metrics.HotFraction)
	}
	return o
}

// exhaustive sums the intervals' profiles.
func exhaustive(ivs []interval) [nTypes]map[string]uint64 {
	var e [nTypes]map[string]uint64
	for t := range nTypes {
		e[t] = map[string]uint64{}
		for _, iv := range ivs {
			for k, v := range iv.prof[t] {
				e[t][k] += v
			}
		}
	}
	return e
}

// mean of a set of outcomes (for random sampling over seeds), and their
// maximum error.
func meanOutcome(os []outcome) (avg, worst outcome) {
	for _, o := range os {
		avg.pct += o.pct / float64(len(os))
		for t := range nTypes {
			avg.err[t] += o.err[t] / float64(len(os))
			avg.hot[t] += o.hot[t] / float64(len(os))
			avg.events[t] += o.events[t]
			worst.err[t] = math.Max(worst.err[t], o.err[t])
			worst.hot[t] = math.Max(worst.hot[t], o.hot[t])
		}
		worst.pct += o.pct / float64(len(os))
	}
	for t := range nTypes {
		avg.events[t] /= uint64(len(os))
	}
	return avg, worst
}
