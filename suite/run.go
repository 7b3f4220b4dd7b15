package suite

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
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
	ProfHW    []*profhw.UnitConfig  // retire-stage profiling units to attach (speed measurements)
}

// Outcome is the result of one benchmark run.
type Outcome struct {
	Benchmark string
	Input     string
	Result    sim.Result
	Stdout    []byte
	Stderr    []byte
	Pass      bool
	Why       string // why it failed
}

// Run runs one input of one benchmark in-process and checks its output.
func Run(b Benchmark, in Input, opt Options) Outcome {
	o := Outcome{Benchmark: b.Name, Input: in.Name}
	var stdout, stderr bytes.Buffer
	cfg := sim.Config{
		Program:  b.Binary,
		Args:     in.Args,
		Env:      opt.Env,
		MaxInsts: opt.MaxInsts,
		Timing:   opt.Timing,
		CountMix: opt.CountMix,
		ProfHW:   opt.ProfHW,
		Kernel: syscalls.Config{
			Cwd: b.Dir, ExePath: "/" + b.Name,
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr,
		},
	}
	if opt.Observers != nil {
		cfg.Observers = opt.Observers()
	}
	mc, err := sim.Load(cfg)
	if err != nil {
		o.Why = err.Error()
		return o
	}
	o.Result = mc.Run()
	o.Stdout, o.Stderr = stdout.Bytes(), stderr.Bytes()
	switch {
	case o.Result.TimingErr != nil:
		o.Why = "timing model: " + o.Result.TimingErr.Error()
	case o.Result.ProfHWErr != nil:
		o.Why = "profhw: " + o.Result.ProfHWErr.Error()
	case o.Result.Stop == sim.StopLimit:
		o.Why = o.Result.Message
	case o.Result.ExitCode != in.Status:
		o.Why = fmt.Sprintf("exit status %d, want %d %s", o.Result.ExitCode, in.Status, o.Result.Message)
	case len(o.Stderr) != 0:
		o.Why = fmt.Sprintf("unexpected stderr: %q", firstLine(o.Stderr))
	default:
		o.Why = FirstDifference(in.Stdout, o.Stdout)
	}
	o.Pass = o.Why == ""
	return o
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
		if !b.Built() {
			return nil, fmt.Errorf("benchmark %s is not built (%s missing): run 'make benchmarks'", b.Name, b.Binary)
		}
		ins[i] = in
	}
	out := make([]Outcome, len(bs))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range bs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
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

// WriteTable prints outcomes as an aligned table.
func WriteTable(w io.Writer, outs []Outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tinput\tinstructions\tcycles\tIPC\tseconds\tMIPS\texit\tresult\t")
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
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.3f\t%.2f\t%.2f\t%d\t%s\t\n", o.Benchmark, o.Input, r.Instructions,
			r.Cycles, ipc, r.HostSeconds, r.MIPS(), r.ExitCode, res)
	}
	tw.Flush()
	for _, o := range outs {
		if !o.Pass {
			fmt.Fprintf(w, "%s (%s): %s\n", o.Benchmark, o.Input, o.Why)
		}
	}
}
