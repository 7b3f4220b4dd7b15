package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/outfile"
	"github.com/rvsim/rvsim/profhw/stratified"
)

const montecarloUsage = `rvsim montecarlo [flags]`

const montecarloAbout = `The Monte Carlo experiment of stratified-sampling.md §3.3 (Fig. 4): random
permutations of N tuples, t = 0.3N of them copies of one tuple, go through
each sampler; the table is the mean error of the estimate of t per N, then
the first N at which each sampler's mean error falls below --limit.
Deterministic for a seed.`

// montecarloCmd implements `rvsim montecarlo`.
func montecarloCmd(args []string, stdout, _ io.Writer) (int, error) {
	var nMin, nMax, nStep, trials, jobs int
	var rate, subs, seed uint64
	var samplers, estimator, csvFile string
	var limit float64 = 4
	c := newFlags("montecarlo", montecarloUsage, montecarloAbout, stdout)
	c.Int(&nMin, "n-min", "N", 1000, "the shortest stream (default 1000)")
	c.Int(&nMax, "n-max", "N", 20000, "the longest stream (default 20000)")
	c.Int(&nStep, "n-step", "N", 1000, "the step between stream lengths (default 1000)")
	c.Uint64(&rate, "rate", "R", 10, "the sampling rate r (default 10)")
	c.Uint64(&subs, "substreams", "N", 16, "n of H[X]n, a power of two (default 16; the paper does not give it)")
	c.Int(&trials, "trials", "N", 2500, "permutations per point (default 2500)")
	c.String(&samplers, "samplers", "LIST", "", "comma-separated samplers in the notation (default R, H[R], P, CR, H[P], H[CR])")
	c.String(&estimator, "estimator", "E", "ratio", "counter samplers: ratio (the stream length times p's share of the messages,\nper substream; default) or sum (the sum of p's messages' counts)")
	c.fs.Float64Var(&limit, "limit", 4, "")
	c.doc("limit", "PCT", "print the first N whose mean error is below this (default 4)")
	c.Uint64(&seed, "seed", "N", 1, "the experiment's seed (default 1)")
	c.Int(&jobs, "jobs", "N", runtime.GOMAXPROCS(0), "goroutines (default: the CPUs)")
	c.OutFile(&csvFile, "csv", "FILE", "also write sampler,n,mean_err_percent")
	if err := c.parse(args); err != nil {
		return 2, err
	}
	switch {
	case len(c.Args()) != 0:
		return 2, c.usagef("montecarlo: unexpected argument %q", c.Args()[0])
	case nMin < 1 || nMax < nMin || nStep < 1:
		return 2, &usageError{"montecarlo: want 1 <= --n-min <= --n-max and --n-step >= 1"}
	case (nMax-nMin)/nStep > 10000:
		return 2, &usageError{"montecarlo: more than 10000 stream lengths"}
	case trials < 1:
		return 2, &usageError{"montecarlo: --trials must be at least 1"}
	case rate < 1 || rate > 1<<24:
		return 2, &usageError{"montecarlo: --rate must be in [1, 16777216]"}
	case subs < 1 || subs > 1<<20 || subs&(subs-1) != 0:
		return 2, &usageError{"montecarlo: --substreams must be a power of two in [1, 1048576]"}
	case estimator != "ratio" && estimator != "sum":
		return 2, &usageError{fmt.Sprintf("montecarlo: --estimator %q: want ratio or sum", estimator)}
	}
	cfg := stratified.MCConfig{Rate: rate, Substreams: subs, Trials: trials, Frac: 0.3, Seed: seed, Jobs: max(jobs, 1), Ratio: estimator == "ratio"}
	for n := nMin; n <= nMax; n += nStep {
		cfg.Ns = append(cfg.Ns, n)
	}
	if samplers != "" {
		cfg.Samplers = splitOutsideBrackets(samplers)
	} else {
		cfg.Samplers = stratified.Fig4Samplers(rate, subs)
	}
	var files cmdFiles
	if err := c.files(&files.Set); err != nil {
		return 2, err
	}
	var csvOut *outfile.File
	if csvFile != "" { // fail before the long run, not after
		f, err := files.create("--csv", csvFile)
		if err != nil {
			return 1, err
		}
		defer files.Abandon()
		csvOut = f
	}
	pts, err := stratified.MonteCarlo(cfg)
	if err != nil {
		return 2, &usageError{err.Error()}
	}
	// The table: one row per N, one column per sampler.
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "N\t%s\t\n", strings.Join(cfg.Samplers, "\t"))
	for ni, n := range cfg.Ns {
		fmt.Fprintf(tw, "%d\t", n)
		for si := range cfg.Samplers {
			fmt.Fprintf(tw, "%.2f\t", pts[si*len(cfg.Ns)+ni].MeanErr)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nmean ERR %% over %d trials, r = %d, t = 0.3N, estimator %s, seed %d\n", trials, rate, estimator, seed)
	below := stratified.FirstBelow(pts, limit)
	fmt.Fprintf(stdout, "first N with mean error below %g%%:\n", limit)
	for _, s := range cfg.Samplers {
		if n := below[s]; n != 0 {
			fmt.Fprintf(stdout, "  %-12s %d\n", s, n)
		} else {
			fmt.Fprintf(stdout, "  %-12s not in the grid\n", s)
		}
	}
	if csvOut != nil {
		var b bytes.Buffer
		b.WriteString("sampler,n,mean_err_percent\n")
		for _, p := range pts {
			fmt.Fprintf(&b, "%s,%d,%.4f\n", p.Sampler, p.N, p.MeanErr)
		}
		csvOut.Write(b.Bytes())
		if errs := files.Close(); len(errs) > 0 {
			return 1, errs[0]
		}
	}
	return 0, nil
}

// splitOutsideBrackets splits a list of compressor names at the commas
// that are not inside T[…] or H[…].
func splitOutsideBrackets(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
