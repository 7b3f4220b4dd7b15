package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sim"
)

const profhwHelp = `Usage:
  rvsim profhw list            the retire-stage profiling presets and the kinds of unit
  rvsim profhw show PRESET     print a preset as a commented file to edit
  rvsim profhw check FILE...   check configuration files; print their errors or "ok"
`

// profhwFlags are run's flags for the retire-stage profiling hardware.
type profhwFlags struct {
	files, presets, sets listFlag
	out                  string
	dropStalls           bool
	stallCost            string // on|off
	unmeasuredStalls     bool   // --profhw-stall-cost off
}

func (f *profhwFlags) register(c *cmdFlags) {
	c.InFiles(&f.files, "profhw", "FILE", "attach the retire-stage profiling units of a TOML file\n(repeatable; docs/PROFHW.md and 'rvsim profhw list')")
	c.Var(&f.presets, "profhw-preset", "NAME", "attach a shipped profhw preset's units (repeatable)")
	c.Var(&f.sets, "profhw-set", "KEY=VALUE", "set a key in every attached unit, e.g. error.exact=false\n(repeatable; VALUE is a TOML value or a bare word)")
	c.PathFlag(&f.out, "profhw-out", "DIR", "write each unit's NAME.summary.json, NAME.profile.json,\nNAME.exact.json, ...")
	c.Bool(&f.dropStalls, "profhw-drop-stalls", "timing mode: the units ask for commit stalls but the core\nignores them (the run's cycles without them; debugging)")
	f.registerStallCost(c)
}

// registerStallCost registers --profhw-stall-cost (run and benchmarks).
func (f *profhwFlags) registerStallCost(c *cmdFlags) {
	c.String(&f.stallCost, "profhw-stall-cost", "on|off", "on", "timing mode: measure what the units' commit stalls really cost\n(stall_cycles) with a twin of the core, a second timing model;\noff: the stalls are honoured, not measured, and the run is faster")
}

// configs loads the files and presets, in order; it also checks the
// output directory before the run starts. timing says whether the run
// has a timing model (the only one with commit stalls to measure).
func (f *profhwFlags) configs(timing bool) ([]*profhw.UnitConfig, error) {
	var cfgs []*profhw.UnitConfig
	for _, file := range f.files {
		c, err := profhw.Load(file)
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, c...)
	}
	for _, name := range f.presets {
		c, err := profhw.LoadPreset(name)
		if err != nil {
			return nil, &usageError{"--profhw-preset: " + err.Error()}
		}
		cfgs = append(cfgs, c...)
	}
	for _, s := range f.sets {
		if len(cfgs) == 0 {
			return nil, &usageError{"--profhw-set needs --profhw FILE or --profhw-preset NAME"}
		}
		key, val, err := profhw.ParseSetting(s)
		if err != nil {
			return nil, &usageError{"--profhw-set " + err.Error()}
		}
		for _, c := range cfgs {
			c.Set(key, val)
		}
	}
	if f.dropStalls && len(cfgs) == 0 {
		return nil, &usageError{"--profhw-drop-stalls needs --profhw FILE or --profhw-preset NAME"}
	}
	measure, err := onOffFlag("profhw-stall-cost", f.stallCost)
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	f.unmeasuredStalls = !measure
	if f.unmeasuredStalls && len(cfgs) == 0 {
		return nil, &usageError{"--profhw-stall-cost off needs --profhw FILE or --profhw-preset NAME"}
	}
	if f.unmeasuredStalls && !timing {
		return nil, &usageError{"--profhw-stall-cost off needs --mode timing (a functional run has no commit stalls)"}
	}
	return cfgs, nil
}

// outDir registers --profhw-out DIR, whose files are NAME.* for each
// unit NAME, and checks (creating it) that it is a writable directory,
// before the run starts.
func (f *profhwFlags) outDir(files *cmdFiles, cfgs []*profhw.UnitConfig) error {
	if f.out == "" {
		return nil
	}
	if len(cfgs) == 0 {
		return &usageError{"--profhw-out needs --profhw FILE or --profhw-preset NAME"}
	}
	var prefixes []string
	for _, c := range cfgs {
		prefixes = append(prefixes, c.Name+".")
	}
	if err := files.OutputDir("--profhw-out", f.out, prefixes); err != nil {
		return asUsage(err)
	}
	return profhw.CheckOutDir(f.out)
}

// finish writes the units' files.
func (f *profhwFlags) finish(mc *sim.Machine, res *sim.Result, files *cmdFiles, formats *formatFlags) []error {
	hub := mc.ProfHW()
	if hub == nil {
		return nil
	}
	if res.ProfHWErr != nil {
		return []error{res.ProfHWErr}
	}
	if f.out == "" {
		return nil
	}
	out, err := hub.Files(mc.CodeSymbolizer())
	if err != nil {
		return []error{err}
	}
	pp, err := formats.profhwPprof(mc, out)
	if err != nil {
		return []error{fmt.Errorf("--profhw-out: %v", err)}
	}
	out = append(out, pp...)
	var errs []error
	for i := range out {
		if err := writeProfHWFile(files, &out[i]); err != nil {
			errs = append(errs, err)
		}
		out[i] = profhw.File{} // its memory (a sorted profile) may go
	}
	return errs
}

// writeProfHWFile writes a unit's file into --profhw-out, streamed.
func writeProfHWFile(files *cmdFiles, o *profhw.File) error {
	f, err := files.CreateIn("--profhw-out", o.Name)
	if err != nil {
		return err
	}
	werr := o.WriteBuffered(f)
	if err := f.Close(); err != nil {
		return err // the write's error, named
	}
	if werr != nil {
		return fmt.Errorf("--profhw-out %s: %v", f.Path, werr)
	}
	return nil
}

// profhwCmd implements `rvsim profhw`.
func profhwCmd(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		fmt.Fprint(stderr, profhwHelp)
		return 2, nil
	}
	sub, rest := args[0], args[1:]
	for _, a := range rest {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(stdout, profhwHelp)
			return 0, nil
		}
	}
	switch sub {
	case "list":
		if len(rest) != 0 {
			return 2, &usageError{"profhw list: takes no arguments"}
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PRESET\tWHAT")
		for _, n := range profhw.Presets() {
			fmt.Fprintf(tw, "%s\t%s\n", n, profhw.PresetTitle(n))
		}
		fmt.Fprintln(tw, "\nKIND\tMECHANISM")
		for _, k := range profhw.Kinds() {
			fmt.Fprintf(tw, "%s\t%s\n", k.Name, k.Doc)
		}
		tw.Flush()
	case "show":
		if len(rest) != 1 {
			return 2, &usageError{"profhw show: want one PRESET (try 'rvsim profhw list')"}
		}
		text, err := profhw.PresetText(rest[0])
		if err != nil {
			return 2, &usageError{err.Error()}
		}
		stdout.Write(text)
	case "check":
		if len(rest) == 0 {
			return 2, &usageError{"profhw check: want FILE..."}
		}
		for _, file := range rest {
			cfgs, err := profhw.Load(file)
			if err == nil {
				_, err = profhw.Build(cfgs, profhw.Env{Mode: profhw.Timing})
			}
			if err != nil {
				return 1, err
			}
			fmt.Fprintf(stdout, "%s: ok (%d units)\n", file, len(cfgs))
		}
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, profhwHelp)
	default:
		return 2, &usageError{fmt.Sprintf("profhw: unknown subcommand %q (list, show, check)", sub)}
	}
	return 0, nil
}
