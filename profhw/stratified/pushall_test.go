package stratified

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// propStream is a seeded random tuple stream that exercises what the fast
// path shortcuts: a few hot PCs with skewed values (so one PC's tuples
// spread over substreams by their value word), a tail of rare PCs and
// values, and PCs that collide in the pcCache (the same slot, different
// keys), so its entries are replaced.
func propStream(seed uint64, n int) []tuple.Tuple {
	r := rng{s: seed}
	out := make([]tuple.Tuple, n)
	for i := range out {
		var pc uint64
		switch k := r.next() % 8; {
		case k < 5:
			pc = 0x10000 + 2*(r.next()%16) // hot, 2-byte aligned (compressed code)
		case k < 7:
			// The same pcCache slot: (pc>>1 ^ pc>>10) & 511 is unchanged
			// when bits 1 and 10 of a 1 KiB step both move.
			pc = 0x40000 + 0x402*(r.next()%8)
		default:
			pc = 0x100000 + 4*(r.next()%(1<<20))
		}
		v := r.next() % 6
		if r.next()%4 == 0 {
			v = r.next() // rare values
		}
		out[i] = tuple.Tuple{PC: pc, W: v, Tag: uint8(r.next() % 2)}
	}
	return out
}

// propSpecs is every shape the notation builds: each sampler (R, P, D)
// with and without C, alone and behind H[·]_n at several n and r
// (r = 1 and n = 1 are edges), the tagged compressor (direct-mapped and
// set-associative, saturating counters), and each with an A_k second
// level.
func propSpecs() []string {
	var specs []string
	for _, smp := range []string{"R", "P", "D", "CR", "CP", "CD"} {
		for _, r := range []int{1, 2, 3, 16, 256} {
			specs = append(specs, fmt.Sprintf("%s%d", smp, r))
			for _, n := range []int{1, 2, 64, 2048} {
				specs = append(specs, fmt.Sprintf("H[%s%d]%d", smp, r, n))
			}
		}
	}
	specs = append(specs, "T[2,8,3]2048x2", "T[1,2,2]16", "T[4,3,1]64x4", "T[2,4,3]8x8")
	for _, s := range append([]string(nil), specs...) {
		specs = append(specs, s+"A16", s+"A1")
	}
	return specs
}

// The fast paths (Compressor.PushAll and the H[P_r]_n loop of
// Sampler.PushAll, with its hand-inlined pcCache and index) against Push:
// over seeded random streams cut into random chunks, every compressor
// configuration leaves the same state (every counter, the pcCache, the
// RNG, A_k's entries) and the same messages, chunk by chunk.
func TestPushAllEqualsPush(t *testing.T) {
	specs := propSpecs()
	total := 0
	for _, seed := range []uint64{1, 2} {
		stream := propStream(seed, 6000)
		for _, name := range specs {
			spec := mustSpec(t, name)
			for _, o := range []Options{DefaultOptions, {Seed: seed * 77, CountBits: 3, AssocBits: 2, EvictHits: 3, ReplaceMiss: 2}} {
				one := New(spec, o)
				all := New(spec, o)
				cut := rng{s: seed ^ 0x5555}
				msgs := 0
				for i, n := 0, 0; i < len(stream); i += n {
					n = min(len(stream)-i, int(cut.next()%100)) // 0 (an empty chunk) … 99: across the 32-tuple blocks
					for _, x := range stream[i : i+n] {
						one.Push(x)
					}
					all.PushAll(stream[i : i+n])
					if d := stateDiff(one, all); d != "" {
						t.Fatalf("%s seed %d opts %+v: after %d tuples: %s", name, seed, o, i+n, d)
					}
					msgs += len(one.Out)
					one.Out, all.Out = one.Out[:0], all.Out[:0] // compared: what follows is the next chunk's
				}
				require.True(t, reflect.DeepEqual(one, all), "%s: the whole compressor", name)
				one.Drain()
				all.Drain()
				require.Equal(t, one.Out, all.Out, "%s: drained", name)
				total += msgs
			}
		}
	}
	require.Greater(t, total, 100000, "the streams make messages")
}

// The same for a Sampler driven directly (the fast path's own API).
func TestSamplerPushAllEqualsPush(t *testing.T) {
	for _, name := range []string{"H[P256]2048", "H[P3]64", "H[P1]2", "H[P2]1", "P7", "H[CR4]16"} {
		spec := mustSpec(t, name)
		stream := propStream(9, 30000)
		one, all := NewSampler(spec, DefaultOptions), NewSampler(spec, DefaultOptions)
		var outOne, outAll []Message
		for _, x := range stream {
			outOne = one.Push(x, outOne)
		}
		for i := 0; i < len(stream); i += 1000 {
			outAll = all.PushAll(stream[i:min(i+1000, len(stream))], outAll)
		}
		require.NotEmpty(t, outOne, name)
		require.Equal(t, outOne, outAll, name)
		require.True(t, reflect.DeepEqual(one, all), "%s: state", name)
	}
}

// stateDiff names the first part of the compressors' mutable state that
// differs ("" if none): the messages, every counter, the RNG, the pcCache,
// the tagged entries and A_k's. (reflect.DeepEqual of the whole would
// also visit the immutable hash tables, 34 KB, at every chunk.)
func stateDiff(a, b *Compressor) string {
	switch {
	case !slices.Equal(a.Out, b.Out):
		return fmt.Sprintf("messages differ (%d against %d)", len(a.Out), len(b.Out))
	case a.FirstLevel != b.FirstLevel:
		return fmt.Sprintf("first-level messages %d against %d", a.FirstLevel, b.FirstLevel)
	}
	if a.samp != nil {
		x, y := a.samp, b.samp
		switch {
		case !slices.Equal(x.cnt, y.cnt):
			return "sampler counters differ"
		case !slices.Equal(x.since, y.since):
			return "C counters differ"
		case x.rnd != y.rnd:
			return "RNG state differs"
		case (x.pcs == nil) != (y.pcs == nil) || x.pcs != nil && x.pcs.ents != y.pcs.ents:
			return "pcCache differs"
		}
	}
	if a.tag != nil {
		x, y := a.tag, b.tag
		switch {
		case !slices.Equal(x.ents, y.ents):
			return "tagged entries differ"
		case x.clock != y.clock || x.Transitions != y.Transitions:
			return "tagged clock or transitions differ"
		case x.pcs.ents != y.pcs.ents:
			return "tagged pcCache differs"
		}
	}
	if a.assoc != nil && (!slices.Equal(a.assoc.ents, b.assoc.ents) || a.assoc.clock != b.assoc.clock) {
		return "A_k entries differ"
	}
	return ""
}

// PushAllValues (the value tap's records, with the hashed periodic
// sampler's own loop) against Push on the tuples they stand for: every
// configuration, each stream under one tag, cut into random chunks
// across PushAllValues' 64-record blocks; the same state and messages
// chunk by chunk.
func TestPushAllValuesEqualsPush(t *testing.T) {
	total := 0
	for _, seed := range []uint64{3, 4} {
		stream := propStream(seed, 6000)
		tag := uint8(seed % 2)
		vals := make([]cpu.TapValue, len(stream))
		for i := range stream {
			stream[i].Tag = tag
			vals[i] = cpu.TapValue{PC: stream[i].PC, Value: stream[i].W}
		}
		for _, name := range propSpecs() {
			spec := mustSpec(t, name)
			for _, o := range []Options{DefaultOptions, {Seed: seed * 77, CountBits: 3, AssocBits: 2, EvictHits: 3, ReplaceMiss: 2}} {
				one, all := New(spec, o), New(spec, o)
				cut := rng{s: seed ^ 0x3333}
				for i, n := 0, 0; i < len(stream); i += n {
					n = min(len(stream)-i, int(cut.next()%200))
					for _, x := range stream[i : i+n] {
						one.Push(x)
					}
					all.PushAllValues(vals[i:i+n], tag)
					if d := stateDiff(one, all); d != "" {
						t.Fatalf("%s seed %d opts %+v: after %d records: %s", name, seed, o, i+n, d)
					}
					total += len(one.Out)
					one.Out, all.Out = one.Out[:0], all.Out[:0]
				}
				require.True(t, reflect.DeepEqual(one, all), "%s: the whole compressor", name)
			}
		}
	}
	require.Greater(t, total, 100000, "the streams make messages")
}
