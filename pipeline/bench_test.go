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
// mul/div, FP) is 13K instructions replayed in a loop. End-to-end speed on
// the benchmark programs is measured by test/timing_test.go and make bench.
func BenchmarkCore(b *testing.B) {
	code, setup := mixedProgram(b)
	streams := map[string][]cpu.DynInst{"mixed": record(b, code, setup)}
	for _, name := range []string{"mixed"} {
		insts := streams[name]
		b.Run(name, func(b *testing.B) {
			c, err := New(config.Default())
			if err != nil {
				b.Fatal(err)
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
