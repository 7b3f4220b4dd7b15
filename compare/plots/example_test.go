package plots

// testReport is a small comparison: three programs, a DISE profiler
// without an error metric, two value profilers scored by two metrics, and
// convergence curves on two programs.
func testReport() *Report {
	r := &Report{
		Title: "Test comparison <&>",
		Notes: []string{"rvsim test", "machine hps"},
		Tables: []Table{
			{Title: "Per program", Markdown: "| program | profiler | overhead |\n|---|---|---:|\n| lisp | stratified-value | 0.02% |\n| lz \\| x | <b>raw</b> | -1.5% |\n\nA note under the table.", File: "compare.md"},
			{Title: "As CSV", CSV: "program,profiler,overhead\nlisp,stratified-value,0.02\n\"a,b\",x,3\n", File: "compare.csv"},
			{Title: "Pre-rendered", HTML: "<table><tr><td>given</td></tr></table>"},
		},
	}
	progs := []string{"lisp", "lz", "gametree"}
	for i, prog := range progs {
		f := float64(i)
		r.Cells = append(r.Cells,
			Cell{Program: prog, Profiler: "hot-code-region-dise-event", Overhead: 150 + 20*f},
			Cell{Program: prog, Profiler: "stratified-value", Overhead: 0.5 * f,
				Errors: []Score{{"invariance error (§5.3.1)", 2 + f}, {"formula (1) error", 5 - f}}},
			Cell{Program: prog, Profiler: "multihash-value", Overhead: -0.25 + f,
				Errors: []Score{{"formula (1) error", 1 + f}}},
		)
	}
	for _, prog := range progs[:2] {
		r.Convergence = append(r.Convergence,
			Series{Program: prog, Profiler: "stratified-value", Metric: "invariance error (§5.3.1)",
				Events: []float64{1e3, 1e4, 1e5, 1e6}, Error: []float64{40, 15, 6, 2}},
			Series{Program: prog, Profiler: "multihash-value", Metric: "invariance error (§5.3.1)",
				Events: []float64{1e3, 1e4, 1e5, 1e6}, Error: []float64{30, 20, 9, 4}},
		)
	}
	return r
}
