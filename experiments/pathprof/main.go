// Command pathprof (once profhw/pathprof/pathexp) runs the experiments of hardware-path-profiling.md §8
// on the benchmark suite (make experiments; docs/EXPERIMENTS.md has the
// results beside the paper's). Each experiment prints a markdown table.
//
//	go run ./experiments/pathprof -exp N [-input test] [-jobs 2] [-benchmarks a,b] [-suite real] [-max-insts N]
//	go run ./experiments/pathprof -splice docs/EXPERIMENTS.md build/experiments/pathprof-*.md
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/experiments/internal/figures"
	"github.com/rvsim/rvsim/experiments/internal/splice"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

var (
	exp      = flag.Int("exp", 0, "experiment 1..7")
	input    = flag.String("input", "test", "benchmark input")
	jobs     = flag.Int("jobs", 2, "runs at once")
	names    = flag.String("benchmarks", "", "comma-separated benchmarks (default: all)")
	window   = flag.Int64("window", 200_000, "dynamic overlap window, instructions")
	interval = flag.Int64("interval", 100_000, "phase interval, instructions")
	funcMode = flag.Bool("functional", false, "experiment 6 in functional mode (no CPI)")
	suiteArg = flag.String("suite", "", "the suite: the built-in one (default), real (suite/real.toml), or a suite file")
	maxInsts = flag.Uint64("max-insts", 0, "stop each run after N instructions (0: the whole run; a stopped run's output is not checked)")
	spliceTo = flag.String("splice", "", "splice the generated markdown files given as arguments into this document, between <!-- pathexp:NAME --> and <!-- /pathexp:NAME --> (NAME: the file's base name without .md)")
)

func main() {
	flag.Parse()
	if *spliceTo != "" {
		if err := spliceFiles(*spliceTo, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "pathprof:", err)
			os.Exit(1)
		}
		return
	}
	bs, err := suite.Named(*suiteArg, "benchmarks", "build/benchmarks", ".")
	if err == nil && *names != "" {
		bs, err = suite.Select(bs, strings.Split(*names, ","))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pathprof:", err)
		os.Exit(2)
	}
	// Programs too short for windows and intervals (a few thousand
	// instructions on the test input) say nothing here.
	var keep []suite.Benchmark
	for _, b := range bs {
		if b.Name != "lisp" && b.Name != "parser" || *names != "" || *input != "test" || *suiteArg != "" {
			keep = append(keep, b)
		}
	}
	bs = keep
	switch *exp {
	case 1:
		exp1(bs)
	case 2:
		exp23(bs)
	case 4:
		exp4(bs)
	case 5:
		exp5(bs)
	case 6:
		exp6(bs)
	case 7:
		exp7(bs)
	default:
		fmt.Fprintln(os.Stderr, "pathprof: -exp 1, 2 (covers 3), 4, 5, 6 or 7")
		os.Exit(2)
	}
	// The tables' provenance ends the output (the file -splice takes).
	fmt.Print("\n" + provenance(bs).Markdown())
}

// used holds every distinct machine and unit configuration runOne ran,
// as JSON, for the provenance.
var used struct {
	sync.Mutex
	machines, units map[string]bool
}

// record notes the configurations of one run.
func record(m *config.Machine, cfgs []*profhw.UnitConfig) {
	used.Lock()
	defer used.Unlock()
	if used.machines == nil {
		used.machines, used.units = map[string]bool{}, map[string]bool{}
	}
	used.machines[string(splice.JSON("", m).Text)] = true
	for _, c := range cfgs {
		used.units[string(splice.Units("", []*profhw.UnitConfig{c}).Text)] = true
	}
}

// provenance names the machines and units the runs used (sorted: the runs
// finish in any order), the suite and the flags.
func provenance(bs []suite.Benchmark) splice.Provenance {
	joined := func(set map[string]bool) string {
		var l []string
		for k := range set {
			l = append(l, k)
		}
		sort.Strings(l)
		return strings.Join(l, "\n")
	}
	used.Lock()
	defer used.Unlock()
	return splice.Provenance{Configs: []splice.Config{splice.Text("machines", joined(used.machines)), splice.Text("units", joined(used.units)),
		splice.Suite(bs), splice.Flags("jobs", "splice", "figures")}}
}

// unit is one [[unit]] table.
func unit(name string, vals map[string]any) *profhw.UnitConfig {
	return profhw.NewUnitConfig(name, "path", vals)
}

type run struct {
	units map[string]*pathprof.Unit
	res   sim.Result
}

// runOne runs benchmark b with the units (timing on m if not nil), for
// at most -max-insts instructions.
func runOne(b suite.Benchmark, m *config.Machine, cfgs []*profhw.UnitConfig) (run, error) {
	record(m, cfgs)
	in, err := b.Input(*input)
	if err != nil {
		return run{}, err
	}
	p, err := suite.Prepare(b, in)
	if err != nil {
		return run{}, err
	}
	defer p.Close()
	var out bytes.Buffer
	cfg := p.Config(&out, io.Discard)
	cfg.Timing, cfg.ProfHW, cfg.MaxInsts = m, cfgs, *maxInsts
	cfg.Kernel.Warn = io.Discard
	mc, err := sim.Load(cfg)
	if err != nil {
		return run{}, err
	}
	res := mc.Run()
	if !(res.Stop == sim.StopExit || res.Stop == sim.StopLimit && *maxInsts > 0) || res.ProfHWErr != nil || res.TimingErr != nil {
		return run{}, fmt.Errorf("%s: %s %v %v", b.Name, res.Message, res.ProfHWErr, res.TimingErr)
	}
	r := run{units: map[string]*pathprof.Unit{}, res: res}
	if hub := mc.ProfHW(); hub != nil {
		for _, u := range hub.Units() {
			r.units[u.Name()] = u.(*pathprof.Unit)
		}
	}
	return r, nil
}

// runScope says which suite and how much of each run, when not the
// built-in suite's whole runs.
func runScope() string {
	s := ""
	if *suiteArg != "" {
		s = " of the " + *suiteArg + " suite"
	}
	if *maxInsts > 0 {
		s += fmt.Sprintf(", first %d instructions of each run", *maxInsts)
	}
	return s
}

// forAll runs f for every benchmark, *jobs at a time, in order of results.
func forAll(bs []suite.Benchmark, f func(b suite.Benchmark) (run, error)) []run {
	out := make([]run, len(bs))
	sem := make(chan struct{}, *jobs)
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := f(b)
			if err != nil {
				fmt.Fprintln(os.Stderr, "pathprof:", err)
				os.Exit(1)
			}
			out[i] = r
		}()
	}
	wg.Wait()
	return out
}

func sum(u *pathprof.Unit, key string) float64 {
	return u.Summary().Number(key)
}

// with is a copy of settings with key set to v (settings win over it).
func with(settings map[string]any, key string, v any) map[string]any {
	out := map[string]any{key: v}
	for k, x := range settings {
		out[k] = x
	}
	return out
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func hpp() *config.Machine {
	m, err := config.Preset("hpp")
	if err != nil {
		panic(err)
	}
	return m
}

// figDir is where the figures go; their links are relative to its parent
// folder (docs/figures: docs/EXPERIMENTS.md links figures/NAME.svg).
var figDir = flag.String("figures", "docs/figures", "draw the figures into this folder (\"\": none)")

// overlapFigure draws experiment 1's mean complete overlap by HPT size, a
// line per index and associativity (cols: experiment 1's per-benchmark
// overlaps by configuration), and prints its link.
func overlapFigure(hc []hptCfg, cols map[string][]float64) error {
	if *figDir == "" {
		return nil
	}
	name := "pathprof-exp1-hpt-" + *input
	if *suiteArg != "" {
		name += "-" + strings.TrimSuffix(filepath.Base(*suiteArg), ".toml")
	}
	f := figures.Line{Title: fmt.Sprintf("Experiment 1: mean complete overlap by HPT size, %s inputs", *input),
		XLabel: "HPT entries", YLabel: "complete overlap (%)", LogX: true}
	for _, ix := range []string{"plb", "pb"} {
		var ways []int64
		for _, c := range hc {
			if !slices.Contains(ways, c.w) {
				ways = append(ways, c.w)
			}
		}
		for _, w := range ways {
			s := figures.Series{Name: fmt.Sprintf("%d-way %s", w, ix)}
			for _, c := range hc {
				if c.w == w {
					s.X, s.Y = append(s.X, float64(c.n)), append(s.Y, mean(cols[c.String()+"-"+ix+" c"]))
				}
			}
			f.Series = append(f.Series, s)
		}
	}
	link, err := figures.Write(f, *figDir, name, filepath.Dir(*figDir))
	if err != nil {
		return err
	}
	fmt.Printf("\n%s", link)
	return nil
}

// hptFlag is experiment 1's HPT configurations, entries x ways (each
// with the plb and the pb index). 32 entries: the test inputs' programs
// have hundreds of paths, not thousands. The ref inputs use fewer
// configurations (each is a unit of its own on a 400M-instruction run).
var hptFlag = flag.String("hpt", "32x2,32x4,32x32,128x2,128x4,128x32,512x2,512x4,512x32,2048x2,2048x4,2048x32",
	"experiment 1's HPT configurations, entries x ways (512x4 is required)")

type hptCfg struct{ n, w int64 }

func (c hptCfg) String() string { return fmt.Sprintf("%dx%d", c.n, c.w) }

func hptCfgs() []hptCfg {
	var out []hptCfg
	has512x4 := false
	for _, f := range strings.Split(*hptFlag, ",") {
		var c hptCfg
		if _, err := fmt.Sscanf(f, "%dx%d", &c.n, &c.w); err != nil {
			fmt.Fprintf(os.Stderr, "pathprof: -hpt: %q is not ENTRIESxWAYS\n", f)
			os.Exit(2)
		}
		has512x4 = has512x4 || c == hptCfg{512, 4}
		out = append(out, c)
	}
	if !has512x4 {
		fmt.Fprintln(os.Stderr, "pathprof: -hpt must include 512x4 (the paper's configuration)")
		os.Exit(2)
	}
	return out
}

// exp1: complete and dynamic overlap of BL frequency profiles for HPT
// sizes x associativities, plb against pb indexing (§8.1, Figs. 10, 11, 13).
func exp1(bs []suite.Benchmark) {
	hc := hptCfgs()
	key := func(c hptCfg, ix string) string { return c.String() + "-" + ix }
	runs := forAll(bs, func(b suite.Benchmark) (run, error) {
		var cfgs []*profhw.UnitConfig
		for _, c := range hc {
			for _, ix := range []string{"plb", "pb"} {
				cfgs = append(cfgs, unit(key(c, ix), map[string]any{
					"hpt.entries": c.n, "hpt.ways": c.w, "hpt.index": ix, "accuracy.window": *window}))
			}
		}
		return runOne(b, nil, cfgs)
	})
	fmt.Printf("Experiment 1: BL path frequency profiles, %s inputs%s, windows of %d instructions\n\n", *input, runScope(), *window)
	fmt.Printf("| benchmark | instructions | distinct paths |")
	for _, c := range hc {
		fmt.Printf(" %s plb |", c)
	}
	fmt.Printf(" 512x4 pb | 512x4 plb dynamic |\n|---|---|---|%s---|---|\n", strings.Repeat("---|", len(hc)))
	cols := map[string][]float64{}
	var paths []float64
	most, mostName, mostOver := 0.0, "", 0.0
	for i, b := range bs {
		u := runs[i].units
		fmt.Printf("| %s | %d | %d |", b.Name, runs[i].res.Instructions, int(sum(u["512x4-plb"], "distinct_paths")))
		for _, c := range hc {
			fmt.Printf(" %.1f |", sum(u[key(c, "plb")], "overlap_complete_percent"))
		}
		fmt.Printf(" %.1f | %.1f |\n", sum(u["512x4-pb"], "overlap_complete_percent"), sum(u["512x4-plb"], "overlap_dynamic_percent"))
		for _, c := range hc {
			for _, ix := range []string{"plb", "pb"} {
				k := key(c, ix)
				cols[k+" c"] = append(cols[k+" c"], sum(u[k], "overlap_complete_percent"))
				cols[k+" d"] = append(cols[k+" d"], sum(u[k], "overlap_dynamic_percent"))
			}
		}
		n := sum(u["512x4-plb"], "distinct_paths")
		paths = append(paths, n)
		if n > most {
			most, mostName, mostOver = n, b.Name, sum(u["512x4-plb"], "overlap_complete_percent")
		}
	}
	fmt.Printf("\nAverages over %d benchmarks (complete / dynamic overlap, %%):\n\n| HPT | plb complete | plb dynamic | pb complete | pb dynamic |\n|---|---|---|---|---|\n", len(bs))
	for _, c := range hc {
		k := c.String() + "-"
		fmt.Printf("| %s | %.1f | %.1f | %.1f | %.1f |\n", c, mean(cols[k+"plb c"]), mean(cols[k+"plb d"]), mean(cols[k+"pb c"]), mean(cols[k+"pb d"]))
	}
	if err := overlapFigure(hc, cols); err != nil {
		fmt.Fprintln(os.Stderr, "pathprof:", err)
		os.Exit(1)
	}
	// The comparison with the paper, from the figures above.
	sort.Float64s(paths)
	big := ""
	if c := (hptCfg{2048, 4}); strings.Contains(","+*hptFlag+",", ","+c.String()+",") {
		big = fmt.Sprintf("; 2048x4 plb: %.1f%%", mean(cols["2048x4-plb c"]))
	}
	fmt.Printf("\nOurs, 512x4 plb, %s inputs: %.1f%% complete overlap (paper 88%%), %.1f%% dynamic (paper 95.5%%); "+
		"plb against pb at 512x4: %.1f%% against %.1f%% complete (paper: plb better by 15%%)%s. "+
		"Distinct BL paths per program: %d to %d (median %d); the most, %s, %d paths, %.1f%% complete overlap at 512x4.\n",
		*input, mean(cols["512x4-plb c"]), mean(cols["512x4-plb d"]), mean(cols["512x4-plb c"]), mean(cols["512x4-pb c"]),
		big, int(paths[0]), int(paths[len(paths)-1]), int(paths[len(paths)/2]), mostName, int(most), mostOver)

	// Where plb and pb differ most: how each index spreads the hot paths
	// (those that make up 95% of the weight, heaviest first) over the 128
	// sets of the 512x4 table; more than 4 in a set compete under LFU.
	fmt.Printf("\nThe hot paths (95%% of the weight) in the 512x4 table's 128 sets, for the programs where plb and pb differ by more than 2 points:\n\n")
	fmt.Printf("| benchmark | hot paths | plb: sets used | plb: most in a set | plb: hot paths in sets of more than 4 | pb: sets used | pb: most in a set | pb: hot paths in sets of more than 4 |\n|---|---|---|---|---|---|---|---|\n")
	plb, _ := pathprof.NewHPT(512, 4, pathprof.IndexPLB)
	pb, _ := pathprof.NewHPT(512, 4, pathprof.IndexPB)
	for i, b := range bs {
		u := runs[i].units["512x4-plb"]
		if math.Abs(sum(u, "overlap_complete_percent")-sum(runs[i].units["512x4-pb"], "overlap_complete_percent")) <= 2 {
			continue
		}
		ex := u.Exact()
		var hot []pathprof.Desc
		var acc uint64
		for _, r := range ex.Sorted() {
			if float64(acc) >= 0.95*float64(ex.Total) {
				break
			}
			hot = append(hot, r.Desc)
			acc += r.Weight
		}
		fmt.Printf("| %s | %d |", b.Name, len(hot))
		for _, h := range []*pathprof.HPT{plb, pb} {
			per := map[int]int{}
			for _, d := range hot {
				per[h.Set(d)]++
			}
			most, crowded := 0, 0
			for _, n := range per {
				most = max(most, n)
				if n > 4 {
					crowded += n
				}
			}
			fmt.Printf(" %d | %d | %d |", len(per), most, crowded)
		}
		fmt.Println()
	}
}

var metrics = []string{"frequency", "l2-misses", "mispredicts", "power", "l1d-misses", "cycles"}

// exp23: overlap of the HPT for each metric (§8.1, Figs. 11, 17) and of
// each metric's exact path profile against the frequency profile (§4,
// Table 3), on the Table 4 machine. The profilers' latencies are zero so
// that they do not perturb the run they measure.
func exp23(bs []suite.Benchmark) {
	runs := forAll(bs, func(b suite.Benchmark) (run, error) {
		var cfgs []*profhw.UnitConfig
		for _, m := range metrics {
			cfgs = append(cfgs, unit(m, map[string]any{"metric": m, "accuracy.window": *window,
				"latency.update": int64(0), "latency.update_count": int64(0), "latency.push": int64(0), "latency.pop": int64(0), "latency.hpt_hit": int64(0)}))
		}
		return runOne(b, hpp(), cfgs)
	})
	fmt.Printf("Experiments 2 and 3: metrics along BL paths, 512x4 plb HPT, hpp machine, %s inputs\n\n", *input)
	fmt.Printf("| benchmark | freq complete | L2 complete | mispred complete | power complete | L2 dynamic | mispred dynamic | L2 vs freq | mispred vs freq | power vs freq | L1D vs freq | cycles vs freq |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var c [11][]float64
	for i, b := range bs {
		u := runs[i].units
		freq := u["frequency"].Exact().Weights()
		row := []float64{
			sum(u["frequency"], "overlap_complete_percent"), sum(u["l2-misses"], "overlap_complete_percent"),
			sum(u["mispredicts"], "overlap_complete_percent"), sum(u["power"], "overlap_complete_percent"),
			sum(u["l2-misses"], "overlap_dynamic_percent"), sum(u["mispredicts"], "overlap_dynamic_percent"),
			pathprof.Overlap(u["l2-misses"].Exact().Weights(), freq), pathprof.Overlap(u["mispredicts"].Exact().Weights(), freq),
			pathprof.Overlap(u["power"].Exact().Weights(), freq), pathprof.Overlap(u["l1d-misses"].Exact().Weights(), freq),
			pathprof.Overlap(u["cycles"].Exact().Weights(), freq),
		}
		fmt.Printf("| %s |", b.Name)
		for j, x := range row {
			fmt.Printf(" %.1f |", x)
			c[j] = append(c[j], x)
		}
		fmt.Printf(" (L2 misses %d, mispredicts %d)\n", u["l2-misses"].Exact().Total, u["mispredicts"].Exact().Total)
	}
	fmt.Printf("| **average** |")
	for j := range c {
		fmt.Printf(" %.1f |", mean(c[j]))
	}
	fmt.Println()
}

// exp4: commit-stall overhead against branch queue size (§8.2, Fig. 18):
// cycles with the BL profiler (512x4 HPT) against the same run without.
func exp4(bs []suite.Benchmark) {
	queues := []int64{0, 2, 4, 8}
	type row struct {
		base, cyc []uint64
		busy      float64
		branches  uint64
	}
	rows := make([]row, len(bs))
	for qi := -1; qi < len(queues); qi++ {
		rs := forAll(bs, func(b suite.Benchmark) (run, error) {
			if qi < 0 {
				return runOne(b, hpp(), nil)
			}
			return runOne(b, hpp(), []*profhw.UnitConfig{unit("bl", map[string]any{"queue.entries": queues[qi], "accuracy.window": int64(0)})})
		})
		for i := range bs {
			if qi < 0 {
				rows[i].base = []uint64{rs[i].res.Cycles}
			} else {
				rows[i].cyc = append(rows[i].cyc, rs[i].res.Cycles)
				u := rs[i].units["bl"]
				rows[i].busy, rows[i].branches = sum(u, "profiler_busy_cycles"), u.Summary().Events
			}
		}
	}
	fmt.Printf("Experiment 4: overhead of BL path profiling (512x4 plb HPT) on the hpp machine, %s inputs: %% more cycles than without the profiler\n\n", *input)
	fmt.Printf("| benchmark | cycles without | branches per 100 cycles | profiler cycles per branch | profiler utilisation %% | queue 0 | queue 2 | queue 4 | queue 8 |\n|---|---|---|---|---|---|---|---|---|\n")
	avg := make([][]float64, len(queues))
	for i, b := range bs {
		bc := float64(rows[i].base[0])
		fmt.Printf("| %s | %d | %.1f | %.2f | %.0f |", b.Name, rows[i].base[0], 100*float64(rows[i].branches)/bc, rows[i].busy/float64(rows[i].branches), 100*rows[i].busy/bc)
		for q := range queues {
			o := 100 * (float64(rows[i].cyc[q]) - float64(rows[i].base[0])) / float64(rows[i].base[0])
			avg[q] = append(avg[q], o)
			fmt.Printf(" %.2f |", o)
		}
		fmt.Println()
	}
	fmt.Printf("| **average** | | | | |")
	for q := range queues {
		fmt.Printf(" %.2f |", mean(avg[q]))
	}
	fmt.Println()
}

// exp5: extended paths (across one backward branch, into one level of
// calls): complete overlap at 512x4 (§8.1, Fig. 15) in functional mode,
// and their overhead with a 4-entry queue on the hpp machine (§8.2).
func exp5(bs []suite.Benchmark) {
	kinds := []map[string]any{
		{},
		{"extend": "loops", "max_extension": int64(1)},
		{"extend": "procedures", "max_extension": int64(1)},
	}
	labels := []string{"BL", "ext-loop1", "ext-proc1"}
	acc := forAll(bs, func(b suite.Benchmark) (run, error) {
		var cfgs []*profhw.UnitConfig
		for i, k := range kinds {
			cfgs = append(cfgs, unit(labels[i], with(k, "accuracy.window", *window)))
		}
		return runOne(b, nil, cfgs)
	})
	base := forAll(bs, func(b suite.Benchmark) (run, error) { return runOne(b, hpp(), nil) })
	var over [3][]run
	for i, k := range kinds {
		over[i] = forAll(bs, func(b suite.Benchmark) (run, error) {
			return runOne(b, hpp(), []*profhw.UnitConfig{unit(labels[i], with(k, "accuracy.window", int64(0)))})
		})
	}
	fmt.Printf("Experiment 5: extended paths, 512x4 plb HPT, %s inputs (overlap: functional mode; overhead: hpp machine, 4-entry queue)\n\n", *input)
	fmt.Printf("| benchmark | BL paths | BL complete | ext-loop1 paths | ext-loop1 complete | ext-proc1 paths | ext-proc1 complete | BL overhead %% | ext-loop1 overhead %% | ext-proc1 overhead %% |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var c [9][]float64
	for i, b := range bs {
		u := acc[i].units
		row := []float64{sum(u["BL"], "distinct_paths"), sum(u["BL"], "overlap_complete_percent"),
			sum(u["ext-loop1"], "distinct_paths"), sum(u["ext-loop1"], "overlap_complete_percent"),
			sum(u["ext-proc1"], "distinct_paths"), sum(u["ext-proc1"], "overlap_complete_percent")}
		for k := range kinds {
			bc := float64(base[i].res.Cycles)
			row = append(row, 100*(float64(over[k][i].res.Cycles)-bc)/bc)
		}
		fmt.Printf("| %s |", b.Name)
		for j, x := range row {
			if j%2 == 0 && j < 6 {
				fmt.Printf(" %d |", int(x))
			} else {
				fmt.Printf(" %.2f |", x)
			}
			c[j] = append(c[j], x)
		}
		fmt.Println()
	}
	fmt.Printf("| **average** |")
	for j := range c {
		fmt.Printf(" %.2f |", mean(c[j]))
	}
	fmt.Println()
}

// exp6: path-based against BBV-based phase detection, judged by the
// SimPoint-style clustering, on the hpp machine (CPI variance) (§8.3).
func exp6(bs []suite.Benchmark) {
	m, mode := hpp(), "hpp machine"
	if *funcMode {
		m, mode = nil, "functional mode (no CPI)"
	}
	runs := forAll(bs, func(b suite.Benchmark) (run, error) {
		return runOne(b, m, []*profhw.UnitConfig{unit("phase", map[string]any{"metric": "instructions", "phase.enabled": true,
			"phase.interval": *interval, "accuracy.window": int64(0),
			"latency.update": int64(0), "latency.update_count": int64(0), "latency.push": int64(0), "latency.pop": int64(0), "latency.hpt_hit": int64(0)})})
	})
	type prog struct {
		name string
		rep  *pathprof.PhaseReport
	}
	var ps []prog
	for i, b := range bs {
		if rep := runs[i].units["phase"].PhaseReport(); rep != nil && rep.Intervals >= 2 {
			ps = append(ps, prog{b.Name, rep})
		}
	}
	if len(ps) == 0 {
		fmt.Fprintln(os.Stderr, "pathprof: no program ran two phase intervals")
		os.Exit(1)
	}
	// One working point for every program and both detectors, chosen once
	// by a rule that favours neither detector: the threshold with the
	// highest balanced accuracy, (sensitivity + same-phase accuracy) / 2,
	// averaged over the programs and the two detectors (ties: the lower).
	ths := ps[0].rep.Path
	score := make([]float64, len(ths))
	for k := range ths {
		for _, p := range ps {
			a, b := p.rep.Path[k], p.rep.BBV[k]
			score[k] += (a.Sensitivity + 100 - a.FalsePositives + b.Sensitivity + 100 - b.FalsePositives) / 4
		}
		score[k] /= float64(len(ps))
	}
	pick := 0
	for k := range score {
		if score[k] > score[pick] {
			pick = k
		}
	}
	th := ths[pick].ThresholdPercent
	timed := !*funcMode
	fmt.Printf("Experiment 6: phase detection, intervals of %d instructions, %s inputs%s, %s; both detectors at one threshold, %g%% of the interval, "+
		"chosen once for all programs by the rule: the highest balanced accuracy ((sensitivity + 100 - false positives) / 2) averaged over the programs and both detectors\n\n",
		*interval, *input, runScope(), mode, th)
	fmt.Printf("| benchmark | intervals | SimPoint k | ref changes | path sens | path FP | path stab | path len |")
	if timed {
		fmt.Printf(" path CPI var |")
	}
	fmt.Printf(" BBV sens | BBV FP | BBV stab | BBV len |")
	if timed {
		fmt.Printf(" BBV CPI var |")
	}
	fmt.Printf("\n|---|---|---|---|---|---|---|---|")
	if timed {
		fmt.Printf("---|---|")
	}
	fmt.Printf("---|---|---|---|\n")
	ncol := 8
	if timed {
		ncol = 10
	}
	c := make([][]float64, ncol)
	for _, p := range ps {
		a, b := p.rep.Path[pick], p.rep.BBV[pick]
		row := []float64{a.Sensitivity, a.FalsePositives, a.Stability, a.AvgPhaseLength}
		if timed {
			row = append(row, a.CPIVariance)
		}
		row = append(row, b.Sensitivity, b.FalsePositives, b.Stability, b.AvgPhaseLength)
		if timed {
			row = append(row, b.CPIVariance)
		}
		fmt.Printf("| %s | %d | %d | %d |", p.name, p.rep.Intervals, p.rep.SimPointK, p.rep.RefChanges)
		for j, x := range row {
			fmt.Printf(" %.2f |", x)
			c[j] = append(c[j], x)
		}
		fmt.Println()
	}
	fmt.Printf("| **average** | | | |")
	for j := range c {
		fmt.Printf(" %.2f |", mean(c[j]))
	}
	fmt.Printf("\n\nThe trade-off over thresholds (averages over the %d programs, %%): sensitivity (reference phase changes detected) and false positives (same-phase interval pairs flagged) of each detector at equal thresholds; the rule's score; the chosen threshold in bold\n\n", len(ps))
	fmt.Printf("| threshold %% of interval | path sens | path FP | BBV sens | BBV FP | score | BBV sens at the path's FP |\n|---|---|---|---|---|---|---|\n")
	moreSens, moreFP, beatAtFP, atFPn := 0, 0, 0, 0
	var at60 [4]float64
	ms := make([][4]float64, len(ths))
	for k := range ths {
		var v [4][]float64
		for _, p := range ps {
			a, b := p.rep.Path[k], p.rep.BBV[k]
			v[0], v[1] = append(v[0], a.Sensitivity), append(v[1], a.FalsePositives)
			v[2], v[3] = append(v[2], b.Sensitivity), append(v[3], b.FalsePositives)
		}
		ms[k] = [4]float64{mean(v[0]), mean(v[1]), mean(v[2]), mean(v[3])}
	}
	for k, t := range ths {
		m := ms[k]
		if m[0] > m[2] {
			moreSens++
		}
		if m[1] > m[3] {
			moreFP++
		}
		if t.ThresholdPercent == 60 {
			at60 = m
		}
		lbl := fmt.Sprintf("%g", t.ThresholdPercent)
		if k == pick {
			lbl = "**" + lbl + "**"
		}
		// The BBV detector's average curve (false positives, sensitivity),
		// linearly interpolated at the path detector's false positives:
		// the two detectors compared at equal false positives.
		atFP := "–"
		if x, ok := interpAtFP(ms, m[1]); ok {
			atFP = fmt.Sprintf("%.1f", x)
			atFPn++
			if m[0] > x {
				beatAtFP++
			}
		}
		fmt.Printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %s |\n", lbl, m[0], m[1], m[2], m[3], score[k], atFP)
	}
	var bestP, bestB []float64
	for _, p := range ps {
		bestP, bestB = append(bestP, p.rep.PathBest.Sensitivity), append(bestB, p.rep.BBVBest.Sensitivity)
	}
	fmt.Printf("\nOurs at %g%%: the path detector finds %.1f%% of SimPoint's phase changes with %.1f%% false positives, the BBV detector %.1f%% with %.1f%% "+
		"(paper, at its one working point of 6M instructions in 10M intervals: path 94%% with about 5%% false positives, BBV 80%%). "+
		"At equal thresholds the path detector is the more sensitive at %d of %d thresholds and has the more false positives at %d of %d; "+
		"at equal false positives (the last column) it is the more sensitive at %d of the %d thresholds where the BBV curve covers its false-positive rate. "+
		"At the paper's 60%%: path %.1f%% / %.1f%% FP, BBV %.1f%% / %.1f%% FP. "+
		"Each program at its own best threshold (a choice made after seeing the answer, not a working point) would give %.1f%% against %.1f%%.\n",
		th, mean(c[0]), mean(c[1]), mean(c[ncol/2]), mean(c[ncol/2+1]), moreSens, len(ths), moreFP, len(ths), beatAtFP, atFPn,
		at60[0], at60[1], at60[2], at60[3], mean(bestP), mean(bestB))
}

// spliceFiles replaces, in doc, the text between <!-- pathexp:NAME -->
// and <!-- /pathexp:NAME --> with the file NAME.md of files (the tables
// of `make experiments`, their provenance line last): the document's
// tables are the program's output, never edited by hand. A marker pair
// missing from doc is an error (experiments/internal/splice).
func spliceFiles(doc string, files []string) error {
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		if err := splice.Splice(doc, "<!-- pathexp:"+name+" -->", "<!-- /pathexp:"+name+" -->", body); err != nil {
			return err
		}
	}
	return nil
}

// interpAtFP is the BBV detector's average sensitivity at false-positive
// rate fp, interpolated linearly between the two thresholds whose
// average false positives bracket it (ms[k] = path sens, path FP, BBV
// sens, BBV FP); false outside the BBV curve's range.
func interpAtFP(ms [][4]float64, fp float64) (float64, bool) {
	for k := 0; k+1 < len(ms); k++ {
		hi, lo := ms[k], ms[k+1] // false positives fall as the threshold rises
		if fp <= hi[3] && fp >= lo[3] {
			if hi[3] == lo[3] {
				return max(hi[2], lo[2]), true
			}
			f := (fp - lo[3]) / (hi[3] - lo[3])
			return lo[2] + f*(hi[2]-lo[2]), true
		}
	}
	return 0, false
}

// exp7: the whole program path (§3, Table 2): the WPP subpath sequence
// compressed online by SEQUITUR, the software WPP profiler §3 leaves to
// a thread of its own (the paper gives no figures for it).
func exp7(bs []suite.Benchmark) {
	runs := forAll(bs, func(b suite.Benchmark) (run, error) {
		return runOne(b, nil, []*profhw.UnitConfig{unit("wpp", map[string]any{"paths": "wpp", "wpp.grammar": true, "accuracy.window": int64(0)})})
	})
	fmt.Printf("Experiment 7: whole program paths compressed by SEQUITUR, %s inputs\n\n", *input)
	fmt.Printf("| benchmark | instructions | WPP subpaths | distinct subpaths | grammar rules | grammar symbols | subpaths per grammar symbol |\n|---|---|---|---|---|---|---|\n")
	var ratios []float64
	for i, b := range bs {
		u := runs[i].units["wpp"]
		r := sum(u, "wpp_compression_ratio")
		ratios = append(ratios, r)
		note := ""
		if full, _ := u.Summary().Extra["wpp_grammar_full"].(bool); full {
			note = fmt.Sprintf(" (of the first %d: the grammar reached wpp.max_symbols)", int(sum(u, "wpp_subpaths_compressed")))
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %.1f%s |\n", b.Name, runs[i].res.Instructions, int(sum(u, "wpp_subpaths")), int(sum(u, "distinct_paths")),
			int(sum(u, "wpp_grammar_rules")), int(sum(u, "wpp_grammar_symbols")), r, note)
	}
	sort.Float64s(ratios)
	fmt.Printf("\nThe grammar is %.0f to %.0f times smaller than the subpath sequence (median %.0f).\n", ratios[0], ratios[len(ratios)-1], ratios[len(ratios)/2])
}
