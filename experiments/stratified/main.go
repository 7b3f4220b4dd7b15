// Command stratified runs experiments 2–5 of stratified-sampling.md on the
// benchmark suite (issue 11): every compressor of §5.4–§5.7 is attached to
// one timing-mode run per benchmark (the units are independent hardware,
// so one run serves them all), one of them draining its buffer with the
// real handler. It writes each unit's files under -out/BENCH/ and the
// Markdown tables of docs/EXPERIMENTS.md to -out/tables.md.
//
//	go run ./experiments/stratified [-input test] [-jobs 2] [-out build/experiments/stratified] [NAMES...]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
	"github.com/rvsim/rvsim/syscalls"
)

// unitSpec is one unit of the experiment.
type unitSpec struct {
	comp    string
	tuples  []string
	handler bool
}

var units = []unitSpec{
	// Experiment 2 (§5.4): the five compressors.
	{comp: "R256"}, {comp: "P256"}, {comp: "H[P256]2048"}, {comp: "H[P512]2048"}, {comp: "T[2,8,3]2048x2"},
	// Experiment 3 (§5.5): table sizes.
	{comp: "H[P256]512"}, {comp: "H[P256]1024"}, {comp: "H[P256]4096"},
	// Experiment 4 (§5.6): the A16 second level.
	{comp: "R256A16"}, {comp: "H[P256]2048A16"}, {comp: "T[2,8,3]2048x2A16"},
	// Experiment 5 (§5.7): edge and call-target profiles at once.
	{comp: "H[P256]2048", tuples: []string{"edge", "call-target"}},
	// The real handler (beyond the paper), on the stratified sampler.
	{comp: "H[P256]2048", handler: true},
}

var nameRE = regexp.MustCompile(`[^A-Za-z0-9]+`)

func (u unitSpec) name() string {
	n := strings.Trim(nameRE.ReplaceAllString(u.comp, "_"), "_")
	if u.tuples != nil {
		n += "-edge-call"
	}
	if u.handler {
		n += "-handler"
	}
	return n
}

func (u unitSpec) config(every int64) *profhw.UnitConfig {
	vals := map[string]any{"compressor": u.comp, "convergence.every": every}
	if u.tuples != nil {
		ts := make([]any, len(u.tuples))
		for i, t := range u.tuples {
			ts[i] = t
		}
		vals["select.tuples"] = ts
	}
	if u.handler {
		vals["delivery.handler"] = "real"
	}
	return profhw.NewUnitConfig(u.name(), "stratified", vals)
}

type result struct {
	bench   string
	cycles  uint64 // the run's cycles without the handler's
	insts   uint64
	sums    map[string]*profhw.Summary
	seconds float64
	err     error
}

func main() {
	input := flag.String("input", "test", "benchmark input (test or ref)")
	jobs := flag.Int("jobs", 2, "benchmarks run in parallel")
	out := flag.String("out", "build/experiments/stratified", "output directory")
	every := flag.Int64("every", 50000, "events between convergence points")
	flag.Parse()
	all, err := suite.Discover("benchmarks", "build/benchmarks")
	if err == nil && flag.NArg() > 0 {
		all, err = suite.Select(all, flag.Args())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stratified:", err)
		os.Exit(2)
	}
	if os.Getenv("RVSIM_HANDLERS") == "" {
		os.Setenv("RVSIM_HANDLERS", "build/handlers/rvsim-handlers.elf")
	}
	res := make([]result, len(all))
	sem := make(chan struct{}, max(*jobs, 1))
	var wg sync.WaitGroup
	for i, b := range all {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			res[i] = runOne(b, *input, *every, filepath.Join(*out, b.Name))
			fmt.Fprintf(os.Stderr, "%s: %.0f s %v\n", b.Name, res[i].seconds, res[i].err)
		}()
	}
	wg.Wait()
	for _, r := range res {
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "stratified: %s: %v\n", r.bench, r.err)
			os.Exit(1)
		}
	}
	var md bytes.Buffer
	tables(&md, res, *input)
	if err := os.WriteFile(filepath.Join(*out, "tables.md"), md.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "stratified:", err)
		os.Exit(1)
	}
	os.Stdout.Write(md.Bytes())
}

func runOne(b suite.Benchmark, input string, every int64, dir string) (r result) {
	r = result{bench: b.Name, sums: map[string]*profhw.Summary{}}
	start := time.Now()
	defer func() { r.seconds = time.Since(start).Seconds() }()
	in, err := b.Input(input)
	if err != nil {
		r.err = err
		return r
	}
	var stdout, stderr bytes.Buffer
	cfg := sim.Config{Program: b.Binary, Args: in.Args, Timing: config.Default(),
		Kernel: syscalls.Config{Cwd: b.Dir, ExePath: "/" + b.Name, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr}}
	for _, u := range units {
		cfg.ProfHW = append(cfg.ProfHW, u.config(every))
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		r.err = err
		return r
	}
	res := mc.Run()
	switch {
	case res.ProfHWErr != nil:
		r.err = res.ProfHWErr
	case res.TimingErr != nil:
		r.err = res.TimingErr
	case res.ExitCode != in.Status || !bytes.Equal(stdout.Bytes(), in.Stdout):
		r.err = fmt.Errorf("wrong output or status %d: %s", res.ExitCode, res.Message)
	}
	if r.err != nil {
		return r
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.err = err
		return r
	}
	if err := mc.ProfHW().WriteOutputs(dir, mc.CodeSymbolizer()); err != nil {
		r.err = err
		return r
	}
	for _, s := range mc.ProfHW().Summaries() {
		r.sums[s.Unit] = s
	}
	h := r.sums[units[len(units)-1].name()]
	r.cycles = res.Cycles - h.HandlerCyc
	r.insts = mc.CPU.AppInstret()
	return r
}

func get(s *profhw.Summary, k string) float64 {
	switch v := s.Extra[k].(type) {
	case uint64:
		return float64(v)
	case int:
		return float64(v)
	case float64:
		return v
	}
	return math.NaN()
}

func events(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v == 0:
		return "never"
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	}
	return fmt.Sprintf("%.0fK", v/1e3)
}

func pct(s *profhw.Summary, cycles uint64) float64 {
	return 100 * float64(s.OverheadCyc) / float64(cycles)
}

func tables(w *bytes.Buffer, res []result, input string) {
	name := func(c string) string { return unitSpec{comp: c}.name() }
	e2 := []string{"R256", "P256", "H[P256]2048", "H[P512]2048", "T[2,8,3]2048x2"}
	fmt.Fprintf(w, "Inputs: `%s`; timing mode, default machine; one run per benchmark with every unit attached.\n\n", input)

	fmt.Fprintf(w, "#### Experiment 2: final error (%%, §5.3.1) and analytic overhead (%% of cycles)\n\n")
	fmt.Fprintf(w, "| benchmark | loads | selected tuples |")
	for _, c := range e2 {
		fmt.Fprintf(w, " %s err | %s ovh |", c, c)
	}
	fmt.Fprintf(w, "\n|---|---:|---:|%s\n", strings.Repeat("---:|---:|", len(e2)))
	for _, r := range res {
		first := r.sums[name(e2[0])]
		fmt.Fprintf(w, "| %s | %d | %.0f |", r.bench, first.Events, get(first, "selected_tuples"))
		for _, c := range e2 {
			s := r.sums[name(c)]
			fmt.Fprintf(w, " %.2f | %.2f |", s.ErrorPercent, pct(s, r.cycles))
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\n#### Experiment 2: events to reach / to stay below 5%% error\n\n| benchmark |")
	for _, c := range e2 {
		fmt.Fprintf(w, " %s |", c)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|", len(e2)))
	for _, r := range res {
		fmt.Fprintf(w, "| %s |", r.bench)
		for _, c := range e2 {
			s := r.sums[name(c)]
			fmt.Fprintf(w, " %s / %s |", events(get(s, "events_to_reach_target")), events(get(s, "events_to_stay_below_target")))
		}
		fmt.Fprintln(w)
	}

	hn := units[len(units)-1].name()
	fmt.Fprintf(w, "\n#### The real handler (H[P256]2048): measured against analytic cycles per message\n\n")
	fmt.Fprintf(w, "| benchmark | messages to the handler | interrupts | handler instructions / message | L1D misses / message | L2 misses / message | measured cycles / message | analytic cycles / message | overhead measured %% | overhead analytic %% | table = Go fold |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range res {
		s := r.sums[hn]
		m := get(s, "handler_messages")
		fmt.Fprintf(w, "| %s | %.0f | %d | %.1f | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f | %v |\n", r.bench, m, s.Interrupts,
			get(s, "handler_instructions_per_message"), get(s, "handler_l1d_misses")/m, get(s, "handler_l2_misses")/m,
			get(s, "handler_cycles_per_message"), get(s, "analytic_cycles_per_message"),
			100*float64(s.HandlerCyc)/float64(r.cycles), pct(s, r.cycles), s.Extra["handler_profile_equals_go_fold"])
	}

	sizes := []string{"H[P256]512", "H[P256]1024", "H[P256]2048", "H[P256]4096"}
	fmt.Fprintf(w, "\n#### Experiment 3: table size (final error %%; events to stay below 5%%)\n\n| benchmark |")
	for _, c := range sizes {
		fmt.Fprintf(w, " %s |", c)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|", len(sizes)))
	for _, r := range res {
		fmt.Fprintf(w, "| %s |", r.bench)
		for _, c := range sizes {
			s := r.sums[name(c)]
			fmt.Fprintf(w, " %.2f (%s) |", s.ErrorPercent, events(get(s, "events_to_stay_below_target")))
		}
		fmt.Fprintln(w)
	}

	pairs := [][2]string{{"R256", "R256A16"}, {"H[P256]2048", "H[P256]2048A16"}, {"T[2,8,3]2048x2", "T[2,8,3]2048x2A16"}}
	fmt.Fprintf(w, "\n#### Experiment 4: messages without / with A16, and the reduction\n\n| benchmark |")
	for _, p := range pairs {
		fmt.Fprintf(w, " %s | %s | ×|", p[0], p[1])
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|---:|---:|", len(pairs)))
	for _, r := range res {
		fmt.Fprintf(w, "| %s |", r.bench)
		for _, p := range pairs {
			a, b := r.sums[name(p[0])], r.sums[name(p[1])]
			fmt.Fprintf(w, " %d | %d | %.2f |", a.Messages, b.Messages, float64(a.Messages)/float64(max(b.Messages, 1)))
		}
		fmt.Fprintln(w)
	}

	en := units[len(units)-2].name()
	fmt.Fprintf(w, "\n#### Experiment 5: edge and call-target profiles at once through H[P256]2048\n\n")
	fmt.Fprintf(w, "| benchmark | events | selected tuples | error %% | overhead analytic %% |\n|---|---:|---:|---:|---:|\n")
	for _, r := range res {
		s := r.sums[en]
		fmt.Fprintf(w, "| %s | %d | %.0f | %.2f | %.2f |\n", r.bench, s.Events, get(s, "selected_tuples"), s.ErrorPercent, pct(s, r.cycles))
	}
}
