package main

import (
	"bytes"
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

const compareUsage = `rvsim compare [--profilers LIST] [--benchmarks LIST|all] [flags]`

const compareAbout = `Runs each benchmark once with profiling off and once per profiler, checks
that every run prints the expected output, and prints a table per program:
cost (cycles in timing mode, instructions in functional mode), overhead
relative to the unprofiled run, replacements, injected and handler
instructions; in timing mode also where the extra cycles go (CPI stack).
The tables are also written as CSV and Markdown.

A profiler is a shipped ACF (acf/NAME.acf: see 'rvsim compare --list'), a
path to an .acf file, or several joined with '+' (hps-triggers+call-pair).
Two names stand for the HPS paper's comparison, each profile type sampled
by DISE alone and by HPS: events (sampling 1/100 events, as the paper
does: the default) and windows (1/100 of the instructions, --trigger).
A profhw preset (retire-stage hardware: 'rvsim profhw list') is a profiler
too: its rows also give its error against the exact profile, its storage
in bits and its analytic delivery overhead.
Exit status 1 if a run failed.`

// compareCmd implements `rvsim compare`.
func compareCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var profilers, benchmarks, mode, preset, machine, trigger, input, out, handlers, acfDir, src, bin, suiteFile string
	var jobs int
	var maxInsts uint64
	var list bool
	var sets listFlag
	c := newFlags("compare", compareUsage, compareAbout, stdout)
	c.String(&profilers, "profilers", "LIST", compare.DefaultSet, "comma-separated profilers (default "+compare.DefaultSet+")")
	c.String(&benchmarks, "benchmarks", "LIST", "all", "comma-separated benchmark names, or all (default all)")
	c.String(&mode, "mode", "MODE", "functional", "functional (default) or timing")
	c.String(&preset, "preset", "NAME", "hps", "timing: the machine preset (default hps; see 'rvsim config list')")
	c.InFile(&machine, "config", "FILE", "timing: a machine configuration file instead of a preset (also --machine)")
	c.Alias("machine", "config")
	c.String(&trigger, "trigger", "T", "periodic:100000:1000", "external trigger of the window-sampled profilers (default periodic:100000:1000,\ni.e. 1/100 of the instructions): periodic:PERIOD:LENGTH or random:P:LENGTH[:SEED]")
	c.String(&input, "input", "NAME", "test", "benchmark input: test (default) or ref")
	c.Int(&jobs, "jobs", "N", runtime.NumCPU(), "runs at once (default: the number of cores)")
	c.Uint64(&maxInsts, "max-insts", "N", 0, "stop each run after N application instructions (output then not checked)")
	c.String(&out, "out", "DIR", filepath.Join("build", "compare"), "where compare.csv and compare.md go (default build/compare)")
	c.Var(&sets, "dise", "KEY=VALUE", "DISE hardware setting (pt_entries, rt_entries, counters, counter_bits, ...)")
	c.InFile(&handlers, "handlers", "ELF", "the handler runtime (default: the one make builds)")
	c.String(&acfDir, "acf-dir", "DIR", "acf", "where shipped ACFs are (default acf)")
	c.String(&src, "src", "DIR", "benchmarks", "benchmark sources (default benchmarks)")
	c.String(&bin, "bin", "DIR", filepath.Join("build", "benchmarks"), "benchmark binaries (default build/benchmarks)")
	c.String(&suiteFile, "suite", "FILE", "", "compare on the workloads of a suite file (docs/SUITES.md), or of the real suite (real), instead of the built-in suite")
	c.Bool(&list, "list", "list the shipped profilers and exit")
	if err := c.parse(args); err != nil {
		return 2, err
	}
	if err := c.positive("max-insts", "leave the flag out for no limit"); err != nil {
		return 2, err
	}
	if list {
		for _, n := range compare.Shipped(acfDir) {
			fmt.Fprintln(stdout, n)
		}
		for _, n := range profhw.Presets() {
			fmt.Fprintln(stdout, n, "(profhw)")
		}
		return 0, nil
	}
	if len(c.Args()) > 0 {
		return 2, c.usagef("compare: unexpected argument %q", c.Args()[0])
	}
	if profilers == "" || benchmarks == "" {
		return 2, c.usagef("compare: need --profilers LIST and --benchmarks LIST|all")
	}
	cfg, err := diseConfig(sets)
	if err != nil {
		return 2, err
	}
	if trigger != "" {
		if _, err := dise.ParseTrigger(trigger); err != nil {
			return 2, &usageError{"--trigger: " + err.Error()}
		}
	}
	opt := compare.Options{Input: input, Jobs: jobs, MaxInsts: maxInsts, Handlers: handlers, DISE: cfg, Progress: stderr}
	switch mode {
	case "functional":
	case "timing":
		opt.Timing = true
		var err error
		if machine != "" {
			opt.Machine, err = config.Load(machine)
		} else {
			opt.Machine, err = config.Preset(preset)
		}
		if err != nil {
			return 2, err
		}
	default:
		return 2, &usageError{fmt.Sprintf("--mode %q: want functional or timing", mode)}
	}
	if opt.Profilers, err = compare.ResolveProfilers(strings.Split(profilers, ","), acfDir, trigger, cfg); err != nil {
		return 2, err
	}
	all, err := loadSuite(suiteFile, src, bin)
	if err != nil {
		return 2, err
	}
	if opt.Benchmarks, err = suite.Select(all, strings.Split(benchmarks, ",")); err != nil {
		return 2, err
	}
	// What the runs read are inputs, --out's two files outputs (outfile).
	var files cmdFiles
	if err := c.files(&files.Set); err != nil {
		return 2, err
	}
	for _, p := range opt.Profilers {
		for _, a := range p.ACF {
			if err := files.input("--profilers", a); err != nil {
				return 2, err
			}
		}
	}
	for _, b := range opt.Benchmarks {
		if err := files.input("--bin", b.Binary); err != nil {
			return 2, err
		}
	}
	if err := asUsage(files.Stdio(nil, stdout, stderr)); err != nil {
		return 2, err
	}
	outNames := []string{"compare.csv", "compare.md"}
	if out != "" {
		if err := files.OutputDir("--out", out, outNames); err != nil {
			return 2, asUsage(err)
		}
	}
	res, err := compare.Compare(opt)
	if err != nil {
		return 2, err
	}
	res.WriteText(stdout)
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return 2, err
		}
		var csvBuf, md bytes.Buffer
		if err := res.WriteCSV(&csvBuf); err != nil {
			return 2, err
		}
		res.WriteMarkdown(&md)
		for i, data := range [][]byte{csvBuf.Bytes(), md.Bytes()} {
			if err := files.WriteFile("--out", outNames[i], data); err != nil {
				return 2, err
			}
		}
		fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(out, "compare.csv"), filepath.Join(out, "compare.md"))
	}
	if f := res.Failed(); len(f) > 0 {
		return 1, fmt.Errorf("%d of %d runs failed", len(f), len(res.Benchmarks)*len(res.Profilers))
	}
	return 0, nil
}
