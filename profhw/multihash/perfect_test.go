package multihash

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// The perfect interval profiler against an independent count (a Go map),
// over several intervals with resets.
func TestPerfectAgainstMap(t *testing.T) {
	p := NewPerfect()
	stream := randomStream(4, 30000, 40, 3000)
	for start := 0; start < len(stream); start += 10000 {
		want := map[tuple.Tuple]uint64{}
		for _, tp := range stream[start : start+10000] {
			p.Add(tp)
			want[tp]++
		}
		require.Equal(t, len(want), p.Distinct())
		for tp, n := range want {
			require.Equal(t, n, p.Count(tp))
		}
		got := map[tuple.Tuple]uint64{}
		for _, c := range p.Candidates(nil, 100) {
			got[c.T] = c.Count
		}
		wantC := map[tuple.Tuple]uint64{}
		for tp, n := range want {
			if n >= 100 {
				wantC[tp] = n
			}
		}
		require.Equal(t, wantC, got)
		run := tuple.Counts{}
		p.FoldInto(run)
		require.Equal(t, tuple.Counts(want), run)
		p.Reset()
		require.Zero(t, p.Distinct())
		require.Zero(t, p.Count(stream[start]))
	}
}

// The tuple index's deletion keeps every other key reachable.
func TestTupleIndexDelete(t *testing.T) {
	ix := newTupleIndex(4)
	ref := map[tuple.Tuple]int32{}
	stream := randomStream(5, 20000, 50, 400)
	for i, tp := range stream {
		if i%3 == 2 {
			ix.del(tp)
			delete(ref, tp)
		} else {
			ix.put(tp, int32(i))
			ref[tp] = int32(i)
		}
		if i%500 == 0 {
			require.Equal(t, len(ref), ix.len())
			for k, v := range ref {
				require.Equal(t, v, ix.get(k))
			}
		}
	}
}

// The four categories of Fig. 3 and formula (1) on a hand-built interval:
// threshold 10; perfect A 20, B 15, C 12, F 30 are candidates, D 5 and
// E 3 are not; the hardware holds A 20 (exact), B 18 (neutral positive,
// +3), C 10 (neutral negative, −2), D 11 (false positive, |5−11| = 6),
// and misses F (false negative, 30). E = (0+3+2+6+30)/(20+15+12+5+30) =
// 41/82 = 50%.
func TestScoreCategories(t *testing.T) {
	A, B, C, D, E, F := tu(1), tu(2), tu(3), tu(4), tu(5), tu(6)
	p := NewPerfect()
	for tp, n := range map[tuple.Tuple]int{A: 20, B: 15, C: 12, D: 5, E: 3, F: 30} {
		for i := 0; i < n; i++ {
			p.Add(tp)
		}
	}
	hw := []Cand{{A, 20}, {B, 18}, {C, 10}, {D, 11}}
	r := Score(p, 10, hw, newTupleIndex(8))
	near := func(want, got float64, what string) {
		require.InDelta(t, want, got, 1e-9, what)
	}
	near(50, r.Error, "error")
	near(100*6.0/82, r.FalsePos, "false positive")
	near(100*30.0/82, r.FalseNeg, "false negative")
	near(100*3.0/82, r.NeutralPos, "neutral positive")
	near(100*2.0/82, r.NeutralNeg, "neutral negative")
	near(r.Error, r.FalsePos+r.FalseNeg+r.NeutralPos+r.NeutralNeg, "parts add up")
	require.Equal(t, IntervalError{Error: r.Error, FalsePos: r.FalsePos, FalseNeg: r.FalseNeg, NeutralPos: r.NeutralPos, NeutralNeg: r.NeutralNeg,
		NFalsePos: 1, NFalseNeg: 1, NNeutralPos: 1, NNeutralNeg: 1, NSame: 1, Perfect: 4, Hardware: 4, Distinct: 6}, r)

	empty := Score(NewPerfect(), 10, nil, newTupleIndex(8))
	require.Zero(t, empty.Error, "no candidates anywhere: error 0")
}

func TestFPBound(t *testing.T) {
	for _, tc := range []struct {
		desc string
		n, z int
		pct  float64
		want float64
	}{
		{"one 2K table at 1%: 100/(1·2048)", 1, 2048, 1, 100.0 / 2048},
		{"four 512-entry tables at 1%: (400/2048)^4", 4, 2048, 1, math.Pow(400.0/2048, 4)},
		{"1K entries, 0.1%: capped at 1", 2, 1024, 0.1, 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			require.InDelta(t, tc.want, FPBound(tc.n, tc.z, tc.pct), 1e-12)
		})
	}
}

func TestThresholdAndBound(t *testing.T) {
	require.EqualValues(t, 100, Threshold(10000, 1))
	require.EqualValues(t, 1000, Threshold(1000000, 0.1))
	require.EqualValues(t, 4, Threshold(35, 10), "3.5 rounds up: at least 10% of the interval")
	require.Equal(t, 100, AccBound(1))
	require.Equal(t, 1000, AccBound(0.1))
	require.EqualValues(t, 20, BitsFor(1000000))
}

// With tables so large that no two tuples share every counter, the
// profiler is exact: error 0 in every interval. The tuples are random
// 64-bit words: the §3.5 hash randomizes byte by byte with tables of
// random bytes (not permutations), so tuples that differ in one byte only
// share an index with probability 1/256 whatever the table's size.
//
// By hand: each 5,000-event interval is half 30 hot tuples (83 each on
// average, sd 9) and half 200 cold ones (12.5 each); T = 1% = 50, so the
// 30 hot tuples are the candidates, each held with its exact count. A
// candidate's own counters (no other tuple shares them) read T at the
// interval's end when it was promoted without resetting (shielded after
// the promotion), 0 with resetting (§5.4.2), and 0 when retaining kept it
// from the last interval (shielded from the start).
func TestInfiniteTablesNoError(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Params
	}{
		{"single hash, retaining", Params{Tables: 1, Entries: 1 << 22, Retain: true}},
		{"4 tables C1-R0", Params{Tables: 4, Entries: 1 << 22, Conservative: true, Retain: true}},
		{"2 tables C0-R1", Params{Tables: 2, Entries: 1 << 21, Conservative: false, Reset: true}},
		{"2 tables C0-R0, no retaining", Params{Tables: 2, Entries: 1 << 21}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := tc.p
			if p.Tables > 1 {
				// The case is what its name says.
				require.Contains(t, tc.desc, fmt.Sprintf("%d tables C%d-R%d", p.Tables, b2i(p.Conservative), b2i(p.Reset)))
			}
			p.Interval, p.ThresholdPct, p.HashBits, p.Seed = 5000, 1, 24, 11
			pr, err := NewProfiler(p)
			require.NoError(t, err)
			require.EqualValues(t, 50, pr.Threshold())
			perf := NewPerfect()
			seen := newTupleIndex(64)
			stream := wideStream(12, 20000, 30, 200)
			last := map[tuple.Tuple]bool{} // last interval's candidates
			for i, tp := range stream {
				pr.Add(tp)
				perf.Add(tp)
				if (i+1)%5000 == 0 {
					hw := pr.Candidates(nil)
					r := Score(perf, pr.Threshold(), hw, seen)
					require.Zero(t, r.Error, "interval %d: %+v", i/5000, r)
					require.Equal(t, 30, r.Perfect, "the 30 hot tuples")
					require.Equal(t, 30, r.NSame, "each held with its exact count")
					now := map[tuple.Tuple]bool{}
					for _, c := range hw {
						want := uint64(50)
						if p.Reset || (p.Retain && last[c.T]) {
							want = 0
						}
						for j := 0; j < p.Tables; j++ {
							require.Equal(t, want, pr.HashCounter(j, pr.HashIndex(j, c.T)), "interval %d, table %d", i/5000, j)
						}
						now[c.T] = true
					}
					last = now
					pr.EndInterval()
					perf.Reset()
				}
			}
		})
	}
}

// wideStream is randomStream with tuples spread over all 64 bits.
func wideStream(seed uint64, n, hot, cold int) []tuple.Tuple {
	r := rand.New(rand.NewPCG(seed, 2))
	hots := make([]tuple.Tuple, hot)
	for i := range hots {
		hots[i] = tuple.Tuple{PC: r.Uint64(), W: r.Uint64()}
	}
	colds := make([]tuple.Tuple, cold)
	for i := range colds {
		colds[i] = tuple.Tuple{PC: r.Uint64(), W: r.Uint64()}
	}
	out := make([]tuple.Tuple, n)
	for i := range out {
		if r.IntN(2) == 0 {
			out[i] = hots[r.IntN(hot)]
		} else {
			out[i] = colds[r.IntN(cold)]
		}
	}
	return out
}

// The table-driven hash is the §3.5 hash: the same index for every tuple.
func TestFastHashIsTheHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, bits := range []uint{1, 7, 9, 11, 16, 22, 32} {
		h := tuple.NewHash(uint64(bits)*77, bits)
		f := newFastHash(h)
		for i := 0; i < 20000; i++ {
			tp := tuple.Tuple{PC: r.Uint64() >> (r.IntN(64)), W: r.Uint64() >> (r.IntN(64))}
			require.Equal(t, h.Index(tp), f.index(tp), "bits %d tuple %v", bits, tp)
		}
	}
}

// FuzzDecodeWindow: any bytes decode to an error or a window, never a
// panic; an encoded table decodes to itself.
func FuzzDecodeWindow(f *testing.F) {
	acc := []AccEntry{{T: tuple.Tuple{PC: 0x1000, W: 7, Tag: 2}, Count: 150, State: accLocked}, {}, {T: tuple.Tuple{PC: 0x2000, W: 9}, Count: 3, State: accStale}}
	img := make([]byte, WindowSize(len(acc)))
	EncodeWindow(img, 4, 10000, 100, acc)
	f.Add(img)
	f.Add([]byte("RVMHACC1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := DecodeWindow(data)
		if err != nil {
			return
		}
		require.LessOrEqual(t, WindowSize(len(w.Entries)), len(data))
	})
	w, err := DecodeWindow(img)
	require.NoError(f, err)
	require.Equal(f, Window{Seq: 4, Interval: 10000, Threshold: 100, Candidates: 1, Entries: []WindowEntry{
		{T: acc[0].T, Count: 150, State: StateCandidate}, {}, {T: acc[2].T, Count: 3, State: StateStale}}}, w)
}

// A property of the §3.5 hash that shows in experiment 5: with an 8-bit
// index, xor-fold xors the bytes, so flip has no effect and bytes that
// the PC and the word share cancel. Every fall-through edge ⟨pc, pc+4⟩
// (no carry out of the low byte) then indexes by pc's low byte alone: 64
// such edges all over the code land on at most 64 counters' worth of low
// bytes, however the upper bytes differ.
func TestHashEightBitFoldCancelsSharedBytes(t *testing.T) {
	h := newFastHash(tuple.NewHash(1, 8))
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 1000; i++ {
		lo := uint64(r.IntN(252))
		a := r.Uint64()&^0xff | lo
		b := r.Uint64()&^0xff | lo
		require.Equal(t, h.index(tuple.Tuple{PC: a, W: a + 4}), h.index(tuple.Tuple{PC: b, W: b + 4}),
			"edges at %#x and %#x share the low byte", a, b)
	}
	h9 := newFastHash(tuple.NewHash(1, 9))
	same := 0
	for i := 0; i < 1000; i++ {
		lo := uint64(r.IntN(252))
		a := r.Uint64()&^0xff | lo
		b := r.Uint64()&^0xff | lo
		if h9.index(tuple.Tuple{PC: a, W: a + 4}) == h9.index(tuple.Tuple{PC: b, W: b + 4}) {
			same++
		}
	}
	require.Less(t, same, 20, "with 9 index bits the chunks straddle bytes and the edges spread")
}

// Fig. 3's boundaries (multi-hash-profiling.md §5.5; §5.2: a candidate
// occurs "greater than or equal to" the threshold): threshold T = 10. A
// tuple with f_p == T is a perfect candidate, so the hardware holding it
// is a neutral positive (f_h > f_p) or exact, never a false positive; a
// tuple with f_p == T−1 that the hardware holds is a false positive; a
// tuple with f_p == T that the hardware misses is a false negative.
func TestScoreAtThreshold(t *testing.T) {
	A, B, C, D := tu(1), tu(2), tu(3), tu(4)
	p := NewPerfect()
	for tp, n := range map[tuple.Tuple]int{A: 10, B: 10, C: 9, D: 10} {
		for i := 0; i < n; i++ {
			p.Add(tp)
		}
	}
	// A: f_p = T, f_h = 12 (neutral positive, |10−12| = 2); B: f_p = f_h =
	// T (exact); C: f_p = T−1, f_h = 10 (false positive, 1); D: f_p = T,
	// missed (false negative, 10). Σ f_p = 10+10+9+10 = 39; E = 13/39.
	r := Score(p, 10, []Cand{{A, 12}, {B, 10}, {C, 10}}, newTupleIndex(8))
	require.Equal(t, 1, r.NNeutralPos, "f_p == T held with f_h > f_p: neutral positive")
	require.Equal(t, 1, r.NSame, "f_p == f_h == T: exact")
	require.Equal(t, 1, r.NFalsePos, "only f_p == T−1 is a false positive")
	require.Equal(t, 1, r.NFalseNeg, "f_p == T missed: false negative")
	require.Equal(t, 3, r.Perfect, "A, B and D (f_p == T) are perfect candidates")
	require.InDelta(t, 100*13.0/39, r.Error, 1e-9)
	require.InDelta(t, 100*1.0/39, r.FalsePos, 1e-9)
	require.InDelta(t, 100*2.0/39, r.NeutralPos, 1e-9)
	require.InDelta(t, 100*10.0/39, r.FalseNeg, 1e-9)
}

// Storage, counted by hand (§4.2 of stratified-sampling.md: hash
// counters; per accumulator entry the tuple, its counter and the 2 state
// bits, valid and replaceable).
func TestStorageBitsByHand(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Params
		want uint64
	}{
		// 2048×24 + 100×(128+14+2): the preset (BitsFor(10000) = 14).
		{"4×512 at 10K @ 1%", Params{Interval: 10000, ThresholdPct: 1, Tables: 4, Entries: 2048, HashBits: 24, TupleBits: 128}, 49152 + 14400},
		// 2048×24 + 1000×(128+20+2) (BitsFor(1000000) = 20).
		{"4×512 at 1M @ 0.1%", Params{Interval: 1000000, ThresholdPct: 0.1, Tables: 4, Entries: 2048, HashBits: 24, TupleBits: 128}, 49152 + 150000},
		// 1024×16 + 200×(130+10+2): two selectors (a 2-bit tag), 0.5% of 1000.
		{"single 1K table, two selectors", Params{Interval: 1000, ThresholdPct: 0.5, Tables: 1, Entries: 1024, HashBits: 16, TupleBits: 130}, 16384 + 28400},
		// 2×64×12 + 7×(128+8+2): an explicit accumulator.
		{"explicit accumulator", Params{Interval: 500, ThresholdPct: 10, Tables: 2, Entries: 128, HashBits: 12, AccEntries: 7, AccBits: 8, TupleBits: 128}, 1536 + 966},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			pr, err := NewProfiler(tc.p)
			require.NoError(t, err)
			require.Equal(t, tc.want, pr.StorageBits())
		})
	}
}
