package multihash

import (
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
func TestInfiniteTablesNoError(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Params
	}{
		{"single hash, retaining", Params{Tables: 1, Entries: 1 << 22, Retain: true}},
		{"4 tables C1-R0", Params{Tables: 4, Entries: 1 << 22, Conservative: true, Retain: true}},
		{"2 tables C0-R1", Params{Tables: 2, Entries: 1 << 21, Reset: false}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := tc.p
			p.Interval, p.ThresholdPct, p.HashBits, p.Seed = 5000, 1, 24, 11
			pr, err := NewProfiler(p)
			require.NoError(t, err)
			perf := NewPerfect()
			seen := newTupleIndex(64)
			stream := wideStream(12, 20000, 30, 200)
			for i, tp := range stream {
				pr.Add(tp)
				perf.Add(tp)
				if (i+1)%5000 == 0 {
					r := Score(perf, pr.Threshold(), pr.Candidates(nil), seen)
					require.Zero(t, r.Error, "interval %d: %+v", i/5000, r)
					require.Positive(t, r.Perfect)
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
