package multihash

import (
	"math/rand/v2"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// tu is a test tuple: PC 0 and word w; forceIndex makes table j index it
// at idx[j] (the §3.5 hash built from tables that map only the low byte of
// the word, so hand-computed streams choose their own aliasing).
func tu(w uint64) tuple.Tuple { return tuple.Tuple{W: w} }

func forceIndex(t *testing.T, pr *Profiler, idx map[uint64][]uint64) {
	t.Helper()
	bits := uint(0)
	for 1<<bits < pr.per {
		bits++
	}
	for j := range pr.hashes {
		var tab [8][256]uint8
		for w, ix := range idx {
			require.Less(t, w, uint64(256))
			require.NotZero(t, w)
			tab[0][w] = uint8(ix[j])
		}
		pr.setHash(j, tuple.NewHashTables(tab, bits))
	}
	for w, ix := range idx {
		for j := range pr.hashes {
			require.Equal(t, ix[j], pr.HashIndex(j, tu(w)), "forced index of %d in table %d", w, j)
		}
	}
}

func newTest(t *testing.T, p Params, idx map[uint64][]uint64) *Profiler {
	t.Helper()
	if p.HashBits == 0 {
		p.HashBits = 24
	}
	p.TupleBits = 128
	pr, err := NewProfiler(p)
	require.NoError(t, err)
	forceIndex(t, pr, idx)
	return pr
}

func feed(pr *Profiler, ws ...uint64) {
	for _, w := range ws {
		pr.Add(tu(w))
	}
}

func cands(pr *Profiler) map[uint64]uint64 {
	m := map[uint64]uint64{}
	for _, c := range pr.Candidates(nil) {
		m[c.T.W] = c.Count
	}
	return m
}

// Shielding (§5.2) and resetting (§5.4.2) on one scripted stream: A and B
// share counter 0; threshold 3.
func TestShieldingAndResetting(t *testing.T) {
	idx := map[uint64][]uint64{1: {0}, 2: {0}} // A=1, B=2 alias
	for _, tc := range []struct {
		desc       string
		reset      bool
		counter    uint64 // counter 0 after A×5
		cands      map[uint64]uint64
		promotions uint64
	}{
		{"R0: A's later occurrences stay in the accumulator; B rides A's counter in (false positive)", false, 3, map[uint64]uint64{1: 5, 2: 4}, 2},
		{"R1: the counter restarts at A's promotion, so B alone stays out", true, 0, map[uint64]uint64{1: 5}, 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			pr := newTest(t, Params{Interval: 100, ThresholdPct: 3, Tables: 1, Entries: 4, Reset: tc.reset}, idx)
			require.EqualValues(t, 3, pr.Threshold())
			feed(pr, 1, 1, 1, 1, 1)
			require.Equal(t, tc.counter, pr.HashCounter(0, 0), "shielded: A×5 touches the counter only until promoted")
			feed(pr, 2)
			require.Equal(t, tc.cands, cands(pr))
			require.Equal(t, tc.promotions, pr.Promotions)
		})
	}
}

// Retaining (§5.4.1): interval 10, threshold 30% (3), 3 accumulator entries.
func TestRetaining(t *testing.T) {
	idx := map[uint64][]uint64{1: {0}, 2: {1}, 3: {2}, 4: {3}, 5: {4}, 6: {5}}
	const A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
	for _, tc := range []struct {
		desc   string
		retain bool
		cands2 map[uint64]uint64 // interval 2's candidates
		acc2   map[uint64]accState
	}{
		{"retained A re-crosses in the accumulator; E takes the empty entry, F replaces retained B", true,
			map[uint64]uint64{A: 3, E: 3, F: 3},
			map[uint64]accState{A: accLocked, E: accLocked, F: accLocked}},
		{"without retaining A comes back through the hash table; E and F find only stale entries", false,
			map[uint64]uint64{A: 3, E: 3, F: 3},
			map[uint64]accState{A: accLocked, E: accLocked, F: accLocked}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			pr := newTest(t, Params{Interval: 10, ThresholdPct: 30, Tables: 1, Entries: 8, AccEntries: 3, Retain: tc.retain}, idx)
			feed(pr, A, A, A, A, B, B, B, C, C, D)
			require.Equal(t, map[uint64]uint64{A: 4, B: 3}, cands(pr))
			pr.EndInterval()
			for i := 0; i < 8; i++ {
				require.Zero(t, pr.HashCounter(0, uint64(i)), "hash table flushed")
			}
			want := accStale
			if tc.retain {
				want = accRetained
			}
			require.Equal(t, want, pr.acc[0].State)
			require.Equal(t, want, pr.acc[1].State)
			if tc.retain {
				require.Zero(t, pr.acc[0].Count, "retained with count 0")
			} else {
				require.EqualValues(t, 4, pr.acc[0].Count, "stale entries stay readable")
			}
			feed(pr, A, A, A)
			if tc.retain {
				require.Zero(t, pr.HashCounter(0, 0), "retained A is shielded")
				require.Equal(t, accLocked, pr.acc[0].State, "A crossed the threshold again: unmarked")
			} else {
				require.EqualValues(t, 3, pr.HashCounter(0, 0))
				require.Equal(t, uint64(A), pr.acc[2].T.W, "A took the empty entry first")
			}
			feed(pr, B, E, E, E, F, F, F)
			require.Equal(t, tc.cands2, cands(pr))
			states := map[uint64]accState{}
			for _, e := range pr.Accumulator() {
				states[e.T.W] = e.State
			}
			require.Equal(t, tc.acc2, states)
			pr.EndInterval()
			if tc.retain {
				// A, E, F retained; interval 3: B alone (below threshold) is flushed at its end.
				feed(pr, A)
				pr.EndInterval()
				require.Equal(t, 3, pr.free[accEmpty], "retained entries that did not cross the threshold are flushed")
			}
		})
	}
}

// Among replaceable entries the retained one with the smallest count goes.
func TestRetainedVictimIsSmallest(t *testing.T) {
	idx := map[uint64][]uint64{1: {0}, 2: {1}, 3: {2}}
	pr := newTest(t, Params{Interval: 10, ThresholdPct: 20, Tables: 1, Entries: 4, AccEntries: 2, Retain: true}, idx)
	feed(pr, 1, 1, 2, 2)
	pr.EndInterval()
	feed(pr, 1, 2, 2, 3, 3) // retained 1 at count 1, retained 2 crossed (locked); 3 replaces 1
	require.Equal(t, map[uint64]uint64{2: 2, 3: 2}, cands(pr))
}

// Conservative update (§6.1), including ties, against plain update.
func TestConservativeUpdate(t *testing.T) {
	idx := map[uint64][]uint64{1: {0, 0}, 2: {0, 1}, 3: {1, 1}}
	for _, tc := range []struct {
		desc string
		c    bool
		want [2][2]uint64 // table j counter k after A B B C
	}{
		{"C1: A ties and bumps both; B bumps only its smaller counter, then both on a tie; C bumps only table 0", true, [2][2]uint64{{2, 1}, {1, 2}}},
		{"C0: every counter of every tuple", false, [2][2]uint64{{3, 1}, {1, 3}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			pr := newTest(t, Params{Interval: 100, ThresholdPct: 50, Tables: 2, Entries: 4, Conservative: tc.c}, idx)
			feed(pr, 1, 2, 2, 3)
			var got [2][2]uint64
			for j := 0; j < 2; j++ {
				for k := 0; k < 2; k++ {
					got[j][k] = pr.HashCounter(j, uint64(k))
				}
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// §6.1: a tuple is promoted only when its counter reaches the threshold in
// every table.
func TestPromotionNeedsEveryTable(t *testing.T) {
	idx := map[uint64][]uint64{1: {0, 0}, 2: {0, 1}}
	pr := newTest(t, Params{Interval: 100, ThresholdPct: 3, Tables: 2, Entries: 4}, idx)
	feed(pr, 1, 1, 2, 2) // table 0 counter 0 reaches 4 ≥ 3, but B's table-1 counter is 2
	require.EqualValues(t, 4, pr.HashCounter(0, 0))
	require.Empty(t, cands(pr))
	feed(pr, 1) // A: 5 and 3
	require.Equal(t, map[uint64]uint64{1: 3}, cands(pr))
	feed(pr, 2) // B: table 1 reaches 3 → promoted with its smallest counter
	require.Equal(t, map[uint64]uint64{1: 3, 2: 3}, cands(pr))
}

// Accumulator overflow: no free entry, the promotion is refused (and
// retried by later occurrences); counters keep counting.
func TestAccumulatorOverflow(t *testing.T) {
	idx := map[uint64][]uint64{1: {0}, 2: {1}}
	pr := newTest(t, Params{Interval: 100, ThresholdPct: 2, Tables: 1, Entries: 2, AccEntries: 1}, idx)
	feed(pr, 1, 1, 2, 2, 2)
	require.Equal(t, map[uint64]uint64{1: 2}, cands(pr))
	require.EqualValues(t, 1, pr.Promotions)
	require.EqualValues(t, 2, pr.FailedPromotes)
	require.EqualValues(t, 3, pr.HashCounter(0, 1))
	pr.EndInterval() // A is stale now: B can enter
	feed(pr, 2, 2)
	require.Equal(t, map[uint64]uint64{2: 2}, cands(pr))
}

// Saturating counters: a 2-bit hash counter stops at 3.
func TestSaturation(t *testing.T) {
	idx := map[uint64][]uint64{1: {0}}
	pr := newTest(t, Params{Interval: 100, ThresholdPct: 3, Tables: 1, Entries: 2, AccEntries: 1, AccBits: 3, HashBits: 2}, idx)
	feed(pr, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	require.Equal(t, map[uint64]uint64{1: 7}, cands(pr), "3-bit accumulator counter saturates at 7")
	_, err := NewProfiler(Params{Interval: 100, ThresholdPct: 5, Tables: 1, Entries: 2, HashBits: 2})
	require.ErrorContains(t, err, "does not fit a 2-bit hash counter")
}

func TestParamErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Params
		want string
	}{
		{"uneven split", Params{Interval: 10, ThresholdPct: 1, Tables: 3, Entries: 8, HashBits: 8}, "do not split evenly"},
		{"not a power of two", Params{Interval: 10, ThresholdPct: 1, Tables: 3, Entries: 9, HashBits: 8}, "power of two"},
		{"zero interval", Params{ThresholdPct: 1, Tables: 1, Entries: 8, HashBits: 8}, "interval > 0"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := NewProfiler(tc.p)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// randomStream is a skewed stream: a few hot tuples and many cold ones.
func randomStream(seed uint64, n, hot, cold int) []tuple.Tuple {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]tuple.Tuple, n)
	for i := range out {
		if r.IntN(2) == 0 {
			out[i] = tuple.Tuple{PC: 0x1000 + uint64(r.IntN(hot))*4, W: 7}
		} else {
			out[i] = tuple.Tuple{PC: 0x2000 + uint64(r.IntN(8))*4, W: uint64(r.IntN(cold))}
		}
	}
	return out
}

// Property: conservative update never undercounts a tuple's frequency in
// the interval (no promotion: threshold 100%).
func TestConservativeNeverUndercounts(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		pr, err := NewProfiler(Params{Interval: 5000, ThresholdPct: 100, Tables: 4, Entries: 64, Conservative: true, HashBits: 24, Seed: seed})
		require.NoError(t, err)
		truth := map[tuple.Tuple]uint64{}
		for i, tp := range randomStream(seed, 5000, 20, 500) {
			pr.Add(tp)
			truth[tp]++
			if i%97 == 0 {
				for x, n := range truth {
					est := uint64(1 << 62)
					for j := 0; j < 4; j++ {
						est = min(est, pr.HashCounter(j, pr.HashIndex(j, x)))
					}
					require.GreaterOrEqual(t, est, n, "seed %d: tuple %v", seed, x)
				}
			}
		}
	}
}

// Property: the candidates' counts never fall below their true counts
// (R0, no retaining, C0 and C1) — aliasing only adds.
func TestCandidatesNeverUndercount(t *testing.T) {
	for _, c := range []bool{false, true} {
		pr, err := NewProfiler(Params{Interval: 4000, ThresholdPct: 1, Tables: 2, Entries: 64, Conservative: c, HashBits: 24, Seed: 3})
		require.NoError(t, err)
		perf := NewPerfect()
		for _, tp := range randomStream(9, 4000, 30, 800) {
			pr.Add(tp)
			perf.Add(tp)
		}
		for _, cd := range pr.Candidates(nil) {
			require.GreaterOrEqual(t, cd.Count, perf.Count(cd.T), "conservative=%v", c)
		}
	}
}

// Per-interval accumulator statistics, by hand: interval 5, threshold 40%
// (2 events), one accumulator entry, retaining on.
//
//	interval 0: A A B B B  A promoted (1); B reaches 2 twice, the entry is locked: 2 failed
//	interval 1: A A C C C  retained A re-crosses inside the accumulator (not promoted); C fails twice
//	interval 2: B B B C C  B replaces retained A (1), then is shielded; C fails once
//
// The perfect candidates are {A, B}, {A, C}, {B, C}: new candidates (not
// candidates the interval before) 2, 1 (C), 1 (B).
func TestIntervalStats(t *testing.T) {
	const A, B, C = 1, 2, 3
	pr := newTest(t, Params{Interval: 5, ThresholdPct: 40, Tables: 1, Entries: 4, AccEntries: 1, Retain: true},
		map[uint64][]uint64{A: {0}, B: {1}, C: {2}})
	b := NewBank(5, 40)
	tr := b.AddProfiler("p", pr)
	for _, w := range []uint64{A, A, B, B, B, A, A, C, C, C, B, B, B, C, C} {
		b.Add(tu(w))
	}
	b.Finish()
	require.Equal(t, []EngineStats{
		{Promotions: 1, FailedPromotions: 2, AccUsed: 1, AccCandidates: 1, AccEntries: 1},
		{Promotions: 0, FailedPromotions: 2, AccUsed: 1, AccCandidates: 1, AccEntries: 1},
		{Promotions: 1, FailedPromotions: 1, AccUsed: 1, AccCandidates: 1, AccEntries: 1},
	}, tr.Stats)
	require.Equal(t, []int{2, 1, 1}, b.NewCands)
	for i, want := range []int{2, 1, 1} {
		require.Equal(t, want, tr.Intervals[i].NewCands, "interval %d", i)
	}
	require.EqualValues(t, 2, pr.Promotions)
	require.EqualValues(t, 5, pr.FailedPromotes)
}

// A bank's batch path (Bank.AddAll: Profiler.AddAll up to each interval's
// end) leaves the profiler and the bank in the state that Add, one tuple
// at a time, does: hash counters, accumulator, promotions and each
// interval's candidates, for the presets' shape (the fast loop) and
// others (the general one), with resetting and without retaining too.
func TestAddAllMatchesAdd(t *testing.T) {
	shapes := []Params{
		{Interval: 1000, ThresholdPct: 1, Tables: 4, Entries: 2048, Conservative: true, Retain: true, HashBits: 24, Seed: 1},
		{Interval: 1000, ThresholdPct: 1, Tables: 4, Entries: 256, Conservative: true, Reset: true, HashBits: 8, Seed: 2},
		{Interval: 700, ThresholdPct: 2, Tables: 2, Entries: 1024, Conservative: false, Retain: true, HashBits: 24, Seed: 3},
		{Interval: 500, ThresholdPct: 1, Tables: 4, Entries: 64, Conservative: true, Retain: false, HashBits: 24, Seed: 4},
	}
	for si, p := range shapes {
		rng := rand.New(rand.NewPCG(uint64(si), 11))
		stream := make([]tuple.Tuple, 20000)
		for i := range stream {
			// A skewed stream: a few hot tuples, many cold ones.
			w := uint64(rng.IntN(5))
			if rng.IntN(3) == 0 {
				w = rng.Uint64()
			}
			stream[i] = tuple.Tuple{PC: 0x1000 + 4*uint64(rng.IntN(3)), W: w}
		}
		// Chunks of any size, each of one tag (0 or 3): one PC and value
		// under two tags (one lane hash) in the accumulator.
		var chunks []int
		for i := 0; i < len(stream); {
			n := min(len(stream)-i, 1+rng.IntN(3000))
			for k := range n {
				stream[i+k].Tag = uint8(3 * (len(chunks) % 2))
			}
			chunks, i = append(chunks, n), i+n
		}
		one := NewBank(p.Interval, p.ThresholdPct)
		one.DropReference()
		pa, err := NewProfiler(p)
		require.NoError(t, err)
		// The oracle takes the general path (no packed or lane hash):
		// AddAll's and AddAllValues' fast loops (laneRun) against it.
		pa.packed, pa.accByX, pa.lanes = nil, false, nil
		ta := one.AddProfiler("a", pa)
		for _, x := range stream {
			one.Add(x)
		}
		require.NotZero(t, pa.Promotions, "shape %d", si)
		// AddAll, and AddAllValues on the same loads as the value tap's
		// records, by chunk.
		for _, values := range []bool{false, true} {
			all := NewBank(p.Interval, p.ThresholdPct)
			all.DropReference()
			pb, err := NewProfiler(p)
			require.NoError(t, err)
			tb := all.AddProfiler("b", pb)
			rest := stream
			for _, n := range chunks {
				if values {
					vals := make([]cpu.TapValue, n)
					for i, x := range rest[:n] {
						vals[i] = cpu.TapValue{PC: x.PC, Value: x.W}
					}
					all.AddAllValues(vals, rest[0].Tag)
				} else {
					all.AddAll(rest[:n])
				}
				rest = rest[n:]
			}
			require.Equal(t, pa.counters, pb.counters, "shape %d, values %v", si, values)
			require.Equal(t, pa.acc, pb.acc, "shape %d, values %v", si, values)
			require.Equal(t, pa.Promotions, pb.Promotions, "shape %d", si)
			require.Equal(t, pa.FailedPromotes, pb.FailedPromotes, "shape %d", si)
			require.Equal(t, one.Events, all.Events, "shape %d", si)
			require.Equal(t, one.Partial(), all.Partial(), "shape %d", si)
			require.Equal(t, ta.Stats, tb.Stats, "shape %d", si)
			require.Equal(t, ta.Profile, tb.Profile, "shape %d, values %v", si, values)
		}
	}
}
