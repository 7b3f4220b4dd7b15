// Package sampling is SimPoint-interval timing over sim runs (issue 20):
// a plan (the simulation points and their weights, from `rvsim simpoint`'s
// files or from a BBV pass here), the sim windows that time it, and the
// weighted CPI with its error estimate (Sherwood, Perelman, Hamerly and
// Calder, "Automatically characterizing large scale program behavior",
// ASPLOS 2002, §6: the weighted combination of the simulation points'
// CPIs). The fast-forward and warm-up machinery itself is sim's
// (sim/sampled.go); sampling imports sim, never the reverse.
package sampling

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/sim"
)

// DefaultInterval is the interval length `rvsim simpoint` uses by default.
const DefaultInterval = 10_000_000

// DefaultWarmup is the detailed warm-up before each interval that
// `rvsim compare --sampled` and the sampling experiment use (docs/SPEED.md).
const DefaultWarmup = 1_000_000

// Parts is how many equal parts each timed interval is split into for the
// error estimate.
const Parts = 10

// Point is one simulation point.
type Point struct {
	Interval uint64  // interval index: it starts at instruction Interval·Plan.Interval
	Cluster  int     // its cluster (phase) id
	Weight   float64 // the cluster's share of the run's intervals
	Line     int     // its line in the .simpoints file (0: computed)
}

// Plan is a sampled run's simulation points.
type Plan struct {
	Interval uint64 // instructions per interval
	Warmup   uint64 // detailed warm-up before each interval, not counted
	// Warming keeps the caches and branch predictor warm between the
	// intervals (sim.Config.FunctionalWarming).
	Warming bool
	// WarmingLast (with Warming) bounds the warming to the last
	// WarmingLast instructions before each warm-up (0: the whole gap;
	// sim.Config.WarmingLast).
	WarmingLast uint64
	Points      []Point
	// Simpoints names the .simpoints file, for errors (or what the plan was
	// computed from).
	Simpoints string
}

// ReadFiles reads SimPoint's .simpoints ("interval cluster" per line) and
// .weights ("weight cluster") files into a plan. Every error is one line
// naming the file and line.
func ReadFiles(simpoints, weights string, interval, warmup uint64) (*Plan, error) {
	sf, err := os.Open(simpoints)
	if err != nil {
		return nil, err
	}
	defer sf.Close()
	wf, err := os.Open(weights)
	if err != nil {
		return nil, err
	}
	defer wf.Close()
	return Parse(simpoints, sf, weights, wf, interval, warmup)
}

// pair is a parsed line: a number and a cluster id.
type pair struct {
	num     string
	cluster int
	line    int
}

// readPairs reads "NUMBER CLUSTER" lines (blank lines are skipped); a
// cluster id given twice is refused.
func readPairs(name string, r io.Reader, what string) ([]pair, error) {
	var out []pair
	seen := map[int]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"%s cluster\", got %d fields", name, n, what, len(f))
		}
		c, err := strconv.Atoi(f[1])
		if err != nil || c < 0 {
			return nil, fmt.Errorf("%s:%d: cluster %q: want a non-negative integer", name, n, f[1])
		}
		if prev, ok := seen[c]; ok {
			return nil, fmt.Errorf("%s:%d: cluster %d again (line %d)", name, n, c, prev)
		}
		seen[c] = n
		out = append(out, pair{f[0], c, n})
	}
	if err := sc.Err(); err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, fmt.Errorf("%s: %v", name, pe.Err) // the file's, not a line's (a directory)
		}
		return nil, fmt.Errorf("%s:%d: %v", name, n+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s:%d: no simulation points", name, max(n, 1))
	}
	return out, nil
}

// WeightTolerance is how far from 1 the weights may sum (SimPoint writes
// them with 6 decimals).
const WeightTolerance = 0.01

// Parse is ReadFiles over readers; sname and wname name them in errors.
func Parse(sname string, s io.Reader, wname string, w io.Reader, interval, warmup uint64) (*Plan, error) {
	if interval == 0 {
		return nil, fmt.Errorf("sampling: the interval length must be at least 1")
	}
	sp, err := readPairs(sname, s, "interval")
	if err != nil {
		return nil, err
	}
	wp, err := readPairs(wname, w, "weight")
	if err != nil {
		return nil, err
	}
	weights := map[int]pair{}
	for _, p := range wp {
		weights[p.cluster] = p
	}
	plan := &Plan{Interval: interval, Warmup: warmup, Simpoints: sname}
	byInterval := map[uint64]int{}
	var sum float64
	for _, p := range sp {
		iv, err := strconv.ParseUint(p.num, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: interval %q: want a non-negative integer", sname, p.line, p.num)
		}
		if iv > math.MaxUint64/interval-1 {
			return nil, fmt.Errorf("%s:%d: interval %d: past any program's end at %d instructions per interval", sname, p.line, iv, interval)
		}
		if prev, ok := byInterval[iv]; ok {
			return nil, fmt.Errorf("%s:%d: interval %d again (line %d)", sname, p.line, iv, prev)
		}
		byInterval[iv] = p.line
		wpair, ok := weights[p.cluster]
		if !ok {
			return nil, fmt.Errorf("%s:%d: cluster %d has no weight in %s", sname, p.line, p.cluster, wname)
		}
		wt, err := strconv.ParseFloat(wpair.num, 64)
		if err != nil || !(wt > 0 && wt <= 1) {
			return nil, fmt.Errorf("%s:%d: weight %q: want a number in (0, 1]", wname, wpair.line, wpair.num)
		}
		sum += wt
		plan.Points = append(plan.Points, Point{Interval: iv, Cluster: p.cluster, Weight: wt, Line: p.line})
	}
	named := map[int]bool{}
	for _, p := range sp {
		named[p.cluster] = true
	}
	for _, p := range wp {
		if !named[p.cluster] {
			return nil, fmt.Errorf("%s:%d: cluster %d has no simulation point in %s", wname, p.line, p.cluster, sname)
		}
	}
	if math.Abs(sum-1) > WeightTolerance {
		return nil, fmt.Errorf("%s:%d: the weights sum to %.6g, not 1 (within %g)", wname, wp[len(wp)-1].line, sum, WeightTolerance)
	}
	sortPoints(plan.Points)
	return plan, nil
}

func sortPoints(p []Point) {
	sort.Slice(p, func(i, j int) bool { return p[i].Interval < p[j].Interval })
}

// Windows are the sim windows that time the plan: each point's interval,
// after a warm-up of Plan.Warmup instructions, split into Parts parts.
// A nil plan has none.
func (p *Plan) Windows() []sim.Window {
	if p == nil {
		return nil
	}
	out := make([]sim.Window, len(p.Points))
	for i, pt := range p.Points {
		start := pt.Interval * p.Interval
		out[i] = sim.Window{Start: start, Warmup: min(p.Warmup, start), Length: p.Interval, Parts: min(Parts, int(min(p.Interval, Parts)))}
	}
	return out
}

// Apply sets cfg up to time the plan: its windows and warming.
func (p *Plan) Apply(cfg *sim.Config) {
	cfg.Windows, cfg.FunctionalWarming = p.Windows(), p != nil && p.Warming
	if cfg.FunctionalWarming {
		cfg.WarmingLast = p.WarmingLast
	}
}

// ParseWarming reads a functional-warming setting: "on" (warm through
// the whole of each gap), "off", or a count N of instructions (warm only
// over the last N before each warm-up; 0 is off), with an optional k, M
// or G suffix (10^3, 10^6, 10^9).
func ParseWarming(s string) (warming bool, last uint64, err error) {
	switch s {
	case "on":
		return true, 0, nil
	case "off":
		return false, 0, nil
	}
	num, mul := s, uint64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			num, mul = s[:n-1], 1e3
		case 'M':
			num, mul = s[:n-1], 1e6
		case 'G':
			num, mul = s[:n-1], 1e9
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n > ^uint64(0)/mul {
		return false, 0, fmt.Errorf("%q: want on, off or an instruction count (20M)", s)
	}
	return n > 0, n * mul, nil
}

// where names a point for errors: its file and line, or its interval.
func (p *Plan) where(pt Point) string {
	if pt.Line > 0 {
		return fmt.Sprintf("%s:%d", p.Simpoints, pt.Line)
	}
	return fmt.Sprintf("%s: interval %d", p.Simpoints, pt.Interval)
}

// PointResult is one simulation point's measurement.
type PointResult struct {
	Point
	Start, Warmup, Timed, Cycles uint64
	CPI                          float64
	PartCPIs                     []float64
}

// Estimate is a sampled run's weighted CPI.
type Estimate struct {
	CPI float64 // Σ w_i·CPI_i / Σ w_i over the simulation points
	// ErrorEstimate is the relative half-width of a 95% confidence
	// interval around CPI (0.02: ±2%), from the spread of each point's
	// part CPIs (see Combine).
	ErrorEstimate float64
	Points        []PointResult
	// Detailed are the instructions the timing model ran (warm-ups and
	// timed parts); Timed the timed ones.
	Detailed, Timed uint64
}

// Combine weighs the windows' CPIs of a run of p.Windows() into the
// sampled CPI. A point whose interval the program never reached (it ended
// first) is an error naming the .simpoints line; a last interval the
// program ended in is timed as far as it ran.
//
// The error estimate is stratified sampling's (Cochran, Sampling
// Techniques, §5.3), with each cluster a stratum: Var = Σ_h w_h²·s_h²/n_h,
// where w_h is the normalised weight, and s_h² the sample variance of the
// CPIs of the n_h = Parts equal parts of cluster h's timed interval, taken
// as a sample of the cluster's behaviour (the per-unit CPI variance SMARTS
// uses, Wunderlich et al., ISCA 2003, §3); ErrorEstimate = 1.96·√Var/CPI.
// It measures how steady each phase's CPI is within its representative;
// it cannot see an interval the clustering put in the wrong phase
// (docs/SPEED.md compares it with the measured error).
func (p *Plan) Combine(res *sim.Result) (*Estimate, error) {
	sc := res.Sampled
	if sc == nil {
		return nil, fmt.Errorf("sampling: the run had no windows")
	}
	est := &Estimate{}
	var wsum, num, variance float64
	for i, pt := range p.Points {
		if i >= len(sc.Windows) || sc.Windows[i].Timed == 0 {
			return nil, fmt.Errorf("%s: interval %d starts at instruction %d, past the program's end (%d instructions)",
				p.where(pt), pt.Interval, pt.Interval*p.Interval, res.Instructions)
		}
		w := &sc.Windows[i]
		r := PointResult{Point: pt, Start: w.Start, Warmup: w.WarmupRun, Timed: w.Timed, Cycles: w.Cycles, CPI: w.CPI()}
		for j := range w.PartCycles {
			r.PartCPIs = append(r.PartCPIs, float64(w.PartCycles[j])/float64(w.PartInsts[j]))
		}
		est.Points = append(est.Points, r)
		est.Detailed += w.WarmupRun + w.Timed
		est.Timed += w.Timed
		wsum += pt.Weight
		num += pt.Weight * r.CPI
		if n := len(r.PartCPIs); n >= 2 {
			variance += pt.Weight * pt.Weight * sampleVar(r.PartCPIs) / float64(n)
		}
	}
	est.CPI = num / wsum
	if est.CPI > 0 {
		est.ErrorEstimate = 1.96 * math.Sqrt(variance/(wsum*wsum)) / est.CPI
	}
	return est, nil
}

func sampleVar(x []float64) float64 {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s / float64(len(x)-1)
}

// Stats adds the estimate to a --stats object: sampled.cpi,
// sampled.cpi_error_estimate, sampled.detailed_instructions,
// sampled.interval, sampled.warmup and sampled.points (per point: interval,
// cluster, weight, start, warmup_instructions, timed_instructions, cycles,
// cpi).
func (p *Plan) Stats(out map[string]any, est *Estimate) {
	out["sampled.cpi"] = est.CPI
	out["sampled.cpi_error_estimate"] = est.ErrorEstimate
	out["sampled.detailed_instructions"] = est.Detailed
	out["sampled.interval"] = p.Interval
	out["sampled.warmup"] = p.Warmup
	var pts []map[string]any
	for _, r := range est.Points {
		pts = append(pts, map[string]any{"interval": r.Interval, "cluster": r.Cluster, "weight": r.Weight,
			"start": r.Start, "warmup_instructions": r.Warmup, "timed_instructions": r.Timed, "cycles": r.Cycles, "cpi": r.CPI})
	}
	out["sampled.points"] = pts
}
