package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/profhw/stratified"
)

const montecarloHelp = `Usage: rvsim montecarlo [flags]

The Monte Carlo experiment of stratified-sampling.md §3.3 (Fig. 4): random
permutations of N tuples, t = 0.3N of them copies of one tuple, go through
each sampler; the table is the mean error of the estimate of t per N.

  --n-min 1000 --n-max 20000 --n-step 1000   the stream lengths
  --rate 10             the sampling rate r
  --substreams 16       n of H[X]n (the paper does not give it)
  --trials 2500         permutations per point
  --samplers LIST       comma-separated, in the notation (default: R, H[R], P, CR, H[P], H[CR])
  --estimator ratio     counter samplers: ratio (stream length x p's share of the
                        messages, per substream) or sum (the sum of p's messages' counts)
  --limit 4             print the first N whose mean error is below this (percent)
  --seed 1              the experiment is deterministic for a seed
  --jobs N              goroutines (default: the CPUs)
  --csv FILE            also write sampler,n,mean_err_percent
`

// montecarloCmd implements `rvsim montecarlo`.
func montecarloCmd(args []string, stdout, stderr io.Writer) (int, error) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" || a == "help" {
			fmt.Fprint(stdout, montecarloHelp)
			return 0, nil
		}
	}
	fs := flag.NewFlagSet("montecarlo", flag.ContinueOnError)
	nMin := fs.Int("n-min", 1000, "")
	nMax := fs.Int("n-max", 20000, "")
	nStep := fs.Int("n-step", 1000, "")
	rate := fs.Uint64("rate", 10, "")
	subs := fs.Uint64("substreams", 16, "")
	trials := fs.Int("trials", 2500, "")
	samplers := fs.String("samplers", "", "")
	estimator := fs.String("estimator", "ratio", "")
	limit := fs.Float64("limit", 4, "")
	seed := fs.Uint64("seed", 1, "")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "")
	csvFile := fs.String("csv", "", "")
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	switch {
	case fs.NArg() != 0:
		return 2, &usageError{fmt.Sprintf("montecarlo: unexpected argument %q (try 'rvsim montecarlo --help')", fs.Arg(0))}
	case *nMin < 1 || *nMax < *nMin || *nStep < 1:
		return 2, &usageError{"montecarlo: want 1 <= --n-min <= --n-max and --n-step >= 1"}
	case (*nMax-*nMin) / *nStep > 10000:
		return 2, &usageError{"montecarlo: more than 10000 stream lengths"}
	case *trials < 1:
		return 2, &usageError{"montecarlo: --trials must be at least 1"}
	case *rate < 1 || *rate > 1<<24:
		return 2, &usageError{"montecarlo: --rate must be in [1, 16777216]"}
	case *subs < 1 || *subs > 1<<20 || *subs&(*subs-1) != 0:
		return 2, &usageError{"montecarlo: --substreams must be a power of two in [1, 1048576]"}
	case *estimator != "ratio" && *estimator != "sum":
		return 2, &usageError{fmt.Sprintf("montecarlo: --estimator %q: want ratio or sum", *estimator)}
	}
	cfg := stratified.MCConfig{Rate: *rate, Substreams: *subs, Trials: *trials, Frac: 0.3, Seed: *seed, Jobs: max(*jobs, 1), Ratio: *estimator == "ratio"}
	for n := *nMin; n <= *nMax; n += *nStep {
		cfg.Ns = append(cfg.Ns, n)
	}
	if *samplers != "" {
		cfg.Samplers = splitOutsideBrackets(*samplers)
	} else {
		cfg.Samplers = stratified.Fig4Samplers(*rate, *subs)
	}
	var csvOut *os.File
	if *csvFile != "" { // fail before the long run, not after
		f, err := os.Create(*csvFile)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return 1, fmt.Errorf("--csv %s: %v", *csvFile, err)
		}
		defer f.Close()
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
	fmt.Fprintf(stdout, "\nmean ERR %% over %d trials, r = %d, t = 0.3N, estimator %s, seed %d\n", *trials, *rate, *estimator, *seed)
	below := stratified.FirstBelow(pts, *limit)
	fmt.Fprintf(stdout, "first N with mean error below %g%%:\n", *limit)
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
		if _, err := csvOut.Write(b.Bytes()); err != nil {
			return 1, fmt.Errorf("--csv %s: %v", *csvFile, err)
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
