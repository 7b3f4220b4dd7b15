package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rvsim/rvsim/compare"
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/suite"
)

const compareHelp = `Usage:
  rvsim compare --profilers LIST --benchmarks LIST|all [flags]

Runs each benchmark once with profiling off and once per profiler, checks
that every run prints the expected output, and prints a table per program:
cost (cycles in timing mode, instructions in functional mode), overhead
relative to the unprofiled run, replacements, injected and handler
instructions. The tables are also written as CSV and Markdown.

A profiler is a shipped ACF (acf/NAME.acf: see 'rvsim compare --list'), a
path to an .acf file, several joined with '+' (hps-triggers+call-pair), or
a profhw preset (retire-stage hardware: 'rvsim profhw list'), whose rows
also give its error against the exact profile, its storage in bits and its
analytic delivery overhead.

Flags:
  --profilers LIST     comma-separated profilers
  --benchmarks LIST    comma-separated benchmark names, or all
  --mode MODE          functional (default) or timing
  --preset NAME        timing: the machine preset (default hps; see 'rvsim config list')
  --config FILE        timing: a machine configuration file instead of a preset (also --machine)
  --trigger T          external trigger of the sampled profilers (default periodic:100000:1000,
                       i.e. 1/100 sampling): periodic:PERIOD:LENGTH or random:P:LENGTH[:SEED]
  --input NAME         benchmark input: test (default) or ref
  --jobs N             runs at once (default: the number of cores)
  --max-insts N        stop each run after N application instructions (output then not checked)
  --out DIR            where compare.csv and compare.md go (default build/compare)
  --dise KEY=VALUE     DISE hardware setting (pt_entries, rt_entries, counters, counter_bits, ...)
  --handlers FILE      the handler runtime (default: the one make builds)
  --acf-dir DIR        where shipped ACFs are (default acf)
  --src DIR, --bin DIR benchmark sources and binaries (default benchmarks, build/benchmarks)
  --list               list the shipped profilers and exit
`

// compareCmd implements `rvsim compare`.
func compareCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	profilers := fs.String("profilers", "", "")
	benchmarks := fs.String("benchmarks", "", "")
	mode := fs.String("mode", "functional", "")
	preset := fs.String("preset", "hps", "")
	machineFile := fs.String("machine", "", "")
	fs.StringVar(machineFile, "config", "", "") // the name run uses
	trigger := fs.String("trigger", "periodic:100000:1000", "")
	input := fs.String("input", "test", "")
	jobs := fs.Int("jobs", runtime.NumCPU(), "")
	maxInsts := fs.Uint64("max-insts", 0, "")
	out := fs.String("out", filepath.Join("build", "compare"), "")
	handlers := fs.String("handlers", "", "")
	acfDir := fs.String("acf-dir", "acf", "")
	src := fs.String("src", "benchmarks", "")
	bin := fs.String("bin", filepath.Join("build", "benchmarks"), "")
	list := fs.Bool("list", false, "")
	help := fs.Bool("help", false, "")
	var sets listFlag
	fs.Var(&sets, "dise", "")
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	if *help {
		fmt.Fprint(stdout, compareHelp)
		return 0, nil
	}
	if *list {
		for _, n := range compare.Shipped(*acfDir) {
			fmt.Fprintln(stdout, n)
		}
		for _, n := range profhw.Presets() {
			fmt.Fprintln(stdout, n, "(profhw)")
		}
		return 0, nil
	}
	if fs.NArg() > 0 {
		return 2, &usageError{fmt.Sprintf("compare: unexpected argument %q (try 'rvsim compare --help')", fs.Arg(0))}
	}
	if *profilers == "" || *benchmarks == "" {
		return 2, &usageError{"compare: need --profilers LIST and --benchmarks LIST|all (try 'rvsim compare --help')"}
	}
	cfg, err := diseConfig(sets)
	if err != nil {
		return 2, err
	}
	if *trigger != "" {
		if _, err := dise.ParseTrigger(*trigger); err != nil {
			return 2, &usageError{"--trigger: " + err.Error()}
		}
	}
	opt := compare.Options{Input: *input, Jobs: *jobs, MaxInsts: *maxInsts, Handlers: *handlers, DISE: cfg, Progress: stderr}
	switch *mode {
	case "functional":
	case "timing":
		opt.Timing = true
		var err error
		if *machineFile != "" {
			opt.Machine, err = config.Load(*machineFile)
		} else {
			opt.Machine, err = config.Preset(*preset)
		}
		if err != nil {
			return 2, err
		}
	default:
		return 2, &usageError{fmt.Sprintf("--mode %q: want functional or timing", *mode)}
	}
	if opt.Profilers, err = compare.ResolveProfilers(strings.Split(*profilers, ","), *acfDir, *trigger, cfg); err != nil {
		return 2, err
	}
	all, err := suite.Discover(*src, *bin)
	if err != nil {
		return 2, err
	}
	if opt.Benchmarks, err = suite.Select(all, strings.Split(*benchmarks, ",")); err != nil {
		return 2, err
	}
	res, err := compare.Compare(opt)
	if err != nil {
		return 2, err
	}
	res.WriteText(stdout)
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return 2, err
		}
		var csvBuf, md bytes.Buffer
		if err := res.WriteCSV(&csvBuf); err != nil {
			return 2, err
		}
		res.WriteMarkdown(&md)
		for name, data := range map[string][]byte{"compare.csv": csvBuf.Bytes(), "compare.md": md.Bytes()} {
			if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
				return 2, err
			}
		}
		fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(*out, "compare.csv"), filepath.Join(*out, "compare.md"))
	}
	if f := res.Failed(); len(f) > 0 {
		return 1, fmt.Errorf("%d of %d runs failed", len(f), len(res.Benchmarks)*len(res.Profilers))
	}
	return 0, nil
}
