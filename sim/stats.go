package sim

import "github.com/rvsim/rvsim/isa"

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
	return out
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
