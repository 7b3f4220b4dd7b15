package compare

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sampling"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

// SuiteSpec says where the programs come from: a suite file
// (docs/SUITES.md), or the built-in suite's sources and binaries.
type SuiteSpec struct {
	File string `json:"file,omitempty"`
	Src  string `json:"src,omitempty"`
	Bin  string `json:"bin,omitempty"`
}

// Load lists the suite's programs.
// File "real" is the real suite of the checkout in the working
// directory (suite.Named).
func (s SuiteSpec) Load() ([]suite.Benchmark, error) {
	return suite.Named(s.File, s.Src, s.Bin, ".")
}

// Spec is everything that decides a comparison's cells: what a Slurm
// manifest holds (slurm.go), so that a cell runs the same anywhere.
type Spec struct {
	Profilers  []Profiler `json:"profilers"`
	Suite      SuiteSpec  `json:"suite"`
	Benchmarks []string   `json:"benchmarks"`
	Input      string     `json:"input"` // benchmark input (test, ref)
	Timing     bool       `json:"timing"`
	// Machine is the timing model's machine as a configuration file's
	// text (config.Format), MachineName its name (Timing only).
	Machine     string      `json:"machine,omitempty"`
	MachineName string      `json:"machine_name,omitempty"`
	DISE        dise.Config `json:"dise"`
	Handlers    string      `json:"handlers,omitempty"`  // handler runtime ("": the default)
	MaxInsts    uint64      `json:"max_insts,omitempty"` // bound each run to this many application instructions (0: none)
	Sweep       *Sweep      `json:"sweep,omitempty"`
	// Sampled (timing mode): each program's SimPoint plan, computed once
	// per program and input and shared by its runs, whose cycles are the
	// plan's weighted CPI times the application instructions (package
	// sampling; --sampled).
	Sampled *sampling.Cache `json:"sampled,omitempty"`
	// Command is the command line that made the comparison: the
	// provenance line of its reports.
	Command string `json:"command"`
}

// Options configure a local comparison.
type Options struct {
	Spec
	Jobs     int
	Progress io.Writer // progress (nil: none); a terminal gets a progress bar
	// CacheDir holds the cells' results (cache.go; "" no cache). NoCache
	// reruns every cell (and refreshes the cache).
	CacheDir string
	NoCache  bool
	// Version identifies the simulator in the cache keys (Version()).
	Version string
}

// Cell is one run: a program on an input, under a profiler (nil: the
// unprofiled run) at a sweep point, on the comparison's machine.
type Cell struct {
	Index     int       `json:"index"`
	Benchmark string    `json:"benchmark"`
	Profiler  *Profiler `json:"profiler,omitempty"` // nil: the unprofiled run
	// Point is the sweep point (KEY=VALUE, "" without a sweep); a machine
	// point changes the machine of every profiler's run and the
	// baseline's, a profiler point only the profhw profilers' units.
	Point string `json:"point,omitempty"`
}

// Label is the cell's row in the tables: the profiler's name (or none),
// with its sweep point.
func (c *Cell) Label() string {
	name := Baseline
	if c.Profiler != nil {
		name = c.Profiler.Name
	}
	if c.Point != "" {
		return name + " [" + c.Point + "]"
	}
	return name
}

// Cells lists the comparison's cells in order: per program the
// unprofiled run then each profiler, for each sweep point.
func (s *Spec) Cells() []Cell {
	var out []Cell
	add := func(b string, p *Profiler, point string) {
		out = append(out, Cell{Index: len(out), Benchmark: b, Profiler: p, Point: point})
	}
	for _, b := range s.Benchmarks {
		switch {
		case s.Sweep == nil:
			add(b, nil, "")
			for i := range s.Profilers {
				add(b, &s.Profilers[i], "")
			}
		case s.Sweep.Machine:
			for _, v := range s.Sweep.Values {
				pt := s.Sweep.Key + "=" + v
				add(b, nil, pt)
				for i := range s.Profilers {
					add(b, &s.Profilers[i], pt)
				}
			}
		default:
			add(b, nil, "")
			for i := range s.Profilers {
				p := &s.Profilers[i]
				if !s.Sweep.applies(p) {
					add(b, p, "")
					continue
				}
				for _, v := range s.Sweep.Values {
					add(b, p, s.Sweep.Key+"="+v)
				}
			}
		}
	}
	return out
}

// machine is the cell's machine (nil in functional mode).
func (s *Spec) machine(c *Cell) (*config.Machine, error) {
	if !s.Timing {
		return nil, nil
	}
	text := s.Machine
	if s.Sweep != nil && s.Sweep.Machine && c.Point != "" {
		var err error
		if text, err = setMachineKey(text, c.Point); err != nil {
			return nil, err
		}
	}
	m, err := config.Parse("machine of "+s.MachineName, []byte(text))
	if err != nil {
		return nil, err
	}
	m.Name = s.MachineName
	return m, nil
}

// profiler is the cell's profiler with its sweep point's setting.
func (s *Spec) profiler(c *Cell) *Profiler {
	if c.Profiler == nil {
		return nil
	}
	p := *c.Profiler
	if c.Point != "" && s.Sweep != nil && !s.Sweep.Machine {
		p.Settings = append(append([]string(nil), p.Settings...), c.Point)
	}
	return &p
}

// benchmarks resolves the spec's programs.
func (s *Spec) benchmarks() (map[string]suite.Benchmark, error) {
	all, err := s.Suite.Load()
	if err != nil {
		return nil, err
	}
	sel, err := suite.Select(all, s.Benchmarks)
	if err != nil {
		return nil, err
	}
	out := map[string]suite.Benchmark{}
	for _, b := range sel {
		if _, err := b.Input(s.Input); err != nil {
			return nil, err
		}
		if err := b.CheckBuilt(); err != nil {
			return nil, err
		}
		out[b.Name] = b
	}
	return out, nil
}

// runCell runs one cell in-process and checks the program's output;
// timingThreads is sim.Config.TimingThreads.
func runCell(s *Spec, c *Cell, b suite.Benchmark, timingThreads int) *Run {
	r := &Run{Benchmark: c.Benchmark, Profiler: Baseline, Label: c.Label(), Point: c.Point, Type: "-", Source: "-"}
	p := s.profiler(c)
	if p != nil {
		r.Profiler, r.Type, r.Source, r.Trigger = p.Name, p.Type, p.Source, p.Trigger
	}
	in, err := b.Input(s.Input)
	if err != nil {
		r.Why = err.Error()
		return r
	}
	m, err := s.machine(c)
	if err != nil {
		r.Why = err.Error()
		return r
	}
	var stdout, stderr bytes.Buffer
	prep, err := suite.Prepare(b, in)
	if err != nil {
		r.Why = err.Error()
		return r
	}
	defer prep.Close()
	cfg := prep.Config(&stdout, &stderr)
	cfg.MaxInsts = s.MaxInsts
	// The translator runs what nothing observes (an unprofiled functional
	// run, a sampled run's fast-forward); its counts are the interpreter's.
	cfg.JIT = true
	var exact *profile.Exact // an ACF profiler's reference: an observer, so the run's counts are unchanged
	switch {
	case p == nil:
	case p.Source == SourceACF:
		// A bounded profiled run does as much application work as the
		// bounded baseline.
		dc := s.DISE
		if dc == (dise.Config{}) {
			dc = dise.DefaultConfig() // a spec that does not say
		}
		cfg.DISE = &sim.DISEOptions{ACF: p.ACF, Handlers: s.Handlers, Trigger: p.Trigger, Config: &dc,
			MaxAppInstructions: s.MaxInsts}
		cfg.MaxInsts = 0
		exact = profile.NewExact()
		cfg.Observers = append(cfg.Observers, exact)
	default:
		if cfg.ProfHW, err = p.units(); err != nil {
			r.Why = err.Error()
			return r
		}
	}
	cfg.Timing, cfg.TimingThreads = m, timingThreads
	var plan *sampling.Plan
	if m != nil && s.Sampled != nil {
		if plan, err = s.Sampled.Plan(b.Name+"/"+in.Name, func() (sim.Config, func(), error) {
			p, err := suite.Prepare(b, in)
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
	r.Instructions, r.AppInstructions = res.Instructions, res.Instructions
	if m != nil {
		r.Cycles = res.Cycles
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
			bd := core.Breakdown()
			r.Breakdown = &bd
		}
	}
	if hub := mc.ProfHW(); hub != nil {
		if res.ProfHWErr != nil {
			r.Why = res.ProfHWErr.Error()
			return r
		}
		scoreUnits(r, hub, m != nil, cfg.ProfHW)
	}
	if d := res.DISE; d != nil {
		r.AppInstructions = d.AppInstructions
		r.Replacements, r.Injected = d.Replacements, d.InjectedTotal()
		r.HandlerInstructions, r.HandlerCalls, r.Triggers = d.HandlerInstructions, d.HandlerCalls, d.Triggers
		if t := kindsType(d.Kinds); t != "" {
			r.Type = t
		}
		scoreACF(r, mc, exact, d.Kinds)
	}
	switch {
	case res.Stop == sim.StopLimit && s.MaxInsts != 0:
		// A bounded run: its output is incomplete by design.
		r.Pass, r.Output = true, OutputUnchecked
		return r
	case res.Stop != sim.StopExit:
		r.Why = fmt.Sprintf("%s: %s", res.Stop, res.Message)
	default:
		if why, differs := prep.Verify(&res, stdout.Bytes(), stderr.Bytes()); differs {
			r.Why, r.Output = "output differs: "+why, OutputDiffers
		} else {
			r.Why, r.Output = why, OutputSame
		}
	}
	r.Pass = r.Why == ""
	return r
}

// kindsType names the profile type of a DISE run's profile kinds.
func kindsType(kinds []profile.Kind) string {
	var ts []string
	for _, k := range kinds {
		switch string(k) {
		case "hot-code-region":
			ts = append(ts, "code region")
		case "hot-method":
			ts = append(ts, "method")
		case "call-pair":
			ts = append(ts, "call pair")
		}
	}
	sort.Strings(ts)
	if len(ts) == 0 {
		return ""
	}
	return ts[0]
}
