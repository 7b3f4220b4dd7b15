package compare

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/compare/metrics"
	"github.com/rvsim/rvsim/compare/plots"
	"github.com/rvsim/rvsim/compare/plots/plotstest"
	"github.com/rvsim/rvsim/config"
)

// The report of the constructed comparison (results()) holds, by hand:
// a cell per program and profiler whose runs passed, with the cycle
// overhead and the metrics that have a value; the stratified unit's
// convergence; every section of compare.md and the CSV as tables.
func TestReportFromResults(t *testing.T) {
	rep, err := results().Report()
	require.NoError(t, err)
	assert.Equal(t, "overhead (% of the unprofiled run's cycles)", rep.OverheadLabel)
	assert.Equal(t, "command: rvsim compare (test)", rep.Notes[0])
	assert.Contains(t, rep.Notes[1], "timing mode, machine hps")

	inv := []plots.Score{{Metric: metrics.Invariance, Value: 1.5}, {Metric: metrics.FormulaOne, Value: 3}}
	want := []plots.Cell{
		// a: 1000 cycles unprofiled; the rows in table order (value
		// profilers before code-region ones).
		{Program: "a", Profiler: "strat", Overhead: 0, Errors: inv},
		{Program: "a", Profiler: "p-hps", Overhead: 1, Errors: []plots.Score{{Metric: metrics.RegionMetric, Value: 4}}},
		{Program: "a", Profiler: "p-dise", Overhead: 20, Errors: []plots.Score{{Metric: metrics.RegionMetric, Value: 4}}},
		// b: 2000 cycles; p-dise failed there, so it has no cell.
		{Program: "b", Profiler: "strat", Overhead: 5,
			Errors: []plots.Score{{Metric: metrics.Invariance, Value: 2.5}, {Metric: metrics.FormulaOne, Value: 5}}},
		{Program: "b", Profiler: "p-hps", Overhead: -2, Errors: []plots.Score{{Metric: metrics.RegionMetric, Value: 6}}},
	}
	require.Len(t, rep.Cells, len(want))
	for i := range want {
		assert.Equal(t, want[i].Program, rep.Cells[i].Program)
		assert.Equal(t, want[i].Profiler, rep.Cells[i].Profiler)
		assert.InDelta(t, want[i].Overhead, rep.Cells[i].Overhead, 1e-9, "%s/%s", want[i].Program, want[i].Profiler)
		assert.Equal(t, want[i].Errors, rep.Cells[i].Errors)
	}
	assert.Equal(t, []plots.Series{
		{Program: "a", Profiler: "strat", Metric: metrics.Invariance, Events: []float64{100, 200}, Error: []float64{9, 1.5}},
		{Program: "b", Profiler: "strat", Metric: metrics.Invariance, Events: []float64{100, 200}, Error: []float64{9, 2.5}},
	}, rep.Convergence)

	var titles []string
	for _, tb := range rep.Tables {
		titles = append(titles, tb.Title)
	}
	assert.Equal(t, []string{"Summary", "a", "b", "Failures", "Every run"}, titles)
	assert.Contains(t, rep.Tables[0].Markdown, "| strat | value | 2 |")
	assert.NotContains(t, rep.Tables[0].Markdown, "## ")
	assert.Contains(t, rep.Tables[3].Markdown, "b/p-dise: broken")
	assert.True(t, strings.HasPrefix(rep.Tables[4].CSV, "benchmark,input,mode"))

	// A merge's own command is left out of the page (compare.md has it).
	res := results()
	res.Spec.Command += " (merged by: rvsim compare --merge d)"
	merged, err := res.Report()
	require.NoError(t, err)
	assert.Equal(t, rep.Notes, merged.Notes)

	// Functional mode has no cycles and says what it counts instead.
	res.Spec.Timing = false
	fn, err := res.Report()
	require.NoError(t, err)
	assert.Contains(t, fn.OverheadLabel, "extra instructions")
	assert.Contains(t, fn.OverheadLabel, "no cycles")
}

var linkRE = regexp.MustCompile(`(?:src|href)="([^"#][^"]*)"`)

// checkReport checks a report folder: every image and figure link of
// index.html is a file there, the other links are the tables' files,
// and the tables name every program and profiler.
func checkReport(t *testing.T, dir string, programs, profilers []string) string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	imgs := 0
	for _, m := range linkRE.FindAllStringSubmatch(string(page), -1) {
		if !strings.HasPrefix(m[1], plots.PlotDir+"/") {
			assert.Contains(t, ReportFiles, m[1], "a link to a table's file")
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, m[1]))
		if assert.NoError(t, err, "index.html refers to %s", m[1]) {
			assert.Positive(t, fi.Size(), m[1])
		}
		if strings.HasPrefix(m[0], "src=") {
			imgs++
		}
	}
	assert.Positive(t, imgs)
	for _, p := range append(programs, profilers...) {
		assert.Contains(t, string(page), "<td>"+p+"</td>", "the tables name %s", p)
	}
	for _, p := range programs {
		assert.Contains(t, string(page), "<h2>"+p+" ", "a table for %s", p)
	}
	return string(page)
}

// A small real comparison (two programs' test inputs, two profhw presets
// with scores, functional mode) writes a report whose every figure
// exists, whose tables name the programs and profilers, and which loads
// in headless Chromium with every image; a timing run's report counts
// cycles.
func TestReportOfComparison(t *testing.T) {
	ss := built(t)
	progs, profs := []string{"lz", "nbody"}, []string{"stratified-value", "path-bl"}
	res, err := Compare(Options{Spec: Spec{Profilers: profilers(t, profs...), Suite: ss, Benchmarks: progs, Input: "test",
		MaxInsts: 100000, Handlers: handlers, Command: "rvsim compare (test)"}, Jobs: 2})
	require.NoError(t, err)
	require.Empty(t, res.Failed())
	dir := t.TempDir()
	// A figure an earlier report left behind is removed.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "plots"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plots", "stale.svg"), []byte("<svg/>"), 0o644))
	files, err := res.WriteReport(dir)
	require.NoError(t, err)
	assert.NoFileExists(t, filepath.Join(dir, "plots", "stale.svg"))
	page := checkReport(t, dir, progs, profs)
	assert.Equal(t, "index.html", files[len(files)-1])

	// The figures: overhead against each metric, convergence per program
	// (stratified measures its invariance error), the bars; in functional
	// mode the overhead axis counts instructions.
	rep, err := res.Report()
	require.NoError(t, err)
	require.Len(t, rep.Cells, 4)
	for _, c := range rep.Cells {
		assert.NotEmpty(t, c.Errors, "%s/%s is scored", c.Program, c.Profiler)
	}
	for _, p := range progs {
		assert.True(t, slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "plots/convergence-"+p+"-") }),
			"a convergence figure for %s in %v", p, files)
	}
	assert.Contains(t, files, "plots/overhead-per-program.svg")
	bars, err := os.ReadFile(filepath.Join(dir, "plots", "overhead-per-program.svg"))
	require.NoError(t, err)
	assert.Contains(t, string(bars), "extra instructions")
	assert.Contains(t, page, "functional mode")

	t.Run("chromium", func(t *testing.T) {
		bin := plotstest.Chromium(t)
		dom := plotstest.LoadPage(t, bin, filepath.Join(dir, "index.html"))
		loaded, total := plotstest.ImagesLoaded(t, dom)
		assert.Equal(t, total, loaded, "every image loads")
		assert.Equal(t, strings.Count(page, "<img "), strings.Count(dom, `data-loaded="yes"`))
		assert.NotContains(t, dom, `class="missing"`)
	})

	t.Run("timing", func(t *testing.T) {
		m, err := config.Preset("hps")
		require.NoError(t, err)
		res, err := Compare(Options{Spec: Spec{Profilers: profilers(t, "path-bl"), Suite: ss, Benchmarks: []string{"lz"}, Input: "test",
			Timing: true, Machine: config.Format(m), MachineName: "hps", MaxInsts: 30000, Handlers: handlers}, Jobs: 1})
		require.NoError(t, err)
		require.Empty(t, res.Failed())
		dir := t.TempDir()
		_, err = res.WriteReport(dir)
		require.NoError(t, err)
		checkReport(t, dir, []string{"lz"}, []string{"path-bl"})
		rep, err := res.Report()
		require.NoError(t, err)
		require.Len(t, rep.Cells, 1)
		o, _ := res.Overhead("lz", "path-bl")
		assert.Equal(t, o, rep.Cells[0].Overhead, "the cycle overhead")
		bars, err := os.ReadFile(filepath.Join(dir, "plots", "overhead-per-program.svg"))
		require.NoError(t, err)
		assert.Contains(t, string(bars), "unprofiled run&#39;s cycles")
	})
}
