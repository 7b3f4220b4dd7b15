package pathprof_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
)

// recorded is lz's control transfers on its test input (recorded once).
var recorded struct {
	recs  []cpu.DynInst
	entry uint64
}

func record(b *testing.B) {
	if recorded.recs != nil {
		return
	}
	bin := "../../build/benchmarks/lz"
	args, err := os.ReadFile("../../benchmarks/lz/test.args")
	if err != nil {
		b.Skip("benchmarks not built")
	}
	rec := &recorder{}
	mc, err := sim.Load(sim.Config{Program: bin, Args: strings.Fields(string(args)), Observers: []cpu.Observer{rec}})
	if err != nil {
		b.Skip(err)
	}
	mc.Run()
	recorded.recs, recorded.entry = rec.recs, rec.first
}

// benchRetire is the unit's cost per branch in the functional stream:
// one op is one pass over lz's test run (a fresh unit each time).
func benchRetire(b *testing.B, vals map[string]any) {
	record(b)
	cfg, err := pathprof.ReadConfig(profhw.NewUnitConfig("b", "path", vals), profhw.Functional)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u, err := pathprof.New("b", cfg, profhw.Env{Mode: profhw.Functional, Entry: recorded.entry})
		if err != nil {
			b.Fatal(err)
		}
		for recs := recorded.recs; len(recs) > 0; {
			n := min(256, len(recs))
			u.Retire(recs[:n])
			recs = recs[n:]
		}
		// The reference's last records and the overlaps are the run's
		// end, not the per-branch cost (and end its goroutine).
		b.StopTimer()
		if err := u.Finish(profhw.End{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recorded.recs)), "ns/branch")
}

func BenchmarkRetireBL(b *testing.B) { benchRetire(b, nil) }

func BenchmarkRetireBLNoWindow(b *testing.B) {
	benchRetire(b, map[string]any{"accuracy.window": int64(0)})
}

func BenchmarkRetireWPP(b *testing.B) { benchRetire(b, map[string]any{"paths": "wpp"}) }

func BenchmarkRetireExtLoop(b *testing.B) {
	benchRetire(b, map[string]any{"extend": "loops", "max_extension": int64(1)})
}

func BenchmarkRetirePhase(b *testing.B) {
	benchRetire(b, map[string]any{"phase.enabled": true})
}

// BenchmarkCommit is the timing-mode cost per committed branch (the
// branches alone, three cycles apart).
func BenchmarkCommit(b *testing.B) {
	record(b)
	c := pipeline.Commit{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u, err := pathprof.New("b", pathprof.DefaultConfig(), profhw.Env{Mode: profhw.Timing, Entry: recorded.entry})
		if err != nil {
			b.Fatal(err)
		}
		for j := range recorded.recs {
			c.D, c.Cycle = &recorded.recs[j], uint64(j)*3
			u.Commit(&c)
		}
		b.StopTimer()
		if err := u.Finish(profhw.End{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recorded.recs)), "ns/branch")
}

// BenchmarkRecordOnly is the recording alone: subtract its host
// instruction count (callgrind) from BenchmarkRetireBL's at -benchtime 1x
// to get the unit's.
func BenchmarkRecordOnly(b *testing.B) { record(b) }
