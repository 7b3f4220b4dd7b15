// Command realsuite reports on the real suite (suite/real.toml, issue 20):
// for every workload and input, the instructions it retires, its distinct
// Ball-Larus paths and distinct load values, the 512x4 Hot Path Table's
// complete and dynamic overlap on it (hardware-path-profiling.md §8.1),
// and rvsim's functional and timing speed. `make experiments` runs it and
// splices the table into docs/SUITES.md.
//
//	go run ./experiments/realsuite [-inputs test,ref] [-timing-insts N] [-doc docs/SUITES.md]
//	go run ./experiments/realsuite -render -timing-insts N [-doc docs/SUITES.md]   (the table again from -out's realsuite.json, with the run's flags)
//
// Each input runs three times: functionally to completion with its output
// checked (instructions, functional MIPS); functionally with a path
// profiling unit and a load-value counter attached (paths, values,
// overlap; -profile-insts bounds this run); and in timing mode over the
// first -timing-insts instructions (timing MIPS over that window).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/experiments/internal/splice"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

var (
	inputs       = flag.String("inputs", "test,ref", "the inputs to report, comma-separated")
	names        = flag.String("workloads", "", "comma-separated workloads (default: all)")
	timingInsts  = flag.Uint64("timing-insts", 20_000_000, "timing mode: instructions timed from the start of each run")
	profileInsts = flag.Uint64("profile-insts", 0, "the profiled run's instructions (0: the whole run)")
	window       = flag.Int64("window", 2_500_000, "the path unit's dynamic-overlap window, instructions")
	out          = flag.String("out", "build/experiments/realsuite", "where the table is written")
	doc          = flag.String("doc", "", "also splice the table into this document between <!-- realsuite:report --> markers")
	render       = flag.Bool("render", false, "run nothing: write the table again from -out's realsuite.json")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "realsuite:", err)
		os.Exit(1)
	}
}

// row is one input of one workload: its figures (saved in realsuite.json).
type row struct {
	Name          string  `json:"workload"`
	Input         string  `json:"input"`
	Insts         uint64  `json:"instructions"`
	Paths         uint64  `json:"distinct_paths"`
	Values        float64 `json:"distinct_load_values"`
	Pairs         float64 `json:"distinct_pc_values"`
	Complete      float64 `json:"overlap_complete_percent"`
	Dynamic       float64 `json:"overlap_dynamic_percent"`
	FuncMIPS      float64 `json:"functional_mips"`
	TimingMIPS    float64 `json:"timing_mips"`
	IPC           float64 `json:"timing_ipc"`
	ProfiledInsts uint64  `json:"profiled_instructions"`
	TimedInsts    uint64  `json:"timed_instructions"`
}

func run() error {
	if *render {
		var rows []row
		data, err := os.ReadFile(filepath.Join(*out, "realsuite.json"))
		if err == nil {
			err = json.Unmarshal(data, &rows)
		}
		if err != nil {
			return err
		}
		return publish(rows)
	}
	s, err := suite.Real(".")
	if err != nil {
		return err
	}
	bs := s.Benchmarks
	if *names != "" {
		if bs, err = suite.Select(bs, strings.Split(*names, ",")); err != nil {
			return err
		}
	}
	machine, err := config.Preset("default")
	if err != nil {
		return err
	}
	var rows []row
	for _, input := range strings.Split(*inputs, ",") {
		for _, b := range bs {
			r, err := measure(b, input, machine)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%-13s %-4s %11d insts %6d paths %.0f values %.1f/%.1f%% %.0f/%.2f MIPS\n",
				r.Name, r.Input, r.Insts, r.Paths, r.Values, r.Complete, r.Dynamic, r.FuncMIPS, r.TimingMIPS)
			rows = append(rows, r)
		}
	}
	data, err := json.MarshalIndent(rows, "", " ")
	if err == nil {
		err = os.MkdirAll(*out, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "realsuite.json"), data, 0o644)
	}
	if err != nil {
		return err
	}
	return publish(rows)
}

// publish writes the table to -out (and -doc) and standard output.
func publish(rows []row) error {
	text := table(rows)
	os.Stdout.Write(text)
	prov := splice.Provenance{Configs: []splice.Config{splice.Units("unit", []*profhw.UnitConfig{pathUnit()})}}
	if machine, err := config.Preset("default"); err == nil {
		prov.Configs = append(prov.Configs, splice.JSON("machine", machine))
	}
	if s, err := suite.Real("."); err == nil {
		prov.Configs = append(prov.Configs, splice.Suite(s.Benchmarks))
	}
	prov.Configs = append(prov.Configs, splice.Flags("out", "doc", "render"))
	return splice.Publish(filepath.Join(*out, "realsuite.md"), *doc, "<!-- realsuite:report -->", "<!-- /realsuite:report -->", text, prov)
}

// pathUnit is the path profiler of the profiled run: the 512x4 HPT.
func pathUnit() *profhw.UnitConfig {
	return profhw.NewUnitConfig("paths", "path", map[string]any{
		"hpt.entries": int64(512), "hpt.ways": int64(4), "hpt.index": "plb", "accuracy.window": *window})
}

// measure runs one input of one workload three times (see the package
// comment).
func measure(b suite.Benchmark, input string, machine *config.Machine) (row, error) {
	r := row{Name: b.Name, Input: input}
	in, err := b.Input(input)
	if err != nil {
		return r, err
	}
	o := suite.Run(b, in, suite.Options{})
	if !o.Pass {
		return r, fmt.Errorf("%s (%s): %s", b.Name, input, o.Why)
	}
	r.Insts, r.FuncMIPS = o.Result.Instructions, o.Result.MIPS()

	lv := &loadValues{}
	unit := pathUnit()
	res, units, err := simulate(b, in, sim.Config{MaxInsts: *profileInsts, ProfHW: []*profhw.UnitConfig{unit}, Observers: []cpu.Observer{lv}})
	if err != nil {
		return r, err
	}
	u := units[0].(*pathprof.Unit)
	r.ProfiledInsts = res.Instructions
	r.Paths = uint64(extra(u, "distinct_paths"))
	r.Complete, r.Dynamic = extra(u, "overlap_complete_percent"), extra(u, "overlap_dynamic_percent")
	r.Values, r.Pairs = lv.values.estimate(), lv.pairs.estimate()

	res, _, err = simulate(b, in, sim.Config{MaxInsts: *timingInsts, Timing: machine})
	if err != nil {
		return r, err
	}
	r.TimedInsts, r.TimingMIPS = res.Instructions, res.MIPS()
	if res.Cycles != 0 {
		r.IPC = float64(res.Instructions) / float64(res.Cycles)
	}
	return r, nil
}

// simulate runs an input with the run's settings of over (a limit, a
// timing model, units, observers); a run the limit stops is not checked.
func simulate(b suite.Benchmark, in suite.Input, over sim.Config) (sim.Result, []profhw.Unit, error) {
	p, err := suite.Prepare(b, in)
	if err != nil {
		return sim.Result{}, nil, err
	}
	defer p.Close()
	var stdout, stderr bytes.Buffer
	cfg := p.Config(&stdout, &stderr)
	cfg.MaxInsts, cfg.Timing, cfg.ProfHW, cfg.Observers = over.MaxInsts, over.Timing, over.ProfHW, over.Observers
	mc, err := sim.Load(cfg)
	if err != nil {
		return sim.Result{}, nil, err
	}
	res := mc.Run()
	switch {
	case res.TimingErr != nil:
		return res, nil, fmt.Errorf("%s (%s): timing model: %v", b.Name, in.Name, res.TimingErr)
	case res.ProfHWErr != nil:
		return res, nil, fmt.Errorf("%s (%s): profhw: %v", b.Name, in.Name, res.ProfHWErr)
	case res.Stop != sim.StopLimit:
		if why, _ := p.Verify(&res, stdout.Bytes(), stderr.Bytes()); why != "" {
			return res, nil, fmt.Errorf("%s (%s): %s", b.Name, in.Name, why)
		}
	}
	var units []profhw.Unit
	if hub := mc.ProfHW(); hub != nil {
		units = hub.Units()
	}
	return res, units, nil
}

func extra(u profhw.Unit, key string) float64 {
	return u.Summary().Number(key)
}

// loadValues counts the distinct values loads return, and the distinct
// (load PC, value) pairs, with HyperLogLog sketches: a run of billions of
// instructions loads tens of millions of distinct values, more than a
// set of them should hold in memory.
type loadValues struct{ values, pairs hll }

func (l *loadValues) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Inst.Class != isa.Load || d.Injected || d.Handler {
			continue
		}
		l.values.add(mix(d.Result))
		l.pairs.add(mix(d.Result ^ mix(d.PC)))
	}
}

// mix is splitmix64's finalizer: a 64-bit hash of x.
func mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hll is a HyperLogLog sketch (Flajolet, Fusy, Gandouet and Meunier,
// "HyperLogLog: the analysis of a near-optimal cardinality estimation
// algorithm", 2007) of 2^14 registers: standard error 1.04/sqrt(2^14),
// 0.8%; small counts use linear counting, as the paper's §4 says.
type hll struct{ reg [1 << hllBits]uint8 }

const hllBits = 14

func (h *hll) add(x uint64) {
	i := x >> (64 - hllBits)
	rho := uint8(bits.LeadingZeros64(x<<hllBits|1<<(hllBits-1)) + 1)
	if rho > h.reg[i] {
		h.reg[i] = rho
	}
}

func (h *hll) estimate() float64 {
	const m = 1 << hllBits
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(float64(m)/float64(zeros))
	}
	return e
}

func table(rows []row) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "Generated by `go run ./experiments/realsuite` (make experiments). Functional MIPS: the whole run, output checked; "+
		"timing MIPS and IPC: the default machine over the first %d instructions of each run (a window: a full timing run of a ref input takes minutes); "+
		"paths (distinct Ball-Larus paths) and the 512x4 Hot Path Table's complete and dynamic overlap (plb index, %d-instruction windows; "+
		"hardware-path-profiling.md §8.1: 88%% and 95.5%% on SPEC CPU2000) over the whole run, or its first N instructions where the row says (first N); "+
		"distinct load values and (PC, value) pairs: HyperLogLog estimates (standard error 0.8%%) over the same instructions. "+
		"Speeds were measured on a 2-core machine shared with other jobs.\n\n", *timingInsts, *window)
	fmt.Fprintln(&w, "| workload | input | instructions | distinct BL paths | HPT 512x4 complete % | dynamic % | distinct load values | distinct (PC, value) | functional MIPS | timing MIPS | IPC |")
	fmt.Fprintln(&w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		note := ""
		if r.ProfiledInsts != r.Insts {
			note = fmt.Sprintf(" (first %d)", r.ProfiledInsts)
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %d%s | %.1f | %.1f | %s | %s | %.0f | %.2f | %.2f |\n", r.Name, r.Input, commas(r.Insts), r.Paths, note,
			r.Complete, r.Dynamic, commas(uint64(r.Values+0.5)), commas(uint64(r.Pairs+0.5)), r.FuncMIPS, r.TimingMIPS, r.IPC)
	}
	return w.Bytes()
}

func commas(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
