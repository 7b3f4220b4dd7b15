package compare

import (
	"math"
	"sort"

	"github.com/rvsim/rvsim/pipeline"
)

// The output marks of a run.
const (
	OutputSame      = "same"      // the program's output is the expected one
	OutputDiffers   = "differs"   // it is not
	OutputUnchecked = "unchecked" // a bounded run (--max-insts): incomplete by design
)

// Run is one cell's result: what the tables show and what the cache and
// a Slurm task store (cells/N.json).
type Run struct {
	Benchmark string `json:"benchmark"`
	Profiler  string `json:"profiler"` // Baseline for the unprofiled run
	Label     string `json:"label"`    // the row: the profiler and its sweep point
	Point     string `json:"point,omitempty"`
	Type      string `json:"type"`   // the profile it produces ("-" for the baseline)
	Source    string `json:"source"` // acf, profhw preset, profhw file ("-" for the baseline)
	Trigger   string `json:"trigger,omitempty"`
	// Cycles are the timing model's simulated cycles (0 in functional
	// mode, which has none).
	Cycles              uint64 `json:"cycles"`
	Instructions        uint64 `json:"instructions"`
	AppInstructions     uint64 `json:"application_instructions"`
	Replacements        uint64 `json:"replacements"`
	Injected            uint64 `json:"injected_instructions"` // instructions DISE added, handler code excluded
	HandlerInstructions uint64 `json:"handler_instructions"`
	HandlerCalls        uint64 `json:"handler_calls"`
	Triggers            uint64 `json:"triggers"`
	// A profhw profiler's units, summed over them: the messages they sent
	// to software and the interrupts that delivered them.
	Messages   uint64 `json:"messages"`
	Interrupts uint64 `json:"interrupts"`
	// DeliveryAnalytic is the units' analytic delivery cost in cycles
	// (docs/PROFHW.md, overhead_cycles_analytic; nil: no unit has one).
	DeliveryAnalytic *uint64 `json:"delivery_cycles_analytic"`
	// Timing mode: the cycles the units' commit stalls really cost, and
	// the stall cycles they asked commit for.
	StallCycles    uint64 `json:"stall_cycles"`
	StallRequested uint64 `json:"stall_cycles_requested"`
	// StorageBits by the rule of docs/COMPARISON.md, "Storage" (nil: the
	// profiler has no hardware tables: ACF profilers, exact units).
	StorageBits *uint64 `json:"storage_bits"`
	// Scores are the accuracy metrics of the profile type, in column
	// order (compare/metrics).
	Scores []Score `json:"scores,omitempty"`
	// Convergence is the error against the events taken in, where the
	// unit measures it, in the metric ConvergenceMetric names (stratified
	// units: the invariance error; multi-hash units: formula (1)'s mean
	// over the intervals so far, the paper's net error).
	Convergence       []ConvPoint `json:"convergence,omitempty"`
	ConvergenceMetric string      `json:"convergence_metric,omitempty"`
	Output            string      `json:"output"` // OutputSame, OutputDiffers, OutputUnchecked ("" the run failed before)
	Pass              bool        `json:"pass"`
	Why               string      `json:"why,omitempty"` // why it failed
	// Timing mode: where the cycles went (CPI stack, stalls, DISE
	// front-end events).
	Breakdown *pipeline.Breakdown `json:"breakdown,omitempty"`
	// HostSeconds is the run's host time: shown in progress only, never
	// in the reports (they are the same wherever the cells ran).
	HostSeconds float64 `json:"host_seconds"`
}

// Score is one accuracy metric's value (nil: no value, and why).
type Score struct {
	Metric string   `json:"metric"`
	Value  *float64 `json:"value"`
	Why    string   `json:"why,omitempty"`
}

// ConvPoint is an error measured after Events events.
type ConvPoint struct {
	Events       uint64  `json:"events"`
	ErrorPercent float64 `json:"error_percent"`
}

// Score returns the run's value of a metric.
func (r *Run) Score(metric string) (float64, bool) {
	for _, s := range r.Scores {
		if s.Metric == metric && s.Value != nil {
			return *s.Value, true
		}
	}
	return 0, false
}

// Row is a row of the tables: a profiler at a sweep point (or the
// baseline).
type Row struct {
	Label    string `json:"label"`
	Profiler string `json:"profiler"`
	Point    string `json:"point,omitempty"`
	Type     string `json:"type"`
	Source   string `json:"source"`
	// Base is the label of the baseline row its overhead is relative to.
	Base string `json:"baseline"`
}

// Results are the runs of a comparison.
type Results struct {
	Spec       Spec
	Benchmarks []string
	Rows       []Row // the baselines first, then the profilers grouped by profile type
	Runs       map[string]map[string]*Run
}

// build collects the cells' runs into Results.
func build(s *Spec, cells []Cell, runs []*Run) *Results {
	res := &Results{Spec: *s, Benchmarks: s.Benchmarks, Runs: map[string]map[string]*Run{}}
	seen := map[string]bool{}
	var base, prof []Row
	for i, c := range cells {
		if res.Runs[c.Benchmark] == nil {
			res.Runs[c.Benchmark] = map[string]*Run{}
		}
		res.Runs[c.Benchmark][c.Label()] = runs[i]
		l := c.Label()
		if seen[l] {
			continue
		}
		seen[l] = true
		row := Row{Label: l, Profiler: Baseline, Point: c.Point, Type: "-", Source: "-", Base: Baseline}
		if s.Sweep != nil && s.Sweep.Machine {
			row.Base = (&Cell{Point: c.Point}).Label()
		}
		if c.Profiler == nil {
			base = append(base, row)
			continue
		}
		row.Profiler, row.Type, row.Source = c.Profiler.Name, c.Profiler.Type, c.Profiler.Source
		prof = append(prof, row)
	}
	sort.SliceStable(prof, func(i, j int) bool { return typeRank(prof[i].Type) < typeRank(prof[j].Type) })
	res.Rows = append(base, prof...)
	return res
}

// row finds a row by label.
func (r *Results) rowOf(label string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Label == label {
			return &r.Rows[i]
		}
	}
	return nil
}

// profilerRows are the rows other than the baselines.
func (r *Results) profilerRows() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Profiler != Baseline {
			out = append(out, row)
		}
	}
	return out
}

// pair returns a run and its baseline run, both passed.
func (r *Results) pair(bench, label string) (run, base *Run, ok bool) {
	row := r.rowOf(label)
	if row == nil {
		return nil, nil, false
	}
	run, base = r.Runs[bench][label], r.Runs[bench][row.Base]
	return run, base, run != nil && base != nil && run.Pass && base.Pass
}

// cost is the run's cost measure and its baseline's: cycles in timing
// mode, instructions in functional mode.
func (r *Results) cost(run *Run) uint64 {
	if r.Spec.Timing {
		return run.Cycles
	}
	return run.Instructions
}

// Overhead is the run's cost relative to its baseline in percent (timing
// mode: cycles; functional mode: instructions), and false if either run
// failed.
func (r *Results) Overhead(bench, label string) (float64, bool) {
	run, base, ok := r.pair(bench, label)
	if !ok || r.cost(base) == 0 {
		return 0, false
	}
	return 100 * (float64(r.cost(run)) - float64(r.cost(base))) / float64(r.cost(base)), true
}

// CostCycles is the profiled run's cycles minus the unprofiled run's on
// the same machine (timing mode).
func (r *Results) CostCycles(bench, label string) (int64, bool) {
	run, base, ok := r.pair(bench, label)
	if !ok || !r.Spec.Timing {
		return 0, false
	}
	return int64(run.Cycles) - int64(base.Cycles), true
}

// Mean is a profiler's mean overhead over the programs whose runs passed,
// in percent: the geometric mean of the cost ratios (profiled over
// unprofiled) minus 1, which stays defined for zero and negative
// overheads; and how many programs those are.
func (r *Results) Mean(label string) (float64, int) {
	return r.geomean(label, false)
}

// MeanTotal is Mean of the total cost (timing mode): the cycles plus the
// analytic delivery cycles, over the unprofiled run's cycles.
func (r *Results) MeanTotal(label string) (float64, int) {
	return r.geomean(label, true)
}

func (r *Results) geomean(label string, delivery bool) (float64, int) {
	var logs float64
	n := 0
	for _, b := range r.Benchmarks {
		run, base, ok := r.pair(b, label)
		if !ok || r.cost(base) == 0 || r.cost(run) == 0 {
			continue
		}
		c := float64(r.cost(run))
		if delivery && run.DeliveryAnalytic != nil {
			c += float64(*run.DeliveryAnalytic)
		}
		logs += math.Log(c / float64(r.cost(base)))
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return 100 * (math.Exp(logs/float64(n)) - 1), n
}

// MeanScore is the arithmetic mean of a metric over the programs whose
// run passed and has a value, and how many those are.
func (r *Results) MeanScore(label, metric string) (float64, int) {
	var s float64
	n := 0
	for _, b := range r.Benchmarks {
		run := r.Runs[b][label]
		if run == nil || !run.Pass {
			continue
		}
		if v, ok := run.Score(metric); ok {
			s += v
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return s / float64(n), n
}

// Metrics are the metric columns of the comparison: every metric some
// run has, in the order of the runs' profile types.
func (r *Results) Metrics() []string {
	var out []string
	seen := map[string]bool{}
	for _, row := range r.Rows {
		for _, b := range r.Benchmarks {
			if run := r.Runs[b][row.Label]; run != nil {
				for _, s := range run.Scores {
					if !seen[s.Metric] {
						seen[s.Metric] = true
						out = append(out, s.Metric)
					}
				}
			}
		}
	}
	return out
}

// Failed lists the runs that failed.
func (r *Results) Failed() []*Run {
	var out []*Run
	for _, b := range r.Benchmarks {
		for _, row := range r.Rows {
			if run := r.Runs[b][row.Label]; run != nil && !run.Pass {
				out = append(out, run)
			}
		}
	}
	return out
}
