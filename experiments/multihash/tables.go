package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/rvsim/rvsim/profhw/multihash"
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
	sketches := []string{"MH4 C1-R0", "SH R1-P1", "Space-Saving", "Count-Min CU + top-k", hpName}
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
		fmt.Fprintf(&w, "### Experiment 4b: the accumulator per interval, MH4 C1-R0, %s\n\n", label(cfg.l, cfg.p))
		accTable(&w, rs, "value", cfg.l, cfg.p, "MH4 C1-R0")
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
			if e == nil {
				fmt.Fprint(w, " – | – |")
				continue
			}
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
	errTable(&w, rs, "value", 1000000, 0.1, []string{"SH R0-P1", "SH R1-P1", "MH2 C1-R0", "MH4 C1-R0", "MH8 C1-R0", "MH4 C1-R1", "MH4 C0-R0", "Space-Saving", "Count-Min CU + top-k", hpName}, true)
	fmt.Fprintln(&w, "#### Per-interval error (Fig. 13 at 1M @ 0.1%)")
	fmt.Fprintln(&w)
	series(&w, rs, 1000000, 0.1)
	fmt.Fprintln(&w, "#### The accumulator per interval: new candidates, failed promotions, occupancy (MH4 C1-R0)")
	fmt.Fprintln(&w)
	fmt.Fprintln(&w, "New candidates: the interval's perfect candidates that were not candidates in the interval before (a property of the stream: every candidate of the first interval is new). Promotions: tuples that entered the accumulator from the hash tables (new candidates and false positives; with retaining, last interval's candidates re-cross inside the accumulator and are not promoted again). Failed promotions: occurrences at the threshold that found every accumulator entry locked. r: Pearson's correlation over the benchmark's intervals; the last row pools every interval of every benchmark.")
	fmt.Fprintln(&w)
	accTable(&w, rs, "value", 1000000, 0.1, "MH4 C1-R0")
	worstIntervals(&w, rs, "value", 1000000, 0.1, "MH4 C1-R0", 4, entries, 5)
	fmt.Fprintln(&w, "#### The same for the best single hash (SH R1-P1)")
	fmt.Fprintln(&w)
	accTable(&w, rs, "value", 1000000, 0.1, "SH R1-P1")
	paperLong(&w, rs)
	return w.String()
}

// paperLong puts the paper's 1M @ 0.1% figures (§6.4, Fig. 12 and 13)
// beside ours.
func paperLong(w *bytes.Buffer, rs []Result) {
	mean := func(name string) (float64, float64, string) {
		var s, mx float64
		arg, k := "", 0
		for _, b := range benches(rs) {
			r := find(rs, b, "value", 1000000, 0.1)
			if r == nil || r.engine(name) == nil || r.Intervals == 0 {
				continue
			}
			e := r.engine(name).Error
			s += e
			k++
			if e > mx {
				mx, arg = e, b
			}
		}
		if k == 0 {
			return math.NaN(), math.NaN(), ""
		}
		return s / float64(k), mx, arg
	}
	fmt.Fprintln(w, "#### The paper beside ours (1M @ 0.1%)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| figure | paper | ours |")
	fmt.Fprintln(w, "|---|---|---|")
	m, mx, arg := mean("MH4 C1-R0")
	fmt.Fprintf(w, "| 4 tables C1-R0 error (Fig. 12) | gcc 5%%, go 1.5%%; under 1%% on average (§6.4) | mean %.2f%%, worst %s %.2f%% |\n", m, arg, mx)
	m, mx, arg = mean("SH R1-P1")
	fmt.Fprintf(w, "| best single hash error (Fig. 12) | gcc 10%%, go 20%% | SH R1-P1: mean %.2f%%, worst %s %.2f%% |\n", m, arg, mx)
	var all ivSeries
	for _, b := range benches(rs) {
		if r := find(rs, b, "value", 1000000, 0.1); r != nil && r.engine("MH4 C1-R0") != nil {
			all.add(seriesOf(r, r.engine("MH4 C1-R0")))
		}
	}
	fmt.Fprintf(w, "| cause of multi-hash spikes (Fig. 13, §6.4) | one burg interval: \"a large number of candidate tuples ... allow the piggy-backing of false positives into the accumulator table when using conservative update\" | false positives per interval against new candidates r = %s, against distinct tuples r = %s (%d intervals) |\n",
		fmtR(pearson(all.fp, all.newC)), fmtR(pearson(all.fp, all.distinct)), len(all.newC))
	exp := make([]float64, len(all.newC))
	for i := range exp {
		exp[i] = fpExpected(4, entries, all.newC[i], all.distinct[i]-all.perfect[i])
	}
	fmt.Fprintf(w, "| §6.2's false-positive probability (100n/tZ)^n | 100/t tuples hold counters at T: %.2g at 4×512, 0.1%% (no information) | with the new candidates in place of 100/t, (n·new/Z)^n × the interval's other tuples: r = %s with the false positives |\n\n",
		multihash.FPBound(4, entries, 0.1), fmtR(pearson(all.fp, exp)))
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
					var s []float64
					if e := r.engine(n); e != nil {
						s = e.Series
					}
					if i < len(s) {
						fmt.Fprintf(&w, ",%.3f", s[i])
					} else {
						w.WriteString(",")
					}
				}
			}
			w.WriteString("\n")
		}
		name := fmt.Sprintf("fig13-%s-%g%s.csv", human(cfg.l), cfg.p, suffix)
		if err := os.WriteFile(filepath.Join(dir, name), w.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "multihash:", err)
		}
	}
}

// pearson is the correlation of xs and ys (NaN when either is constant
// or there are fewer than 3 points).
func pearson(xs, ys []float64) float64 {
	n := float64(len(xs))
	if len(xs) < 3 || len(xs) != len(ys) {
		return math.NaN()
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

func fmtR(r float64) string {
	if math.IsNaN(r) {
		return "–"
	}
	return fmt.Sprintf("%.2f", r)
}

func floats[T int | uint64 | float64](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// ivSeries are one engine's per-interval figures on one bank.
type ivSeries struct {
	distinct, perfect, newC, prom, fp, err, failed []float64
}

func seriesOf(r *Result, e *Engine) ivSeries {
	n := min(len(e.Series), len(e.Promotions), len(r.DistinctSeries), len(r.NewSeries))
	return ivSeries{distinct: floats(r.DistinctSeries[:n]), perfect: floats(r.PerfectSeries[:n]), newC: floats(r.NewSeries[:n]), prom: floats(e.Promotions[:n]),
		fp: floats(e.FalsePosSeries[:n]), err: e.Series[:n], failed: floats(e.Failed[:n])}
}

func (s *ivSeries) add(o ivSeries) {
	s.distinct = append(s.distinct, o.distinct...)
	s.perfect = append(s.perfect, o.perfect...)
	s.newC = append(s.newC, o.newC...)
	s.prom = append(s.prom, o.prom...)
	s.fp = append(s.fp, o.fp...)
	s.err = append(s.err, o.err...)
	s.failed = append(s.failed, o.failed...)
}

// accTable is, per benchmark, what an interval profiler's accumulator did
// per interval and how its false positives follow the new candidates
// (perfect candidates that were not candidates the interval before)
// rather than the distinct tuples: Pearson's r over the intervals, and
// over all intervals of all benchmarks.
func accTable(w *bytes.Buffer, rs []Result, tuples string, l uint64, p float64, name string) {
	fmt.Fprintln(w, "| benchmark | intervals | new cand. mean | new cand. max | promotions mean | failed promotions | intervals with failures | accumulator used max / entries | false positives per interval | r(FP, new cand.) | r(FP, distinct) | r(error, new cand.) | r(error, distinct) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var all ivSeries
	for _, b := range benches(rs) {
		r := find(rs, b, tuples, l, p)
		if r == nil || r.engine(name) == nil || len(r.engine(name).Promotions) == 0 {
			continue
		}
		e := r.engine(name)
		s := seriesOf(r, e)
		if len(s.newC) == 0 {
			continue
		}
		all.add(s)
		failIv, used := 0, 0
		for i := range s.failed {
			if s.failed[i] > 0 {
				failIv++
			}
		}
		for _, u := range e.AccUsed {
			used = max(used, u)
		}
		k := float64(len(s.newC))
		fmt.Fprintf(w, "| %s | %d | %.1f | %.0f | %.1f | %.0f | %d | %d / %d | %.1f | %s | %s | %s | %s |\n", b, len(s.newC), sum(s.newC)/k, maxOf(s.newC), sum(s.prom)/k,
			sum(s.failed), failIv, used, e.AccEntries, sum(s.fp)/k,
			fmtR(pearson(s.fp, s.newC)), fmtR(pearson(s.fp, s.distinct)), fmtR(pearson(s.err, s.newC)), fmtR(pearson(s.err, s.distinct)))
	}
	fmt.Fprintf(w, "| **all intervals** | %d | | | | %.0f | | | | **%s** | **%s** | **%s** | **%s** |\n\n", len(all.newC), sum(all.failed),
		fmtR(pearson(all.fp, all.newC)), fmtR(pearson(all.fp, all.distinct)), fmtR(pearson(all.err, all.newC)), fmtR(pearson(all.err, all.distinct)))
}

// worstIntervals lists, for the benchmark where the engine's mean error is
// largest, its intervals with the most new candidates and the interval
// with the most distinct tuples. The engine has n tables of Z counters in
// all: the last column is §6.2's false-positive probability with the new
// candidates in the place of the 100/t tuples above the threshold,
// (n·new/Z)^n, times the interval's non-candidate tuples.
func worstIntervals(w *bytes.Buffer, rs []Result, tuples string, l uint64, p float64, name string, n, z, top int) {
	worst, werr := "", -1.0
	for _, b := range benches(rs) {
		r := find(rs, b, tuples, l, p)
		if r == nil || r.engine(name) == nil || r.Intervals == 0 {
			continue
		}
		if e := r.engine(name); e.Error > werr {
			worst, werr = b, e.Error
		}
	}
	if worst == "" {
		return
	}
	r := find(rs, worst, tuples, l, p)
	s := seriesOf(r, r.engine(name))
	if len(s.newC) == 0 {
		return
	}
	order := make([]int, len(s.newC))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.newC[order[a]] > s.newC[order[b]] })
	rows := order[:min(top, len(order))]
	most := 0
	for i := range s.distinct {
		if s.distinct[i] > s.distinct[most] {
			most = i
		}
	}
	fmt.Fprintf(w, "%s (largest mean error of %s, %.2f%%): its %d intervals with the most new candidates, then the interval with the most distinct tuples; failed promotions in the run: %.0f.\n\n", worst, name, werr, len(rows), sum(s.failed))
	fmt.Fprintln(w, "| interval | distinct tuples | perfect candidates | new candidates | promotions | false positives | failed promotions | error % | §6.2 with new candidates |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, i := range append(rows, most) {
		fmt.Fprintf(w, "| %d | %.0f | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %.0f |\n", i, s.distinct[i], r.PerfectSeries[i], s.newC[i], s.prom[i], s.fp[i], s.failed[i], s.err[i],
			fpExpected(n, z, s.newC[i], s.distinct[i]-float64(r.PerfectSeries[i])))
	}
	fmt.Fprintln(w)
}

// fpExpected is §6.2's analysis with the new candidates as the tuples
// whose counters stand at the threshold (retained candidates are shielded
// from the start and leave no counter there): each of the interval's
// others tuples passes all n tables with probability (n·new/Z)^n.
func fpExpected(n, z int, newC, others float64) float64 {
	return others * math.Min(1, math.Pow(float64(n)*newC/float64(z), float64(n)))
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// sketchSummary is experiment 6 in one table: each design's mean error at
// the sweep's two configurations (sweep: results.json) and at the long
// run's 1M @ 0.1% (long).
func sketchSummary(sweep, long []Result) string {
	var w bytes.Buffer
	fmt.Fprintln(&w, "#### Experiment 6 in one table: mean error at equal storage")
	fmt.Fprintln(&w)
	fmt.Fprintln(&w, "| mean error | 10K @ 1% | 100K @ 0.1% | 1M @ 0.1% (long run) |")
	fmt.Fprintln(&w, "|---|---:|---:|---:|")
	meanOf := func(rs []Result, l uint64, p float64, name string) string {
		var s float64
		k := 0
		for _, b := range benches(rs) {
			r := find(rs, b, "value", l, p)
			if r == nil || r.engine(name) == nil || r.Intervals == 0 {
				continue
			}
			s += r.engine(name).Error
			k++
		}
		if k == 0 {
			return "not run"
		}
		return fmt.Sprintf("%.2f%%", s/float64(k))
	}
	for _, n := range []struct{ name, label string }{
		{"MH4 C1-R0", "multi-hash 4 tables C1-R0"}, {"SH R1-P1", "best single hash (R1-P1)"}, {"Space-Saving", "Space-Saving"},
		{"Count-Min CU + top-k", "Count-Min CU + top-k"}, {hpName, hpName}} {
		fmt.Fprintf(&w, "| %s | %s | %s | %s |\n", n.label, meanOf(sweep, 10000, 1, n.name), meanOf(sweep, 100000, 0.1, n.name), meanOf(long, 1000000, 0.1, n.name))
	}
	fmt.Fprintln(&w)
	return w.String()
}
