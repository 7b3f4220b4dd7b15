package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/pipeline"
)

// Provenance is the reports' provenance line: the command that made the
// comparison (or merged its cells), and the simulator's version.
func (r *Results) Provenance() string {
	return "command: " + r.Spec.Command
}

func (r *Results) header() string {
	if r.Spec.Timing {
		return fmt.Sprintf("timing mode, machine %s, %s inputs: cost = simulated cycles of the profiled run minus the unprofiled run's on the same machine", r.Spec.MachineName, r.Spec.Input)
	}
	return fmt.Sprintf("functional mode, %s inputs: no timing model, so no cycles and no cycle overhead; "+
		"the cost shown is instructions (extra instructions: the profiled run's instructions over the unprofiled run's), "+
		"messages and the analytic delivery cycles", r.Spec.Input)
}

// Columns of a program's table, in order. A metric column is named by its
// metric (compare/metrics); the analytic and total columns say what they are.
const (
	colDelivery = "delivery cycles, analytic"
	colTotal    = "total cost cycles (measured + analytic delivery)"
)

func (r *Results) columns() []string {
	cols := []string{"profiler", "profile"}
	if r.Spec.Timing {
		cols = append(cols, "cycles", "overhead", "cost cycles", colDelivery, colTotal, "stall cycles (real)", "stall cycles (requested)")
	} else {
		cols = append(cols, "instructions", "extra instructions", colDelivery)
	}
	cols = append(cols, r.Metrics()...)
	return append(cols, "storage bits", "messages", "interrupts", "handler instructions", "output")
}

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

func pct(o float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", o)
}

func optU64(v *uint64) string {
	if v == nil {
		return "-"
	}
	return u64(*v)
}

// scoreCell is a metric's cell: its value, "-" without one, "n/a" where
// the profile type does not define it.
func scoreCell(run *Run, metric string) string {
	for _, s := range run.Scores {
		if s.Metric == metric {
			if s.Value == nil {
				return "-"
			}
			return fmt.Sprintf("%.2f", *s.Value)
		}
	}
	return "n/a"
}

func outputCell(run *Run) string {
	switch {
	case !run.Pass:
		return "FAIL"
	case run.Output == OutputSame:
		return "unchanged"
	}
	return run.Output
}

// row is one line of a program's table.
func (r *Results) row(b string, row Row) []string {
	run := r.Runs[b][row.Label]
	if run == nil {
		return nil
	}
	cells := []string{row.Label, row.Type}
	o, ok := r.Overhead(b, row.Label)
	if row.Profiler == Baseline && run.Pass {
		o, ok = 0, true
	}
	delivery := optU64(run.DeliveryAnalytic)
	if r.Spec.Timing {
		cost, total := "-", "-"
		if c, ok := r.CostCycles(b, row.Label); ok {
			cost = strconv.FormatInt(c, 10)
			if run.DeliveryAnalytic != nil {
				total = strconv.FormatInt(c+int64(*run.DeliveryAnalytic), 10)
			} else {
				total = cost
			}
		}
		stall, req := "-", "-"
		if run.Source != SourceACF && row.Profiler != Baseline {
			stall, req = u64(run.StallCycles), u64(run.StallRequested)
		}
		cells = append(cells, u64(run.Cycles), pct(o, ok), cost, delivery, total, stall, req)
	} else {
		cells = append(cells, u64(run.Instructions), pct(o, ok), delivery)
	}
	for _, m := range r.Metrics() {
		cells = append(cells, scoreCell(run, m))
	}
	msgs, ints := "-", "-"
	if run.Source != SourceACF && row.Profiler != Baseline {
		msgs, ints = u64(run.Messages), u64(run.Interrupts)
	}
	hi := "-"
	if run.Source == SourceACF {
		hi = u64(run.HandlerInstructions)
	}
	return append(cells, optU64(run.StorageBits), msgs, ints, hi, outputCell(run))
}

// summaryColumns: a profiler's mean overhead and the mean of each metric.
func (r *Results) summaryColumns() []string {
	over := "mean overhead"
	if !r.Spec.Timing {
		over = "mean extra instructions"
	}
	cols := []string{"profiler", "profile", "programs", over}
	if r.Spec.Timing {
		cols = append(cols, "mean total-cost overhead (measured + analytic delivery)")
	}
	for _, m := range r.Metrics() {
		cols = append(cols, "mean "+m)
	}
	return cols
}

func (r *Results) summaryRow(row Row) []string {
	m, n := r.Mean(row.Label)
	cells := []string{row.Label, row.Type, strconv.Itoa(n), pct(m, n > 0)}
	if r.Spec.Timing {
		t, k := r.MeanTotal(row.Label)
		cells = append(cells, pct(t, k > 0))
	}
	for _, metric := range r.Metrics() {
		v, k := r.MeanScore(row.Label, metric)
		if k == 0 {
			cells = append(cells, "-")
		} else {
			cells = append(cells, fmt.Sprintf("%.2f", v))
		}
	}
	return cells
}

const summaryCaption = "mean overhead = the geometric mean over the programs of the cost ratios " +
	"(profiled over unprofiled) minus 1; each metric's mean is the arithmetic mean over the programs that have it"

// WriteText prints the summary, a table per program, and in timing mode
// where the extra cycles go.
func (r *Results) WriteText(w io.Writer) {
	fmt.Fprintln(w, r.Provenance())
	fmt.Fprintln(w, r.header())
	fmt.Fprintf(w, "\nsummary over %d programs (%s)\n", len(r.Benchmarks), summaryCaption)
	table(w, r.summaryColumns(), r.summaryRows())
	for _, b := range r.Benchmarks {
		fmt.Fprintf(w, "\n%s\n", b)
		table(w, r.columns(), r.programRows(b))
	}
	if r.hasBreakdown() {
		fmt.Fprintf(w, "\nwhere the extra cycles go: %s\n", extraCaption)
		table(w, r.extraColumns(), r.extraRows())
	}
	for _, run := range r.Failed() {
		fmt.Fprintf(w, "FAIL %s/%s: %s\n", run.Benchmark, run.Label, run.Why)
	}
}

func table(w io.Writer, head []string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
}

func (r *Results) summaryRows() [][]string {
	var out [][]string
	for _, row := range r.profilerRows() {
		out = append(out, r.summaryRow(row))
	}
	return out
}

func (r *Results) programRows(b string) [][]string {
	var out [][]string
	for _, row := range r.Rows {
		if cells := r.row(b, row); cells != nil {
			out = append(out, cells)
		}
	}
	return out
}

func (r *Results) extraRows() [][]string {
	var out [][]string
	for _, row := range r.profilerRows() {
		out = append(out, r.extraRow(row.Label))
	}
	return out
}

const extraCaption = "the mean over the programs of each CPI-stack bucket's extra cycles, " +
	"in % of the unprofiled run's cycles (the buckets sum to the arithmetic mean overhead; docs/TIMING.md, Statistics), " +
	"and the DISE front-end events per 1,000 application instructions"

// hasBreakdown reports whether the runs carry the timing model's cycle
// accounting.
func (r *Results) hasBreakdown() bool {
	for _, b := range r.Benchmarks {
		for _, row := range r.Rows {
			if run := r.Runs[b][row.Label]; run != nil && row.Profiler == Baseline && run.Breakdown != nil {
				return true
			}
		}
	}
	return false
}

// Extra is the mean, over the programs whose runs passed, of a profiler's
// extra cycles in each CPI-stack bucket in percent of the unprofiled
// run's cycles (they sum to the arithmetic mean overhead), and of its
// DISE front-end events per 1,000 application instructions (keys "taken
// DISE branches", "handler calls", "dise.ret mispredicts",
// "replacements").
func (r *Results) Extra(label string) (map[string]float64, int) {
	sum := map[string]float64{}
	n := 0
	for _, b := range r.Benchmarks {
		run, base, ok := r.pair(b, label)
		if !ok || base.Breakdown == nil || run.Breakdown == nil || base.Cycles == 0 {
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
	cols := []string{"profiler", "overhead (arithmetic mean)"}
	for _, k := range pipeline.CPIBuckets() {
		if k == "profiler" {
			k = "retire hook" // the profiling hardware's commit stalls
		}
		cols = append(cols, k)
	}
	return append(cols, extraEvents...)
}

func (r *Results) extraRow(label string) []string {
	x, ok := r.Extra(label)
	var total float64
	for _, k := range pipeline.CPIBuckets() {
		total += x[k]
	}
	row := []string{label, pct(total, ok > 0)}
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
	fmt.Fprintf(w, "# Profiler comparison\n\n%s\n\n%s.\n", r.Provenance(), r.header())
	md := func(head []string, rows [][]string) {
		line := func(cells []string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
		line(head)
		sep := make([]string, len(head))
		for i := range sep {
			sep[i] = "---:"
		}
		sep[0], sep[1] = "---", "---"
		line(sep)
		for _, row := range rows {
			line(row)
		}
	}
	fmt.Fprintf(w, "\n## Summary\n\n%s.\n\n", strings.ToUpper(summaryCaption[:1])+summaryCaption[1:])
	md(r.summaryColumns(), r.summaryRows())
	if r.hasBreakdown() {
		fmt.Fprintf(w, "\n## Where the extra cycles go\n\n%s.\n\n", strings.ToUpper(extraCaption[:1])+extraCaption[1:])
		md(r.extraColumns(), r.extraRows())
	}
	for _, b := range r.Benchmarks {
		fmt.Fprintf(w, "\n## %s\n\n", b)
		md(r.columns(), r.programRows(b))
	}
	if f := r.Failed(); len(f) > 0 {
		fmt.Fprintf(w, "\n## Failures\n\n")
		for _, run := range f {
			fmt.Fprintf(w, "- %s/%s: %s\n", run.Benchmark, run.Label, run.Why)
		}
	}
}

// WriteCSV writes one row per run, every figure in its own column.
func (r *Results) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	mode := "functional"
	if r.Spec.Timing {
		mode = "timing"
	}
	metrics := r.Metrics()
	head := []string{"benchmark", "input", "mode", "machine", "profiler", "point", "profile", "source", "trigger",
		"cycles", "instructions", "application_instructions", "overhead_pct", "cost_cycles", "delivery_cycles_analytic",
		"total_cost_cycles", "stall_cycles", "stall_cycles_requested", "storage_bits", "messages", "interrupts",
		"replacements", "injected_instructions", "handler_instructions", "handler_calls", "triggers", "output", "pass", "why"}
	for _, m := range metrics {
		head = append(head, m)
	}
	for _, k := range pipeline.CPIBuckets() {
		head = append(head, "cpi_"+k)
	}
	head = append(head, "dise_charges", "dise_taken_branches", "dise_handler_entries", "dise_returns", "dise_return_mispredicts")
	cw.Write(head)
	opt := func(v *uint64) string {
		if v == nil {
			return ""
		}
		return u64(*v)
	}
	for _, b := range r.Benchmarks {
		for _, row := range r.Rows {
			run := r.Runs[b][row.Label]
			if run == nil {
				continue
			}
			over, cost, total := "", "", ""
			if o, ok := r.Overhead(b, row.Label); ok {
				over = strconv.FormatFloat(o, 'f', 4, 64)
			}
			if c, ok := r.CostCycles(b, row.Label); ok {
				cost = strconv.FormatInt(c, 10)
				if run.DeliveryAnalytic != nil {
					c += int64(*run.DeliveryAnalytic)
				}
				total = strconv.FormatInt(c, 10)
			}
			cycles := ""
			if r.Spec.Timing {
				cycles = u64(run.Cycles)
			}
			stall, req := "", ""
			if r.Spec.Timing && run.Source != SourceACF && row.Profiler != Baseline {
				stall, req = u64(run.StallCycles), u64(run.StallRequested)
			}
			cells := []string{b, r.Spec.Input, mode, r.Spec.MachineName, run.Profiler, run.Point, row.Type, row.Source, run.Trigger,
				cycles, u64(run.Instructions), u64(run.AppInstructions), over, cost, opt(run.DeliveryAnalytic), total, stall, req,
				opt(run.StorageBits), u64(run.Messages), u64(run.Interrupts), u64(run.Replacements), u64(run.Injected),
				u64(run.HandlerInstructions), u64(run.HandlerCalls), u64(run.Triggers), run.Output, strconv.FormatBool(run.Pass), run.Why}
			for _, m := range metrics {
				v := ""
				if x, ok := run.Score(m); ok {
					v = strconv.FormatFloat(x, 'f', 4, 64)
				}
				cells = append(cells, v)
			}
			if bd := run.Breakdown; bd != nil {
				for _, k := range pipeline.CPIBuckets() {
					cells = append(cells, u64(bd.CPI[k]))
				}
				cells = append(cells, u64(bd.DISECharges), u64(bd.DISETakenBranches), u64(bd.HandlerEntries), u64(bd.DISEReturns),
					u64(bd.DISEReturnMispredicts))
			}
			for len(cells) < len(head) {
				cells = append(cells, "")
			}
			cw.Write(cells)
		}
	}
	cw.Flush()
	return cw.Error()
}

// JSON report: what the plots read (docs/COMPARISON.md, "JSON").
type jsonReport struct {
	Provenance string        `json:"provenance"`
	Mode       string        `json:"mode"`
	Machine    string        `json:"machine,omitempty"`
	Input      string        `json:"input"`
	Sweep      *Sweep        `json:"sweep,omitempty"`
	CostUnit   string        `json:"cost_unit"`
	Metrics    []string      `json:"metrics"`
	Programs   []string      `json:"programs"`
	Profilers  []Row         `json:"profilers"`
	Runs       []jsonRun     `json:"runs"`
	Summary    []jsonSummary `json:"summary"`
}

type jsonRun struct {
	*Run
	OverheadPercent *float64 `json:"overhead_percent"`
	CostCycles      *int64   `json:"cost_cycles"`
	TotalCostCycles *int64   `json:"total_cost_cycles"`
	HostSeconds     *float64 `json:"host_seconds,omitempty"` // left out: reports are the same wherever the cells ran
}

type jsonSummary struct {
	Profiler        string              `json:"profiler"`
	Type            string              `json:"type"`
	Programs        int                 `json:"programs"`
	MeanOverhead    *float64            `json:"mean_overhead_percent"`
	MeanTotal       *float64            `json:"mean_total_cost_overhead_percent,omitempty"`
	MeanScores      map[string]*float64 `json:"mean_scores"`
	ProgramsByScore map[string]int      `json:"programs_by_score"`
}

// WriteJSON writes the results for programs (the plots): per program
// and profiler the overhead, each metric and the convergence data; per
// profiler the means.
func (r *Results) WriteJSON(w io.Writer) error {
	rep := jsonReport{Provenance: r.Provenance(), Mode: "functional", Input: r.Spec.Input, Sweep: r.Spec.Sweep,
		CostUnit: "instructions", Metrics: r.Metrics(), Programs: r.Benchmarks, Profilers: r.Rows}
	if r.Spec.Timing {
		rep.Mode, rep.Machine, rep.CostUnit = "timing", r.Spec.MachineName, "cycles"
	}
	if rep.Metrics == nil {
		rep.Metrics = []string{}
	}
	for _, b := range r.Benchmarks {
		for _, row := range r.Rows {
			run := r.Runs[b][row.Label]
			if run == nil {
				continue
			}
			jr := jsonRun{Run: run}
			if o, ok := r.Overhead(b, row.Label); ok {
				jr.OverheadPercent = &o
			}
			if c, ok := r.CostCycles(b, row.Label); ok {
				t := c
				if run.DeliveryAnalytic != nil {
					t += int64(*run.DeliveryAnalytic)
				}
				jr.CostCycles, jr.TotalCostCycles = &c, &t
			}
			rep.Runs = append(rep.Runs, jr)
		}
	}
	for _, row := range r.profilerRows() {
		s := jsonSummary{Profiler: row.Label, Type: row.Type, MeanScores: map[string]*float64{}, ProgramsByScore: map[string]int{}}
		m, n := r.Mean(row.Label)
		s.Programs = n
		if n > 0 {
			s.MeanOverhead = &m
		}
		if t, k := r.MeanTotal(row.Label); k > 0 && r.Spec.Timing {
			s.MeanTotal = &t
		}
		for _, metric := range r.Metrics() {
			v, k := r.MeanScore(row.Label, metric)
			if k > 0 {
				s.MeanScores[metric] = &v
			} else {
				s.MeanScores[metric] = nil
			}
			s.ProgramsByScore[metric] = k
		}
		rep.Summary = append(rep.Summary, s)
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
