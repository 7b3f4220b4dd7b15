package stratified

import (
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/tapvals"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// A load stream: 512 static loads, values from a skewed set.
func benchStream(n int) []tuple.Tuple {
	r := rng{s: 5}
	out := make([]tuple.Tuple, n)
	for i := range out {
		pc := 0x10000 + 4*(r.next()%512)
		v := r.next() % 16
		if v >= 8 {
			v = r.next() // a tail of rare values
		}
		out[i] = tuple.Tuple{PC: pc, W: v}
	}
	return out
}

func BenchmarkCompressor(b *testing.B) {
	stream := benchStream(1 << 16)
	for _, s := range []string{"R256", "P256", "H[P256]2048", "H[P256]2048A16", "T[2,8,3]2048x2"} {
		b.Run(s, func(b *testing.B) {
			c := New(mustSpecB(b, s), DefaultOptions)
			for i := 0; i < b.N; i++ {
				c.Push(stream[i&(len(stream)-1)])
				c.Out = c.Out[:0]
			}
		})
	}
}

func mustSpecB(b *testing.B, s string) Spec {
	spec, err := ParseSpec(s)
	if err != nil {
		b.Fatal(err)
	}
	return spec
}

// BenchmarkUnitRetire is the unit's per-load cost: selection, the exact
// count, compression and delivery (ns/op is per retired load).
func BenchmarkUnitRetire(b *testing.B) {
	stream := benchStream(1 << 16)
	recs := make([]cpu.DynInst, 256)
	cfg, err := ReadConfig(profhw.NewUnitConfig("u", "stratified", map[string]any{"convergence.every": int64(0)}))
	if err != nil {
		b.Fatal(err)
	}
	u := NewUnit("u", cfg, profhw.Env{})
	b.ResetTimer()
	for i := 0; i < b.N; i += len(recs) {
		for j := range recs {
			t := stream[(i+j)&(len(stream)-1)]
			recs[j] = cpu.DynInst{PC: t.PC, Result: t.W, Inst: isa.Inst{Class: isa.Load}}
		}
		u.Retire(recs)
	}
}

// BenchmarkPushAll is the compressor's per-tuple cost on batches (the
// unit's path): ns/op is per tuple.
func BenchmarkPushAll(b *testing.B) {
	stream := benchStream(1 << 16)
	for _, s := range []string{"P256", "H[P256]2048", "H[P256]2048A16"} {
		b.Run(s, func(b *testing.B) {
			c := New(mustSpecB(b, s), DefaultOptions)
			b.ResetTimer()
			for i := 0; i < b.N; i += 256 {
				j := i & (len(stream) - 1)
				c.PushAll(stream[j : j+256])
				c.Out = c.Out[:0]
			}
		})
	}
}

// BenchmarkRealValues is the preset's compressor on a real run's value
// records, as the offloaded compressor takes them: made into tuples
// first (AppendValues, then PushAll) or as they are (PushAllValues).
// ns/op is per record.
func BenchmarkRealValues(b *testing.B) {
	vals := tapvals.Read(b)
	set := tuple.Set{{Kind: tuple.Value}}
	for _, form := range []string{"tuples", "values"} {
		b.Run(form, func(b *testing.B) {
			c := New(mustSpecB(b, "H[P256]2048"), DefaultOptions)
			buf := make([]tuple.Tuple, 0, 8192)
			b.ResetTimer()
			for i := 0; i < b.N; i += 8192 {
				j := i % (len(vals) - 8192)
				vs := vals[j : j+8192]
				if form == "tuples" {
					buf = set.AppendValues(buf[:0], vs)
					c.PushAll(buf)
				} else {
					c.PushAllValues(vs, 0)
				}
				c.Out = c.Out[:0]
			}
		})
	}
}
