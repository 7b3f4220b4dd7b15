package suite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/crash"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// Options tune how benchmarks run.
type Options struct {
	MaxInsts  uint64
	Timing    *config.Machine       // timing mode on this machine; nil: functional mode
	Env       []string              // guest environment (default: empty, for reproducibility)
	Observers func() []cpu.Observer // per-run observers, may be nil
	CountMix  bool                  // count retired instructions by class (Result.Mix)
	JIT       bool                  // translate hot code (sim.Config.JIT)
	ProfHW    []*profhw.UnitConfig  // retire-stage profiling units to attach (speed measurements)
	// UnmeasuredStalls is sim.Config.UnmeasuredProfHWStalls: the units'
	// commit stalls without the twin core that measures their cost.
	UnmeasuredStalls bool
	// TimingThreads is sim.Config.TimingThreads (0: the model on a
	// goroutine of its own when the host has two cores). RunAll with more
	// than one job runs it inline: the jobs fill the cores already, and a
	// second thread per run would only add its hand-over's CPU time.
	TimingThreads int
}

// Outcome is the result of one benchmark run.
type Outcome struct {
	Benchmark string
	Input     string
	Result    sim.Result
	Stdout    []byte
	Stderr    []byte
	Warnings  []byte // the simulator's warnings (unsupported system calls, refused writes)
	// Summaries are the profiling units' summaries (Options.ProfHW), in
	// configuration order.
	Summaries []*profhw.Summary
	Pass      bool
	Why       string // why it failed
}

// Run runs one input of one benchmark in-process and checks its output.
func Run(b Benchmark, in Input, opt Options) Outcome {
	o := Outcome{Benchmark: b.Name, Input: in.Name}
	p, err := Prepare(b, in)
	if err != nil {
		o.Why = err.Error()
		return o
	}
	defer p.Close()
	var stdout, stderr bytes.Buffer
	cfg := p.Config(&stdout, &stderr)
	cfg.Env = append(cfg.Env, opt.Env...)
	cfg.MaxInsts, cfg.Timing, cfg.CountMix, cfg.ProfHW, cfg.JIT = opt.MaxInsts, opt.Timing, opt.CountMix, opt.ProfHW, opt.JIT
	cfg.UnmeasuredProfHWStalls = opt.UnmeasuredStalls
	cfg.TimingThreads = opt.TimingThreads
	if opt.Observers != nil {
		cfg.Observers = opt.Observers()
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		o.Why = err.Error()
		return o
	}
	o.Result = mc.Run()
	o.Stdout, o.Stderr, o.Warnings = stdout.Bytes(), stderr.Bytes(), p.Warnings()
	if hub := mc.ProfHW(); hub != nil {
		o.Summaries = hub.Summaries()
	}
	switch {
	case o.Result.TimingErr != nil:
		o.Why = "timing model: " + o.Result.TimingErr.Error()
	case o.Result.ProfHWErr != nil:
		o.Why = "profhw: " + o.Result.ProfHWErr.Error()
	case o.Result.Stop == sim.StopLimit:
		o.Why = o.Result.Message
	default:
		o.Why, _ = p.Verify(&o.Result, o.Stdout, o.Stderr)
	}
	o.Pass = o.Why == ""
	return o
}

// Prepared is one input of one benchmark made ready to run: its program
// found, and its run directory made when it needs one.
type Prepared struct {
	b      Benchmark
	in     Input
	prog   string
	runDir string   // host path of the fresh run directory ("" none)
	lock   *os.File // marks runDir in use (guestRunDir)
	cwd    string   // the guest working directory
	warn   bytes.Buffer
}

// Warnings are the simulator's one-line warnings during the run (an
// unsupported system call, a refused write): kept apart from the guest's
// standard error, which is checked.
func (p *Prepared) Warnings() []byte { return p.warn.Bytes() }

// Prepare finds the program and, for an input with files, makes a fresh
// run directory (inside the root, under /tmp, when the workload has one)
// holding copies of them, where the program runs and may write. Close
// removes it.
func Prepare(b Benchmark, in Input) (*Prepared, error) {
	prog, err := b.Program()
	if err != nil {
		return nil, err
	}
	p := &Prepared{b: b, in: in, prog: prog, cwd: b.Dir}
	if b.Dir == "" {
		p.cwd = b.GuestCwd
	}
	if len(in.Files) == 0 {
		return p, nil
	}
	if b.Root != "" {
		p.runDir, p.lock, err = guestRunDir(filepath.Join(b.Root, "tmp"), "rvsim-run-"+b.Name+"-"+in.Name+"-", &p.warn)
	} else {
		p.runDir, err = os.MkdirTemp("", "rvsim-run-"+b.Name+"-")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: run directory: %v", in.where, err)
	}
	for _, f := range in.Files {
		if err := copyFile(f, filepath.Join(p.runDir, filepath.Base(f))); err != nil {
			p.Close()
			return nil, fmt.Errorf("%s: %v", in.where, err)
		}
	}
	// The guest reads the files' and the directory's times (python3
	// stats its script): fixed ones keep what it loads the same from run
	// to run. (The kernel reports change and access times as the
	// modification time and numbers inodes itself: syscalls/ident.go.)
	if err := os.Chtimes(p.runDir, runDirTime, runDirTime); err != nil {
		p.Close()
		return nil, fmt.Errorf("%s: %v", in.where, err)
	}
	p.cwd = p.runDir
	if b.Root != "" {
		rel, err := filepath.Rel(b.Root, p.runDir)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.cwd = "/" + filepath.ToSlash(rel)
	}
	return p, nil
}

// guestRunDir makes the directory parent/prefixN for the lowest N that no
// live run holds, and returns the lock that marks it in use. A guest sees
// its run directory's path (getcwd, a script's sys.path), and that
// changes what it executes (python3-text's test input retires 91,038,150
// instructions in prefix0, 91,038,076 in prefix1, 91,038,044 in prefix2),
// so it must not be random: runs of an input one at a time all get
// prefix0. A directory left by a killed run is taken over; a run beside
// another of the same input (the root is shared) gets prefix1, and a
// warning, as its counts may differ from a lone run's.
func guestRunDir(parent, prefix string, warn io.Writer) (string, *os.File, error) {
	for n := 0; ; n++ {
		dir := filepath.Join(parent, prefix+strconv.Itoa(n))
		lock, held, stale, err := lockRunDir(dir)
		if err != nil {
			return "", nil, err
		}
		if held {
			err = os.Mkdir(dir, 0o755)
			if stale && errors.Is(err, fs.ErrExist) {
				if err = os.RemoveAll(dir); err == nil {
					err = os.Mkdir(dir, 0o755)
				}
			}
			if err == nil {
				if n > 0 {
					fmt.Fprintf(warn, "rvsim: run directory %s: another run of this input is using %s0, and the guest sees the path: counts may differ from a lone run's\n", dir, prefix)
				}
				return dir, lock, nil
			}
			unlockRunDir(lock)
			if !errors.Is(err, fs.ErrExist) {
				return "", nil, err
			}
		}
		if n >= 9999 {
			return "", nil, fmt.Errorf("%s: no free run directory %s0..%s9999", parent, prefix, prefix)
		}
	}
}

// Close removes the run directory.
func (p *Prepared) Close() {
	if p.runDir != "" {
		os.RemoveAll(p.runDir)
	}
	unlockRunDir(p.lock)
	p.lock = nil
}

// Config is the simulator configuration of the run: program, arguments,
// environment, root, working directory and standard streams. Callers add
// the mode, limits and observers.
func (p *Prepared) Config(stdout, stderr io.Writer) sim.Config {
	exe := p.b.ExePath
	if exe == "" {
		exe = "/" + p.b.Name
	}
	cfg := sim.Config{
		Program: p.prog,
		Args:    p.in.Args,
		// A root's program gets its guest path as argv[0], as a shell in
		// the guest would pass it, so counts do not depend on the checkout.
		Argv0: p.b.ExePath,
		Env:   append([]string(nil), p.b.Env...),
		Kernel: syscalls.Config{
			Root: p.b.Root, Sysroot: p.b.Sysroot, Cwd: p.cwd, ExePath: exe,
			Stdin: bytes.NewReader(p.in.Stdin), Stdout: stdout, Stderr: stderr, Warn: &p.warn,
		},
	}
	if p.runDir != "" {
		cfg.Kernel.AllowWrite = []string{p.runDir}
	}
	return cfg
}

// Verify checks a finished run against the input's expectations: exit
// status, standard error (none, or the expected file's), standard output
// (the expected file's, unless there is none), then the check command,
// run by sh -c in the run directory (or the working directory) with
// RVSIM_STDOUT and RVSIM_STDERR naming files that hold the run's output,
// RVSIM_RUNDIR, RVSIM_ROOT and RVSIM_SUITE_DIR. It returns why the run failed ("" if it
// passed), and whether that is a difference in standard output.
func (p *Prepared) Verify(res *sim.Result, stdout, stderr []byte) (why string, stdoutDiffers bool) {
	in := p.in
	switch {
	case res.ExitCode != in.Status:
		return fmt.Sprintf("exit status %d, want %d %s", res.ExitCode, in.Status, res.Message), false
	case in.Stderr == nil && len(stderr) != 0:
		return fmt.Sprintf("unexpected stderr: %q", firstLine(stderr)), false
	case in.Stderr != nil && !bytes.Equal(in.Stderr, stderr):
		return "stderr differs: " + FirstDifference(in.Stderr, stderr), false
	}
	if !in.AnyStdout {
		if d := FirstDifference(in.Stdout, stdout); d != "" {
			return d, true
		}
	}
	if in.Check != "" {
		return p.runCheck(stdout, stderr), false
	}
	return "", false
}

func (p *Prepared) runCheck(stdout, stderr []byte) string {
	tmp, err := os.MkdirTemp("", "rvsim-check-")
	if err != nil {
		return "check: " + err.Error()
	}
	defer os.RemoveAll(tmp)
	outFile, errFile := filepath.Join(tmp, "stdout"), filepath.Join(tmp, "stderr")
	if err := os.WriteFile(outFile, stdout, 0o644); err != nil {
		return "check: " + err.Error()
	}
	if err := os.WriteFile(errFile, stderr, 0o644); err != nil {
		return "check: " + err.Error()
	}
	cmd := exec.Command("sh", "-c", p.in.Check)
	cmd.Dir = p.runDir
	if cmd.Dir == "" {
		cmd.Dir = p.b.Dir
		if cmd.Dir == "" {
			cmd.Dir = filepath.Join(p.b.Root, p.cwd)
		}
	}
	cmd.Env = append(os.Environ(), "RVSIM_STDOUT="+outFile, "RVSIM_STDERR="+errFile,
		"RVSIM_RUNDIR="+cmd.Dir, "RVSIM_ROOT="+p.b.Root, "RVSIM_SUITE_DIR="+p.b.SuiteDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(firstLine(out))
		if msg == "" {
			msg = err.Error()
		}
		return "check failed: " + msg
	}
	return ""
}

// runDirTime is the time of a run directory and of the files copied
// into it: 2024-01-01T00:00:00Z, where the guest's clock starts.
var runDirTime = time.Unix(1704067200, 0)

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	return os.Chtimes(dst, runDirTime, runDirTime)
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

// RunAll runs input of every benchmark with up to jobs in parallel and
// returns the outcomes in benchmark order. progress, if not nil, gets a
// line as each run starts and ends.
func RunAll(bs []Benchmark, input string, opt Options, jobs int, progress io.Writer) ([]Outcome, error) {
	ins := make([]Input, len(bs))
	for i, b := range bs {
		in, err := b.Input(input)
		if err != nil {
			return nil, err
		}
		if err := b.CheckBuilt(); err != nil {
			return nil, err
		}
		ins[i] = in
	}
	opt = opt.ForJobs(jobs)
	out := make([]Outcome, len(bs))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range bs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer crash.Exit(os.Stderr)
			defer func() { <-sem; wg.Done() }()
			if progress != nil {
				mu.Lock()
				fmt.Fprintf(progress, "running %s (%s)…\n", bs[i].Name, input)
				mu.Unlock()
			}
			out[i] = Run(bs[i], ins[i], opt)
		}(i)
	}
	wg.Wait()
	return out, nil
}

// ForJobs is opt for runs jobs at a time: with more than one, the timing
// model runs inline unless opt says otherwise (Options.TimingThreads).
func (opt Options) ForJobs(jobs int) Options {
	if jobs > 1 && opt.TimingThreads == 0 {
		opt.TimingThreads = 1
	}
	return opt
}

// WriteTable prints outcomes as an aligned table.
func WriteTable(w io.Writer, outs []Outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tinput\tinstructions\tcycles\tIPC\tseconds\tMIPS\ttranslated\texit\tresult\t")
	for _, o := range outs {
		res := "pass"
		if !o.Pass {
			res = "FAIL"
		}
		r := &o.Result
		ipc := 0.0
		if r.Cycles != 0 {
			ipc = float64(r.Instructions) / float64(r.Cycles)
		}
		translated := "—" // (the translator off, or a run it cannot serve)
		if r.Translated > 0 {
			translated = fmt.Sprintf("%.1f%%", 100*r.TranslatedShare())
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.3f\t%.2f\t%.2f\t%s\t%d\t%s\t\n", o.Benchmark, o.Input, r.Instructions,
			r.Cycles, ipc, r.HostSeconds, r.MIPS(), translated, r.ExitCode, res)
	}
	tw.Flush()
	for _, o := range outs {
		if !o.Pass {
			fmt.Fprintf(w, "%s (%s): %s\n", o.Benchmark, o.Input, o.Why)
		}
	}
}
