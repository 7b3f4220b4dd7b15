package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/outfile"
	"github.com/rvsim/rvsim/sampling"
	"github.com/rvsim/rvsim/sim"
)

// Exit statuses of `rvsim run` besides the guest's own (0-255, or 128+n
// for a fatal signal n): docs/CLI.md, "Exit statuses".
const (
	exitUsage      = 2   // bad command line, unreadable or malformed program, ACF or configuration file, unwritable output, an output that is an input or another output, a failed write
	exitDivergence = 3   // --difftest: rvsim and the oracle disagree
	exitLimit      = 124 // --max-insts was reached before the program ended (as timeout(1) does)
	// exitNotExecutable: execve would refuse the program (EACCES: not a
	// regular file, or no execute permission); a shell's status for it.
	exitNotExecutable = 126
)

const runUsage = `rvsim run [flags] PROGRAM [ARGS...]`

const runAbout = `Runs a riscv64 Linux ELF, static or dynamic (a PT_INTERP program's dynamic
linker and libraries come from --sysroot), a #! script (its interpreter
from the guest's root, as execve runs it), or a bare-metal ELF with a
tohost symbol. Flags come before PROGRAM; everything after it goes to the
guest. The exit status is the guest's (128+n if a signal n killed it); 2
for a bad command line, program or output path, or an output that could
not be written (one line each, with the run's own status); 3 at a
--difftest divergence; 124 when --max-insts stopped the run; 126 for a
program execve refuses (not a regular file, no execute permission). No
output may be an input or another output.`

type runFlags struct {
	jit                  string
	maxInsts             uint64
	trace, stats         string
	formats              formatFlags
	cpuProfile           string
	cycleProfile         string
	difftest             bool
	mode, config, preset string
	interval             uint64
	intervalOut          string
	fastForward, warmup  uint64
	simpoints, weights   string
	warming              string
	summary              bool
	guestFlags
	dise             diseFlags
	remote           remoteFlags
	profhw           profhwFlags
	warnings         warningsFlag
	timingThreads    string
	signature        string
	signatureGranule int
}

// register defines run's flags: one line each, with the text --help prints.
func (f *runFlags) register(c *cmdFlags) {
	c.Uint64(&f.maxInsts, "max-insts", "N", 0, "stop after N retired instructions (N >= 1); the exit status is\nthen 124")
	c.OutFile(&f.trace, "trace", "FILE", "write a commit log: pc, encoding, disassembly, register\nwritten, memory address")
	c.OutFile(&f.stats, "stats", "FILE", "write run statistics as JSON (instructions, mips, exit_code,\nmix, dise, ...; --stats-format gem5: a gem5 stats.txt)")
	c.String(&f.mode, "mode", "MODE", "functional", "functional (default) or timing: the out-of-order cycle-level\nmodel")
	c.String(&f.jit, "jit", "on|off", "on", jitHelp)
	c.InFile(&f.config, "config", "FILE", "timing mode: the machine file (see 'rvsim config show')")
	c.String(&f.preset, "preset", "NAME", "", "timing mode: a named machine ("+strings.Join(config.Presets(), ", ")+")")
	c.NonEmpty(&f.timingThreads, "timing-threads", "1|2", "timing mode: 2 runs the model on a thread of its own, beside\nthe functional core (default when the host has 2+ CPUs);\n1 on the same thread. The results are the same")
	c.Uint64(&f.interval, "interval", "N", 0, "timing mode: write CPI and event counts every N instructions\nas CSV")
	c.OutFile(&f.intervalOut, "interval-out", "FILE", "where --interval writes (default rvsim-intervals.csv)")
	c.Uint64(&f.fastForward, "fast-forward", "N", 0, "timing mode: run the first N instructions functionally, then\nattach the timing model (cycles, IPC: the timed part only)")
	c.Uint64(&f.warmup, "warmup", "M", 0, "with --fast-forward: warm the caches and predictors over M\ninstructions whose cycles are not counted")
	c.InFile(&f.simpoints, "simpoints", "FILE", "timing mode: time only these SimPoint intervals ('rvsim simpoint'\nwrites them; with --weights; --interval N: their length,\ndefault 10000000; --warmup M before each); stats sampled.cpi")
	c.InFile(&f.weights, "weights", "FILE", "the --simpoints file's weights")
	c.String(&f.warming, "functional-warming", "on|off|N", "", "keep caches and predictors warm through the functional parts;\nN: only over the last N instructions before each warm-up (20M)\n(default: "+sampling.DefaultWarming+" with --simpoints, off with --fast-forward)")
	c.Bool(&f.summary, "summary", "print a human-readable summary to stderr (speed; in timing\nmode CPI, stalls, predictors, caches)")
	c.OutFile(&f.cycleProfile, "cycle-profile", "FILE", "timing mode: write where the simulated cycles go as a pprof\nprofile (cycles by CPI-stack bucket, instructions, cache misses,\nmispredicts per pc and call stack; go tool pprof -top FILE)")
	c.OutFile(&f.cpuProfile, "cpuprofile", "FILE", "write a pprof CPU profile of the simulator itself")
	c.Bool(&f.difftest, "difftest", "run in lock-step with Unicorn, comparing state after every\ninstruction; exit status 3 at the first divergence\n(docs/DIFFTEST.md)")
	f.guestFlags.register(c)
	f.dise.register(c)
	f.remote.register(c)
	f.profhw.register(c)
	f.formats.register(c)
	f.warnings.register(c)
	c.OutFile(&f.signature, "signature", "FILE", "write the memory between the program's begin_signature and\nend_signature at the run's end, as Spike's +signature does\n(riscv-arch-test; docs/TESTS.md)")
	c.Int(&f.signatureGranule, "signature-granularity", "N", 4, "--signature's bytes a line: a power of two from 1 to 64\n(default 4)")
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
	if err := f.formats.check(&f); err != nil {
		return exitUsage, err
	}
	if err := c.positive("max-insts", "leave the flag out for no limit"); err != nil {
		return exitUsage, err
	}
	g, err := f.guest()
	if err != nil {
		return exitUsage, err
	}
	if err := f.checkSampled(c); err != nil {
		return exitUsage, err
	}
	if err := f.checkSignature(c); err != nil {
		return exitUsage, err
	}
	threads, err := f.threads()
	if err != nil {
		return exitUsage, err
	}
	// Every file the run reads or writes, before anything is read or
	// written: an output is never an input or another output (outfile).
	var files cmdFiles
	if err := f.files(c, &files, stdin, stdout, stderr); err != nil {
		return exitUsage, err
	}
	defer files.Abandon() // a command that fails before the run leaves no new output behind
	plan, err := f.plan()
	if err != nil {
		return exitUsage, err
	}
	warming, warmLast := false, uint64(0)
	if w := f.warming; w != "" || plan != nil {
		if w == "" {
			w = sampling.DefaultWarming
		}
		warming, warmLast, _ = sampling.ParseWarming(w) // checked in checkSampled
	}
	jit, err := jitFlag(f.jit)
	if err != nil {
		return exitUsage, err
	}
	trace := &lateWriter{}
	cfg := sim.Config{
		Program:           c.Args()[0],
		Args:              c.Args()[1:],
		Env:               g.env,
		MaxInsts:          f.maxInsts,
		MemLimit:          g.memLimit,
		FastForward:       f.fastForward,
		Warmup:            f.warmup,
		Windows:           plan.Windows(),
		FunctionalWarming: warming,
		WarmingLast:       warmLast,
		CountMix:          f.stats != "",
		JIT:               jit,
		TimingThreads:     threads,
		CycleProfile:      f.cycleProfile != "" || (f.dise.callgrind != "" && f.mode == "timing"),
		Kernel:            g.kernel,
	}
	cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = stdin, stdout, stderr, f.warnings.writer(stderr)
	if f.trace != "" {
		cfg.Trace = trace
	}
	if cfg.DISE, err = f.dise.options(f.mode == "timing"); err != nil {
		return exitUsage, err
	}
	if err := f.remote.files(c, &files, f.dise.trigger, cfg.Program); err != nil {
		return exitUsage, err
	}
	if err := f.remote.attach(cfg.DISE, &files, cfg.Program, cfg.Args); err != nil {
		return exitUsage, err
	}
	if cfg.Timing, err = f.machine(); err != nil {
		return exitUsage, err
	}
	if cfg.ProfHW, err = f.profhw.configs(cfg.Timing != nil); err != nil {
		return exitUsage, err
	}
	if err := f.profhw.outDir(&files, cfg.ProfHW); err != nil {
		return exitUsage, err
	}
	cfg.DropProfHWStalls = f.profhw.dropStalls
	cfg.UnmeasuredProfHWStalls = f.profhw.unmeasuredStalls
	if f.difftest && (f.trace != "" || f.stats != "" || cfg.DISE != nil || cfg.Timing != nil || cfg.ProfHW != nil) {
		return exitUsage, &usageError{"--difftest cannot be combined with --trace, --stats, --mode timing, DISE or profhw flags"}
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		return loadStatus(err), err
	}
	if mc.Interp != nil {
		if err := files.input("the dynamic linker", mc.Interp.Path); err != nil {
			return exitUsage, err
		}
	}
	if err := f.warnings.create(&files); err != nil {
		return exitUsage, err
	}
	var sigOut *outfile.File
	var sig sim.Signature
	if f.signature != "" {
		if sig, err = mc.SignatureRegion(f.signatureGranule); err != nil {
			return exitUsage, &usageError{"--signature: " + err.Error()}
		}
		if sigOut, err = files.create("--signature", f.signature); err != nil {
			return exitUsage, err
		}
	}
	if f.difftest {
		status := runDifftest(mc, f.maxInsts, stdout, stderr)
		if sigOut != nil && status != exitDivergence && status != exitUsage {
			if err := mc.WriteSignature(sigOut, sig); err != nil {
				files.Close()
				return exitUsage, fmt.Errorf("--signature: %v", err)
			}
		}
		if errs := files.Close(); len(errs) > 0 { // --warnings FILE, --signature
			return exitUsage, errs[0]
		}
		return status, nil
	}
	// Every output is created before the run, so a bad path fails at once.
	if f.trace != "" {
		if trace.w, err = files.create("--trace", f.trace); err != nil {
			return exitUsage, err
		}
	}
	var statsOut *outfile.File
	if f.stats != "" {
		if statsOut, err = files.create("--stats", f.stats); err != nil {
			return exitUsage, err
		}
	}
	if f.interval != 0 && plan == nil {
		w, err := files.create("--interval-out", f.intervalOut)
		if err != nil {
			return exitUsage, err
		}
		mc.Timing().SetIntervalWriter(w, f.interval)
	}
	var cycleOut *outfile.File
	if f.cycleProfile != "" {
		if cycleOut, err = files.create("--cycle-profile", f.cycleProfile); err != nil {
			return exitUsage, err
		}
	}
	profileOut, err := f.dise.prepare(mc, &files)
	if err != nil {
		return exitUsage, err
	}
	profiling := false
	if f.cpuProfile != "" {
		w, err := files.create("--cpuprofile", f.cpuProfile)
		if err != nil {
			return exitUsage, err
		}
		if err := pprof.StartCPUProfile(w); err != nil {
			return exitUsage, &usageError{fmt.Sprintf("--cpuprofile %s: %v", f.cpuProfile, err)}
		}
		profiling = true
	}
	res := mc.Run()
	if profiling {
		pprof.StopCPUProfile() // writes the profile, before its file is closed
	}
	// A unit's failure stops the run with it as the message; the command
	// returns it as its error (below), so it is said once.
	if res.Message != "" && (res.ProfHWErr == nil || res.Message != res.ProfHWErr.Error()) {
		fmt.Fprintf(stderr, "rvsim: %s\n", res.Message)
	}
	var werr *outfile.WriteError
	if res.TimingErr != nil && !errors.As(res.TimingErr, &werr) { // --interval-out's error is reported below
		files.Close()
		return exitUsage, fmt.Errorf("timing model: %v", res.TimingErr)
	}
	if f.summary {
		writeSummary(stderr, mc, &res)
	}
	// Every output's error, one line each that still gives the run's own
	// outcome; the exit status is then 2.
	var errs []error
	if err := f.dise.finish(mc, profileOut, &f.formats); err != nil {
		errs = append(errs, err)
	}
	if err := f.remote.finish(&res, stderr); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, f.profhw.finish(mc, &res, &files, &f.formats)...)
	if sigOut != nil {
		if err := mc.WriteSignature(sigOut, sig); err != nil { // (a write error is Close's)
			errs = append(errs, fmt.Errorf("--signature: %v", err))
		}
	}
	if cycleOut != nil {
		if err := mc.WriteCycleProfile(cycleOut); err != nil { // (a write error is Close's)
			errs = append(errs, fmt.Errorf("--cycle-profile: %v", err))
		}
	}
	var est *sampling.Estimate
	if plan != nil && (res.Stop == sim.StopExit || res.Stop == sim.StopSignal) {
		if est, err = plan.Combine(&res); err != nil {
			errs = append(errs, err)
		}
	}
	if statsOut != nil {
		st := mc.Stats(&res)
		if est != nil {
			plan.Stats(st, est)
		}
		f.formats.writeStats(statsOut, st)
	}
	errs = append(errs, files.Close()...)
	status := runStatus(&res)
	if len(errs) > 0 {
		for _, err := range errs[:len(errs)-1] {
			fmt.Fprintf(stderr, "rvsim: %v (%s)\n", err, outcome(&res, status))
		}
		return exitUsage, fmt.Errorf("%v (%s)", errs[len(errs)-1], outcome(&res, status))
	}
	return status, nil
}

// checkSignature refuses a bad --signature-granularity, or one without
// --signature.
func (f *runFlags) checkSignature(c *cmdFlags) error {
	if c.set("signature-granularity") && f.signature == "" {
		return &usageError{"--signature-granularity needs --signature FILE"}
	}
	if err := sim.CheckSignatureGranule(f.signatureGranule); err != nil {
		return &usageError{"--signature-granularity: " + err.Error()}
	}
	return nil
}

// loadStatus is the exit status when the program cannot be loaded: 126
// when execve would refuse it (not a regular file, no execute
// permission), as a shell reports it, else 2.
func loadStatus(err error) int {
	if errors.Is(err, elf.ErrNotExecutable) {
		return exitNotExecutable
	}
	return exitUsage
}

// files registers run's files: the path flags, the program, the default
// --interval-out and handler runtime, and the standard streams.
func (f *runFlags) files(c *cmdFlags, files *cmdFiles, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := c.files(&files.Set); err != nil {
		return err
	}
	if err := files.input("the program", c.Args()[0]); err != nil {
		return err
	}
	if err := f.warnings.files(files); err != nil {
		return err
	}
	if f.interval != 0 && f.intervalOut == "" && f.simpoints == "" {
		f.intervalOut = "rvsim-intervals.csv"
		if err := files.output("--interval-out", f.intervalOut); err != nil {
			return err
		}
	}
	if len(f.dise.acf) > 0 && f.dise.handlers == "" {
		if def := sim.DefaultHandlers(); def != "" {
			if err := files.input("the handler runtime", def); err != nil {
				return err
			}
		}
	}
	return asUsage(files.Stdio(stdin, stdout, stderr))
}

// lateWriter is --trace's writer, handed to sim.Load before its file is
// created: the file is created once the dynamic linker, an input too, is
// known.
type lateWriter struct{ w io.Writer }

func (l *lateWriter) Write(p []byte) (int, error) { return l.w.Write(p) }

// outcome says how the run ended, for a line about an output's error.
func outcome(res *sim.Result, status int) string {
	switch res.Stop {
	case sim.StopExit:
		return fmt.Sprintf("the program exited with status %d", status)
	case sim.StopLimit:
		return fmt.Sprintf("--max-insts stopped the run: status %d", status)
	case sim.StopSignal:
		return fmt.Sprintf("a signal ended the program: status %d", status)
	case sim.StopMemory:
		return fmt.Sprintf("the guest memory limit ended the run: status %d", status)
	}
	return fmt.Sprintf("the run ended with status %d", status)
}

// runStatus is the exit status of a finished run.
func runStatus(res *sim.Result) int {
	if res.Stop == sim.StopLimit {
		return exitLimit
	}
	return res.ExitCode
}

// checkSampled rejects --fast-forward and --warmup settings that make no
// sense, before anything is loaded.
func (f *runFlags) checkSampled(c *cmdFlags) error {
	if err := c.positive("fast-forward", "leave the flag out to time the whole run"); err != nil {
		return err
	}
	switch {
	case c.set("warmup") && f.fastForward == 0 && f.simpoints == "":
		return &usageError{"--warmup needs --fast-forward N or --simpoints FILE"}
	case f.fastForward != 0 && f.mode != "timing":
		return &usageError{"--fast-forward needs --mode timing (a functional run is already at functional speed)"}
	case f.fastForward != 0 && f.difftest:
		return &usageError{"--fast-forward cannot be combined with --difftest"}
	case (f.simpoints == "") != (f.weights == ""):
		return &usageError{"--simpoints FILE and --weights FILE go together"}
	case f.simpoints != "" && f.mode != "timing":
		return &usageError{"--simpoints needs --mode timing"}
	case f.simpoints != "" && f.fastForward != 0:
		return &usageError{"--simpoints cannot be combined with --fast-forward (each interval is fast-forwarded to)"}
	case f.simpoints != "" && f.intervalOut != "":
		return &usageError{"--interval-out cannot be combined with --simpoints (--interval is then the SimPoint interval length)"}
	case f.warming != "" && warmingErr(f.warming) != nil:
		return &usageError{"--functional-warming " + warmingErr(f.warming).Error()}
	case f.warming != "" && f.fastForward == 0 && f.simpoints == "":
		return &usageError{"--functional-warming needs --fast-forward N or --simpoints FILE"}
	case f.simpoints != "" && f.difftest:
		return &usageError{"--simpoints cannot be combined with --difftest"}
	}
	return nil
}

// warmingErr is what is wrong with a --functional-warming value (nil:
// nothing).
func warmingErr(s string) error {
	_, _, err := sampling.ParseWarming(s)
	return err
}

// plan reads --simpoints and --weights (nil without them).
func (f *runFlags) plan() (*sampling.Plan, error) {
	if f.simpoints == "" {
		return nil, nil
	}
	interval := f.interval
	if interval == 0 {
		interval = sampling.DefaultInterval
	}
	p, err := sampling.ReadFiles(f.simpoints, f.weights, interval, f.warmup)
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return p, nil
}

// threads returns --timing-threads as sim.Config.TimingThreads (0: the
// default).
func (f *runFlags) threads() (int, error) {
	switch f.timingThreads {
	case "":
		return 0, nil
	case "1", "2":
		if f.mode != "timing" {
			return 0, &usageError{"--timing-threads needs --mode timing"}
		}
		return int(f.timingThreads[0] - '0'), nil
	}
	return 0, &usageError{fmt.Sprintf("--timing-threads %q: want 1 (the model on the functional core's thread) or 2 (on its own)", f.timingThreads)}
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
		if f.cycleProfile != "" {
			return nil, &usageError{"--cycle-profile needs --mode timing (a functional run has no cycles to profile)"}
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
	if share, ok := mc.JITShare(res); ok {
		fmt.Fprintf(w, "rvsim: translator: %.1f%% of the instructions ran translated\n", 100*share)
	}
}

// parseEpoch reads --epoch: a date, an RFC 3339 time or @ and seconds
// since 1970 (0 for none given).
func parseEpoch(s string, hostTime bool) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if hostTime {
		return 0, &usageError{"--epoch sets the deterministic clock: it cannot be combined with --host-time"}
	}
	var sec int64
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		sec, _ = strconv.ParseInt(rest, 10, 64)
	} else {
		layout := time.RFC3339
		if len(s) == len(time.DateOnly) {
			layout = time.DateOnly
		}
		if t, err := time.Parse(layout, s); err == nil {
			sec = t.Unix()
		}
	}
	if sec <= 0 || sec >= 1<<33 {
		return 0, &usageError{fmt.Sprintf("--epoch %q: want a date after 1970 such as 2027-01-01, an RFC 3339 time (2027-01-01T08:00:00Z) or @SECONDS", s)}
	}
	return sec, nil
}
