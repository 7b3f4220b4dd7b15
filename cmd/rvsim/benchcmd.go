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
const jitHelp = "translate hot code to host code (amd64 hosts; runs that trace,\nuse DISE, a profhw tap other than a value or control tap, or timing\nmode always interpret; --stats and --summary give the share\ntranslated); off: interpret everything"

// jitFlag parses --jit.
func jitFlag(s string) (bool, error) { return onOffFlag("jit", s) }

// onOffFlag parses the value of an on|off flag.
func onOffFlag(name, s string) (bool, error) {
	switch s {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, fmt.Errorf("--%s: want on or off, got %q", name, s)
}

// benchmarksCmd runs the benchmark suite and prints a table per program.
func benchmarksCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var input, src, bin, suiteFile string
	var jobs, rounds int
	var qemu bool
	var maxInsts uint64
	var mf runFlags // the timing-mode flags, as for run
	c := newFlags("benchmarks", benchUsage, benchAbout, stdout)
	c.String(&input, "input", "NAME", "test", "which input to run: test (default) or ref")
	c.Int(&jobs, "jobs", "N", 1, "run N programs at once (default 1; use 1 for speed figures)")
	c.Bool(&qemu, "qemu", "also time qemu-riscv64 on the same inputs: each program under rvsim, then under\nqemu-riscv64, alternating, --rounds times, one program at a time; the best CPU\ntime of each is compared")
	c.Int(&rounds, "rounds", "N", 3, "with --qemu: rounds of alternating runs (default 3)")
	c.String(&mf.mode, "mode", "MODE", "functional", "functional (default) or timing")
	c.String(&mf.jit, "jit", "on|off", "on", jitHelp)
	c.String(&mf.config, "config", "FILE", "", "timing mode: the machine file")
	c.String(&mf.preset, "preset", "NAME", "", "timing mode: a named machine")
	c.Var(&mf.profhw.files, "profhw", "FILE", "attach the profiling units of a TOML file to every run (repeatable)")
	c.Var(&mf.profhw.presets, "profhw-preset", "NAME", "attach a shipped profhw preset's units to every run (repeatable)")
	c.Var(&mf.profhw.sets, "profhw-set", "KEY=VALUE", "set a key in every attached unit (repeatable), e.g. error.exact=false")
	mf.profhw.registerStallCost(c)
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
	if rounds < 1 {
		return 2, &usageError{fmt.Sprintf("--rounds %d: want at least 1", rounds)}
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
	units, err := mf.profhw.configs(machine != nil)
	if err != nil {
		return 2, err
	}
	opt := suite.Options{MaxInsts: maxInsts, Timing: machine, ProfHW: units, JIT: jit, UnmeasuredStalls: mf.profhw.unmeasuredStalls}
	var outs []suite.Outcome
	var vs []suite.Versus
	if qemu {
		vs = suite.AgainstQemu(bs, input, rounds, opt, func(round int, b suite.Benchmark) {
			fmt.Fprintf(stderr, "round %d/%d: %s under rvsim, then qemu-riscv64…\n", round, rounds, b.Name)
		})
		for _, v := range vs {
			if v.Outcome.Benchmark == "" { // its input was not found
				return 2, fmt.Errorf("%s: %s", v.Name, v.Why)
			}
			outs = append(outs, v.Outcome)
		}
	} else if outs, err = suite.RunAll(bs, input, opt, jobs, stderr); err != nil {
		return 2, err
	}
	suite.WriteTable(stdout, outs)
	mips := make([]float64, 0, len(outs))
	for _, o := range outs {
		mips = append(mips, o.Result.MIPS())
	}
	fmt.Fprintf(stdout, "geometric mean: %.2f MIPS over %d programs (%s inputs, %s mode)\n", geomean(mips), len(outs), input, mf.mode)
	if qemu {
		if err := qemuTable(stdout, vs, rounds); err != nil {
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

// qemuTable prints each program's best CPU time under rvsim and under
// qemu-riscv64 and their ratio, with the ratios' geometric mean; a
// program whose qemu-riscv64 run failed is named, and the error returned.
func qemuTable(stdout io.Writer, vs []suite.Versus, rounds int) error {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\trvsim s\tqemu-riscv64 s\trvsim/qemu\t")
	var ratios []float64
	var failed []string
	for _, v := range vs {
		r, q := suite.Best(v.Rvsim).CPU, suite.Best(v.Qemu).CPU
		if len(v.Qemu) < len(v.Rvsim) || r <= 0 || q <= 0 {
			if strings.HasPrefix(v.Why, "qemu-riscv64") {
				failed = append(failed, v.Name+": "+v.Why)
			}
			fmt.Fprintf(tw, "%s\t—\t—\t—\t\n", v.Name)
			continue
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.2f\t\n", v.Name, r, q, r/q)
		ratios = append(ratios, r/q)
	}
	tw.Flush()
	if len(ratios) > 0 {
		fmt.Fprintf(stdout, "rvsim time / qemu-riscv64 time (CPU, best of %d alternating rounds): geometric mean %.2f over %d programs\n",
			rounds, geomean(ratios), len(ratios))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s", strings.Join(failed, "; "))
	}
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
