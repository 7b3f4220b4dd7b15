package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// find returns the result of a bench/tuples/interval/pct.
func find(rs []Result, bench, tuples string, interval uint64, pct float64) *Result {
	for i := range rs {
		r := &rs[i]
		if r.Benchmark == bench && r.Tuples == tuples && r.Interval == interval && r.Pct == pct {
			return r
		}
	}
	return nil
}

func (r *Result) engine(name string) *Engine {
	for i := range r.Engines {
		if r.Engines[i].Name == name {
			return &r.Engines[i]
		}
	}
	return nil
}

func benches(rs []Result) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if !seen[r.Benchmark] {
			seen[r.Benchmark] = true
			out = append(out, r.Benchmark)
		}
	}
	sort.Strings(out)
	return out
}

func label(interval uint64, pct float64) string {
	return fmt.Sprintf("%s @ %g%%", human(interval), pct)
}

func human(n uint64) string {
	switch {
	case n >= 1000000 && n%1000000 == 0:
		return fmt.Sprintf("%dM", n/1000000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprint(n)
}

// errTable: rows = engines, columns = benchmarks and the mean.
func errTable(w *bytes.Buffer, rs []Result, tuples string, interval uint64, pct float64, names []string, extra bool) {
	bs := benches(rs)
	fmt.Fprintf(w, "| configuration |")
	for _, b := range bs {
		fmt.Fprintf(w, " %s |", b)
	}
	fmt.Fprintf(w, " **mean** |")
	if extra {
		fmt.Fprintf(w, " FP | FN | N+ | N− | fp rate | fp bound | bits |")
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "|---|")
	for range bs {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprint(w, "---:|")
	if extra {
		fmt.Fprint(w, "---:|---:|---:|---:|---:|---:|---:|")
	}
	fmt.Fprintln(w)
	for _, name := range names {
		fmt.Fprintf(w, "| %s |", name)
		var sum, fp, fn, np, nn, rate float64
		var bound *float64
		var bits uint64
		k := 0
		for _, b := range bs {
			r := find(rs, b, tuples, interval, pct)
			if r == nil || r.engine(name) == nil || r.Intervals == 0 {
				fmt.Fprint(w, " – |")
				continue
			}
			e := r.engine(name)
			fmt.Fprintf(w, " %.2f |", e.Error)
			sum += e.Error
			fp += e.FalsePos
			fn += e.FalseNeg
			np += e.NeutralPos
			nn += e.NeutralNeg
			rate += e.FPRate
			bound, bits = e.FPBound, e.StorageBits
			k++
		}
		if k == 0 {
			fmt.Fprintln(w, " – |")
			continue
		}
		kf := float64(k)
		fmt.Fprintf(w, " **%.2f** |", sum/kf)
		if extra {
			bs := "–"
			if bound != nil {
				bs = fmt.Sprintf("%.2g", *bound)
			}
			fmt.Fprintf(w, " %.2f | %.2f | %.2f | %.2f | %.2g | %s | %d |", fp/kf, fn/kf, np/kf, nn/kf, rate/kf, bs, bits)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

func tables(rs []Result, input string, maxInsts uint64) string {
	var w bytes.Buffer
	fmt.Fprintf(&w, "Inputs: %s, first %d instructions of each benchmark. Error: formula (1), percent, mean over complete intervals. FP/FN/N+/N−: the Fig. 3 categories' parts of the error (means); fp rate: false positives over distinct non-candidate tuples per interval; fp bound: §6.2's (100n/tZ)^n.\n\n", input, maxInsts)

	fmt.Fprintln(&w, "### Experiment 1: distinct and candidate tuples per interval (value; Fig. 4, 5)")
	fmt.Fprintln(&w)
	fmt.Fprintln(&w, "| benchmark | distinct 10K | distinct 100K | distinct 1M | cand. 1% 10K | 100K | 1M | cand. 0.1% 10K | 100K | 1M | intervals (10K/100K/1M) |")
	fmt.Fprintln(&w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, b := range benches(rs) {
		fmt.Fprintf(&w, "| %s |", b)
		for _, l := range []uint64{10000, 100000, 1000000} {
			fmt.Fprintf(&w, " %.0f |", find(rs, b, "value", l, 1).Distinct)
		}
		for _, p := range []float64{1, 0.1} {
			for _, l := range []uint64{10000, 100000, 1000000} {
				fmt.Fprintf(&w, " %.1f |", find(rs, b, "value", l, p).Candidates)
			}
		}
		fmt.Fprintf(&w, " %d/%d/%d |\n", find(rs, b, "value", 10000, 1).Intervals, find(rs, b, "value", 100000, 1).Intervals, find(rs, b, "value", 1000000, 1).Intervals)
	}
	fmt.Fprintln(&w)

	sh := []string{"SH R0-P0", "SH R1-P0", "SH R0-P1", "SH R1-P1"}
	var mhAll []string
	for _, n := range []int{1, 2, 4, 8} {
		for _, c := range []int{0, 1} {
			for _, r := range []int{0, 1} {
				if n == 1 {
					if c == 0 {
						mhAll = append(mhAll, fmt.Sprintf("SH R%d-P1", r))
					}
					continue
				}
				mhAll = append(mhAll, fmt.Sprintf("MH%d C%d-R%d", n, c, r))
			}
		}
	}
	best := []string{"SH R0-P1", "MH2 C1-R0", "MH4 C1-R0", "MH8 C1-R0", "MH16 C1-R0", "SH R1-P1"}
	sketches := []string{"MH4 C1-R0", "SH R1-P1", "Space-Saving", "Count-Min CU + top-k", "H[P] (ours, minimal)"}
	for _, cfg := range []struct {
		l uint64
		p float64
	}{{10000, 1}, {100000, 0.1}} {
		fmt.Fprintf(&w, "### Experiment 2: single hash, resetting × retaining (Fig. 7), %s\n\n", label(cfg.l, cfg.p))
		errTable(&w, rs, "value", cfg.l, cfg.p, sh, true)
		fmt.Fprintf(&w, "### Experiment 3: n tables × C × R, retaining on, 2K counters (Fig. 10/11), %s\n\n", label(cfg.l, cfg.p))
		errTable(&w, rs, "value", cfg.l, cfg.p, mhAll, true)
		fmt.Fprintf(&w, "### Experiment 3b: C1-R0 at 1-16 tables beside the best single hash (Fig. 12), %s\n\n", label(cfg.l, cfg.p))
		errTable(&w, rs, "value", cfg.l, cfg.p, best, true)
		fmt.Fprintf(&w, "### Experiment 4: per-interval error (Fig. 13), %s\n\n", label(cfg.l, cfg.p))
		series(&w, rs, cfg.l, cfg.p)
		fmt.Fprintf(&w, "### Experiment 6: sketches at equal storage, %s\n\n", label(cfg.l, cfg.p))
		errTable(&w, rs, "value", cfg.l, cfg.p, sketches, true)
	}
	fmt.Fprintf(&w, "### Experiment 3c: the paper's long configuration, %s (few intervals: see the intervals column of experiment 1)\n\n", label(1000000, 0.1))
	errTable(&w, rs, "value", 1000000, 0.1, []string{"SH R1-P1", "MH4 C1-R0", "Space-Saving", "Count-Min CU + top-k"}, true)
	for _, cfg := range []struct {
		l uint64
		p float64
	}{{10000, 1}, {100000, 0.1}} {
		fmt.Fprintf(&w, "### Experiment 5: edge profiling, C1-R0 (Fig. 14), %s\n\n", label(cfg.l, cfg.p))
		errTable(&w, rs, "edge", cfg.l, cfg.p, []string{"SH R0-P1", "SH R1-P1", "MH2 C1-R0", "MH4 C1-R0", "MH8 C1-R0"}, true)
	}
	return w.String()
}

// series summarises Fig. 13: per benchmark, the best single hash's and
// the 4-table C1-R0's worst interval and intervals above 5% error.
func series(w *bytes.Buffer, rs []Result, l uint64, p float64) {
	fmt.Fprintln(w, "| benchmark | intervals | SH R1-P1 max | SH R1-P1 >5% | MH4 C1-R0 max | MH4 C1-R0 >5% |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, b := range benches(rs) {
		r := find(rs, b, "value", l, p)
		fmt.Fprintf(w, "| %s | %d |", b, r.Intervals)
		for _, n := range []string{"SH R1-P1", "MH4 C1-R0"} {
			e := r.engine(n)
			mx, over := 0.0, 0
			for _, v := range e.Series {
				mx = max(mx, v)
				if v > 5 {
					over++
				}
			}
			fmt.Fprintf(w, " %.1f | %d |", mx, over)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// longTables are the tables of a -long run.
func longTables(rs []Result, input string, maxInsts uint64) string {
	var w bytes.Buffer
	fmt.Fprintf(&w, "Inputs: %s, first %d instructions of each benchmark; value tuples, 1M-event intervals at 0.1%% (the paper's long configuration). Columns as in tables.md.\n\n", input, maxInsts)
	fmt.Fprintln(&w, "| benchmark | intervals | distinct per interval | candidates per interval |")
	fmt.Fprintln(&w, "|---|---:|---:|---:|")
	for _, b := range benches(rs) {
		r := find(rs, b, "value", 1000000, 0.1)
		fmt.Fprintf(&w, "| %s | %d | %.0f | %.1f |\n", b, r.Intervals, r.Distinct, r.Candidates)
	}
	fmt.Fprintln(&w)
	fmt.Fprintln(&w, "#### Error by configuration (Fig. 7, 11, 12 at 1M @ 0.1%; sketches at equal storage)")
	fmt.Fprintln(&w)
	errTable(&w, rs, "value", 1000000, 0.1, []string{"SH R0-P1", "SH R1-P1", "MH2 C1-R0", "MH4 C1-R0", "MH8 C1-R0", "MH4 C1-R1", "MH4 C0-R0", "Space-Saving", "Count-Min CU + top-k"}, true)
	fmt.Fprintln(&w, "#### Per-interval error (Fig. 13 at 1M @ 0.1%)")
	fmt.Fprintln(&w)
	series(&w, rs, 1000000, 0.1)
	return w.String()
}

// writeSeries writes fig13-L-P.csv: interval, then one column per
// benchmark and engine (best single hash, 4-table C1-R0).
func writeSeries(dir string, rs []Result, l uint64, p float64) {
	for _, cfg := range []struct {
		l uint64
		p float64
	}{{l, p}} {
		var w bytes.Buffer
		bs := benches(rs)
		w.WriteString("interval")
		longest := 0
		for _, b := range bs {
			fmt.Fprintf(&w, ",%s SH R1-P1,%s MH4 C1-R0", b, b)
			longest = max(longest, find(rs, b, "value", cfg.l, cfg.p).Intervals)
		}
		w.WriteString("\n")
		for i := 0; i < longest; i++ {
			fmt.Fprint(&w, i)
			for _, b := range bs {
				r := find(rs, b, "value", cfg.l, cfg.p)
				for _, n := range []string{"SH R1-P1", "MH4 C1-R0"} {
					s := r.engine(n).Series
					if i < len(s) {
						fmt.Fprintf(&w, ",%.3f", s[i])
					} else {
						w.WriteString(",")
					}
				}
			}
			w.WriteString("\n")
		}
		name := fmt.Sprintf("fig13-%s-%g.csv", human(cfg.l), cfg.p)
		if err := os.WriteFile(filepath.Join(dir, name), w.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "mhexp:", err)
		}
	}
}
