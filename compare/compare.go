// Package compare runs the profiler comparison: each benchmark once with
// profiling off and once per profiler (a set of ACF files driving the
// DISE/HPS engine), and tabulates the cost of profiling as overhead
// relative to the unprofiled run (hps-phase-aware-remote-profiling.md
// §5.2). Runs are independent and go in parallel.
package compare

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sampling"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

// Profiler is one profiling configuration: ACF files and the external
// trigger it runs with (if its productions act on triggers).
type Profiler struct {
	Name    string
	ACF     []string
	Trigger string // "" if the ACF has no trigger productions
	ProfHW  string // a profhw preset (retire-stage hardware) instead of ACF files
}

// Baseline is the name of the unprofiled run.
const Baseline = "none"

// Sets are named lists of profilers: the HPS paper's comparison
// (hps-phase-aware-remote-profiling.md §5.2, Fig. 9), each profile type
// sampled by DISE alone and by HPS, at 1/100 events as the paper does
// (events: the default) or in time windows of 1/100 of the application's
// instructions (windows: with an external trigger).
var Sets = map[string][]string{
	"events": {"hot-code-region-dise-event", "hot-code-region-hps-event", "hot-method-dise-event",
		"hot-method-hps-event", "call-pair-dise-event", "call-pair-hps-event"},
	"windows": {"hot-code-region-dise", "hot-code-region-hps", "hot-method-dise", "hot-method-hps",
		"call-pair-dise", "call-pair-hps"},
}

// DefaultSet is the set rvsim compare runs when no profilers are given.
const DefaultSet = "events"

// ResolveProfilers turns names into profilers. A name is a shipped ACF
// (acfDir/NAME.acf), a path to an .acf file, several of those joined
// with '+' (loaded in that order), or the name of a set (Sets). trigger is
// given to the profilers whose productions match hps.on or hps.off.
func ResolveProfilers(names []string, acfDir, trigger string, cfg dise.Config) ([]Profiler, error) {
	var out []Profiler
	seen := map[string]bool{}
	var expanded []string
	for _, n := range names {
		if set, ok := Sets[strings.TrimSpace(n)]; ok {
			expanded = append(expanded, set...)
		} else {
			expanded = append(expanded, n)
		}
	}
	for _, n := range expanded {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if n == Baseline {
			return nil, fmt.Errorf("profiler %q: the unprofiled run is always included", n)
		}
		if seen[n] {
			return nil, fmt.Errorf("profiler %q listed twice", n)
		}
		seen[n] = true
		if !strings.ContainsAny(n, "+/") && !strings.HasSuffix(n, ".acf") {
			if _, err := os.Stat(filepath.Join(acfDir, n+".acf")); err != nil {
				if _, err := profhw.PresetText(n); err == nil {
					out = append(out, Profiler{Name: n, ProfHW: n})
					continue
				}
			}
		}
		p := Profiler{Name: n}
		for _, part := range strings.Split(n, "+") {
			path := part
			if !strings.HasSuffix(part, ".acf") {
				path = filepath.Join(acfDir, part+".acf")
			}
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("profiler %q: no ACF %s (shipped profilers: %s; profhw presets: %s)", n, path,
					strings.Join(Shipped(acfDir), ", "), strings.Join(profhw.Presets(), ", "))
			}
			p.ACF = append(p.ACF, path)
		}
		prog, err := dise.LoadFiles(cfg, p.ACF...)
		if err != nil {
			return nil, fmt.Errorf("profiler %q:\n%v", n, err)
		}
		if prog.UsesTriggers() {
			if trigger == "" {
				return nil, fmt.Errorf("profiler %q samples with external triggers: give --trigger", n)
			}
			p.Trigger = trigger
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no profilers given")
	}
	return out, nil
}

// Shipped lists the ACF names in acfDir.
func Shipped(acfDir string) []string {
	m, _ := filepath.Glob(filepath.Join(acfDir, "*.acf"))
	var out []string
	for _, f := range m {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".acf"))
	}
	sort.Strings(out)
	return out
}

// Options configure a comparison.
type Options struct {
	Profilers  []Profiler
	Benchmarks []suite.Benchmark
	Input      string          // benchmark input (test, ref)
	Timing     bool            // cycles from the OoO timing model; otherwise instructions (functional)
	Machine    *config.Machine // the timing model's machine (Timing)
	DISE       dise.Config
	Handlers   string // handler runtime ("": the default)
	MaxInsts   uint64 // bound each run to this many application instructions (0: none)
	Jobs       int
	Progress   io.Writer // progress lines (nil: none)
	// Sampled (timing mode): each benchmark's SimPoint plan, computed once
	// and shared by its runs, whose cycles are the plan's weighted CPI
	// times the application instructions (package sampling).
	Sampled *sampling.Cache
}

// Run is one benchmark run.
type Run struct {
	Benchmark, Profiler string
	Trigger             string
	Cycles              uint64 // timing mode: simulated cycles; functional mode: instructions
	Instructions        uint64
	AppInstructions     uint64
	Replacements        uint64
	Injected            uint64 // instructions DISE added, handler code excluded
	HandlerInstructions uint64
	HandlerCalls        uint64
	Triggers            uint64
	HostSeconds         float64
	Pass                bool
	Why                 string // why it failed
	// A profhw profiler's units (summed over them): the error against
	// the exact profile (the largest), the storage, and the analytic
	// delivery cost in percent of the run's cost.
	ProfHW       bool
	ErrorPercent float64
	// ErrorNone: some unit had no error to report (its summary's
	// error_percent is null), so ErrorPercent is not a measurement.
	ErrorNone        bool
	StorageBits      uint64
	AnalyticOverhead float64
	// Timing mode: the cycles the units' commit stalls really cost (the
	// run's cycles minus those without the stalls) and the stall cycles
	// they asked for (docs/PROFHW.md, stall_cycles).
	StallCycles, StallRequested uint64
	// Timing mode: where the cycles went (CPI stack, stalls, DISE
	// front-end events).
	Breakdown *pipeline.Breakdown
}

// Results are the runs of a comparison, by benchmark then profiler
// (the baseline first).
type Results struct {
	Timing     bool
	Machine    string
	Input      string
	Benchmarks []string
	Profilers  []string // the baseline first
	Runs       map[string]map[string]*Run
}

// Overhead is the run's cost relative to the benchmark's baseline in
// percent, and false if either run failed.
func (r *Results) Overhead(bench, prof string) (float64, bool) {
	base, run := r.Runs[bench][Baseline], r.Runs[bench][prof]
	if base == nil || run == nil || !base.Pass || !run.Pass || base.Cycles == 0 {
		return 0, false
	}
	return 100 * (float64(run.Cycles) - float64(base.Cycles)) / float64(base.Cycles), true
}

// Failed lists the runs that failed.
func (r *Results) Failed() []*Run {
	var out []*Run
	for _, b := range r.Benchmarks {
		for _, p := range r.Profilers {
			if run := r.Runs[b][p]; run != nil && !run.Pass {
				out = append(out, run)
			}
		}
	}
	return out
}

type task struct {
	b   suite.Benchmark
	in  suite.Input
	p   *Profiler // nil: baseline
	out *Run
}

// Compare runs every benchmark with profiling off and with each profiler.
func Compare(opt Options) (*Results, error) {
	if opt.Timing && opt.Machine == nil {
		return nil, fmt.Errorf("compare: timing mode needs a machine configuration")
	}
	if opt.Input == "" {
		opt.Input = "test"
	}
	res := &Results{Timing: opt.Timing, Input: opt.Input, Runs: map[string]map[string]*Run{}}
	if opt.Machine != nil && opt.Timing {
		res.Machine = opt.Machine.Name
	}
	res.Profilers = append(res.Profilers, Baseline)
	for _, p := range opt.Profilers {
		res.Profilers = append(res.Profilers, p.Name)
	}
	var tasks []*task
	for _, b := range opt.Benchmarks {
		in, err := b.Input(opt.Input)
		if err != nil {
			return nil, err
		}
		if err := b.CheckBuilt(); err != nil {
			return nil, err
		}
		res.Benchmarks = append(res.Benchmarks, b.Name)
		res.Runs[b.Name] = map[string]*Run{}
		tasks = append(tasks, &task{b: b, in: in})
		for i := range opt.Profilers {
			tasks = append(tasks, &task{b: b, in: in, p: &opt.Profilers[i]})
		}
	}
	prog := newProgress(opt.Progress, len(tasks))
	sem := make(chan struct{}, max(opt.Jobs, 1))
	var wg sync.WaitGroup
	for _, t := range tasks {
		wg.Add(1)
		sem <- struct{}{}
		go func(t *task) {
			defer func() { <-sem; wg.Done() }()
			name := Baseline
			if t.p != nil {
				name = t.p.Name
			}
			label := t.b.Name + "/" + name
			prog.start(label)
			t.out = runOne(t, opt)
			prog.done(label, t.out)
		}(t)
	}
	wg.Wait()
	prog.finish()
	for _, t := range tasks {
		res.Runs[t.b.Name][t.out.Profiler] = t.out
	}
	return res, nil
}

// runOne runs one benchmark under one profiler (or none) in-process and
// checks its output.
func runOne(t *task, opt Options) *Run {
	r := &Run{Benchmark: t.b.Name, Profiler: Baseline}
	var stdout, stderr bytes.Buffer
	// As suite.Run configures benchmark runs.
	prep, err := suite.Prepare(t.b, t.in)
	if err != nil {
		r.Why = err.Error()
		return r
	}
	defer prep.Close()
	cfg := prep.Config(&stdout, &stderr)
	cfg.MaxInsts = opt.MaxInsts
	if t.p != nil && t.p.ProfHW != "" {
		r.Profiler, r.ProfHW = t.p.Name, true
		units, err := profhw.LoadPreset(t.p.ProfHW)
		if err != nil {
			r.Why = err.Error()
			return r
		}
		cfg.ProfHW = units
	} else if t.p != nil {
		// A bounded profiled run does as much application work as the
		// bounded baseline.
		r.Profiler, r.Trigger = t.p.Name, t.p.Trigger
		dc := opt.DISE
		cfg.DISE = &sim.DISEOptions{ACF: t.p.ACF, Handlers: opt.Handlers, Trigger: t.p.Trigger, Config: &dc,
			MaxAppInstructions: opt.MaxInsts}
		cfg.MaxInsts = 0
	}
	var plan *sampling.Plan
	if opt.Timing {
		cfg.Timing = opt.Machine
		if opt.Sampled != nil {
			if plan, err = opt.Sampled.Plan(t.b.Name+"/"+t.in.Name, func() (sim.Config, func(), error) {
				p, err := suite.Prepare(t.b, t.in)
				if err != nil {
					return sim.Config{}, nil, err
				}
				return p.Config(io.Discard, io.Discard), p.Close, nil
			}); err != nil {
				r.Why = err.Error()
				return r
			}
			plan.Apply(&cfg)
		}
	}
	start := time.Now()
	mc, err := sim.Load(cfg)
	if err != nil {
		r.Why = err.Error()
		return r
	}
	res := mc.Run()
	r.HostSeconds = time.Since(start).Seconds()
	if res.TimingErr != nil {
		r.Why = res.TimingErr.Error()
		return r
	}
	r.Instructions, r.Cycles = res.Instructions, res.Cycles
	if plan != nil && res.Stop == sim.StopExit {
		est, err := plan.Combine(&res)
		if err != nil {
			r.Why = err.Error()
			return r
		}
		app := res.Instructions
		if res.DISE != nil {
			app = res.DISE.AppInstructions
		}
		r.Cycles = uint64(math.Round(est.CPI * float64(app)))
	}
	if core := mc.Timing(); core != nil {
		b := core.Breakdown()
		r.Breakdown = &b
	}
	r.AppInstructions = res.Instructions
	if hub := mc.ProfHW(); hub != nil {
		if res.ProfHWErr != nil {
			r.Why = res.ProfHWErr.Error()
			return r
		}
		for _, s := range hub.Summaries() {
			r.ErrorPercent = max(r.ErrorPercent, s.ErrorPercent)
			r.ErrorNone = r.ErrorNone || !s.Answered("error_percent")
			r.StorageBits += s.StorageBits
			r.StallCycles += s.StallCyc
			r.StallRequested += s.StallReq
			if res.Cycles != 0 {
				r.AnalyticOverhead += 100 * float64(s.OverheadCyc) / float64(res.Cycles)
			}
		}
	}
	if d := res.DISE; d != nil {
		r.AppInstructions = d.AppInstructions
		r.Replacements, r.Injected = d.Replacements, d.InjectedTotal()
		r.HandlerInstructions, r.HandlerCalls, r.Triggers = d.HandlerInstructions, d.HandlerCalls, d.Triggers
	}
	switch {
	case res.Stop == sim.StopLimit && opt.MaxInsts != 0:
		// A bounded run: its output is incomplete by design.
		r.Pass = true
		return r
	case res.Stop != sim.StopExit:
		r.Why = fmt.Sprintf("%s: %s", res.Stop, res.Message)
	default:
		if why, differs := prep.Verify(&res, stdout.Bytes(), stderr.Bytes()); differs {
			r.Why = "output differs: " + why
		} else {
			r.Why = why
		}
	}
	r.Pass = r.Why == ""
	return r
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
