// Package plots draws a profiler comparison's report: the figures the
// papers draw, as SVG and PNG with gonum.org/v1/plot, and an index.html
// that shows every table and figure of one output folder.
//
// It knows nothing of how the numbers were measured: compare (or an
// experiment) fills a Report of plain values and calls Write. The figures:
//
//   - overhead against error, one point per program and profiler, with a
//     mean marker per profiler, one figure per error metric (the metrics of
//     different profile types are not one scale: issue 23);
//   - error against events (convergence), one figure per program and metric,
//     a line per profiler, as stratified-sampling.md Figs. 7 and 8 draw
//     the error against program progress in events;
//   - overhead per program as grouped bars, a bar per profiler, as
//     hps-phase-aware-remote-profiling.md Fig. 9 (DISE against HPS) and
//     hardware-path-profiling.md Fig. 18 draw them.
//
// The output is deterministic: the same Report gives the same bytes.
package plots

// Report is what one output folder's report shows.
type Report struct {
	Title string
	// Notes are lines under the title: the rvsim version, the machine,
	// the command that made the report.
	Notes []string
	// Tables are shown first, in order.
	Tables []Table
	// Cells give the overhead and error figures and the grouped bars.
	Cells []Cell
	// OverheadLabel names the overhead axis; default "overhead (% of the
	// unprofiled run's cycles)". A functional-mode comparison has no
	// cycles and says what it counts instead.
	OverheadLabel string
	// Convergence gives the error-against-events figures.
	Convergence []Series
}

// Table is one table, pre-rendered by its producer. Exactly one of HTML,
// Markdown and CSV is used (the first that is not empty): HTML as is,
// Markdown's pipe tables and CSV as HTML tables, escaped.
type Table struct {
	Title    string
	HTML     string
	Markdown string
	CSV      string
	// File, when set, is linked beside the title (a path relative to the
	// output folder, such as compare.csv).
	File string
}

// Cell is one program profiled by one profiler.
type Cell struct {
	Program  string
	Profiler string
	// Overhead is the cost in percent of the unprofiled run (negative
	// when the profiled run was faster).
	Overhead float64
	// Errors are the profile's accuracy scores; a profiler without a
	// profile to score (or without its exact reference) has none, and
	// appears in the bars only.
	Errors []Score
}

// Score is one accuracy metric's value, in percent.
type Score struct {
	Metric string // as the table's column header names it
	Value  float64
}

// Series is one profiler's convergence curve on one program: the error
// after each number of events.
type Series struct {
	Program  string
	Profiler string
	Metric   string
	Events   []float64 // x: events seen (increasing)
	Error    []float64 // y: the error in percent after Events[i]
}
