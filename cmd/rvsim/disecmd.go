package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/outfile"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
)

// diseFlags are run's DISE/HPS flags.
type diseFlags struct {
	acf                          listFlag
	handlers, trigger, profileTo string
	sets                         listFlag
	callgrind                    string
	hpsAuthorize                 bool
	callgrindOut                 *outfile.File // created by prepare
	timing                       bool          // --mode timing: --callgrind writes the cycle profile's events
}

func (f *diseFlags) register(c *cmdFlags) {
	c.InFiles(&f.acf, "acf", "FILE", "attach the DISE/HPS engine programmed by an ACF file\n(repeatable; docs/ACF.md)")
	c.InFile(&f.handlers, "handlers", "ELF", "the profiling-handler runtime (default: the one make builds,\nbuild/handlers/rvsim-handlers.elf; your own: 'rvsim handlers\nbuild', docs/HANDLERS.md)")
	c.String(&f.trigger, "trigger", "T", "", "external sampling trigger: periodic:PERIOD:LENGTH (on for\nLENGTH instructions every PERIOD), random:P:LENGTH[:SEED]\n(each LENGTH-instruction interval with probability 1/P) or\nphase:POLICY[:key=value,...] (the phase tracker's daemon:\nPOLICY first, third, centroid or random; docs/ACF.md)")
	c.Bool(&f.hpsAuthorize, "hps-authorize", "let the program execute hps.on/hps.off itself (without it, or\n'authorize hps' in an ACF, they are illegal instructions: SIGILL)")
	c.OutFile(&f.profileTo, "profile-out", "FILE", "write the profiles the handlers collected as JSON")
	c.OutFile(&f.callgrind, "callgrind", "FILE", "write a profile in callgrind's format (KCachegrind,\ncallgrind_annotate): in timing mode the cycle profile's\nevents and calls (--cycle-profile), with an ACF the\nhot-code-region profile's")
	c.Var(&f.sets, "dise", "KEY=VALUE", "DISE hardware setting: pt_entries, ct_entries, rt_entries,\ncounters, counter_bits, decode_penalty, ... (repeatable)")
}

// options returns the sim options, or nil when no ACF is given; timing
// says the run is in timing mode.
func (f *diseFlags) options(timing bool) (*sim.DISEOptions, error) {
	f.timing = timing
	if len(f.acf) == 0 {
		for _, x := range []struct{ name, v string }{{"handlers", f.handlers}, {"trigger", f.trigger}, {"profile-out", f.profileTo}} {
			if x.v != "" {
				return nil, &usageError{fmt.Sprintf("--%s needs --acf FILE", x.name)}
			}
		}
		if f.callgrind != "" && !timing {
			return nil, &usageError{"--callgrind needs --mode timing (the cycle profile) or --acf FILE (a hot-code-region profile)"}
		}
		if len(f.sets) > 0 {
			return nil, &usageError{"--dise needs --acf FILE"}
		}
		if f.hpsAuthorize {
			return nil, &usageError{"--hps-authorize needs --acf FILE"}
		}
		return nil, nil
	}
	cfg, err := diseConfig(f.sets)
	if err != nil {
		return nil, err
	}
	if f.trigger != "" {
		if err := sim.ParseTrigger(f.trigger); err != nil {
			return nil, &usageError{"--trigger: " + err.Error()}
		}
	}
	return &sim.DISEOptions{ACF: f.acf, Handlers: f.handlers, Trigger: f.trigger, Config: &cfg, AuthorizeHPS: f.hpsAuthorize}, nil
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
	if err := cfg.Validate(); err != nil { // only a --dise value can be out of range
		return cfg, &usageError{"--dise " + strings.TrimPrefix(err.Error(), "dise: ")}
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

// prepare checks, before the run, that --profile-out has profiles to
// write and --callgrind a hot-code-region profile (reading the handlers'
// tables, still empty, does that) and creates their files.
func (f *diseFlags) prepare(mc *sim.Machine, files *cmdFiles) (*outfile.File, error) {
	if f.callgrind != "" && len(f.acf) == 0 {
		var err error
		f.callgrindOut, err = files.create("--callgrind", f.callgrind)
		return nil, err
	}
	if f.profileTo == "" && f.callgrind == "" {
		return nil, nil
	}
	ps, err := mc.Profiles()
	if err != nil {
		flag := "--profile-out"
		if f.profileTo == "" {
			flag = "--callgrind"
		}
		return nil, &usageError{fmt.Sprintf("%s: %v", flag, err)}
	}
	if f.callgrind != "" {
		if _, ok := codeRegions(ps); !ok && !f.timing {
			return nil, &usageError{"--callgrind: the ACF fills no hot-code-region profile"}
		}
		if f.callgrindOut, err = files.create("--callgrind", f.callgrind); err != nil {
			return nil, err
		}
	}
	if f.profileTo == "" {
		return nil, nil
	}
	return files.create("--profile-out", f.profileTo)
}

// codeRegions returns the hot-code-region profile among ps.
func codeRegions(ps []profile.Profile) (profile.Profile, bool) {
	for _, p := range ps {
		if p.Type == profile.CodeRegion {
			return p, true
		}
	}
	return profile.Profile{}, false
}

// finish writes --profile-out and --callgrind after a run.
func (f *diseFlags) finish(mc *sim.Machine, w *outfile.File, formats *formatFlags) error {
	if w == nil && f.callgrindOut == nil {
		return nil
	}
	var ps []profile.Profile
	if len(f.acf) > 0 {
		var err error
		if ps, err = mc.Profiles(); err != nil {
			return fmt.Errorf("--profile-out: %v", err)
		}
	}
	if f.callgrindOut != nil {
		if err := f.writeCallgrind(mc, ps); err != nil {
			return fmt.Errorf("--callgrind: %v", err)
		}
	}
	if w == nil {
		return nil
	}
	data, err := formats.profiles(mc, ps)
	if err != nil {
		return fmt.Errorf("--profile-out: %v", err)
	}
	w.Write(data) // an error is Close's
	return nil
}

// writeCallgrind writes --callgrind: in timing mode the cycle profile's
// events, then (RegionIr, RegionBranches) a hot-code-region profile's if
// the ACF fills one; in functional mode that profile's alone.
func (f *diseFlags) writeCallgrind(mc *sim.Machine, ps []profile.Profile) error {
	var cg *profile.Callgrind
	if cp := mc.CycleProfile(); cp != nil {
		cg = cp.Callgrind()
	}
	if p, ok := codeRegions(ps); ok {
		rc, err := profile.RegionCallgrind(p)
		if err != nil {
			return err
		}
		if cg == nil {
			cg = rc
		} else {
			rc.Events[0].Name, rc.Events[1].Name = "RegionIr", "RegionBranches"
			cg.Merge(rc)
		}
	}
	res, err := mc.CycleResolver()
	if err != nil {
		return err
	}
	return cg.Write(f.callgrindOut, mc.Prog.Path, res) // a write error is Close's
}

const acfUsage = `rvsim acf [flags] FILE...`

const acfAbout = `Checks ACF files as 'rvsim run --acf' loads them (syntax, names, table
limits), checks their handler calls against the handler runtime (names,
arguments, profile names), and shows what they take of the DISE tables.
Warnings (on stderr) point at what is legal but probably wrong: a
replacement that writes an application register, one that can skip or
repeat T.INSN, one that no production uses. Exit status: 0 if the files
load (warnings or not), 1 if they do not, 2 for a bad command line.`

// acfCmd implements `rvsim acf [--dise KEY=VALUE] [--handlers ELF] FILE...`:
// check ACF files and show what they take of the hardware tables.
func acfCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var sets listFlag
	var handlers string
	c := newFlags("acf", acfUsage, acfAbout, stdout)
	c.String(&handlers, "handlers", "ELF", "", "the handler runtime to check calls against (default: the one 'make' builds)")
	c.Var(&sets, "dise", "KEY=VALUE", "DISE hardware setting, as for run (repeatable)")
	if err := c.parse(args); err != nil {
		return 2, err
	}
	if len(c.Args()) == 0 {
		return 2, c.usagef("acf: want ACF FILEs to check")
	}
	cfg, err := diseConfig(sets)
	if err != nil {
		return 2, err
	}
	prog, err := dise.LoadFiles(cfg, c.Args()...)
	if err != nil {
		return 1, err
	}
	// The handler calls, against the runtime they would run with.
	checked := ""
	if len(prog.Handlers()) > 0 {
		path := handlers
		if path == "" {
			path = sim.DefaultHandlers()
		}
		if path != "" {
			rt, err := sim.ReadHandlerRuntime(path)
			if err != nil {
				return 1, err
			}
			if err := prog.CheckRuntime(rt); err != nil {
				return 1, err
			}
			checked = " (checked against " + path + ")"
		} else {
			checked = " (not checked: no handler runtime; build it with make, or pass --handlers ELF)"
		}
	}
	for _, w := range prog.Warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", w.Pos, w.Msg)
	}
	fmt.Fprintf(stdout, "ok: %d productions (%s)\n", len(prog.Productions()), strings.Join(prog.Productions(), ", "))
	fmt.Fprintf(stdout, "pattern table %d/%d, conditionals table %d/%d, replacement table %d/%d\n",
		prog.PTUsed, cfg.PTEntries, prog.CTUsed, cfg.CTEntries, prog.RTUsed, cfg.RTEntries)
	if h := prog.Handlers(); len(h) > 0 {
		fmt.Fprintf(stdout, "handlers: %s%s\n", strings.Join(h, ", "), checked)
	}
	for _, np := range prog.NamedProfiles() {
		var fs []string
		for _, k := range np.Keys {
			fs = append(fs, k.Name)
		}
		fmt.Fprintf(stdout, "profile %q: %s(%s)\n", np.Name, np.Handler, strings.Join(fs, ", "))
	}
	if prog.UsesTriggers() {
		fmt.Fprintln(stdout, "acts on hps.on/hps.off: run it with --trigger")
	}
	if prog.AuthorizesHPS() {
		fmt.Fprintln(stdout, "authorizes the application's own hps.on/hps.off (authorize hps)")
	}
	return 0, nil
}
