package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/rvsim/rvsim/experiments/internal/figures"
)

// convergenceFigure draws experiments 2-3's convergence (§5.4): each
// curve unit's error against the events it took in, the mean over the
// runs (benchmarks and seeds) that reached that many events, from the
// convergence.csv files the runs left in out/BENCH/seedN/. It returns the
// Markdown that shows the figure.
func convergenceFigure(out string, benches []string, seeds int, input, figDir, docDir string) (string, error) {
	f := figures.Line{Title: fmt.Sprintf("Convergence: mean error against events (%s inputs, %d benchmarks x %d seeds)", input, len(benches), seeds),
		XLabel: "events", YLabel: "error (%)", LogX: true}
	for _, u := range units {
		if !u.curve || !attached(u) {
			continue
		}
		var runs [][][2]float64
		for _, b := range benches {
			for s := 1; s <= seeds; s++ {
				pts, err := readConvergence(filepath.Join(out, b, fmt.Sprintf("seed%d", s), u.name()+".convergence.csv"))
				if err != nil {
					return "", err
				}
				runs = append(runs, pts)
			}
		}
		s := figures.Series{Name: u.comp}
		s.X, s.Y = meanByEvents(runs)
		f.Series = append(f.Series, s)
	}
	return figures.Write(f, figDir, "stratified-convergence-"+input, docDir)
}

// meanByEvents is the mean error at each event count over the runs that
// reached it, by increasing events, at the counts where each of those runs
// has a point: a run whose curve was thinned more (a longer run: its
// points twice as far apart) or a run's last point, at its own count,
// would otherwise make the mean jump between counts that different sets
// of runs share.
func meanByEvents(runs [][][2]float64) (xs, ys []float64) {
	sum, n := map[float64]float64{}, map[float64]int{}
	var last []float64
	for _, pts := range runs {
		for _, p := range pts {
			sum[p[0]] += p[1]
			n[p[0]]++
		}
		if len(pts) > 0 {
			last = append(last, pts[len(pts)-1][0])
		}
	}
	for x := range sum {
		reached := 0
		for _, l := range last {
			if l >= x {
				reached++
			}
		}
		if n[x] == reached {
			xs = append(xs, x)
		}
	}
	sort.Float64s(xs)
	for _, x := range xs {
		ys = append(ys, sum[x]/float64(n[x]))
	}
	return xs, ys
}

// readConvergence reads a unit's convergence.csv: (events, error percent)
// for the points with an error (a point with no selected tuple has none).
func readConvergence(file string) ([][2]float64, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var pts [][2]float64
	for i, r := range rows {
		if i == 0 || len(r) < 2 || r[1] == "" {
			continue
		}
		ev, err1 := strconv.ParseFloat(r[0], 64)
		e, err2 := strconv.ParseFloat(r[1], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: want events,error_percent, got %q", file, i+1, r[:2])
		}
		pts = append(pts, [2]float64{ev, e})
	}
	return pts, nil
}
