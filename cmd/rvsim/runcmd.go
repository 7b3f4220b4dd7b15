package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// Exit statuses of `rvsim run` besides the guest's own (0-255, or 128+n
// for a fatal signal n): README, "Exit statuses".
const (
	exitUsage      = 2   // bad command line, unreadable or malformed program, ACF or configuration file, unwritable output
	exitDivergence = 3   // --difftest: rvsim and the oracle disagree
	exitLimit      = 124 // --max-insts was reached before the program ended (as timeout(1) does)
)

const runUsage = `rvsim run [flags] PROGRAM [ARGS...]`

const runAbout = `Runs a static riscv64 Linux ELF (or a bare-metal ELF with a tohost symbol).
Flags come before PROGRAM; everything after it goes to the guest. The exit
status is the guest's (128+n if a signal n killed it); 2 for a bad command
line, program or output path; 3 at a --difftest divergence; 124 when
--max-insts stopped the run.`

type runFlags struct {
	maxInsts                uint64
	trace, stats, root      string
	cpuProfile              string
	difftest                bool
	mode, config, preset    string
	interval                uint64
	intervalOut             string
	summary                 bool
	hostTime, clearEnv      bool
	allowWrite, env, unsets listFlag
	dise                    diseFlags
	profhw                  profhwFlags
	sysroot, memLimit       string
}

// register defines run's flags: one line each, with the text --help prints.
func (f *runFlags) register(c *cmdFlags) {
	c.Uint64(&f.maxInsts, "max-insts", "N", 0, "stop after N retired instructions (N >= 1); the exit status is\nthen 124")
	c.String(&f.trace, "trace", "FILE", "", "write a commit log: pc, encoding, disassembly, register\nwritten, memory address")
	c.String(&f.stats, "stats", "FILE", "", "write run statistics as JSON (instructions, mips, exit_code,\nmix, dise, ...)")
	c.String(&f.mode, "mode", "MODE", "functional", "functional (default) or timing: the out-of-order cycle-level\nmodel")
	c.String(&f.config, "config", "FILE", "", "timing mode: the machine file (see 'rvsim config show')")
	c.String(&f.preset, "preset", "NAME", "", "timing mode: a named machine (default, hpp, hps, stratified)")
	c.Uint64(&f.interval, "interval", "N", 0, "timing mode: write CPI and event counts every N instructions\nas CSV")
	c.String(&f.intervalOut, "interval-out", "FILE", "", "where --interval writes (default rvsim-intervals.csv)")
	c.Bool(&f.summary, "summary", "print a human-readable summary to stderr (speed; in timing\nmode CPI, stalls, predictors, caches)")
	c.String(&f.cpuProfile, "cpuprofile", "FILE", "", "write a pprof CPU profile of the simulator itself")
	c.Bool(&f.difftest, "difftest", "run in lock-step with Unicorn, comparing state after every\ninstruction; exit status 3 at the first divergence\n(docs/DIFFTEST.md)")
	c.String(&f.root, "root", "DIR", "", "the guest's / is DIR (default: the host's /)")
	c.Var(&f.allowWrite, "allow-write", "DIR", "also allow writes under DIR (repeatable; the working\ndirectory always is)")
	c.Bool(&f.hostTime, "host-time", "use the host's clocks (default: time derived from the\ninstruction count)")
	c.Var(&f.env, "env", "K=V", "set a guest environment variable (repeatable)")
	c.Var(&f.unsets, "unset-env", "K", "remove a guest environment variable (repeatable)")
	c.Bool(&f.clearEnv, "clear-env", "start the guest with an empty environment")
	f.dise.register(c)
	f.profhw.register(c)
	c.String(&f.sysroot, "sysroot", "DIR", "", "where a dynamic program's interpreter and libraries are found\n(default: $QEMU_LD_PREFIX, else /usr/riscv64-linux-gnu)")
	c.String(&f.memLimit, "mem-limit", "BYTES", "", "guest memory limit (K/M/G/T suffixes; default: what the host\ncan give)")
}

// guestEnv builds the guest's environment from the host's, as qemu-user does.
func (f *runFlags) guestEnv() ([]string, error) {
	var env []string
	if !f.clearEnv {
		env = os.Environ()
	}
	drop := func(key string) {
		out := env[:0]
		for _, kv := range env {
			if k, _, _ := strings.Cut(kv, "="); k != key {
				out = append(out, kv)
			}
		}
		env = out
	}
	for _, k := range f.unsets {
		drop(k)
	}
	for _, kv := range f.env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, &usageError{fmt.Sprintf("--env %q: want KEY=VALUE", kv)}
		}
		drop(k)
		env = append(env, kv)
	}
	return env, nil
}

// runOutputs are the files a run writes, created before it starts; if
// the command fails before the run, they are removed again.
type runOutputs struct {
	files   []*os.File
	stats   *os.File
	started bool
}

func (o *runOutputs) create(flagName, path string) (*os.File, error) {
	f, err := createOutput(flagName, path)
	if err == nil {
		o.files = append(o.files, f)
	}
	return f, err
}

func (o *runOutputs) close() {
	for _, f := range o.files {
		f.Close()
		if !o.started {
			os.Remove(f.Name())
		}
	}
}

func runCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var f runFlags
	c := newFlags("run", runUsage, runAbout, stdout)
	f.register(c)
	if err := c.parse(args); err != nil {
		return exitUsage, err
	}
	if len(c.Args()) == 0 {
		return exitUsage, c.usagef("run: missing PROGRAM")
	}
	if err := c.positive("max-insts", "leave the flag out for no limit"); err != nil {
		return exitUsage, err
	}
	env, err := f.guestEnv()
	if err != nil {
		return exitUsage, err
	}
	if f.sysroot == "" {
		f.sysroot = os.Getenv("QEMU_LD_PREFIX") // qemu-user's name for it
	}
	var memLimit uint64
	if f.memLimit != "" {
		if memLimit, err = mem.ParseSize(f.memLimit); err != nil {
			return 2, &usageError{"--mem-limit " + err.Error()}
		}
	}
	cfg := sim.Config{
		Program:  c.Args()[0],
		Args:     c.Args()[1:],
		Env:      env,
		MaxInsts: f.maxInsts,
		MemLimit: memLimit,
		CountMix: f.stats != "",
		Kernel: syscalls.Config{
			Root: f.root, AllowWrite: f.allowWrite, HostTime: f.hostTime, Sysroot: f.sysroot,
			Stdin: stdin, Stdout: stdout, Stderr: stderr, Warn: stderr,
		},
	}
	if cfg.DISE, err = f.dise.options(); err != nil {
		return exitUsage, err
	}
	if cfg.Timing, err = f.machine(); err != nil {
		return exitUsage, err
	}
	if cfg.ProfHW, err = f.profhw.configs(); err != nil {
		return exitUsage, err
	}
	if f.difftest && (f.trace != "" || f.stats != "" || cfg.DISE != nil || cfg.Timing != nil || cfg.ProfHW != nil) {
		return exitUsage, &usageError{"--difftest cannot be combined with --trace, --stats, --mode timing, DISE or profhw flags"}
	}
	var out runOutputs
	defer out.close()
	if f.trace != "" {
		if cfg.Trace, err = out.create("trace", f.trace); err != nil {
			return exitUsage, err
		}
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		return exitUsage, err
	}
	if f.difftest {
		out.started = true
		return runDifftest(mc, f.maxInsts, stdout, stderr), nil
	}
	// Every output is created before the run, so a bad path fails at once.
	if f.stats != "" {
		if out.stats, err = out.create("stats", f.stats); err != nil {
			return exitUsage, err
		}
	}
	if f.interval != 0 {
		path := f.intervalOut
		if path == "" {
			path = "rvsim-intervals.csv"
		}
		w, err := out.create("interval-out", path)
		if err != nil {
			return exitUsage, err
		}
		mc.Timing().SetIntervalWriter(w, f.interval)
	}
	profileOut, err := f.dise.prepare(mc, &out)
	if err != nil {
		return exitUsage, err
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			return exitUsage, &usageError{fmt.Sprintf("--cpuprofile %s: %v", f.cpuProfile, unwrapPath(err))}
		}
		defer stop()
	}
	out.started = true
	res := mc.Run()
	// A unit's failure stops the run with it as the message; the command
	// returns it as its error (below), so it is said once.
	if res.Message != "" && (res.ProfHWErr == nil || res.Message != res.ProfHWErr.Error()) {
		fmt.Fprintf(stderr, "rvsim: %s\n", res.Message)
	}
	if res.TimingErr != nil {
		return exitUsage, fmt.Errorf("timing model: %v", res.TimingErr)
	}
	if f.summary {
		writeSummary(stderr, mc, &res)
	}
	if err := f.dise.finish(mc, profileOut); err != nil {
		return exitUsage, err
	}
	if err := f.profhw.finish(mc, &res); err != nil {
		return exitUsage, err
	}
	if out.stats != nil {
		data, _ := json.MarshalIndent(mc.Stats(&res), "", "  ")
		if _, err := out.stats.Write(append(data, '\n')); err != nil {
			return exitUsage, fmt.Errorf("--stats %s: %v", f.stats, unwrapPath(err))
		}
	}
	return runStatus(&res), nil
}

// runStatus is the exit status of a finished run.
func runStatus(res *sim.Result) int {
	if res.Stop == sim.StopLimit {
		return exitLimit
	}
	return res.ExitCode
}

// machine returns the timing model's machine for --mode timing, or nil.
func (f *runFlags) machine() (*config.Machine, error) {
	if f.intervalOut != "" && f.interval == 0 {
		return nil, &usageError{"--interval-out needs --interval N (and --mode timing)"}
	}
	switch f.mode {
	case "functional":
		if f.config != "" || f.preset != "" || f.interval != 0 {
			return nil, &usageError{"--config, --preset and --interval need --mode timing"}
		}
		return nil, nil
	case "timing":
	default:
		return nil, &usageError{fmt.Sprintf("--mode %q: want functional or timing", f.mode)}
	}
	switch {
	case f.config != "" && f.preset != "":
		return nil, &usageError{"give --config FILE or --preset NAME, not both"}
	case f.config != "":
		return config.Load(f.config)
	case f.preset != "":
		return config.Preset(f.preset)
	}
	return config.Default(), nil
}

// writeSummary prints a human-readable account of the run.
func writeSummary(w io.Writer, mc *sim.Machine, res *sim.Result) {
	fmt.Fprintf(w, "rvsim: %d instructions in %.2f s (%.1f MIPS), exit status %d\n",
		res.Instructions, res.HostSeconds, res.MIPS(), runStatus(res))
	if core := mc.Timing(); core != nil {
		core.Summary(w)
	}
}
