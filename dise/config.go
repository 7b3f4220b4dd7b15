package dise

import "fmt"

// Config is the DISE/HPS hardware configuration
// (hps-phase-aware-remote-profiling.md §3.1, §3.3, §5.1).
type Config struct {
	PTEntries   int // pattern table entries (one per conjunctive term of a pattern's field part)
	CTEntries   int // conditionals table entries (one per production with a flag test or micro-ops)
	CTInputs    int // status flags one CT entry's truth table can test (its table has 2^CTInputs rows)
	CTMicroOps  int // micro-ops one CT entry holds
	RTEntries   int // replacement table entries (one per instruction; call(h, n args) takes n+1)
	Counters    int // HPS counters
	CounterBits int // width of each counter in bits (1..64)
	// DecodePenalty is the decode stall charged per replacement (cycles).
	// The timing model applies it (config.Core.DISEPenalty); functional
	// runs count replacements instead.
	DecodePenalty int
}

// DefaultConfig is the paper's design point: 32 PT entries and 2K RT
// entries (§5.1); 16 counters of 16 bits; a CT of 16 entries, each a
// 16-row truth table over 4 status flags (§3.3: "a simple truth-table
// stored in a small n×1 memory (n is 16 for our particular design
// instance)") with up to 4 micro-ops; a 1-cycle decode penalty (§3.1).
func DefaultConfig() Config {
	return Config{PTEntries: 32, CTEntries: 16, CTInputs: 4, CTMicroOps: 4, RTEntries: 2048,
		Counters: 16, CounterBits: 16, DecodePenalty: 1}
}

// Validate checks the configuration's ranges.
func (c *Config) Validate() error {
	for _, f := range []struct {
		name    string
		v, l, h int
	}{
		{"pt_entries", c.PTEntries, 1, 1 << 16},
		{"ct_entries", c.CTEntries, 0, 1 << 16},
		{"ct_inputs", c.CTInputs, 0, 16},
		{"ct_micro_ops", c.CTMicroOps, 0, 64},
		{"rt_entries", c.RTEntries, 1, 1 << 20},
		{"counters", c.Counters, 0, 1024},
		{"counter_bits", c.CounterBits, 1, 64},
		{"decode_penalty", c.DecodePenalty, 0, 1000},
	} {
		if f.v < f.l || f.v > f.h {
			return fmt.Errorf("dise: %s = %d out of range %d..%d", f.name, f.v, f.l, f.h)
		}
	}
	return nil
}

// counterMask is the largest value a counter holds.
func (c *Config) counterMask() uint64 {
	if c.CounterBits >= 64 {
		return ^uint64(0)
	}
	return 1<<c.CounterBits - 1
}
