package multihash

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// The packed hash gives, in lane j, exactly tuple.Hash.Index of function
// j, for every table width a configuration allows (entries up to 2^26
// per table) and every count of functions that fits a word; PCs that
// share a PC-cache slot and PCs that repeat exercise the cache.
func TestPackedHashIsEachHash(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for bits := uint(0); bits <= 26; bits++ {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 16, 64} {
			if !packable(n, bits) {
				continue
			}
			t.Run(fmt.Sprintf("bits=%d/n=%d", bits, n), func(t *testing.T) {
				var hs []*tuple.Hash
				for j := 0; j < n; j++ {
					hs = append(hs, tuple.NewHash(uint64(bits)*131+uint64(j)+1, bits))
				}
				p := newPackedHash(hs)
				for i := 0; i < 3000; i++ {
					var tp tuple.Tuple
					switch i % 3 {
					case 0: // random words of random widths
						tp = tuple.Tuple{PC: r.Uint64() >> r.IntN(64), W: r.Uint64() >> r.IntN(64)}
					case 1: // a few hot PCs
						tp = tuple.Tuple{PC: 0x10000 + 2*uint64(r.IntN(40)), W: uint64(r.IntN(1000))}
					default: // PCs that share a cache slot
						tp = tuple.Tuple{PC: 0x10000 + 2*pcCacheSize*uint64(r.IntN(4)), W: r.Uint64()}
					}
					x := p.indices(tp.PC, tp.W)
					for j, h := range hs {
						require.Equal(t, h.Index(tp), x>>(uint(j)*bits)&p.mask, "function %d, tuple %+v", j, tp)
					}
				}
			})
		}
	}
	require.False(t, packable(8, 9), "8 tables of 512 counters do not fit a word")
	require.False(t, packable(3, 22))
}

// The lane hash gives, in lane j, function j's index plus table j's
// offset (j·2^bits), for every width four tables' counters fit 16 bits.
func TestLaneHashIsEachHashAndOffset(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for bits := uint(0); bits <= 16; bits++ {
		if !laneable(4, bits) {
			require.Greater(t, bits, uint(14))
			continue
		}
		t.Run(fmt.Sprintf("bits=%d", bits), func(t *testing.T) {
			var hs []*tuple.Hash
			for j := range 4 {
				hs = append(hs, tuple.NewHash(uint64(bits)*17+uint64(j)+1, bits))
			}
			p := newLaneHash(hs)
			for i := 0; i < 3000; i++ {
				tp := tuple.Tuple{PC: r.Uint64() >> r.IntN(64), W: r.Uint64() >> r.IntN(64)}
				if i%2 == 0 { // PCs that share a cache slot, repeated
					tp.PC = 0x10000 + 2*pcCacheSize*uint64(r.IntN(4))
				}
				x := p.indices(tp.PC, tp.W)
				for j, h := range hs {
					require.Equal(t, uint64(j)<<bits+h.Index(tp), x>>(j*laneBits)&(1<<laneBits-1), "function %d, tuple %+v", j, tp)
				}
			}
		})
	}
	require.False(t, laneable(3, 9), "three tables take the packed path")
}

// The fast paths (packed indices, the accumulator keyed by them, the
// four-table update) and the general path (one table-driven hash per
// function, the accumulator keyed by slotHash, the loops) make the same
// profiler: the same counters, accumulator and candidates, interval by
// interval, on the same stream, for the presets' shapes and others.
func TestFastPathIsGeneralPath(t *testing.T) {
	stream := valueLike(60000)
	for _, c := range []struct {
		desc string
		p    Params
	}{
		{"multihash-value: 4 tables C1-R0 retaining", Params{Tables: 4, Entries: 2048, Conservative: true, Retain: true}},
		{"singlehash-value: 1 table R1 retaining", Params{Tables: 1, Entries: 2048, Reset: true, Retain: true}},
		{"4 tables C0-R1 without retaining", Params{Tables: 4, Entries: 2048, Reset: true}},
		{"4 tables C1-R1 (lanes, resetting)", Params{Tables: 4, Entries: 2048, Conservative: true, Reset: true, Retain: true}},
		{"4 tables C1 of 2^14 (the widest lanes)", Params{Tables: 4, Entries: 1 << 16, Conservative: true, Retain: true}},
		{"4 tables C1 of 2^15 (too wide for lanes: packed)", Params{Tables: 4, Entries: 1 << 17, Conservative: true, Retain: true}},
		{"4 tables C1-R1, small tables (few index bits: slotHash keys the accumulator)", Params{Tables: 4, Entries: 32, Conservative: true, Reset: true, Retain: true}},
		{"2 tables C1, 8-bit counters that saturate", Params{Tables: 2, Entries: 1024, Conservative: true, Retain: true, HashBits: 8}},
		{"7 tables C1 (packed, general loop)", Params{Tables: 7, Entries: 7 * 256, Conservative: true, Retain: true}},
		{"8 tables of 512 (does not pack: general path both)", Params{Tables: 8, Entries: 4096, Conservative: true, Retain: true}},
	} {
		t.Run(c.desc, func(t *testing.T) {
			p := c.p
			p.Interval, p.ThresholdPct, p.TupleBits, p.Seed = 5000, 1, 128, 3
			if p.HashBits == 0 {
				p.HashBits = 24
			}
			fast, err := NewProfiler(p)
			require.NoError(t, err)
			general, err := NewProfiler(p)
			require.NoError(t, err)
			if c.p.Tables == 4 && c.p.Entries >= 64 && c.p.Entries <= 1<<16 && c.p.Conservative {
				require.NotNil(t, fast.lanes, "the fast path takes this shape")
			}
			general.packed, general.accByX, general.lanes = nil, false, nil
			for i, tp := range stream {
				fast.Add(tp)
				general.Add(tp)
				if i%5000 != 4999 {
					continue
				}
				require.Equal(t, general.counters, fast.counters, "counters at interval %d", i/5000)
				require.Equal(t, general.Accumulator(), fast.Accumulator(), "accumulator at interval %d", i/5000)
				require.Equal(t, general.Candidates(nil), fast.Candidates(nil))
				fast.EndInterval()
				general.EndInterval()
			}
			require.Equal(t, general.Promotions, fast.Promotions)
			require.NotZero(t, fast.Promotions, "the stream promotes tuples")
			require.Equal(t, general.FailedPromotes, fast.FailedPromotes)
		})
	}
}
