// Command multihash (once profhw/multihash/mhexp) runs the experiments of multi-hash-profiling.md (issue
// 13's experiments 1-6) on the benchmark suite: it runs each benchmark
// once with an observer that feeds every configuration (one Bank per
// interval length and threshold, sharing one perfect interval profiler)
// and writes results.json, tables.md and the per-interval series of
// Fig. 13 into -out. `make experiments` runs it.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/experiments/internal/figures"
	"github.com/rvsim/rvsim/experiments/internal/splice"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/multihash"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/suite"
)

const entries = 2048 // §6.3: 2K hash-table counters in all

type engineSpec struct {
	name string
	add  func(b *multihash.Bank) (*multihash.Track, float64) // the track and its §6.2 bound (NaN: none)
}

type bankSpec struct {
	kind     tuple.Kind
	interval uint64
	pct      float64
	engines  []engineSpec
}

func mh(n int, c, r, p bool) engineSpec {
	return engineSpec{name: mhName(n, c, r, p), add: func(b *multihash.Bank) (*multihash.Track, float64) {
		pr := must(multihash.NewProfiler(multihash.Params{Interval: b.Interval(), ThresholdPct: pctOf(b), Tables: n, Entries: entries,
			Conservative: c, Reset: r, Retain: p, HashBits: 24, TupleBits: 128, Seed: 1}))
		return b.AddProfiler("", pr), multihash.FPBound(n, entries, pctOf(b))
	}}
}

func mhName(n int, c, r, p bool) string {
	if n == 1 && !c {
		return fmt.Sprintf("SH R%d-P%d", b2i(r), b2i(p))
	}
	return fmt.Sprintf("MH%d C%d-R%d", n, b2i(c), b2i(r))
}

// bankPct remembers each bank's threshold percent.
var bankPct sync.Map

func pctOf(b *multihash.Bank) float64 { v, _ := bankPct.Load(b); return v.(float64) }

// mhBits is the storage of the best multi-hash configuration (§4.2
// counting), the budget the sketches get.
func mhBits(b *multihash.Bank) uint64 {
	pr := must(multihash.NewProfiler(multihash.Params{Interval: b.Interval(), ThresholdPct: pctOf(b), Tables: 4, Entries: entries, Conservative: true, Retain: true, HashBits: 24, TupleBits: 128, Seed: 1}))
	return pr.StorageBits()
}

var spaceSaving = engineSpec{name: "Space-Saving", add: func(b *multihash.Bank) (*multihash.Track, float64) {
	cb := multihash.BitsFor(b.Interval())
	k := multihash.SpaceSavingEntries(mhBits(b), cb, 128)
	return b.AddSpaceSaving("", must(multihash.NewSpaceSaving(k, b.Threshold(), cb, 128))), math.NaN()
}}

var countMin = engineSpec{name: "Count-Min CU + top-k", add: func(b *multihash.Bank) (*multihash.Track, float64) {
	k := multihash.AccBound(pctOf(b))
	return b.AddCountMin("", must(multihash.NewCountMin(4, entries/4, k, b.Threshold(), 24, multihash.BitsFor(b.Interval()), 128, 1))), math.NaN()
}}

// hpName is the stratified baseline's row: the stratified unit's
// compressor H[P_r]2048 with r = T/10 (10 at T = 100, 100 at T = 1,000),
// so a candidate sends at least 10 messages per interval.
const hpName = "H[P T/10]2048 (stratified unit)"

var hp = engineSpec{name: hpName, add: func(b *multihash.Bank) (*multihash.Track, float64) {
	p := max(1, b.Threshold()/10)
	return b.AddStratified("", must(multihash.NewStratified(fmt.Sprintf("H[P%d]%d", p, entries), b.Threshold(), 1))), math.NaN()
}}

func must[T any](v T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, "multihash:", err)
		os.Exit(1)
	}
	return v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// valueEngines are experiments 2, 3 and 6 at one interval configuration.
func valueEngines() []engineSpec {
	var es []engineSpec
	for _, p := range []bool{false, true} {
		for _, r := range []bool{false, true} {
			es = append(es, mh(1, false, r, p))
		}
	}
	for _, n := range []int{2, 4, 8} {
		for _, c := range []bool{false, true} {
			for _, r := range []bool{false, true} {
				es = append(es, mh(n, c, r, true))
			}
		}
	}
	es = append(es, mh(16, true, false, true))
	return append(es, spaceSaving, countMin, hp)
}

// longBanks is the paper's long configuration alone (1M @ 0.1%), for runs
// long enough to give it tens of intervals.
func longBanks() []bankSpec {
	es := []engineSpec{mh(1, false, false, true), mh(1, false, true, true), mh(2, true, false, true), mh(4, true, false, true),
		mh(8, true, false, true), mh(4, true, true, true), mh(4, false, false, true), spaceSaving, countMin, hp}
	return []bankSpec{{tuple.Value, 1000000, 0.1, es}}
}

func banks() []bankSpec {
	edge := []engineSpec{mh(1, false, true, true), mh(1, false, false, true)}
	for _, n := range []int{2, 4, 8} {
		edge = append(edge, mh(n, true, false, true))
	}
	long := []engineSpec{mh(1, false, true, true), mh(4, true, false, true), spaceSaving, countMin}
	return []bankSpec{
		{tuple.Value, 10000, 1, valueEngines()},
		{tuple.Value, 100000, 0.1, valueEngines()},
		{tuple.Value, 1000000, 0.1, long},
		// Experiment 1 (Fig. 4 and 5): the perfect profiler alone.
		{tuple.Value, 10000, 0.1, nil},
		{tuple.Value, 100000, 1, nil},
		{tuple.Value, 1000000, 1, nil},
		{tuple.Edge, 10000, 1, edge},
		{tuple.Edge, 100000, 0.1, edge},
	}
}

// feeder is the observer: it makes each instruction's tuples and gives
// them to every bank of that tuple kind.
type feeder struct {
	sets  []tuple.Set
	banks [][]*multihash.Bank
	buf   []tuple.Tuple
}

func (f *feeder) Retire(batch []cpu.DynInst) {
	for i := range batch {
		for s, set := range f.sets {
			f.buf = set.Append(f.buf[:0], &batch[i])
			for _, t := range f.buf {
				for _, b := range f.banks[s] {
					b.Add(t)
				}
			}
		}
	}
}

// Result is one bank of one benchmark.
type Result struct {
	Benchmark  string  `json:"benchmark"`
	Tuples     string  `json:"tuples"`
	Interval   uint64  `json:"interval"`
	Pct        float64 `json:"threshold_percent"`
	Intervals  int     `json:"intervals"`
	Partial    uint64  `json:"partial_interval_events"`
	Distinct   float64 `json:"distinct_per_interval"`
	Candidates float64 `json:"candidates_per_interval"`
	// Per complete interval: the perfect profiler's distinct tuples,
	// candidates, and new candidates (not candidates the interval before).
	DistinctSeries []int    `json:"distinct_series"`
	PerfectSeries  []int    `json:"perfect_series"`
	NewSeries      []int    `json:"new_candidates_series"`
	Engines        []Engine `json:"engines"`
	Instructions   uint64   `json:"instructions"`
}

// Engine is one configuration's accuracy.
type Engine struct {
	Name        string    `json:"name"`
	Error       float64   `json:"error_percent"`
	FalsePos    float64   `json:"false_positive_percent"`
	FalseNeg    float64   `json:"false_negative_percent"`
	NeutralPos  float64   `json:"neutral_positive_percent"`
	NeutralNeg  float64   `json:"neutral_negative_percent"`
	FPRate      float64   `json:"fp_rate"`
	FPBound     *float64  `json:"fp_bound,omitempty"`
	StorageBits uint64    `json:"storage_bits"`
	Series      []float64 `json:"series"`
	// Per complete interval: false positives (tuples), and for interval
	// profilers the accumulator's promotions, failed promotions and
	// entries in use (multihash.EngineStats).
	FalsePosSeries []int    `json:"false_positive_series"`
	Promotions     []uint64 `json:"promotions_series,omitempty"`
	Failed         []uint64 `json:"failed_promotions_series,omitempty"`
	AccUsed        []int    `json:"accumulator_used_series,omitempty"`
	AccEntries     int      `json:"accumulator_entries,omitempty"`
}

func runOne(b suite.Benchmark, input string, maxInsts uint64, long bool) ([]Result, error) {
	in, err := b.Input(input)
	if err != nil {
		return nil, err
	}
	specs := banks()
	if long {
		specs = longBanks()
	}
	f := &feeder{}
	setOf := map[tuple.Kind]int{}
	type live struct {
		spec   bankSpec
		bank   *multihash.Bank
		tracks []*multihash.Track
		bounds []float64
	}
	var lives []*live
	for _, s := range specs {
		k, ok := setOf[s.kind]
		if !ok {
			k = len(f.sets)
			setOf[s.kind] = k
			f.sets = append(f.sets, tuple.Set{{Kind: s.kind, Classes: s.kind.DefaultClasses()}})
			f.banks = append(f.banks, nil)
		}
		bk := multihash.NewBank(s.interval, s.pct)
		bankPct.Store(bk, s.pct)
		l := &live{spec: s, bank: bk}
		for _, e := range s.engines {
			tr, bound := e.add(bk)
			tr.Name = e.name
			l.tracks = append(l.tracks, tr)
			l.bounds = append(l.bounds, bound)
		}
		f.banks[k] = append(f.banks[k], bk)
		lives = append(lives, l)
	}
	out := suite.Run(b, in, suite.Options{MaxInsts: maxInsts, Observers: func() []cpu.Observer { return []cpu.Observer{f} }})
	if !out.Pass && !(maxInsts > 0 && out.Result.Instructions >= maxInsts) {
		return nil, fmt.Errorf("%s: %s", b.Name, out.Why)
	}
	var res []Result
	for _, l := range lives {
		l.bank.Finish()
		distinct, cands := l.bank.Means()
		r := Result{Benchmark: b.Name, Tuples: l.spec.kind.String(), Interval: l.spec.interval, Pct: l.spec.pct, Intervals: len(l.bank.Distinct),
			Partial: l.bank.Partial(), Distinct: distinct, Candidates: cands, Instructions: out.Result.Instructions,
			DistinctSeries: l.bank.Distinct, PerfectSeries: l.bank.PerfectCands, NewSeries: l.bank.NewCands}
		for i, tr := range l.tracks {
			n := tr.Net()
			e := Engine{Name: tr.Name, Error: n.Error, FalsePos: n.FalsePos, FalseNeg: n.FalseNeg, NeutralPos: n.NeutralPos, NeutralNeg: n.NeutralNeg,
				FPRate: n.FPRate, StorageBits: tr.StorageBits()}
			if !math.IsNaN(l.bounds[i]) {
				v := l.bounds[i]
				e.FPBound = &v
			}
			for _, iv := range tr.Intervals {
				e.Series = append(e.Series, iv.Error)
				e.FalsePosSeries = append(e.FalsePosSeries, iv.NFalsePos)
			}
			for _, st := range tr.Stats {
				e.Promotions = append(e.Promotions, st.Promotions)
				e.Failed = append(e.Failed, st.FailedPromotions)
				e.AccUsed = append(e.AccUsed, st.AccUsed)
				e.AccEntries = st.AccEntries
			}
			r.Engines = append(r.Engines, e)
		}
		res = append(res, r)
	}
	return res, nil
}

func main() {
	src := flag.String("src", "benchmarks", "benchmark sources")
	bin := flag.String("bin", filepath.Join("build", "benchmarks"), "benchmark binaries")
	input := flag.String("input", "ref", "input: test or ref")
	maxInsts := flag.Uint64("max-insts", 30_000_000, "instructions per benchmark (0: the whole run)")
	jobs := flag.Int("jobs", 2, "benchmarks at once")
	names := flag.String("benchmarks", "all", "comma-separated benchmarks or all")
	outDir := flag.String("out", filepath.Join("build", "experiments", "multihash"), "output directory")
	cpuprof := flag.String("cpuprofile", "", "write a CPU profile")
	long := flag.Bool("long", false, "only the paper's long configuration, 1M @ 0.1% (tables-long.md)")
	doc := flag.String("doc", "", "also splice the tables into this markdown file, between its mhexp markers (docs/EXPERIMENTS.md)")
	stalls := flag.Bool("stalls", false, "only the commit-stall table: timing mode, test inputs (stalls.md)")
	suiteName := flag.String("suite", "", "the suite: the built-in one (default), real (suite/real.toml), or a suite file; "+
		"another suite's files and markers are named with a suffix (tables-long-real.md)")
	render := flag.Bool("render", false, "run nothing: write the tables again from -out's results.json (results-long.json with -long)")
	flag.Parse()
	suiteArg, suiteSrc, suiteBin = *suiteName, *src, *bin
	if *suiteName != "" && *suiteName != "builtin" {
		suffix = "-" + strings.TrimSuffix(filepath.Base(*suiteName), ".toml")
	}
	if *stalls {
		cells := must(runStalls(must(suite.Discover(*src, *bin)), "test", *jobs))
		must(0, os.MkdirAll(*outDir, 0o755))
		text := stallTable(cells, "test")
		must(0, os.WriteFile(filepath.Join(*outDir, "stalls.json"), must(json.MarshalIndent(cells, "", "  ")), 0o644))
		cfgs := must(profhw.LoadPreset("multihash-value"))
		prov := splice.Provenance{Configs: []splice.Config{splice.JSON("machine", must(config.Preset("default"))),
			splice.Units("unit", cfgs), splice.JSON("settings", stallSettings), splice.Text("benchmarks", strings.Join(stallBenchmarks, ","))}}
		must(0, publish(*outDir, *doc, "stalls.md", text, prov))
		fmt.Print(text)
		return
	}
	if *render {
		file := "results" + suffix + ".json"
		if *long {
			file = "results-long" + suffix + ".json"
		}
		var rs []Result
		must(0, json.Unmarshal(must(os.ReadFile(filepath.Join(*outDir, file))), &rs))
		write(rs, *outDir, *input, *maxInsts, *long, *doc, false) // give the run's -input and -max-insts
		return
	}
	if *cpuprof != "" {
		f := must(os.Create(*cpuprof))
		must(0, pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	all := must(suite.Named(*suiteName, *src, *bin, "."))
	var sel []string
	if *names != "all" {
		sel = strings.Split(*names, ",")
	}
	bs := must(suite.Select(all, sel))
	must(0, os.MkdirAll(*outDir, 0o755))
	var mu sync.Mutex
	var results []Result
	var firstErr error
	work := make(chan suite.Benchmark)
	var wg sync.WaitGroup
	for j := 0; j < *jobs; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				start := time.Now()
				r, err := runOne(b, *input, *maxInsts, *long)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				results = append(results, r...)
				fmt.Fprintf(os.Stderr, "multihash: %s done in %.0f s\n", b.Name, time.Since(start).Seconds())
				mu.Unlock()
			}
		}()
	}
	for _, b := range bs {
		work <- b
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "multihash:", firstErr)
		os.Exit(1)
	}
	sort.SliceStable(results, func(i, j int) bool { return results[i].Benchmark < results[j].Benchmark })
	write(results, *outDir, *input, *maxInsts, *long, *doc, true)
}

// errorFigures draws each benchmark's error per interval, a line per
// engine (the paper's long configuration), into the figures folder beside
// doc (docs/figures/; without doc, outDir/figures) and returns the
// Markdown that shows them.
func errorFigures(results []Result, outDir, doc string) (string, error) {
	dir, docDir := figures.Dirs(doc, outDir)
	var md strings.Builder
	for _, r := range results {
		f := figures.Line{Title: fmt.Sprintf("%s: error per %d-instruction interval, %s tuples, %g%% threshold", r.Benchmark, r.Interval, r.Tuples, r.Pct),
			XLabel: "interval", YLabel: "error (%)"}
		points := 0
		for _, e := range r.Engines {
			points += len(e.Series)
			s := figures.Series{Name: e.Name}
			for i, y := range e.Series {
				s.X, s.Y = append(s.X, float64(i+1)), append(s.Y, y)
			}
			f.Series = append(f.Series, s)
		}
		if points == 0 {
			continue // a run without intervals has nothing to draw
		}
		link, err := figures.Write(f, dir, fmt.Sprintf("multihash-long%s-%s-%s", suffix, r.Benchmark, r.Tuples), docDir)
		if err != nil {
			return "", err
		}
		md.WriteString("\n" + link)
	}
	return md.String(), nil
}

// suffix names the files and markers of a suite other than the built-in
// one ("-real": results-real.json, tables-real.md).
var suffix string

// suiteArg, suiteSrc and suiteBin are -suite, -src and -bin.
var suiteArg, suiteSrc, suiteBin string

// write writes the results (if fresh), the tables and the series into
// outDir, and splices the tables into doc (if given).
func write(results []Result, outDir, input string, maxInsts uint64, long bool, doc string, fresh bool) {
	file := "results" + suffix + ".json"
	if long {
		file = "results-long" + suffix + ".json"
	}
	if fresh { // first, so that nothing below can lose a run
		must(0, os.WriteFile(filepath.Join(outDir, file), must(json.MarshalIndent(results, "", " ")), 0o644))
	}
	var name, text string
	if long {
		// The sweep's results (the first line of `make experiments`), if
		// there, give the sketch summary its other two columns.
		var sweep []Result
		if data, err := os.ReadFile(filepath.Join(outDir, "results"+suffix+".json")); err == nil {
			must(0, json.Unmarshal(data, &sweep))
		}
		name, text = "tables-long"+suffix+".md", longTables(results, input, maxInsts)+sketchSummary(sweep, results)
		writeSeries(outDir, results, 1000000, 0.1)
	} else {
		name, text = "tables"+suffix+".md", tables(results, input, maxInsts)
		writeSeries(outDir, results, 10000, 1)
		writeSeries(outDir, results, 100000, 0.1)
	}
	specs := banks()
	if long {
		specs = longBanks()
	}
	prov := splice.Provenance{Configs: []splice.Config{banksConfig(specs), splice.Flags("out", "doc", "jobs", "cpuprofile", "render")}}
	if all, err := suite.Named(suiteArg, suiteSrc, suiteBin, "."); err == nil {
		ran := map[string]bool{}
		for _, r := range results {
			ran[r.Benchmark] = true
		}
		var bs []suite.Benchmark
		for _, b := range all {
			if ran[b.Name] {
				bs = append(bs, b)
			}
		}
		prov.Configs = append(prov.Configs, splice.Suite(bs))
	}
	if long {
		text += must(errorFigures(results, outDir, doc))
	}
	must(0, publish(outDir, doc, name, text, prov))
	fmt.Fprintf(os.Stderr, "multihash: wrote %s\n", outDir)
}
