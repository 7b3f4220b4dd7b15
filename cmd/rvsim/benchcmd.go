package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/suite"
)

const benchUsage = `rvsim benchmarks [flags] [NAMES...]`

const benchAbout = `Runs the benchmark suite (default: every program, test inputs) and checks
each program's output, exit status and stderr against the expected ones;
prints a table per program and the geometric mean of the MIPS. Exit
status 1 if a program failed.`

// jitHelp is the --jit flag's help.
const jitHelp = "translate hot code to host code (amd64 hosts; runs that trace,\ncount classes, use DISE, profhw taps or timing mode always\ninterpret); off: interpret everything"

// jitFlag parses --jit.
func jitFlag(s string) (bool, error) {
	switch s {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("--jit: want on or off, got %q", s)
}

// benchmarksCmd runs the benchmark suite and prints a table per program.
func benchmarksCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var input, src, bin, suiteFile string
	var jobs int
	var qemu bool
	var maxInsts uint64
	var mf runFlags // the timing-mode flags, as for run
	c := newFlags("benchmarks", benchUsage, benchAbout, stdout)
	c.String(&input, "input", "NAME", "test", "which input to run: test (default) or ref")
	c.Int(&jobs, "jobs", "N", 1, "run N programs at once (default 1; use 1 for speed figures)")
	c.Bool(&qemu, "qemu", "also time qemu-riscv64 on the same runs")
	c.String(&mf.mode, "mode", "MODE", "functional", "functional (default) or timing")
	c.String(&mf.jit, "jit", "on|off", "on", jitHelp)
	c.String(&mf.config, "config", "FILE", "", "timing mode: the machine file")
	c.String(&mf.preset, "preset", "NAME", "", "timing mode: a named machine")
	c.Var(&mf.profhw.files, "profhw", "FILE", "attach the profiling units of a TOML file to every run (repeatable)")
	c.Var(&mf.profhw.presets, "profhw-preset", "NAME", "attach a shipped profhw preset's units to every run (repeatable)")
	c.Var(&mf.profhw.sets, "profhw-set", "KEY=VALUE", "set a key in every attached unit (repeatable), e.g. error.exact=false")
	c.Uint64(&maxInsts, "max-insts", "N", 0, "stop each run after N instructions (N >= 1; the run then fails)")
	c.String(&src, "src", "DIR", "benchmarks", "benchmark sources and expected outputs")
	c.String(&bin, "bin", "DIR", "build/benchmarks", "benchmark binaries")
	c.String(&suiteFile, "suite", "FILE", "", "run the workloads of a suite file (docs/SUITES.md), or of the real suite (real), instead of the built-in suite")
	if err := c.parse(args); err != nil {
		return 2, err
	}
	if err := c.positive("max-insts", "leave the flag out for no limit"); err != nil {
		return 2, err
	}
	all, err := loadSuite(suiteFile, src, bin)
	if err != nil {
		return 2, err
	}
	bs, err := suite.Select(all, c.Args())
	if err != nil {
		return 2, err
	}
	machine, err := mf.machine()
	if err != nil {
		return 2, err
	}
	jit, err := jitFlag(mf.jit)
	if err != nil {
		return 2, err
	}
	units, err := mf.profhw.configs()
	if err != nil {
		return 2, err
	}
	outs, err := suite.RunAll(bs, input, suite.Options{MaxInsts: maxInsts, Timing: machine, ProfHW: units, JIT: jit}, jobs, stderr)
	if err != nil {
		return 2, err
	}
	suite.WriteTable(stdout, outs)
	mips := make([]float64, 0, len(outs))
	for _, o := range outs {
		mips = append(mips, o.Result.MIPS())
	}
	fmt.Fprintf(stdout, "geometric mean: %.2f MIPS over %d programs (%s inputs, %s mode)\n", geomean(mips), len(outs), input, mf.mode)
	if qemu {
		if err := qemuTable(stdout, stderr, bs, outs, input); err != nil {
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

// loadSuite returns the workloads of a suite file, of the real suite
// ("real", paths from the working directory's suite/), or the built-in
// suite with its sources in src and binaries in bin.
func loadSuite(file, src, bin string) ([]suite.Benchmark, error) {
	return suite.Named(file, src, bin, ".")
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
