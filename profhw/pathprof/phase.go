package pathprof

import (
	"math"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/phase"
	"github.com/rvsim/rvsim/profhw/simpoint"
)

// PhaseConfig configures the phase detectors (§6, §8.3).
type PhaseConfig struct {
	Enabled      bool
	Interval     uint64    // instructions per interval
	Accumulators int       // accumulator array entries (both detectors)
	SigBits      uint      // bits kept of each accumulator (the high-order ones)
	Thresholds   []float64 // Manhattan distance thresholds swept, percent of the interval
	StableMin    int       // a detected phase of at least this many intervals is stable
	MaxK         int       // SimPoint: largest k tried
	Seed         int64     // SimPoint: projection and k-means seed
}

// DefaultPhaseConfig: 32 accumulators as in Sherwood et al.'s tracker,
// 1M-instruction intervals (our runs are 10^7-10^9 instructions, the
// paper's 15·10^9).
func DefaultPhaseConfig() PhaseConfig {
	return PhaseConfig{Interval: 1_000_000, Accumulators: 32, SigBits: 8,
		Thresholds: []float64{5, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150},
		StableMin:  3, MaxK: 10, Seed: 1}
}

func readPhase(c *profhw.UnitConfig, p *PhaseConfig) {
	p.Enabled = c.Bool("phase.enabled", false)
	p.Interval, p.Accumulators, p.SigBits = phase.ReadDetectorKeys(c, "phase.", p.Interval, p.Accumulators, p.SigBits)
	if c.Has("phase.thresholds") {
		p.Thresholds = nil
		for _, v := range c.Ints("phase.thresholds", nil) {
			if v <= 0 || v > 200 {
				c.Errorf("phase.thresholds", "%d is out of range (1..200 percent of the interval)", v)
			}
			p.Thresholds = append(p.Thresholds, float64(v))
		}
	}
	p.StableMin = int(c.Int("phase.stable_min", int64(p.StableMin), 1, 1000))
	p.MaxK = int(c.Int("phase.max_k", int64(p.MaxK), 1, 100))
	p.Seed = c.Int("phase.seed", p.Seed, 0, math.MaxInt64)
}

func descKey(d Desc) uint64 { return d.Start ^ uint64(d.Dirs)<<20 ^ uint64(d.Len)<<56 }

// phaseState runs both detectors (each an accumulator table of
// profhw/phase, the Phase Tracker's: Sherwood, Sair and Calder 2003) and collects the SimPoint BBVs.
type phaseState struct {
	cfg          PhaseConfig
	timing       bool
	pathDet, bbv *phase.Detector
	col          *simpoint.Collector
	end          uint64
	lastInsts    uint64
	lastCycle    uint64
	cpi          []float64
	report       *PhaseReport
}

func newPhaseState(cfg PhaseConfig, timing bool) *phaseState {
	return &phaseState{cfg: cfg, timing: timing, end: cfg.Interval,
		pathDet: phase.NewDetector(cfg.Accumulators, cfg.SigBits, cfg.Interval),
		bbv:     phase.NewDetector(cfg.Accumulators, cfg.SigBits, cfg.Interval),
		col:     simpoint.NewCollector(cfg.Interval)}
}

// path feeds the path-based detector with a completed path (§6).
func (ps *phaseState) addPath(p *Path) { ps.pathDet.Add(descKey(p.Desc), p.Insts) }

// branch feeds the BBV detector (indexed by the branch's PC, incremented
// by the instructions since the previous branch) and the SimPoint
// collector, and closes intervals.
func (ps *phaseState) branch(pc, n, seqEnd, cycle uint64) {
	ps.bbv.Add(pc, n)
	ps.col.Branch(pc, n, seqEnd-1)
	if seqEnd >= ps.end {
		ps.pathDet.End()
		ps.bbv.End()
		if ps.timing {
			ps.cpi = append(ps.cpi, float64(cycle-ps.lastCycle)/float64(seqEnd-ps.lastInsts))
		}
		ps.lastInsts, ps.lastCycle = seqEnd, cycle
		ps.end = seqEnd - seqEnd%ps.cfg.Interval + ps.cfg.Interval
	}
}

// PhaseReport is NAME.phase.json.
type PhaseReport struct {
	Interval    uint64       `json:"interval_instructions"`
	Intervals   int          `json:"intervals"`
	SimPointK   int          `json:"simpoint_k"`
	SimPointIDs []int        `json:"simpoint_phase_ids"`
	RefChanges  int          `json:"reference_phase_changes"`
	RefCPIVar   float64      `json:"simpoint_cpi_variance,omitempty"`
	Path        []PhasePoint `json:"path_detector"`
	BBV         []PhasePoint `json:"bbv_detector"`
	PathBest    *PhasePoint  `json:"path_best,omitempty"` // nil with fewer than two intervals
	BBVBest     *PhasePoint  `json:"bbv_best,omitempty"`
}

// PhasePoint is one detector's §8.3 metrics at one threshold.
type PhasePoint struct {
	ThresholdPercent float64 `json:"threshold_percent"`
	Threshold        uint64  `json:"threshold_instructions"`
	Sensitivity      float64 `json:"sensitivity_percent"`     // reference changes detected
	FalsePositives   float64 `json:"false_positives_percent"` // same-phase pairs flagged
	Stability        float64 `json:"stability_percent"`       // intervals in stable phases
	AvgPhaseLength   float64 `json:"avg_phase_length"`        // intervals per detected phase
	CPIVariance      float64 `json:"cpi_variance,omitempty"`  // mean stddev/mean of CPI within detected phases
	Changes          int     `json:"changes"`
}

func (ps *phaseState) finish(s *profhw.Summary) error {
	n := len(ps.pathDet.Sigs)
	r := &PhaseReport{Interval: ps.cfg.Interval, Intervals: n}
	ps.report = r
	s.Set("phase_intervals", n)
	if n < 2 {
		return nil
	}
	x := simpoint.Project(ps.col.BBVs[:min(n, len(ps.col.BBVs))], ps.cfg.Seed)
	cl := simpoint.Cluster(x, ps.cfg.MaxK, 5, ps.cfg.Seed)
	r.SimPointK, r.SimPointIDs = cl.K, cl.Labels
	ref := make([]bool, n)
	for i := 1; i < n && i < len(cl.Labels); i++ {
		ref[i] = cl.Labels[i] != cl.Labels[i-1]
		if ref[i] {
			r.RefChanges++
		}
	}
	if ps.timing {
		r.RefCPIVar = cpiVariance(ps.cpi, ref)
	}
	r.Path = ps.sweep(ps.pathDet, ref)
	r.BBV = ps.sweep(ps.bbv, ref)
	pb, bb := best(r.Path), best(r.BBV)
	r.PathBest, r.BBVBest = &pb, &bb
	s.Set("simpoint_k", r.SimPointK)
	s.Set("path_phase_sensitivity_percent", r.PathBest.Sensitivity)
	s.Set("path_phase_false_positives_percent", r.PathBest.FalsePositives)
	s.Set("path_phase_stability_percent", r.PathBest.Stability)
	s.Set("bbv_phase_sensitivity_percent", r.BBVBest.Sensitivity)
	s.Set("bbv_phase_false_positives_percent", r.BBVBest.FalsePositives)
	s.Set("bbv_phase_stability_percent", r.BBVBest.Stability)
	return nil
}

// sweep computes §8.3's metrics for every threshold: a change is detected
// between consecutive intervals whose distance exceeds the threshold.
func (ps *phaseState) sweep(d *phase.Detector, ref []bool) []PhasePoint {
	n := len(d.Sigs)
	var out []PhasePoint
	for _, tp := range ps.cfg.Thresholds {
		th := uint64(tp / 100 * float64(ps.cfg.Interval))
		det := make([]bool, n)
		for i := 1; i < n; i++ {
			det[i] = d.Distance(i, i-1) > th
		}
		out = append(out, ps.metrics(tp, th, det, ref))
	}
	return out
}

func (ps *phaseState) metrics(tp float64, th uint64, det, ref []bool) PhasePoint {
	p := PhasePoint{ThresholdPercent: tp, Threshold: th}
	var refN, hit, same, fp int
	for i := 1; i < len(det); i++ {
		if det[i] {
			p.Changes++
		}
		if ref[i] {
			refN++
			if det[i] {
				hit++
			}
		} else {
			same++
			if det[i] {
				fp++
			}
		}
	}
	p.Sensitivity = 100 * ratio(hit, refN)
	p.FalsePositives = 100 * ratio(fp, same)
	runs := phaseRuns(det)
	var stable int
	for _, r := range runs {
		if r[1]-r[0] >= ps.cfg.StableMin {
			stable += r[1] - r[0]
		}
	}
	p.Stability = 100 * ratio(stable, len(det))
	p.AvgPhaseLength = float64(len(det)) / float64(len(runs))
	if ps.timing {
		p.CPIVariance = cpiVariance(ps.cpi, det)
	}
	return p
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// phaseRuns splits intervals into phases at the changes: [start, end).
func phaseRuns(change []bool) [][2]int {
	var runs [][2]int
	start := 0
	for i := 1; i <= len(change); i++ {
		if i == len(change) || change[i] {
			runs = append(runs, [2]int{start, i})
			start = i
		}
	}
	return runs
}

// cpiVariance is §8.3's "variance in CPI (standard deviation/mean) within
// phases", averaged over the phases of two or more intervals.
func cpiVariance(cpi []float64, change []bool) float64 {
	var sum float64
	var n int
	for _, r := range phaseRuns(change[:min(len(change), len(cpi))]) {
		if r[1]-r[0] < 2 {
			continue
		}
		var m, v float64
		for _, c := range cpi[r[0]:r[1]] {
			m += c
		}
		m /= float64(r[1] - r[0])
		for _, c := range cpi[r[0]:r[1]] {
			v += (c - m) * (c - m)
		}
		v /= float64(r[1] - r[0])
		if m > 0 {
			sum += math.Sqrt(v) / m
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// best is the optimum working point: the threshold with the highest mean
// of sensitivity and same-phase accuracy (100 - false positives).
func best(ps []PhasePoint) PhasePoint {
	var b PhasePoint
	bs := -1.0
	for _, p := range ps {
		if s := p.Sensitivity + 100 - p.FalsePositives; s > bs {
			b, bs = p, s
		}
	}
	return b
}

// PhaseReport is the phase detectors' report (nil without phase
// detection or before Finish).
func (u *Unit) PhaseReport() *PhaseReport {
	if u.phase == nil {
		return nil
	}
	return u.phase.report
}
