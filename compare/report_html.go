package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/compare/plots"
)

// The report a browser opens (docs/REPORT.md): the comparison's tables
// and figures in DIR/index.html, the figures in DIR/plots/.

// ReportFiles are the files the report links beside index.html: the
// tables WriteCSV, WriteMarkdown and WriteJSON write.
var ReportFiles = []string{"compare.csv", "compare.md", "compare.json"}

// overheadLabel names the overhead axis: cycles in timing mode; a
// functional-mode comparison has none and counts instructions instead.
func (r *Results) overheadLabel() string {
	if r.Spec.Timing {
		return "overhead (% of the unprofiled run's cycles)"
	}
	return "extra instructions (% of the unprofiled run's instructions; functional mode: no cycles)"
}

// reportCommand is the command that defined the comparison's cells: a
// merge's own command (Merge appends it) is left out, so that the report
// of cells run as Slurm tasks is the same, byte for byte, as a local
// run's; compare.md records the merge.
func (r *Results) reportCommand() string {
	cmd, _, _ := strings.Cut(r.Spec.Command, " (merged by: ")
	return cmd
}

// Report is the comparison as the plots package draws it: every table of
// compare.md (a table per section) and the per-run CSV; a cell per
// program and profiler row whose runs passed, with its overhead (Overhead:
// cycles in timing mode, instructions in functional mode) and every
// accuracy metric that has a value; and the convergence series of the
// runs that measure one.
func (r *Results) Report() (*plots.Report, error) {
	rep := &plots.Report{Title: "rvsim profiler comparison", OverheadLabel: r.overheadLabel()}
	rep.Notes = []string{"command: " + r.reportCommand(), r.header() + "."}

	var md bytes.Buffer
	r.WriteMarkdown(&md)
	var cur *plots.Table
	for _, line := range strings.SplitAfter(md.String(), "\n") {
		if title, ok := strings.CutPrefix(line, "## "); ok {
			rep.Tables = append(rep.Tables, plots.Table{Title: strings.TrimSpace(title), File: ReportFiles[1]})
			cur = &rep.Tables[len(rep.Tables)-1]
			continue
		}
		if cur != nil {
			cur.Markdown += line
		}
	}
	var csvText bytes.Buffer
	if err := r.WriteCSV(&csvText); err != nil {
		return nil, err
	}
	rep.Tables = append(rep.Tables, plots.Table{Title: "Every run", CSV: csvText.String(), File: ReportFiles[0]})

	for _, b := range r.Benchmarks {
		for _, row := range r.profilerRows() {
			o, ok := r.Overhead(b, row.Label)
			if !ok {
				continue // a failed run: in the tables and the failures, not in the figures
			}
			run := r.Runs[b][row.Label]
			c := plots.Cell{Program: b, Profiler: row.Label, Overhead: o}
			for _, s := range run.Scores {
				if s.Value != nil {
					c.Errors = append(c.Errors, plots.Score{Metric: s.Metric, Value: *s.Value})
				}
			}
			rep.Cells = append(rep.Cells, c)
			if len(run.Convergence) == 0 {
				continue
			}
			s := plots.Series{Program: b, Profiler: row.Label, Metric: run.ConvergenceMetric}
			for _, p := range run.Convergence {
				s.Events = append(s.Events, float64(p.Events))
				s.Error = append(s.Error, p.ErrorPercent)
			}
			rep.Convergence = append(rep.Convergence, s)
		}
	}
	return rep, nil
}

// WriteReport writes DIR/index.html and the figures in DIR/plots/ (SVG
// and PNG), and removes figures an earlier report left in DIR/plots/. It
// returns the files written, relative to dir.
func (r *Results) WriteReport(dir string) ([]string, error) {
	rep, err := r.Report()
	if err != nil {
		return nil, err
	}
	written, err := plots.Write(dir, rep)
	if err != nil {
		return written, err
	}
	keep := map[string]bool{}
	for _, f := range written {
		keep[filepath.Base(f)] = true
	}
	old, _ := os.ReadDir(filepath.Join(dir, plots.PlotDir))
	for _, e := range old {
		if ext := filepath.Ext(e.Name()); !keep[e.Name()] && !e.IsDir() && (ext == ".svg" || ext == ".png") {
			os.Remove(filepath.Join(dir, plots.PlotDir, e.Name()))
		}
	}
	return written, nil
}
