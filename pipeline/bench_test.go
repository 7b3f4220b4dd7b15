package pipeline

import (
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// BenchmarkCore measures the timing model alone on recorded streams
// replayed through a default-preset core; one op is one instruction.
//
// The mixed test program (loads, stores, forwarding, branches, calls,
// mul/div, FP) is 13K instructions replayed in a loop; mixed+cycle-sink
// adds the cycle profile's hook (SetCycleSink; the profile's own cost is
// profile's BenchmarkCycleProfile). End-to-end speed on
// the benchmark programs is measured by test/timing_test.go and make bench.
func BenchmarkCore(b *testing.B) {
	code, setup := mixedProgram(b)
	streams := map[string][]cpu.DynInst{"mixed": record(b, code, setup)}
	for _, name := range []string{"mixed", "mixed+cycle-sink"} {
		insts := streams["mixed"]
		b.Run(name, func(b *testing.B) {
			c, err := New(config.Default())
			if err != nil {
				b.Fatal(err)
			}
			if name == "mixed+cycle-sink" { // the cycle profile's hook, with a sink that only counts
				var n int
				c.SetCycleSink(func(batch []CycleCommit) { n += len(batch) })
			}
			batch := make([]cpu.DynInst, 256)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; {
				n := min(256, b.N-i)
				for k := 0; k < n; k++ {
					batch[k] = insts[(i+k)%len(insts)]
				}
				c.Retire(batch[:n])
				i += n
			}
			if err := c.Finish(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(c.Cycles())/float64(b.N), "cycles/inst")
		})
	}
}
