package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/rvsim/rvsim/pipeline"
)

// unit names the cost measure.
func (r *Results) unit() string {
	if r.Timing {
		return "cycles"
	}
	return "instructions"
}

func (r *Results) header() string {
	if r.Timing {
		return fmt.Sprintf("timing mode, machine %s, %s inputs: cost = simulated cycles", r.Machine, r.Input)
	}
	return fmt.Sprintf("functional mode, %s inputs: cost = retired instructions (no timing model: "+
		"the decode penalty and pipeline effects are not counted)", r.Input)
}

// Mean is the arithmetic mean of a profiler's overhead over the
// benchmarks whose runs passed, and how many those are.
func (r *Results) Mean(prof string) (float64, int) {
	var s float64
	n := 0
	for _, b := range r.Benchmarks {
		if o, ok := r.Overhead(b, prof); ok {
			s += o
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return s / float64(n), n
}

func pct(o float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", o)
}

// row is one line of a program's table.
func (r *Results) row(b, p string) []string {
	run := r.Runs[b][p]
	if run == nil {
		return nil
	}
	o, ok := r.Overhead(b, p)
	over := pct(o, ok)
	if p == Baseline && run.Pass {
		over = "0.00%"
	}
	status := "ok"
	if !run.Pass {
		status = "FAIL"
	}
	errPct, bits, analytic := "-", "-", "-"
	if run.ProfHW && run.Pass {
		errPct, bits, analytic = fmt.Sprintf("%.2f%%", run.ErrorPercent), strconv.FormatUint(run.StorageBits, 10), fmt.Sprintf("%.2f%%", run.AnalyticOverhead)
		if run.ErrorNone {
			errPct = "none"
		}
	}
	return []string{p, strconv.FormatUint(run.Cycles, 10), over, strconv.FormatUint(run.Replacements, 10),
		strconv.FormatUint(run.Injected, 10), strconv.FormatUint(run.HandlerInstructions, 10),
		strconv.FormatUint(run.Triggers, 10), errPct, bits, analytic, status}
}

// columns: error, storage bits and analytic overhead are a profhw
// profiler's (docs/PROFHW.md); "-" for ACF profilers.
func (r *Results) columns() []string {
	return []string{"profiler", r.unit(), "overhead", "replacements", "injected", "handler instructions", "triggers",
		"error", "storage bits", "analytic overhead", "output"}
}

// WriteText prints a table per program, then the mean overheads.
func (r *Results) WriteText(w io.Writer) {
	fmt.Fprintln(w, r.header())
	for _, b := range r.Benchmarks {
		fmt.Fprintf(w, "\n%s\n", b)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(r.columns(), "\t")+"\t")
		for _, p := range r.Profilers {
			if row := r.row(b, p); row != nil {
				fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
			}
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nmean overhead over %d programs\n", len(r.Benchmarks))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profiler\tmean overhead\tprograms\t")
	for _, p := range r.Profilers[1:] {
		m, n := r.Mean(p)
		fmt.Fprintf(tw, "%s\t%s\t%d\t\n", p, pct(m, n > 0), n)
	}
	tw.Flush()
	if r.hasBreakdown() {
		fmt.Fprintf(w, "\nwhere the extra cycles go: %s\n", extraCaption)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(r.extraColumns(), "\t")+"\t")
		for _, p := range r.Profilers[1:] {
			fmt.Fprintln(tw, strings.Join(r.extraRow(p), "\t")+"\t")
		}
		tw.Flush()
	}
	for _, run := range r.Failed() {
		fmt.Fprintf(w, "FAIL %s/%s: %s\n", run.Benchmark, run.Profiler, run.Why)
	}
}

const extraCaption = "the mean over the programs of each CPI-stack bucket's extra cycles, " +
	"in % of the unprofiled run's cycles (the buckets sum to the overhead; docs/TIMING.md, Statistics), " +
	"and the DISE front-end events per 1,000 application instructions"

// hasBreakdown reports whether the runs carry the timing model's cycle
// accounting.
func (r *Results) hasBreakdown() bool {
	for _, b := range r.Benchmarks {
		if run := r.Runs[b][Baseline]; run != nil && run.Breakdown != nil {
			return true
		}
	}
	return false
}

// Extra is the mean, over the programs whose runs passed, of a profiler's
// extra cycles in each CPI-stack bucket in percent of the unprofiled
// run's cycles (they sum to the mean overhead), and of its DISE
// front-end events per 1,000 application instructions (keys "taken DISE
// branches", "handler calls", "dise.ret mispredicts", "replacements").
func (r *Results) Extra(prof string) (map[string]float64, int) {
	sum := map[string]float64{}
	n := 0
	for _, b := range r.Benchmarks {
		base, run := r.Runs[b][Baseline], r.Runs[b][prof]
		if _, ok := r.Overhead(b, prof); !ok || base.Breakdown == nil || run.Breakdown == nil {
			continue
		}
		n++
		for _, k := range pipeline.CPIBuckets() {
			sum[k] += 100 * (float64(run.Breakdown.CPI[k]) - float64(base.Breakdown.CPI[k])) / float64(base.Cycles)
		}
		per := func(v uint64) float64 { return 1000 * float64(v) / float64(max(run.AppInstructions, 1)) }
		sum["replacements"] += per(run.Replacements)
		sum["taken DISE branches"] += per(run.Breakdown.DISETakenBranches)
		sum["handler calls"] += per(run.Breakdown.HandlerEntries)
		sum["dise.ret mispredicts"] += per(run.Breakdown.DISEReturnMispredicts)
	}
	if n == 0 {
		return nil, 0
	}
	for k := range sum {
		sum[k] /= float64(n)
	}
	return sum, n
}

var extraEvents = []string{"replacements", "taken DISE branches", "handler calls", "dise.ret mispredicts"}

func (r *Results) extraColumns() []string {
	cols := []string{"profiler", "overhead"}
	for _, k := range pipeline.CPIBuckets() {
		if k == "profiler" {
			k = "retire hook" // the profiling hardware's commit stalls
		}
		cols = append(cols, k)
	}
	return append(cols, extraEvents...)
}

func (r *Results) extraRow(p string) []string {
	m, n := r.Mean(p)
	row := []string{p, pct(m, n > 0)}
	x, ok := r.Extra(p)
	for _, k := range pipeline.CPIBuckets() {
		row = append(row, pct(x[k], ok > 0))
	}
	for _, k := range extraEvents {
		if ok == 0 {
			row = append(row, "-")
		} else {
			row = append(row, fmt.Sprintf("%.1f", x[k]))
		}
	}
	return row
}

// WriteMarkdown writes the same tables in Markdown.
func (r *Results) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# Profiler comparison\n\n%s.\n", r.header())
	cols := r.columns()
	line := func(cells []string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	sep := func(n int) {
		cells := make([]string, n)
		cells[0] = "---"
		for i := 1; i < n; i++ {
			cells[i] = "---:"
		}
		line(cells)
	}
	fmt.Fprintf(w, "\n## Mean overhead\n\n")
	line([]string{"profiler", "mean overhead", "programs"})
	sep(3)
	for _, p := range r.Profilers[1:] {
		m, n := r.Mean(p)
		line([]string{p, pct(m, n > 0), strconv.Itoa(n)})
	}
	if r.hasBreakdown() {
		fmt.Fprintf(w, "\n## Where the extra cycles go\n\n%s.\n\n", strings.ToUpper(extraCaption[:1])+extraCaption[1:])
		line(r.extraColumns())
		sep(len(r.extraColumns()))
		for _, p := range r.Profilers[1:] {
			line(r.extraRow(p))
		}
	}
	for _, b := range r.Benchmarks {
		fmt.Fprintf(w, "\n## %s\n\n", b)
		line(cols)
		sep(len(cols))
		for _, p := range r.Profilers {
			if row := r.row(b, p); row != nil {
				line(row)
			}
		}
	}
	if f := r.Failed(); len(f) > 0 {
		fmt.Fprintf(w, "\n## Failures\n\n")
		for _, run := range f {
			fmt.Fprintf(w, "- %s/%s: %s\n", run.Benchmark, run.Profiler, run.Why)
		}
	}
}

// WriteCSV writes one row per run.
func (r *Results) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	mode := "functional"
	if r.Timing {
		mode = "timing"
	}
	head := []string{"benchmark", "input", "mode", "machine", "profiler", "trigger", "cost_unit", "cost",
		"instructions", "application_instructions", "overhead_pct", "replacements", "injected_instructions",
		"handler_instructions", "handler_calls", "triggers", "pass", "why"}
	// Timing mode's cycle accounting (empty in functional mode).
	for _, k := range pipeline.CPIBuckets() {
		head = append(head, "cpi_"+k)
	}
	head = append(head, "dise_charges", "dise_taken_branches", "dise_handler_entries", "dise_returns", "dise_return_mispredicts")
	// A profhw profiler's error, storage, analytic overhead and commit
	// stalls, real and requested (empty for ACF profilers).
	profCols := []string{"error_pct", "storage_bits", "analytic_overhead_pct", "stall_cycles", "stall_cycles_requested"}
	head = append(head, profCols...)
	cw.Write(head)
	for _, b := range r.Benchmarks {
		for _, p := range r.Profilers {
			run := r.Runs[b][p]
			if run == nil {
				continue
			}
			o, ok := r.Overhead(b, p)
			over := ""
			if ok {
				over = strconv.FormatFloat(o, 'f', 4, 64)
			}
			u := func(v uint64) string { return strconv.FormatUint(v, 10) }
			row := []string{b, r.Input, mode, r.Machine, p, run.Trigger, r.unit(), u(run.Cycles), u(run.Instructions),
				u(run.AppInstructions), over, u(run.Replacements), u(run.Injected), u(run.HandlerInstructions),
				u(run.HandlerCalls), u(run.Triggers), strconv.FormatBool(run.Pass), run.Why}
			if b := run.Breakdown; b != nil {
				for _, k := range pipeline.CPIBuckets() {
					row = append(row, u(b.CPI[k]))
				}
				row = append(row, u(b.DISECharges), u(b.DISETakenBranches), u(b.HandlerEntries), u(b.DISEReturns),
					u(b.DISEReturnMispredicts))
			}
			for len(row) < len(head)-len(profCols) {
				row = append(row, "")
			}
			prof := make([]string, len(profCols))
			if run.ProfHW {
				prof = []string{strconv.FormatFloat(run.ErrorPercent, 'f', 4, 64), u(run.StorageBits),
					strconv.FormatFloat(run.AnalyticOverhead, 'f', 4, 64), "", ""}
				if run.ErrorNone {
					prof[0] = ""
				}
				if run.Breakdown != nil {
					prof[3], prof[4] = u(run.StallCycles), u(run.StallRequested)
				}
			}
			cw.Write(append(row, prof...))
		}
	}
	cw.Flush()
	return cw.Error()
}

// progress reports which runs are going on: one updating line on a
// terminal, a line per finished run otherwise.
type progress struct {
	w       io.Writer
	tty     bool
	total   int
	ended   int
	mu      sync.Mutex
	running map[string]time.Time
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total, running: map[string]time.Time{}}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) names() string {
	var n []string
	for k := range p.running {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

func (p *progress) start(label string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[label] = time.Now()
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K[%d/%d] running %s", p.ended, p.total, p.names())
	}
}

func (p *progress) done(label string, r *Run) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, label)
	p.ended++
	status := "ok"
	if !r.Pass {
		status = "FAIL: " + r.Why
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K[%d/%d] running %s", p.ended, p.total, p.names())
		if !r.Pass {
			fmt.Fprintf(p.w, "\r\033[K%s %s\n", label, status)
		}
		return
	}
	fmt.Fprintf(p.w, "[%d/%d] %s %.1fs %s", p.ended, p.total, label, r.HostSeconds, status)
	if len(p.running) > 0 {
		fmt.Fprintf(p.w, " (running %s)", p.names())
	}
	fmt.Fprintln(p.w)
}

func (p *progress) finish() {
	if p.w != nil && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
