package sim

import (
	"fmt"
	"io"
	"runtime"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profile"
)

// newTimingCore builds the out-of-order timing model for a run. With DISE
// attached, the DISE configuration's decode penalty is the one charged
// (the ACF hardware owns it; the machine file's value is its default).
func newTimingCore(m *config.Machine, d *DISEOptions) (*pipeline.Core, error) {
	mc := *m
	if d != nil && d.Config != nil {
		mc.Core.DISEPenalty = d.Config.DecodePenalty
	}
	return pipeline.New(&mc)
}

// checkTimingThreads validates Config.TimingThreads.
func checkTimingThreads(n int) error {
	if n < 0 || n > 2 {
		return fmt.Errorf("timing threads %d: want 1 (the model inline) or 2 (on a goroutine of its own)", n)
	}
	return nil
}

// timingAsync says whether the timing model runs on a goroutine of its
// own (Config.TimingThreads): only where nothing but the observer
// deliveries and the cycle CSR reaches it during the run. Profiling units
// that watch commits may: their commit work (queues, stalls, the path
// profiler) runs on the model's goroutine and reads only the model's
// records, and what they feed back into the CPU (interrupts) comes from
// the functional stream they watch on this one. Sampled simulation
// attaches a model at each window and decides there (attachCore), by the
// same rules, but keeps inline a model whose units watch commits.
func (mc *Machine) timingAsync() bool {
	if mc.timing == nil || mc.sampled != nil { // (sampled: at each window, attachCore)
		return false
	}
	return mc.threadsAllow()
}

// threadsAllow says whether Config.TimingThreads lets a timing model run
// on a goroutine of its own.
func (mc *Machine) threadsAllow() bool {
	switch mc.cfg.TimingThreads {
	case 1:
		return false
	case 0:
		return runtime.GOMAXPROCS(0) >= 2
	}
	return true
}

// TimingAsync says whether the run's timing model runs on a goroutine of
// its own.
func (mc *Machine) TimingAsync() bool { return mc.async != nil }

// Timing returns the timing model of a timing-mode run, or nil. When it
// runs on a goroutine of its own (TimingAsync), configure it before Run
// and read it after.
func (mc *Machine) Timing() *pipeline.Core { return mc.timing }

// finishTiming drains the timing model at the end of a run.
func (mc *Machine) finishTiming(res *Result) {
	if mc.timing == nil || mc.sampled != nil { // (sampled: finishSampled)
		return
	}
	if mc.async != nil {
		res.TimingErr = mc.async.Finish() // (the model's goroutine ends: the Core is this thread's again)
	} else {
		res.TimingErr = mc.timing.Finish() // a model failure, or the interval output's error
	}
	res.Cycles = mc.timing.Cycles()
}

// CycleProfile returns the run's cycle profile (Config.CycleProfile), or
// nil.
func (mc *Machine) CycleProfile() *profile.CycleProfile { return mc.cycles }

// WriteCycleProfile writes the cycle profile as pprof (gzipped
// profile.proto), its frames named by Resolver, and the DISE handler
// runtime's code by its symbols (the handlers' cycles are the profiler's
// overhead): `go tool pprof -top`, `-list` and `-http` read it.
func (mc *Machine) WriteCycleProfile(w io.Writer) error {
	res, err := mc.CycleResolver()
	if err != nil {
		return err
	}
	lo, hi := mc.Prog.Span()
	pp := profile.NewPprof(mc.Prog.Path, lo+mc.Bias, hi+mc.Bias, res)
	mc.cycles.AddTo(pp)
	return pp.Write(w)
}

// CycleResolver is Resolver, falling back on the handler runtime's
// function symbols.
func (mc *Machine) CycleResolver() (profile.Resolver, error) {
	res, err := mc.Resolver()
	if err != nil || mc.dise == nil || mc.dise.handlers == nil {
		return res, err
	}
	h := mc.dise.handlers
	return func(pc uint64) (string, string, int) {
		fn, file, line := res(pc)
		if fn == "" {
			if s, _, ok := h.SymbolAt(pc); ok && s.Func {
				fn = s.Name
			}
		}
		return fn, file, line
	}, nil
}
