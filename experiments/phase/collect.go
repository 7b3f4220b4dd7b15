package main

// Collection for the sampling experiments (hps-phase-aware-remote-
// profiling.md §5.3–5.4): one functional run of a benchmark records, for
// every interval of application instructions, the exhaustive profiles of
// the three profile types and the interval's Phase Tracker signature.
// Every strategy then samples a subset of these intervals; the phase-aware
// ones decide with the same Tracker and Daemon code the phase trigger runs
// (profhw/phase), the periodic and random ones with the same schedules as
// --trigger periodic/random (dise.Trigger). sim's tests check that the real
// trigger samples exactly the intervals its policy chooses, so the subset
// of the recorded intervals is what a real sampled run collects.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw/phase"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
)

// Profile types, in the paper's order (Fig. 12, 13).
const (
	region = iota // hot code region: executions per conditional branch
	method        // hot method: calls per callee plus taken backward branches per function
	pair          // hot call pair: calls per (call site, target)
	nTypes
)

var typeNames = [nTypes]string{"code region", "method", "call pair"}

// interval is one interval's exhaustive profiles, keyed as strings
// (branch PCs in hex, function names, "site>target"), its signature, and
// its instrumentation events per profile type (what the ACF's productions
// replace: conditional branches; calls and backward branches; calls).
type interval struct {
	prof   [nTypes]map[string]uint64
	sig    []uint32
	events [nTypes]uint64
}

// recorder is the run's observer.
type recorder struct {
	length   uint64
	det      *phase.Detector
	feed     phase.AppFeed
	next     uint64
	branches map[uint64]uint64
	back     map[uint64]uint64 // taken backward branches by pc
	calls    map[[2]uint64]uint64
	events   [nTypes]uint64
	out      []interval
	fn       func(uint64) string
	fnCache  map[uint64]string
}

func newRecorder(length uint64) *recorder {
	c := phase.DefaultConfig()
	det := phase.NewDetector(c.Accumulators, c.SigBits, length)
	r := &recorder{length: length, det: det, feed: phase.AppFeed{Det: det}, next: length, fnCache: map[uint64]string{}}
	r.reset()
	return r
}

func (r *recorder) reset() {
	r.branches, r.back, r.calls = map[uint64]uint64{}, map[uint64]uint64{}, map[[2]uint64]uint64{}
	r.events = [nTypes]uint64{}
}

// Retire takes the application's instructions (the recording run has no
// DISE, so there are no others; the cost runs filter them).
func (r *recorder) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if !r.feed.Inst(d) {
			continue
		}
		switch d.Inst.Class {
		case isa.Branch:
			r.branches[d.PC]++
			r.events[region]++
			if d.Inst.Imm < 0 {
				r.events[method]++
				if d.Taken {
					r.back[d.PC]++
				}
			}
		case isa.Call:
			r.calls[[2]uint64{d.PC, d.NextPC}]++
			r.events[method]++
			r.events[pair]++
		}
		if r.feed.App == r.next {
			r.close()
			r.next += r.length
		}
	}
}

func (r *recorder) function(pc uint64) string {
	if s, ok := r.fnCache[pc]; ok {
		return s
	}
	s := r.fn(pc)
	if s == "" {
		s = fmt.Sprintf("%#x", pc)
	}
	r.fnCache[pc] = s
	return s
}

func (r *recorder) close() {
	iv := interval{sig: r.det.Close(), events: r.events}
	for t := range iv.prof {
		iv.prof[t] = map[string]uint64{}
	}
	for pc, n := range r.branches {
		iv.prof[region][fmt.Sprintf("%x", pc)] = n
	}
	for pc, n := range r.back {
		iv.prof[method][r.function(pc)] += n
	}
	for c, n := range r.calls {
		iv.prof[method][r.function(c[1])] += n
		iv.prof[pair][fmt.Sprintf("%x>%x", c[0], c[1])] += n
	}
	r.out = append(r.out, iv)
	r.reset()
}

// benchRun is what one benchmark's runs measured.
type benchRun struct {
	name         string
	instructions uint64
	ivs          []interval
	cost         costs
	err          error
}

// guestRun is one run of a benchmark's input, made ready by suite.Prepare:
// its program, arguments, argv[0], environment, root, working directory,
// standard input and files, as every suite runner gives them.
type guestRun struct {
	mc     *sim.Machine
	p      *suite.Prepared
	in     suite.Input
	stdout bytes.Buffer
	stderr bytes.Buffer
}

// machine loads a benchmark's input with cfg's other settings (mode,
// limits, observers, DISE, profhw units). Close the run when done.
func machine(b suite.Benchmark, input string, cfg sim.Config) (*guestRun, error) {
	in, err := b.Input(input)
	if err != nil {
		return nil, err
	}
	p, err := suite.Prepare(b, in)
	if err != nil {
		return nil, err
	}
	r := &guestRun{p: p, in: in}
	pc := p.Config(&r.stdout, &r.stderr)
	cfg.Program, cfg.Args, cfg.Argv0, cfg.Env, cfg.Kernel = pc.Program, pc.Args, pc.Argv0, pc.Env, pc.Kernel
	if r.mc, err = sim.Load(cfg); err != nil {
		p.Close()
		return nil, err
	}
	return r, nil
}

// Close removes the run's directory.
func (r *guestRun) Close() { r.p.Close() }

// check is why a finished run failed ("" if it did not): a run stopped
// at its -max-insts window is not checked, as suite.Run does not.
func (r *guestRun) check(b suite.Benchmark, input string, res *sim.Result) error {
	if res.Stop == sim.StopLimit {
		return nil
	}
	if why, _ := r.p.Verify(res, r.stdout.Bytes(), r.stderr.Bytes()); why != "" {
		return fmt.Errorf("%s %s: %s", b.Name, input, why)
	}
	return nil
}

// record runs a benchmark's input once, functionally, over its first
// maxInsts instructions (0: the whole run), recording its intervals (the
// partial last one is dropped, as the tracker drops it).
func record(b suite.Benchmark, input string, length, maxInsts uint64) ([]interval, uint64, error) {
	rec := newRecorder(length)
	r, err := machine(b, input, sim.Config{Observers: []cpu.Observer{rec}, MaxInsts: maxInsts})
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	sym := r.mc.Symbolizer()
	rec.fn = func(pc uint64) string { return sym(pc) }
	res := r.mc.Run()
	if err := r.check(b, input, &res); err != nil {
		return nil, 0, err
	}
	return rec.out, res.Instructions, nil
}

// costs are a benchmark's measured instrumentation costs per profile
// type: cycles per event in timing mode (profiled minus unprofiled run,
// over the events), and for the code region, the instrumentation's
// instructions per event by class (the StrongARM energy model's input).
type costs struct {
	cyclesPerEvent [nTypes]float64
	instrPerEvent  [nTypes]float64
	loads, stores  float64 // code region, per event
	baseCPI        float64
}

// acfs are the exhaustive ACFs of the three profile types.
var acfs = [nTypes]string{"acf/hot-code-region.acf", "acf/hot-method.acf", "acf/call-pair.acf"}

// measureCosts times the first n application instructions of an input
// without profiling and with each exhaustive profile.
func measureCosts(b suite.Benchmark, input string, n uint64, handlers string) (costs, error) {
	var c costs
	timing := machineConfig()
	r, err := machine(b, input, sim.Config{Timing: timing, MaxInsts: n, CountMix: true})
	if err != nil {
		return c, err
	}
	base := r.mc.Run()
	r.Close()
	if base.TimingErr != nil {
		return c, base.TimingErr
	}
	c.baseCPI = float64(base.Cycles) / float64(base.Instructions)
	for t := range nTypes {
		rec := newRecorder(1 << 40)
		acf, _ := filepath.Abs(acfs[t])
		r, err := machine(b, input, sim.Config{Timing: timing, CountMix: true, Observers: []cpu.Observer{rec},
			DISE: &sim.DISEOptions{ACF: []string{acf}, Handlers: handlers, MaxAppInstructions: base.Instructions}})
		if err != nil {
			return c, err
		}
		rec.fn = func(uint64) string { return "" }
		res := r.mc.Run()
		r.Close()
		if res.TimingErr != nil {
			return c, res.TimingErr
		}
		if rec.feed.App != base.Instructions {
			return c, fmt.Errorf("%s: cost run of %s: %d application instructions, the base run %d", b.Name, typeNames[t], rec.feed.App, base.Instructions)
		}
		ev := float64(max(rec.events[t], 1))
		c.cyclesPerEvent[t] = float64(res.Cycles-min(res.Cycles, base.Cycles)) / ev
		c.instrPerEvent[t] = float64(res.Instructions-base.Instructions) / ev
		if t == region {
			c.loads = float64(res.Mix[isa.Load]-base.Mix[isa.Load]) / ev
			c.stores = float64(res.Mix[isa.Store]-base.Mix[isa.Store]) / ev
		}
	}
	return c, nil
}

func handlersPath() (string, error) {
	p, err := filepath.Abs("build/handlers/rvsim-handlers.elf")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is not built (make)", p)
	}
	return p, nil
}
