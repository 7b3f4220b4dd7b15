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

// BenchmarkModelPrediction measures the model's side of a staged run
// (Async: the model's goroutine fills its window from staged slots) with
// the branch predictor run by fetch, as inline, or by the producer while
// staging (streamPredictor: fetch only reads fMispred). The mixed stream
// is staged once; one op is one instruction replayed through
// retireStaged.
func BenchmarkModelPrediction(b *testing.B) {
	code, setup := mixedProgram(b)
	insts := record(b, code, setup)
	for _, pre := range []bool{false, true} {
		name := "fetch-predicts"
		if pre {
			name = "producer-predicted"
		}
		b.Run(name, func(b *testing.B) {
			c, err := New(config.Default())
			if err != nil {
				b.Fatal(err)
			}
			a := NewAsync(c) // never started: stage only fills a.cur
			a.begun, a.predict, c.fetch.pre = true, pre, pre
			a.sp = streamPredictor{bp: c.bp, perfectRAS: c.fetch.perfectRAS}
			for i := 0; i < len(insts); i += 256 {
				a.stage(insts[i:min(i+256, len(insts))])
			}
			st := a.cur.st
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; {
				k := i % len(st)
				n := min(256, b.N-i, len(st)-k)
				c.retireStaged(st[k : k+n])
				i += n
			}
			if err := c.Finish(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(c.Cycles())/float64(b.N), "cycles/inst")
		})
	}
}
