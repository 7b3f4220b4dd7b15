// Command pathexp runs the experiments of hardware-path-profiling.md §8
// on the benchmark suite (make experiments; docs/EXPERIMENTS.md has the
// results beside the paper's). Each experiment prints a markdown table.
//
//	go run ./profhw/pathprof/pathexp -exp N [-input test] [-jobs 2] [-benchmarks a,b]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
	"github.com/rvsim/rvsim/syscalls"
)

var (
	exp      = flag.Int("exp", 0, "experiment 1..6")
	input    = flag.String("input", "test", "benchmark input")
	jobs     = flag.Int("jobs", 2, "runs at once")
	names    = flag.String("benchmarks", "", "comma-separated benchmarks (default: all)")
	window   = flag.Int64("window", 200_000, "dynamic overlap window, instructions")
	interval = flag.Int64("interval", 100_000, "phase interval, instructions")
	funcMode = flag.Bool("functional", false, "experiment 6 in functional mode (no CPI)")
)

func main() {
	flag.Parse()
	bs, err := suite.Discover("benchmarks", "build/benchmarks")
	if err == nil && *names != "" {
		bs, err = suite.Select(bs, strings.Split(*names, ","))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pathexp:", err)
		os.Exit(2)
	}
	// Programs too short for windows and intervals (a few thousand
	// instructions on the test input) say nothing here.
	var keep []suite.Benchmark
	for _, b := range bs {
		if b.Name != "lisp" && b.Name != "parser" || *names != "" || *input != "test" {
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
	default:
		fmt.Fprintln(os.Stderr, "pathexp: -exp 1, 2 (covers 3), 4, 5 or 6")
		os.Exit(2)
	}
}

// unit is one [[unit]] table.
func unit(name string, vals map[string]any) *profhw.UnitConfig {
	return profhw.NewUnitConfig(name, "path", vals)
}

type run struct {
	units map[string]*pathprof.Unit
	res   sim.Result
}

// runOne runs benchmark b with the units (timing on m if not nil).
func runOne(b suite.Benchmark, m *config.Machine, cfgs []*profhw.UnitConfig) (run, error) {
	in, err := b.Input(*input)
	if err != nil {
		return run{}, err
	}
	var out bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: b.Binary, Args: in.Args, Timing: m, ProfHW: cfgs,
		Kernel: syscalls.Config{Cwd: b.Dir, ExePath: "/" + b.Name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard, Warn: io.Discard}})
	if err != nil {
		return run{}, err
	}
	res := mc.Run()
	if res.Stop != sim.StopExit || res.ProfHWErr != nil || res.TimingErr != nil {
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
				fmt.Fprintln(os.Stderr, "pathexp:", err)
				os.Exit(1)
			}
			out[i] = r
		}()
	}
	wg.Wait()
	return out
}

func sum(u *pathprof.Unit, key string) float64 {
	switch v := u.Summary().Extra[key].(type) {
	case float64:
		return v
	case uint64:
		return float64(v)
	case int:
		return float64(v)
	}
	return math.NaN()
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

var hptSizes = []int64{32, 128, 512, 2048} // 32: our programs have hundreds of paths, not thousands
var hptWays = []int64{2, 4, 32}

// exp1: complete and dynamic overlap of BL frequency profiles for HPT
// sizes x associativities, plb against pb indexing (§8.1, Figs. 10, 11, 13).
func exp1(bs []suite.Benchmark) {
	runs := forAll(bs, func(b suite.Benchmark) (run, error) {
		var cfgs []*profhw.UnitConfig
		for _, n := range hptSizes {
			for _, w := range hptWays {
				for _, ix := range []string{"plb", "pb"} {
					cfgs = append(cfgs, unit(fmt.Sprintf("%d-%d-%s", n, w, ix), map[string]any{
						"hpt.entries": n, "hpt.ways": w, "hpt.index": ix, "accuracy.window": *window}))
				}
			}
		}
		return runOne(b, nil, cfgs)
	})
	fmt.Printf("Experiment 1: BL path frequency profiles, %s inputs, windows of %d instructions\n\n", *input, *window)
	fmt.Printf("| benchmark | distinct paths | 32x4 plb | 128x2 plb | 512x4 plb complete | 512x4 pb complete | 2048x4 plb | 32x4 plb dynamic | 512x4 plb dynamic |\n|---|---|---|---|---|---|---|---|---|\n")
	cols := map[string][]float64{}
	for i, b := range bs {
		u := runs[i].units
		row := []float64{sum(u["32-4-plb"], "overlap_complete_percent"), sum(u["128-2-plb"], "overlap_complete_percent"), sum(u["512-4-plb"], "overlap_complete_percent"),
			sum(u["512-4-pb"], "overlap_complete_percent"), sum(u["2048-4-plb"], "overlap_complete_percent"), sum(u["32-4-plb"], "overlap_dynamic_percent"), sum(u["512-4-plb"], "overlap_dynamic_percent")}
		fmt.Printf("| %s | %d |", b.Name, int(sum(u["512-4-plb"], "distinct_paths")))
		for _, x := range row {
			fmt.Printf(" %.1f |", x)
		}
		fmt.Println()
		for n := range hptSizes {
			for w := range hptWays {
				for _, ix := range []string{"plb", "pb"} {
					k := fmt.Sprintf("%d-%d-%s", hptSizes[n], hptWays[w], ix)
					cols[k+" c"] = append(cols[k+" c"], sum(u[k], "overlap_complete_percent"))
					cols[k+" d"] = append(cols[k+" d"], sum(u[k], "overlap_dynamic_percent"))
				}
			}
		}
	}
	fmt.Printf("\nAverages over %d benchmarks (complete / dynamic overlap, %%):\n\n| HPT | plb complete | plb dynamic | pb complete | pb dynamic |\n|---|---|---|---|---|\n", len(bs))
	for _, n := range hptSizes {
		for _, w := range hptWays {
			k := fmt.Sprintf("%d-%d-", n, w)
			fmt.Printf("| %dx%d | %.1f | %.1f | %.1f | %.1f |\n", n, w, mean(cols[k+"plb c"]), mean(cols[k+"plb d"]), mean(cols[k+"pb c"]), mean(cols[k+"pb d"]))
		}
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
			v := map[string]any{"accuracy.window": *window}
			for kk, vv := range k {
				v[kk] = vv
			}
			cfgs = append(cfgs, unit(labels[i], v))
		}
		return runOne(b, nil, cfgs)
	})
	base := forAll(bs, func(b suite.Benchmark) (run, error) { return runOne(b, hpp(), nil) })
	var over [3][]run
	for i, k := range kinds {
		over[i] = forAll(bs, func(b suite.Benchmark) (run, error) {
			v := map[string]any{"accuracy.window": int64(0)}
			for kk, vv := range k {
				v[kk] = vv
			}
			return runOne(b, hpp(), []*profhw.UnitConfig{unit(labels[i], v)})
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
	fmt.Printf("Experiment 6: phase detection, intervals of %d instructions, %s inputs, %s; each detector at its best threshold (max of sensitivity + same-phase accuracy)\n\n", *interval, *input, mode)
	fmt.Printf("| benchmark | intervals | SimPoint k | ref changes | path thr %% | path sens | path FP | path stab | path len | path CPI var | BBV thr %% | BBV sens | BBV FP | BBV stab | BBV len | BBV CPI var |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var c [12][]float64
	thresholds := map[float64][2][]float64{}
	for i, b := range bs {
		rep := runs[i].units["phase"].PhaseReport()
		if rep == nil || rep.Intervals < 2 {
			continue
		}
		p, q := rep.PathBest, rep.BBVBest
		row := []float64{p.ThresholdPercent, p.Sensitivity, p.FalsePositives, p.Stability, p.AvgPhaseLength, p.CPIVariance,
			q.ThresholdPercent, q.Sensitivity, q.FalsePositives, q.Stability, q.AvgPhaseLength, q.CPIVariance}
		fmt.Printf("| %s | %d | %d | %d |", b.Name, rep.Intervals, rep.SimPointK, rep.RefChanges)
		for j, x := range row {
			fmt.Printf(" %.2f |", x)
			c[j] = append(c[j], x)
		}
		fmt.Println()
		for k := range rep.Path {
			t := thresholds[rep.Path[k].ThresholdPercent]
			t[0] = append(t[0], rep.Path[k].Sensitivity, 100-rep.Path[k].FalsePositives)
			t[1] = append(t[1], rep.BBV[k].Sensitivity, 100-rep.BBV[k].FalsePositives)
			thresholds[rep.Path[k].ThresholdPercent] = t
		}
	}
	fmt.Printf("| **average** | | | |")
	for j := range c {
		fmt.Printf(" %.2f |", mean(c[j]))
	}
	fmt.Printf("\n\nThreshold sweep (averages over benchmarks): sensitivity / same-phase accuracy (100 - false positives), %%\n\n| threshold %% of interval | path sens | path same | BBV sens | BBV same |\n|---|---|---|---|---|\n")
	var ts []float64
	for t := range thresholds {
		ts = append(ts, t)
	}
	sort.Float64s(ts)
	for _, t := range ts {
		v := thresholds[t]
		fmt.Printf("| %g | %.1f | %.1f | %.1f | %.1f |\n", t, meanEvery(v[0], 0), meanEvery(v[0], 1), meanEvery(v[1], 0), meanEvery(v[1], 1))
	}
}

func meanEvery(xs []float64, off int) float64 {
	var s []float64
	for i := off; i < len(xs); i += 2 {
		s = append(s, xs[i])
	}
	return mean(s)
}
