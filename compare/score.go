package compare

import (
	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/exact"
	"github.com/rvsim/rvsim/profhw/multihash"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/stratified"
	"github.com/rvsim/rvsim/profhw/tuple"
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

// scoreACF marks the hps §5.3 errors of an ACF profiler's run.
func scoreACF(r *Run) {
	const why = "not measured yet: the hps §5.3 errors of the handler tables against the exact profile (compare/metrics/region.go) are not wired in"
	for _, m := range metrics.ForType(r.Type) {
		r.Scores = append(r.Scores, Score{Metric: m, Why: why})
	}
}

// score is a metric's value, or why it has none.
func score(metric string, v float64, ok bool, why string) Score {
	if !ok {
		return Score{Metric: metric, Why: why}
	}
	return Score{Metric: metric, Value: &v}
}

func total(c tuple.Counts) uint64 {
	var t uint64
	for _, n := range c {
		t += n
	}
	return t
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
