package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The convergence figure averages each curve unit's error at each event
// count over the runs that reached it (two runs: 10 and 30 at 100 events,
// 20 alone at 200: means 20 and 20) and skips points without an error; a
// malformed file is an error naming its line.
func TestConvergenceFigure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	write := func(bench, unit, text string) {
		d := filepath.Join(out, bench, "seed1")
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, unit+".convergence.csv"), []byte(text), 0o644))
	}
	const head = "events,error_percent,selected_tuples,messages,interrupts,overhead_cycles_analytic\n"
	for _, u := range units {
		if u.curve {
			write("a", u.name(), head+"50,,0,0,0,0\n100,10,1,1,1,1\n200,20,1,1,1,1\n")
			write("b", u.name(), head+"100,30,1,1,1,1\n")
		}
	}
	pts, err := readConvergence(filepath.Join(out, "a", "seed1", "R256.convergence.csv"))
	require.NoError(t, err)
	require.Equal(t, [][2]float64{{100, 10}, {200, 20}}, pts)
	link, err := convergenceFigure(out, []string{"a", "b"}, 1, "test", filepath.Join(dir, "figures"), dir)
	require.NoError(t, err)
	require.Equal(t, "![Convergence: mean error against events (test inputs, 2 benchmarks x 1 seeds)](figures/stratified-convergence-test.svg)\n", link)
	svg, err := os.ReadFile(filepath.Join(dir, "figures", "stratified-convergence-test.svg"))
	require.NoError(t, err)
	require.Contains(t, string(svg), "H[P256]2048")
	xs, ys := meanByEvents([][][2]float64{{{100, 10}, {200, 20}}, {{100, 40}}, {{300, 1}}})
	require.Equal(t, []float64{300}, xs) // the third run reached 100 and 200 without a point there
	require.Equal(t, []float64{1}, ys)
	// Two runs at 100-event spacing, one thinned to 200 and ending at 450:
	// 100 and 300 are the thinned run's gaps; 450 is its own last point.
	xs, ys = meanByEvents([][][2]float64{{{100, 10}, {200, 20}, {300, 30}}, {{100, 40}, {200, 50}}, {{200, 2}, {400, 4}, {450, 5}}})
	require.Equal(t, []float64{200, 400, 450}, xs)
	require.Equal(t, []float64{24, 4, 5}, ys)
	write("b", "R256", head+"100,x,1,1,1,1\n")
	_, err = convergenceFigure(out, []string{"a", "b"}, 1, "test", filepath.Join(dir, "figures"), dir)
	require.ErrorContains(t, err, fmt.Sprintf("%s:2:", filepath.Join(out, "b", "seed1", "R256.convergence.csv")))
}
