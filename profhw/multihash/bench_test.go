package multihash

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/tapvals"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// BenchmarkUnitRetire is a unit's cost per retired load (one tuple each):
// the selector, the perfect profiler and the engine (with GOMAXPROCS > 1
// the engine and the reference run on their own goroutines: this is the
// throughput of the three). The stream is
// skewed like a value profile (half the loads from a few hot tuples).
func BenchmarkUnitRetire(b *testing.B) {
	recs := loadStream(1 << 16)
	var loads []cpu.DynInst
	for _, r := range recs {
		if r.PC != 0x9000 {
			loads = append(loads, r)
		}
	}
	for _, preset := range []string{"multihash-value", "singlehash-value", "spacesaving-value", "countmin-value"} {
		b.Run(preset, func(b *testing.B) {
			cfgs, err := profhw.LoadPreset(preset)
			if err != nil {
				b.Fatal(err)
			}
			units, err := profhw.Build(cfgs, profhw.Env{})
			if err != nil {
				b.Fatal(err)
			}
			u := units[0]
			b.ResetTimer()
			for i := 0; i < b.N; i += 256 {
				j := i % len(loads)
				u.Retire(loads[j : j+min(256, len(loads)-j)])
			}
			if err := u.Finish(profhw.End{}); err != nil { // the goroutines' last batches
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkBankAdd is the per-tuple cost of one engine with its reference.
func BenchmarkBankAdd(b *testing.B) {
	stream := randomStream(1, 1<<16, 12, 900)
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			bank := NewBank(10000, 1)
			pr, err := NewProfiler(Params{Interval: 10000, ThresholdPct: 1, Tables: n, Entries: 2048, Conservative: true, Retain: true, HashBits: 24, TupleBits: 128, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			bank.AddProfiler("p", pr)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				bank.Add(stream[i&(1<<16-1)])
			}
		})
	}
}

// valueLike is a load-value stream shaped like lisp's ref input in the
// short run (about 2,500 distinct tuples per 10,000 against lisp's 2,000):
// a few hundred load PCs, Zipf-distributed values with a long tail.
func valueLike(n int) []tuple.Tuple {
	r := rand.New(rand.NewPCG(7, 7))
	pcs := rand.NewZipf(r, 1.2, 1, 399)
	vals := rand.NewZipf(r, 1.6, 1, 1<<22)
	out := make([]tuple.Tuple, n)
	for i := range out {
		pc := pcs.Uint64()
		out[i] = tuple.Tuple{PC: 0x10000 + 4*pc, W: vals.Uint64() ^ pc<<3}
	}
	return out
}

// BenchmarkProfilerAdd is the hardware's cost per tuple alone (the
// multihash-value and singlehash-value shapes).
func BenchmarkProfilerAdd(b *testing.B) {
	stream := valueLike(1 << 20)
	for _, c := range []struct {
		name                string
		tables              int
		conservative, reset bool
	}{{"multihash", 4, true, false}, {"singlehash", 1, false, true}} {
		b.Run(c.name, func(b *testing.B) {
			pr, err := NewProfiler(Params{Interval: 10000, ThresholdPct: 1, Tables: c.tables, Entries: 2048, Conservative: c.conservative, Reset: c.reset, Retain: true, HashBits: 24, TupleBits: 128, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				pr.Add(stream[i&(1<<20-1)])
				if i%10000 == 9999 {
					pr.EndInterval()
				}
			}
		})
	}
}

// BenchmarkReference is the reference model's cost per tuple (the
// Offload's consumer: perfect profiler, exact profile, scoring).
func BenchmarkReference(b *testing.B) {
	stream := valueLike(1 << 20)
	bank := NewBank(10000, 1)
	bank.track("none", noEngine{})
	recs := make([]tuple.Tuple, 0, 8192)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		recs = append(recs, stream[i&(1<<20-1)])
		if i%10000 == 9999 {
			bank.ends = append(bank.ends, &intervalEnd{cands: make([][]Cand, 1), acc: make([][]AccEntry, 1)})
		}
		if len(recs) == cap(recs) {
			bank.consume(&refBatch{tuples: recs})
			recs = recs[:0]
		}
	}
}

type noEngine struct{}

func (noEngine) Candidates(dst []Cand) []Cand { return dst }
func (noEngine) EndInterval()                 {}
func (noEngine) StorageBits() uint64          { return 0 }

// BenchmarkRealValues is the multihash-value preset's interval profiler
// (AddAllValues, the bank's goroutine's loop) on a real run's value
// records, named by $RVSIM_VALS (16 bytes each, PC and value
// little-endian; skipped without one). ns/op is per record.
func BenchmarkRealValues(b *testing.B) {
	vals := tapvals.Read(b)
	pr, err := NewProfiler(Params{Interval: 10000, ThresholdPct: 1, Tables: 4, Entries: 2048, Conservative: true, Retain: true, HashBits: 24, TupleBits: 128, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	pos := 0
	for i := 0; i < b.N; i += 10000 {
		j := pos
		if j+10000 > len(vals) {
			j = 0
		}
		pr.AddAllValues(vals[j:j+10000], 0)
		pr.EndInterval()
		pos = j + 10000
	}
}
