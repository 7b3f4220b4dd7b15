package multihash

import (
	"fmt"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw"
)

// BenchmarkUnitRetire is a unit's cost per retired load (one tuple each):
// the selector, the perfect profiler and the engine. The stream is
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
