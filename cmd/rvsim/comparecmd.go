package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/compare"
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sampling"
)

const compareUsage = `rvsim compare [--profilers LIST] [--benchmarks LIST|all] [flags]
       rvsim compare ... --emit slurm DIR
       rvsim compare --cell N DIR
       rvsim compare --merge DIR [--out DIR]`

const compareAbout = `Runs each program once with profiling off and once per profiler, checks
that profiling leaves every program's output unchanged, and scores each
profiler (docs/COMPARISON.md): its cost (timing mode: the profiled run's
cycles minus the unprofiled run's, the units' analytic delivery cycles
beside them and a total that adds them; functional mode has no cycles and
shows instructions and messages), every accuracy metric of the profile it
produces against the exact profile of the same run, each named in its
column, and its storage in bits. A summary gives each profiler's mean
overhead (geometric mean of the cost ratios, minus 1) and mean errors.
The tables are written as text, CSV, Markdown and JSON (--out), with a
report a browser opens, DIR/index.html, and its figures in DIR/plots/
(docs/REPORT.md).

A profiler is a shipped ACF (acf/NAME.acf: see 'rvsim compare --list'), a
path to an .acf file, several joined with '+' (hps-triggers+call-pair), a
profhw preset ('rvsim profhw list') or a profhw .toml file. Sets: events
(the HPS paper's comparison, 1/100 events: the default), windows (1/100 of
the instructions, --trigger) and families (every profiler family).

Each run is a cell, cached in --cache by everything that decides it, so a
rerun that changes one profiler reruns only its cells. --emit slurm DIR
writes a Slurm job array (DIR/job.sbatch, one task per cell running
'rvsim compare --cell N DIR') and --merge DIR builds the tables from the
cells. Exit status 1 if a run failed.`

// compareCmd implements `rvsim compare`.
func compareCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var profilers, benchmarks, mode, preset, machine, trigger, input, out, handlers, acfDir, src, bin, suiteFile string
	var sweep, emit, cell, merge, cacheDir string
	var jobs int
	var maxInsts uint64
	var list, noCache bool
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
	c.String(&out, "out", "DIR", filepath.Join("build", "compare"), "where compare.{csv,md,json}, index.html and plots/ go (default build/compare)")
	c.Var(&sets, "dise", "KEY=VALUE", "DISE hardware setting (pt_entries, rt_entries, counters, counter_bits, ...)")
	c.InFile(&handlers, "handlers", "ELF", "the handler runtime (default: the one make builds)")
	c.String(&acfDir, "acf-dir", "DIR", "acf", "where shipped ACFs are (default acf)")
	c.String(&src, "src", "DIR", "benchmarks", "benchmark sources (default benchmarks)")
	c.String(&bin, "bin", "DIR", filepath.Join("build", "benchmarks"), "benchmark binaries (default build/benchmarks)")
	c.String(&suiteFile, "suite", "FILE", "", "compare on the workloads of a suite file (docs/SUITES.md), or of the real suite (real), instead of the built-in suite")
	c.String(&sweep, "sweep", "KEY=V1,V2,...", "", "vary one parameter: a machine key (l2.size=262144,1048576; timing mode) or a profhw\nunit key (hpt.entries=128,512,2048; sampler.rate=64,256,1024: a stratified compressor's rate)")
	c.String(&cacheDir, "cache", "DIR", "", "where the cells' results are cached (default: the cache folder of --out; none without --out)")
	c.Bool(&noCache, "no-cache", "rerun every cell (the cache is refreshed)")
	c.String(&emit, "emit", "slurm", "", "write a Slurm job array for the cells into the directory given as the argument, and exit")
	c.String(&cell, "cell", "N", "", "run cell N of the directory given as the argument (a Slurm task)")
	c.String(&merge, "merge", "DIR", "", "build the tables from the cells of DIR (written by --emit slurm and --cell)")
	c.Bool(&list, "list", "list the shipped profilers and exit")
	var sampled bool
	var sampleInterval, sampleWarmup uint64
	c.Bool(&sampled, "sampled", "timing mode: time each run over its program's SimPoint intervals\n(computed once per benchmark and input; docs/SPEED.md)")
	c.Uint64(&sampleInterval, "sample-interval", "N", sampling.DefaultInterval, "with --sampled: instructions per SimPoint interval (default 10000000)")
	warming := sampling.DefaultWarming
	c.String(&warming, "functional-warming", "on|off|N", sampling.DefaultWarming, "with --sampled: keep caches and predictors warm between the intervals;\nN: only over the last N instructions before each warm-up (default "+sampling.DefaultWarming+")")
	c.Uint64(&sampleWarmup, "sample-warmup", "M", sampling.DefaultWarmup, "with --sampled: detailed warm-up before each interval (default 1000000)")
	var samplePick string
	c.String(&samplePick, "sample-pick", "typical|centre", "typical", "with --sampled: each cluster's simulation point, as rvsim simpoint's --pick\n(default typical)")
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
	command := "rvsim compare " + strings.Join(args, " ")
	switch {
	case cell != "":
		if len(c.Args()) != 1 {
			return 2, c.usagef("compare: --cell N needs the directory: rvsim compare --cell N DIR")
		}
		n, err := strconv.Atoi(cell)
		if err != nil {
			return 2, &usageError{fmt.Sprintf("--cell %q: want a cell number", cell)}
		}
		run, err := compare.RunCell(c.Args()[0], n)
		if err != nil {
			return 2, err
		}
		fmt.Fprintf(stdout, "cell %d: %s/%s pass=%v %s\n", n, run.Benchmark, run.Label, run.Pass, run.Why)
		return 0, nil // a failed run is a result: the merge reports it
	case merge != "":
		if len(c.Args()) > 0 {
			return 2, c.usagef("compare: unexpected argument %q", c.Args()[0])
		}
		res, err := compare.Merge(merge, command)
		if err != nil {
			return 2, err
		}
		return writeCompare(res, out, stdout)
	}
	if emit != "" {
		if emit != "slurm" {
			return 2, &usageError{fmt.Sprintf("--emit %q: the only target is slurm (--emit slurm DIR)", emit)}
		}
		if len(c.Args()) != 1 {
			return 2, c.usagef("compare: --emit slurm needs the directory: --emit slurm DIR")
		}
	} else if len(c.Args()) > 0 {
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
	if cacheDir == "" && out != "" {
		cacheDir = filepath.Join(out, "cache")
	}
	opt := compare.Options{Spec: compare.Spec{Input: input, MaxInsts: maxInsts, Handlers: handlers, DISE: cfg,
		Suite: compare.SuiteSpec{File: suiteFile, Src: src, Bin: bin}, Command: command},
		Jobs: jobs, Progress: stderr, CacheDir: cacheDir, NoCache: noCache, Version: compare.Version(version)}
	if sampled {
		if mode != "timing" || maxInsts != 0 || sampleInterval < 1000 {
			return 2, &usageError{"--sampled needs --mode timing, no --max-insts, and --sample-interval of at least 1000"}
		}
		on, last, err := sampling.ParseWarming(warming)
		if err != nil {
			return 2, &usageError{"--functional-warming " + err.Error()}
		}
		pick, err := simpoint.ParsePick(samplePick)
		if err != nil {
			return 2, &usageError{"--sample-pick " + err.Error()}
		}
		opt.Sampled = &sampling.Cache{Interval: sampleInterval, Warmup: sampleWarmup, Warming: on, WarmingLast: last, Pick: pick}
	}
	switch mode {
	case "functional":
	case "timing":
		opt.Timing = true
		var m *config.Machine
		var err error
		if machine != "" {
			m, err = config.Load(machine)
		} else {
			m, err = config.Preset(preset)
		}
		if err != nil {
			return 2, err
		}
		opt.Machine, opt.MachineName = config.Format(m), m.Name
	default:
		return 2, &usageError{fmt.Sprintf("--mode %q: want functional or timing", mode)}
	}
	if opt.Profilers, err = compare.ResolveProfilers(strings.Split(profilers, ","), acfDir, trigger, cfg); err != nil {
		return 2, err
	}
	if sweep != "" {
		if opt.Sweep, err = compare.ParseSweep(sweep, opt.Profilers, opt.Timing); err != nil {
			return 2, &usageError{err.Error()}
		}
	}
	all, err := opt.Suite.Load()
	if err != nil {
		return 2, err
	}
	if benchmarks == "all" {
		for _, b := range all {
			opt.Benchmarks = append(opt.Benchmarks, b.Name)
		}
	} else {
		opt.Benchmarks = strings.Split(benchmarks, ",")
	}
	if emit != "" {
		exe, err := os.Executable()
		if err != nil {
			return 2, err
		}
		m, err := compare.EmitSlurm(&opt.Spec, c.Args()[0], exe)
		if err != nil {
			return 2, err
		}
		dir := c.Args()[0]
		fmt.Fprintf(stdout, "wrote %s and %s (%d cells)\nrun: sbatch --wait %s && rvsim compare --merge %s\n",
			filepath.Join(dir, "job.sbatch"), filepath.Join(dir, "manifest.json"), len(m.Cells), filepath.Join(dir, "job.sbatch"), dir)
		return 0, nil
	}
	// What the runs read are inputs (outfile).
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
	if err := asUsage(files.Stdio(nil, stdout, stderr)); err != nil {
		return 2, err
	}
	res, err := compare.Compare(opt)
	if err != nil {
		return 2, err
	}
	return writeCompare(res, out, stdout)
}

// writeCompare prints the tables and writes them to out.
func writeCompare(res *compare.Results, out string, stdout io.Writer) (int, error) {
	res.WriteText(stdout)
	if out != "" {
		var files cmdFiles
		names := compare.ReportFiles
		if err := files.OutputDir("--out", out, append([]string{"index.html", "plots"}, names...)); err != nil {
			return 2, asUsage(err)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return 2, err
		}
		var csvBuf, md, js bytes.Buffer
		if err := res.WriteCSV(&csvBuf); err != nil {
			return 2, err
		}
		res.WriteMarkdown(&md)
		if err := res.WriteJSON(&js); err != nil {
			return 2, err
		}
		for i, data := range [][]byte{csvBuf.Bytes(), md.Bytes(), js.Bytes()} {
			if err := files.WriteFile("--out", names[i], data); err != nil {
				return 2, err
			}
		}
		if _, err := res.WriteReport(out); err != nil {
			return 2, fmt.Errorf("--out %s: the report: %v", out, err)
		}
		fmt.Fprintf(stdout, "wrote %s, %s and %s\nreport: %s (open it in a browser; figures in %s)\n",
			filepath.Join(out, names[0]), filepath.Join(out, names[1]), filepath.Join(out, names[2]),
			filepath.Join(out, "index.html"), filepath.Join(out, "plots"))
	}
	if f := res.Failed(); len(f) > 0 {
		return 1, fmt.Errorf("%d runs failed", len(f))
	}
	return 0, nil
}
