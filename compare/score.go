package compare

import (
	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/exact"
	"github.com/rvsim/rvsim/profhw/multihash"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/stratified"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
)

// tupleBits is a queued tuple's width: PC, word and an 8-bit selector tag
// (the stratified unit's queue_bits accounting).
const tupleBits = 2*64 + 8

// scoreUnits fills a profhw run's messages, delivery cost, stalls,
// storage and accuracy from its units (cfgs: their configurations, by
// unit name).
func scoreUnits(r *Run, hub *profhw.Hub, timing bool, cfgs []*profhw.UnitConfig) {
	var delivery, storage uint64
	anyDelivery, anyStorage := false, false
	vals := map[string][]float64{}
	why := map[string]string{}
	var order []string
	for _, u := range hub.Units() {
		s := u.Summary()
		r.Messages += s.Messages
		r.Interrupts += s.Interrupts
		if !s.NoAnalytic {
			delivery += s.OverheadCyc
			anyDelivery = true
		}
		if timing {
			r.StallCycles += s.StallCyc
			r.StallRequested += s.StallReq
		}
		if bits, ok := unitStorage(u, s, cfgs); ok {
			storage += bits
			anyStorage = true
		}
		for _, sc := range unitScores(u, s) {
			if _, known := why[sc.Metric]; !known {
				order = append(order, sc.Metric)
				why[sc.Metric] = sc.Why
			}
			if sc.Value != nil {
				vals[sc.Metric] = append(vals[sc.Metric], *sc.Value)
			}
		}
		if r.Convergence == nil {
			r.Convergence, r.ConvergenceMetric = convergence(u)
		}
	}
	if anyDelivery {
		r.DeliveryAnalytic = &delivery
	}
	if anyStorage {
		r.StorageBits = &storage
	}
	// Several units: each metric is the mean over the units that answer it.
	for _, m := range order {
		sc := Score{Metric: m}
		if vs := vals[m]; len(vs) > 0 {
			var t float64
			for _, v := range vs {
				t += v
			}
			v := t / float64(len(vs))
			sc.Value = &v
		} else {
			sc.Why = why[m]
		}
		r.Scores = append(r.Scores, sc)
	}
}

// maxConvPoints bounds a convergence curve.
const maxConvPoints = 64

// convergence is a unit's error against the events it took in.
func convergence(u profhw.Unit) ([]ConvPoint, string) {
	var out []ConvPoint
	switch u := u.(type) {
	case *stratified.Unit:
		for _, p := range u.Points() {
			if p.Selected > 0 {
				out = append(out, ConvPoint{Events: p.Events, ErrorPercent: p.Error})
			}
		}
		return out, metrics.Invariance
	case *multihash.Unit:
		// multi-hash-profiling.md §5.5.2: the net error is the mean of the
		// intervals' formula (1) errors; its value after each interval.
		ivs := u.Track().Intervals
		step := max(1, (len(ivs)+maxConvPoints-1)/maxConvPoints)
		var sum float64
		for i, iv := range ivs {
			sum += iv.Error
			if (i+1)%step == 0 || i == len(ivs)-1 {
				out = append(out, ConvPoint{Events: uint64(i+1) * u.Bank().Interval(), ErrorPercent: sum / float64(i+1)})
			}
		}
		return out, "formula (1) error %, mean over intervals (multi-hash §5.5.2)"
	}
	return nil, ""
}

// unitStorage is a unit's storage by docs/COMPARISON.md's rule: its
// tables and counters as its summary counts them, plus the queue between
// commit and a tuple unit at tupleBits per entry (the path profiler's
// count has its branch queue already). Exact units are references, not
// hardware: none.
func unitStorage(u profhw.Unit, s *profhw.Summary, cfgs []*profhw.UnitConfig) (uint64, bool) {
	queue := func(def int64) uint64 {
		for _, c := range cfgs {
			if c.Name == u.Name() {
				return uint64(c.Int("queue.size", def, 0, 1<<20)) * tupleBits
			}
		}
		return 0
	}
	switch u.(type) {
	case *exact.Unit:
		return 0, false
	case *stratified.Unit:
		return s.StorageBits + queue(8), true
	case *multihash.Unit:
		return s.StorageBits + queue(16), true
	}
	return s.StorageBits, true
}

// unitScores are the accuracy metrics of a unit's profile against the
// exact profile of the same run.
func unitScores(u profhw.Unit, s *profhw.Summary) []Score {
	switch u := u.(type) {
	case *stratified.Unit:
		ex, est := u.Exact(), u.Estimated()
		if ex == nil {
			return tupleScores(nil, nil, 1, "no exact profile (the unit's error.exact = false)")
		}
		return tupleScores(ex, est, 1, "") // a message carries the events it stands for (Message.Count)
	case *multihash.Unit:
		ex := u.Bank().Exact()
		if ex == nil {
			return tupleScores(nil, nil, 1, "no exact profile (the unit keeps no reference)")
		}
		return tupleScores(ex, u.Track().Profile, 1, "") // candidate counts are event counts
	case *exact.Unit:
		c := u.Counts()
		return tupleScores(c, c, 1, "")
	case *pathprof.Unit:
		ex := u.Exact().Weights()
		est := map[pathprof.Desc]uint64{}
		for _, e := range u.HPT().Entries() {
			est[e.Desc] += uint64(e.Count)
		}
		var out []Score
		v, ok := metrics.Overlap(ex, est, descLess)
		out = append(out, score(metrics.OverlapFull, v, ok, "empty exact profile"))
		dyn := Score{Metric: metrics.OverlapDyn}
		if v, ok := s.Extra["overlap_dynamic_percent"].(float64); ok && s.Answered("overlap_dynamic_percent") {
			dyn.Value = &v
		} else {
			dyn.Why = "no window ended (accuracy.window)"
			if r, ok := s.NoAnswer["overlap_dynamic_percent"]; ok {
				dyn.Why = r
			}
		}
		out = append(out, dyn)
		v, ok = metrics.TopKRecall(ex, est, metrics.TopKCount, descLess)
		return append(out, score(metrics.TopK, v, ok, "empty exact profile"))
	}
	return nil
}

// tupleScores are a value or edge profile's metrics (why: the reason
// none has a value).
func tupleScores(ex, est tuple.Counts, scale float64, why string) []Score {
	if why != "" {
		return []Score{{Metric: metrics.Invariance, Why: why}, {Metric: metrics.FormulaOne, Why: why}, {Metric: metrics.TopK, Why: why}}
	}
	v, ok := metrics.InvarianceError(ex, est)
	inv := score(metrics.Invariance, v, ok, "no tuple passed the §5.3.1 filters")
	v, ok = metrics.Formula1(ex, est, metrics.FormulaOneT, scale, metrics.TupleLess)
	f1 := score(metrics.FormulaOne, v, ok, "no candidate tuple")
	v, ok = metrics.TopKRecall(ex, est, metrics.TopKCount, metrics.TupleLess)
	return []Score{inv, f1, score(metrics.TopK, v, ok, "empty exact profile")}
}

// scoreACF scores an ACF profiler's run by the hps §5.3 metrics
// (docs/COMPARISON.md, "Accuracy metrics"): the profile its handlers
// collected (mc.Profiles, what --profile-out writes) against the exact
// profile of the same kind that x, an observer of the same run's
// application stream, computed (profile.Exact).
func scoreACF(r *Run, mc *sim.Machine, x *profile.Exact, kinds []profile.Kind) {
	kind, ok := typeKind(r.Type, kinds)
	if !ok {
		r.Scores = append(r.Scores, acfScores(nil, nil, "the ACF's handlers fill no code region, method or call pair profile")...)
		return
	}
	ps, err := mc.Profiles()
	if err != nil {
		r.Scores = append(r.Scores, acfScores(nil, nil, "handler profiles: "+err.Error())...)
		return
	}
	var sampled *profile.Profile
	for i := range ps {
		if ps[i].Type == kind {
			sampled = &ps[i]
		}
	}
	if sampled == nil {
		r.Scores = append(r.Scores, acfScores(nil, nil, "the handlers filled no "+string(kind)+" profile")...)
		return
	}
	exact := profile.Build(kind, x.Counts, mc.Symbolizer())
	r.Scores = append(r.Scores, acfScores(entryCounts(kind, sampled), entryCounts(kind, &exact), "")...)
}

// typeKind is the profile kind of a run's type among the kinds its
// handlers fill (kindsType's inverse).
func typeKind(typ string, kinds []profile.Kind) (profile.Kind, bool) {
	for _, k := range kinds {
		if kindsType([]profile.Kind{k}) == typ {
			return k, true
		}
	}
	return "", false
}

// entryCounts is a code region, method or call pair profile as counts by
// entry: a region by its branch's pc, a method by its function (calls and
// taken backward branches, as the profile counts them), a call pair by
// its call site and target.
func entryCounts(kind profile.Kind, p *profile.Profile) map[string]uint64 {
	out := make(map[string]uint64, len(p.Entries))
	for _, e := range p.Entries {
		k := e.PC
		switch kind {
		case profile.Method:
			k = e.Function
		case profile.CallPair:
			k = e.PC + ">" + e.Target
		}
		out[k] += e.Count
	}
	return out
}

// acfScores are the hps §5.3 metrics of a sampled code region, method or
// call pair profile against the exact profile of the same run, and the
// top-10 recall (why: the reason none has a value). The sampled profile
// is scaled up to the run by acfScale before it is compared.
func acfScores(sampled, exact map[string]uint64, why string) []Score {
	if why == "" && len(exact) == 0 {
		why = "the run had no event of the profile's type"
	}
	if why != "" {
		return []Score{{Metric: metrics.RegionMetric, Why: why}, {Metric: metrics.HotMetric, Why: why}, {Metric: metrics.TopK, Why: why}}
	}
	est := metrics.Scale(sampled, acfScale(sampled, exact))
	region := metrics.ErrorPercent(est, exact)
	hot := metrics.HotErrorPercent(est, exact, metrics.HotFraction)
	v, ok := metrics.TopKRecall(exact, sampled, metrics.TopKCount, func(a, b string) bool { return a < b })
	return []Score{{Metric: metrics.RegionMetric, Value: &region}, {Metric: metrics.HotMetric, Value: &hot},
		score(metrics.TopK, v, ok, "empty exact profile")}
}

// acfScale is the factor that scales a sampled profile up to the run: the
// run's events over the events the sample holds, the realised sampling
// ratio. hps-phase-aware-remote-profiling.md §5.3 compares "each sampled
// profile to the exhaustive profile" and leaves the scaling unsaid; a
// sample stands for the events it was drawn from, as experiments/phase
// weights an interval by the intervals it stands for. For 1/N event
// sampling this is N to within one sample, and needs no knowledge of how
// the ACF samples; an exhaustive profiler's is 1. An empty sample has 1
// (its error is 100%).
func acfScale(sampled, exact map[string]uint64) float64 {
	var s, e uint64
	for _, n := range sampled {
		s += n
	}
	for _, n := range exact {
		e += n
	}
	if s == 0 {
		return 1
	}
	return float64(e) / float64(s)
}

// score is a metric's value, or why it has none.
func score(metric string, v float64, ok bool, why string) Score {
	if !ok {
		return Score{Metric: metric, Why: why}
	}
	return Score{Metric: metric, Value: &v}
}

func descLess(a, b pathprof.Desc) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if a.Len != b.Len {
		return a.Len < b.Len
	}
	return a.Dirs < b.Dirs
}
