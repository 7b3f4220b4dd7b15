package sim

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
)

// Sampled simulation's first form (issue 20): fast-forward, warm-up,
// timed rest. The run executes its first FastForward instructions
// functionally, with no timing model attached (the functional core's own
// speed); the timing model is then attached and runs over the next Warmup
// instructions, whose cycles are not counted; the cycles and CPI reported
// are those of the instructions after that (the timed part).
//
// What the guest sees: during fast-forward the cycle CSR reads the
// instruction count (CPI 1, as in functional mode); after it, the
// fast-forwarded instruction count plus the timing model's cycles, so the
// counter never goes backwards.
//
// DISE and the profiling units are not supported with a fast-forward
// (Config.check rejects the combination): the profiling units watch the
// timing model's commits, which a fast-forward skips, so rather than have
// them see part of the run, the combination is refused.

// sampledState is a sampled run's progress.
type sampledState struct {
	ff, warmup uint64
	base       []cpu.Observer // the other observers (trace, ...), attached from the start
	attached   bool           // the timing model is attached (fast-forward over)
}

// checkSampled rejects sampled settings that do not make sense.
func checkSampled(cfg *Config) error {
	if cfg.FastForward == 0 {
		if cfg.Warmup != 0 {
			return fmt.Errorf("a warm-up needs a fast-forward")
		}
		return nil
	}
	if cfg.Timing == nil {
		return fmt.Errorf("a fast-forward needs the timing model (timing mode)")
	}
	if cfg.DISE != nil || len(cfg.ProfHW) > 0 {
		return fmt.Errorf("a fast-forward cannot be combined with DISE or profiling units")
	}
	return nil
}

// sampledBudget limits the next step so that it ends at the end of the
// fast-forward, and attaches the timing model once it has ended.
func (mc *Machine) sampledBudget(budget uint64) uint64 {
	s := mc.sampled
	if s == nil || s.attached {
		return budget
	}
	c := mc.CPU
	if c.Instret < s.ff {
		return min(budget, s.ff-c.Instret)
	}
	s.attached = true
	core := mc.timing
	ff := c.Instret
	c.CycleFunc = func(instret uint64) uint64 { return ff + core.CycleAt(instret) }
	core.SetMark(s.warmup)
	obs := append(append([]cpu.Observer(nil), s.base...), core)
	if len(obs) == 1 {
		c.SetObserver(obs[0])
	} else {
		c.SetObserver(fanout(obs))
	}
	return budget
}

// SampledCounts is how a sampled run's instructions divide: fast-forwarded
// (functional), warm-up (timed, not counted) and timed; Cycles are the
// timed part's.
type SampledCounts struct {
	FastForward, Warmup, Timed, Cycles uint64
}

// finishSampled fills res's sampled counts after the timing model drained.
func (mc *Machine) finishSampled(res *Result) {
	s := mc.sampled
	if s == nil {
		return
	}
	sc := &SampledCounts{FastForward: min(res.Instructions, s.ff)}
	if s.attached {
		core := mc.timing
		n := core.Instructions()
		sc.FastForward = res.Instructions - n
		sc.Warmup = min(n, s.warmup)
		sc.Timed = n - sc.Warmup
		if at, ok := core.MarkCycle(); ok {
			sc.Cycles = core.Cycles() - at
		}
	}
	res.Sampled = sc
	res.Cycles = sc.Cycles
}

// sampledStats replaces the whole-run cycle figures in a --stats object
// with the timed part's and adds the division of the instructions.
func sampledStats(out map[string]any, sc *SampledCounts) {
	out["cycles"] = sc.Cycles
	out["ipc"] = ratio(sc.Timed, sc.Cycles)
	out["cpi"] = ratio(sc.Cycles, sc.Timed)
	out["fast_forward_instructions"] = sc.FastForward
	out["warmup_instructions"] = sc.Warmup
	out["timed_instructions"] = sc.Timed
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
