package sim

import "github.com/rvsim/rvsim/isa"

// Stats returns the run's statistics as the JSON object --stats writes.
func Stats(r *Result, mode string) map[string]any {
	mix := make(map[string]uint64, isa.NumClasses)
	for c := isa.Class(0); c < isa.NumClasses; c++ {
		mix[c.String()] = r.Mix[c]
	}
	out := map[string]any{
		"mode":         mode,
		"instructions": r.Instructions,
		"cycles":       r.Instructions, // functional mode: CPI 1
		"host_seconds": r.HostSeconds,
		"mips":         r.MIPS(),
		"exit_code":    r.ExitCode,
		"stop":         string(r.Stop),
		"bare_metal":   r.BareMetal,
		"mix":          mix,
	}
	if r.DISE != nil {
		out["dise"] = r.DISE.Stats()
	}
	return out
}
