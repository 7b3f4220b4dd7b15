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

// recording is a benchmark's control transfers on its test input.
type recording struct {
	recs  []cpu.DynInst
	entry uint64
}

// recorded is lz's (recorded once); recordedLisp is lisp's, whose
// recursion overflows the path stack (the unbounded reference takes over).
var recorded, recordedLisp recording

func record(b *testing.B) { recordBench(b, "lz", &recorded) }

func recordBench(b *testing.B, name string, r *recording) {
	if r.recs != nil {
		return
	}
	bin := "../../build/benchmarks/" + name
	args, err := os.ReadFile("../../benchmarks/" + name + "/test.args")
	if err != nil {
		b.Skip("benchmarks not built")
	}
	argv := strings.Fields(string(args))
	for i, a := range argv {
		if _, err := os.Stat("../../benchmarks/" + name + "/" + a); err == nil {
			argv[i] = "../../benchmarks/" + name + "/" + a // an input file
		}
	}
	rec := &recorder{}
	mc, err := sim.Load(sim.Config{Program: bin, Args: argv, Observers: []cpu.Observer{rec}})
	if err != nil {
		b.Skip(err)
	}
	mc.Run()
	r.recs, r.entry = rec.recs, rec.first
}

// benchRetire is the unit's cost per branch in the functional stream:
// one op is one pass over lz's test run (a fresh unit each time). With
// -cpu 1 that is the whole unit; with more the hardware model and the
// reference run on another goroutine and this is the simulation's share
// (packing the branches, and waiting when the other falls behind).
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

// benchLisp feeds lisp's test run to a path-bl unit; hw drops the
// reference's records (the main goroutine's cost alone).
func benchLisp(b *testing.B, hwOnly bool) {
	recordBench(b, "lisp", &recordedLisp)
	recs := recordedLisp.recs
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u, err := pathprof.New("b", pathprof.DefaultConfig(), profhw.Env{Mode: profhw.Functional, Entry: recordedLisp.entry})
		if err != nil {
			b.Fatal(err)
		}
		if hwOnly {
			pathprof.NullReference(u)
		}
		for r := recs; len(r) > 0; {
			n := min(256, len(r))
			u.Retire(r[:n])
			r = r[n:]
		}
		b.StopTimer()
		if err := u.Finish(profhw.End{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/branch")
}

// BenchmarkLispBL is path-bl on lisp's test run, reference included
// (inline at -cpu 1, on its own goroutine otherwise).
func BenchmarkLispBL(b *testing.B) { benchLisp(b, false) }

// BenchmarkLispBLHardware is the hardware model's share: the main
// goroutine's per-branch cost.
func BenchmarkLispBLHardware(b *testing.B) { benchLisp(b, true) }

// BenchmarkLispBLReference is the reference's share: the consumer's
// per-branch cost, replaying the records the unit handed over.
func BenchmarkLispBLReference(b *testing.B) {
	recordBench(b, "lisp", &recordedLisp)
	recs := recordedLisp.recs
	u, err := pathprof.New("b", pathprof.DefaultConfig(), profhw.Env{Mode: profhw.Functional, Entry: recordedLisp.entry})
	if err != nil {
		b.Fatal(err)
	}
	var words []uint64
	pathprof.CaptureReference(u, &words)
	u.Retire(recs)
	if err := u.Finish(profhw.End{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pathprof.ReplayReference(u, words, 8192)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/branch")
}
