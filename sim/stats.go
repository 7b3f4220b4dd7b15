package sim

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// Stats returns the run's statistics as the JSON object --stats writes;
// in timing mode, the timing model's statistics (cycles, ipc, stalls,
// predictors, caches, functional units) are merged in.
func (mc *Machine) Stats(r *Result) map[string]any {
	mode := "functional"
	if mc.timing != nil {
		mode = "timing"
	}
	out := Stats(r, mode)
	if mc.timing != nil {
		for k, v := range mc.timing.Stats() {
			out[k] = v
		}
		out["instructions"] = r.Instructions
		if r.Sampled != nil {
			sampledStats(out, r.Sampled)
		}
	}
	if mc.profhw != nil {
		out["profhw"] = mc.profhw.Stats()
	}
	if mc.reportsJIT(r) {
		out["jit"] = jitStats(mc.CPU.JITStats(), r)
	}
	return out
}

// jitStats is the translator's part of --stats: what it translated and
// how much of the run it ran.
func jitStats(s cpu.JITStats, r *Result) map[string]any {
	return map[string]any{
		"blocks":       s.Blocks,
		"instructions": s.Instructions,
		"entries":      s.Entries,
		"retired":      s.Retired,
		"share":        r.TranslatedShare(),
		"flushes":      s.Flushes,
		"pauses":       s.Pauses,
	}
}

// reportsJIT says whether the run's statistics speak of the translator:
// with it on, in functional mode, and in timing mode when a fast-forward
// ran translated (the timed parts never do).
func (mc *Machine) reportsJIT(r *Result) bool {
	return mc.CPU.JIT() && (mc.timing == nil || r.Translated > 0)
}

// JITShare is the share of the run's instructions that ran translated;
// ok is false when the statistics do not report it (reportsJIT).
func (mc *Machine) JITShare(r *Result) (share float64, ok bool) {
	if !mc.reportsJIT(r) {
		return 0, false
	}
	return r.TranslatedShare(), true
}

// Stats returns a run's statistics as the JSON object --stats writes.
func Stats(r *Result, mode string) map[string]any {
	mix := make(map[string]uint64, isa.NumClasses)
	for c := isa.Class(0); c < isa.NumClasses; c++ {
		mix[c.String()] = r.Mix[c]
	}
	out := map[string]any{
		"mode":         mode,
		"instructions": r.Instructions,
		"cycles":       r.Cycles, // functional mode: CPI 1
		"host_seconds": r.HostSeconds,
		"mips":         r.MIPS(),
		"exit_code":    r.ExitCode,
		"stop":         string(r.Stop),
		"bare_metal":   r.BareMetal,
		"mix":          mix,
	}
	if r.DISE != nil {
		d := r.DISE.Stats()
		out["dise"] = d
		// The same counters as flat "dise.X" keys, for readers that index
		// the object with the dotted names the docs use.
		for k, v := range d {
			out["dise."+k] = v
		}
	}
	return out
}
