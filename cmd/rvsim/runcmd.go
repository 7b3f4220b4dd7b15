package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

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
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.Uint64Var(&f.maxInsts, "max-insts", 0, "")
	fs.StringVar(&f.trace, "trace", "", "")
	fs.StringVar(&f.stats, "stats", "", "")
	fs.StringVar(&f.root, "root", "", "")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "")
	fs.BoolVar(&f.difftest, "difftest", false, "")
	fs.StringVar(&f.mode, "mode", "functional", "")
	fs.StringVar(&f.config, "config", "", "")
	fs.StringVar(&f.preset, "preset", "", "")
	fs.Uint64Var(&f.interval, "interval", 0, "")
	fs.StringVar(&f.intervalOut, "interval-out", "rvsim-intervals.csv", "")
	fs.BoolVar(&f.summary, "summary", false, "")
	fs.BoolVar(&f.hostTime, "host-time", false, "")
	fs.BoolVar(&f.clearEnv, "clear-env", false, "")
	fs.Var(&f.allowWrite, "allow-write", "")
	fs.Var(&f.env, "env", "")
	fs.Var(&f.unsets, "unset-env", "")
	f.dise.register(fs)
	f.profhw.register(fs)
}

// parseFlags parses flags up to the first non-flag argument with errors
// reported in one line rather than the flag package's usage dump.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		return &usageError{err.Error() + " (try 'rvsim help')"}
	}
	return nil
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

func runCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	if fs.NArg() == 0 {
		return 2, &usageError{"run: missing PROGRAM (try 'rvsim help')"}
	}
	env, err := f.guestEnv()
	if err != nil {
		return 2, err
	}
	cfg := sim.Config{
		Program:  fs.Arg(0),
		Args:     fs.Args()[1:],
		Env:      env,
		MaxInsts: f.maxInsts,
		CountMix: f.stats != "",
		Kernel: syscalls.Config{
			Root: f.root, AllowWrite: f.allowWrite, HostTime: f.hostTime,
			Stdin: stdin, Stdout: stdout, Stderr: stderr, Warn: stderr,
		},
	}
	if cfg.DISE, err = f.dise.options(); err != nil {
		return 2, err
	}
	if cfg.Timing, err = f.machine(); err != nil {
		return 2, err
	}
	if cfg.ProfHW, err = f.profhw.configs(); err != nil {
		return 2, err
	}
	if f.trace != "" {
		tf, err := os.Create(f.trace)
		if err != nil {
			return 2, errors.Unwrap(err)
		}
		defer tf.Close()
		cfg.Trace = tf
	}
	if f.difftest && (f.trace != "" || f.stats != "" || cfg.DISE != nil || cfg.Timing != nil || cfg.ProfHW != nil) {
		return 2, &usageError{"--difftest cannot be combined with --trace, --stats, --mode timing, DISE or profhw flags"}
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		return 2, err
	}
	if f.difftest {
		return runDifftest(mc, f.maxInsts, stdout, stderr), nil
	}
	if f.interval != 0 {
		w, err := os.Create(f.intervalOut)
		if err != nil {
			return 2, errors.Unwrap(err)
		}
		defer w.Close()
		mc.Timing().SetIntervalWriter(w, f.interval)
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			return 2, err
		}
		defer stop()
	}
	res := mc.Run()
	if res.Message != "" {
		fmt.Fprintf(stderr, "rvsim: %s\n", res.Message)
	}
	if res.TimingErr != nil {
		return 2, fmt.Errorf("timing model: %v", res.TimingErr)
	}
	if f.summary {
		writeSummary(stderr, mc, &res)
	}
	if err := f.dise.finish(mc); err != nil {
		return 2, err
	}
	if err := f.profhw.finish(mc, &res); err != nil {
		return 2, err
	}
	if f.stats != "" {
		data, _ := json.MarshalIndent(mc.Stats(&res), "", "  ")
		if err := os.WriteFile(f.stats, append(data, '\n'), 0o644); err != nil {
			return 2, err
		}
	}
	return res.ExitCode, nil
}

// machine returns the timing model's machine for --mode timing, or nil.
func (f *runFlags) machine() (*config.Machine, error) {
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
		res.Instructions, res.HostSeconds, res.MIPS(), res.ExitCode)
	if core := mc.Timing(); core != nil {
		core.Summary(w)
	}
}
