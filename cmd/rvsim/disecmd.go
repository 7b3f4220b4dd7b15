package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
)

// diseFlags are run's DISE/HPS flags.
type diseFlags struct {
	acf                          listFlag
	handlers, trigger, profileTo string
	sets                         listFlag
}

func (f *diseFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.acf, "acf", "")
	fs.StringVar(&f.handlers, "handlers", "", "")
	fs.StringVar(&f.trigger, "trigger", "", "")
	fs.StringVar(&f.profileTo, "profile-out", "", "")
	fs.Var(&f.sets, "dise", "")
}

// options returns the sim options, or nil when no ACF is given.
func (f *diseFlags) options() (*sim.DISEOptions, error) {
	if len(f.acf) == 0 {
		for _, x := range []struct{ name, v string }{{"handlers", f.handlers}, {"trigger", f.trigger}, {"profile-out", f.profileTo}} {
			if x.v != "" {
				return nil, &usageError{fmt.Sprintf("--%s needs --acf FILE", x.name)}
			}
		}
		if len(f.sets) > 0 {
			return nil, &usageError{"--dise needs --acf FILE"}
		}
		return nil, nil
	}
	cfg, err := diseConfig(f.sets)
	if err != nil {
		return nil, err
	}
	if f.trigger != "" {
		if _, err := dise.ParseTrigger(f.trigger); err != nil {
			return nil, &usageError{"--trigger: " + err.Error()}
		}
	}
	return &sim.DISEOptions{ACF: f.acf, Handlers: f.handlers, Trigger: f.trigger, Config: &cfg}, nil
}

// diseKeys are the --dise KEY=VALUE settings.
var diseKeys = map[string]func(*dise.Config) *int{
	"pt_entries":     func(c *dise.Config) *int { return &c.PTEntries },
	"ct_entries":     func(c *dise.Config) *int { return &c.CTEntries },
	"ct_inputs":      func(c *dise.Config) *int { return &c.CTInputs },
	"ct_micro_ops":   func(c *dise.Config) *int { return &c.CTMicroOps },
	"rt_entries":     func(c *dise.Config) *int { return &c.RTEntries },
	"counters":       func(c *dise.Config) *int { return &c.Counters },
	"counter_bits":   func(c *dise.Config) *int { return &c.CounterBits },
	"decode_penalty": func(c *dise.Config) *int { return &c.DecodePenalty },
}

// diseConfig is the default DISE configuration with the --dise KEY=VALUE
// settings applied, validated.
func diseConfig(sets []string) (dise.Config, error) {
	cfg := dise.DefaultConfig()
	for _, kv := range sets {
		if err := setDISEConfig(&cfg, kv); err != nil {
			return cfg, &usageError{err.Error()}
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, &usageError{err.Error()}
	}
	return cfg, nil
}

func setDISEConfig(c *dise.Config, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	field, known := diseKeys[k]
	if !ok || !known {
		names := make([]string, 0, len(diseKeys))
		for n := range diseKeys {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("--dise %q: want KEY=VALUE with KEY one of %s", kv, strings.Join(names, ", "))
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("--dise %s: %q is not an integer", k, v)
	}
	*field(c) = n
	return nil
}

// finish writes --profile-out after a run.
func (f *diseFlags) finish(mc *sim.Machine) error {
	if f.profileTo == "" {
		return nil
	}
	ps, err := mc.Profiles()
	if err != nil {
		return fmt.Errorf("--profile-out: %v", err)
	}
	var b bytes.Buffer
	if err := profile.Write(&b, ps); err != nil {
		return err
	}
	return os.WriteFile(f.profileTo, b.Bytes(), 0o644)
}

// acfCmd implements `rvsim acf [--dise KEY=VALUE] FILE...`: check ACF files
// and show what they take of the hardware tables.
func acfCmd(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("acf", flag.ContinueOnError)
	var sets listFlag
	fs.Var(&sets, "dise", "")
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	if fs.NArg() == 0 {
		return 2, &usageError{"acf: want ACF FILEs to check (try 'rvsim help')"}
	}
	cfg, err := diseConfig(sets)
	if err != nil {
		return 2, err
	}
	prog, err := dise.LoadFiles(cfg, fs.Args()...)
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "ok: %d productions (%s)\n", len(prog.Productions()), strings.Join(prog.Productions(), ", "))
	fmt.Fprintf(stdout, "pattern table %d/%d, conditionals table %d/%d, replacement table %d/%d\n",
		prog.PTUsed, cfg.PTEntries, prog.CTUsed, cfg.CTEntries, prog.RTUsed, cfg.RTEntries)
	if h := prog.Handlers(); len(h) > 0 {
		fmt.Fprintf(stdout, "handlers: %s\n", strings.Join(h, ", "))
	}
	if prog.UsesTriggers() {
		fmt.Fprintln(stdout, "acts on hps.on/hps.off: run it with --trigger")
	}
	return 0, nil
}
