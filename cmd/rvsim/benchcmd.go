package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/suite"
)

// benchmarksCmd runs the benchmark suite and prints a table per program.
func benchmarksCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("benchmarks", flag.ContinueOnError)
	input := fs.String("input", "test", "")
	src := fs.String("src", "benchmarks", "")
	bin := fs.String("bin", "build/benchmarks", "")
	jobs := fs.Int("jobs", 1, "")
	qemu := fs.Bool("qemu", false, "")
	maxInsts := fs.Uint64("max-insts", 0, "")
	var mf runFlags // the timing-mode flags, as for run
	fs.StringVar(&mf.mode, "mode", "functional", "")
	fs.StringVar(&mf.config, "config", "", "")
	fs.StringVar(&mf.preset, "preset", "", "")
	fs.Var(&mf.profhw.files, "profhw", "")
	fs.Var(&mf.profhw.presets, "profhw-preset", "")
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	all, err := suite.Discover(*src, *bin)
	if err != nil {
		return 2, err
	}
	bs, err := suite.Select(all, fs.Args())
	if err != nil {
		return 2, err
	}
	machine, err := mf.machine()
	if err != nil {
		return 2, err
	}
	units, err := mf.profhw.configs()
	if err != nil {
		return 2, err
	}
	outs, err := suite.RunAll(bs, *input, suite.Options{MaxInsts: *maxInsts, Timing: machine, ProfHW: units}, *jobs, stderr)
	if err != nil {
		return 2, err
	}
	suite.WriteTable(stdout, outs)
	mips := make([]float64, 0, len(outs))
	for _, o := range outs {
		mips = append(mips, o.Result.MIPS())
	}
	fmt.Fprintf(stdout, "geometric mean: %.2f MIPS over %d programs (%s inputs, %s mode)\n", geomean(mips), len(outs), *input, mf.mode)
	if *qemu {
		if err := qemuTable(stdout, stderr, bs, outs, *input); err != nil {
			return 1, err
		}
	}
	failed := 0
	for _, o := range outs {
		if !o.Pass {
			failed++
		}
	}
	if failed > 0 {
		return 1, fmt.Errorf("%d of %d benchmarks failed", failed, len(outs))
	}
	return 0, nil
}

// qemuTable times qemu-riscv64 on the same runs for comparison.
func qemuTable(stdout, stderr io.Writer, bs []suite.Benchmark, outs []suite.Outcome, input string) error {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\trvsim s\tqemu-riscv64 s\trvsim/qemu\t")
	var ratios []string
	for i, b := range bs {
		in, err := b.Input(input)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "timing %s under qemu-riscv64…\n", b.Name)
		q, err := suite.QemuSeconds(b, in)
		if err != nil {
			return fmt.Errorf("%s: %v", b.Name, err)
		}
		r := outs[i].Result.HostSeconds
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t\n", b.Name, r, q, r/q)
		ratios = append(ratios, fmt.Sprintf("%.2f", r/q))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "rvsim time / qemu time: %s\n", strings.Join(ratios, " "))
	return nil
}

func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(math.Max(x, 1e-9))
	}
	return math.Exp(s / float64(len(xs)))
}
