package stratified

import (
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

func tp(pc, w uint64) tuple.Tuple { return tuple.Tuple{PC: pc, W: w} }

func mustSpec(t *testing.T, s string) Spec {
	t.Helper()
	spec, err := ParseSpec(s)
	require.NoError(t, err, s)
	return spec
}

// P_r picks exactly every r-th tuple, with the implied count r.
func TestPeriodicPicksEveryRth(t *testing.T) {
	for _, tc := range []struct {
		desc string
		r    uint64
		n    int
	}{
		{"rate 1 picks all", 1, 5},
		{"rate 3 over 10", 3, 10},
		{"rate 256 over 1000", 256, 1000},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c := New(Spec{Base: Periodic, Rate: tc.r}, DefaultOptions)
			for i := 1; i <= tc.n; i++ {
				c.Push(tp(0x100, uint64(i)))
			}
			var want []Message
			for i := int(tc.r); i <= tc.n; i += int(tc.r) {
				want = append(want, Message{T: tp(0x100, uint64(i)), Count: tc.r})
			}
			require.Equal(t, want, c.Out)
		})
	}
}

// CR_r's messages carry the count since the sampler's previous sample, so
// the counts add up to the stream length up to the last sample.
func TestCounterRandomCounts(t *testing.T) {
	c := New(mustSpec(t, "CR4"), Options{Seed: 7, CountBits: 16})
	r := New(mustSpec(t, "R4"), Options{Seed: 7, CountBits: 16}) // same RNG: the same picks
	const n = 1000
	lastPick := 0
	for i := 1; i <= n; i++ {
		before := len(r.Out)
		c.Push(tp(0x100, uint64(i)))
		r.Push(tp(0x100, uint64(i)))
		if len(r.Out) > before {
			m := c.Out[len(c.Out)-1]
			require.Equal(t, uint64(i-lastPick), m.Count, "tuple %d", i)
			require.Equal(t, uint64(i), m.T.W)
			require.Equal(t, uint64(4), r.Out[len(r.Out)-1].Count, "R_r's count is implied")
			lastPick = i
		}
	}
	require.Equal(t, len(r.Out), len(c.Out))
	var sum uint64
	for _, m := range c.Out {
		sum += m.Count
	}
	require.Equal(t, uint64(lastPick), sum)
	require.InDelta(t, n/4, len(c.Out), 60, "about one in four picked")
}

// H[CP…] and a saturating C counter: the count stays at its maximum.
func TestCounterSaturates(t *testing.T) {
	c := New(Spec{Base: Random, Counter: true, Rate: 1 << 20}, Options{Seed: 3, CountBits: 2})
	for i := 0; i < 100; i++ {
		c.Push(tp(1, 1))
	}
	for _, m := range c.Out {
		require.LessOrEqual(t, m.Count, uint64(3))
	}
	require.Equal(t, uint64(3), c.samp.since[0])
}

// D_r reloads its countdown uniformly from 1..2r-1: the mean gap is r.
func TestCountdownMeanGap(t *testing.T) {
	c := New(mustSpec(t, "D10"), Options{Seed: 11})
	const n = 200000
	for i := 0; i < n; i++ {
		c.Push(tp(1, uint64(i)))
	}
	require.InDelta(t, n/10, len(c.Out), n/10*0.03)
	for _, m := range c.Out {
		require.Equal(t, uint64(10), m.Count)
	}
}

// The §3.5 hash on a fixed table: tab[i][b] = b+i (mod 256).
// pc = 0x1000: randomize = 0x0706050403021100, flip = 0x0011020304050607;
// w = 2: randomize = 0x0706050403020102; xor = 0x0717070707070705;
// 8-bit fold: 07^17^07^07^07^07^07^05 = 0x12; 11-bit fold = 0x104.
func TestHashHandComputed(t *testing.T) {
	var tab [8][256]uint8
	for i := range tab {
		for b := range tab[i] {
			tab[i][b] = uint8(b + i)
		}
	}
	for _, tc := range []struct {
		desc string
		bits uint
		want uint64
	}{
		{"256 substreams", 8, 0x12},
		{"2048 substreams", 11, 0x104},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			h := tuple.NewHashTables(tab, tc.bits)
			require.Equal(t, uint64(0x0706050403021100), h.Randomize(0x1000))
			require.Equal(t, uint64(0x0717070707070705), h.Signature(0x1000, 2))
			require.Equal(t, tc.want, h.Index(tp(0x1000, 2)))
		})
	}
}

// H[P_r]_n keeps one counter per substream: two tuples in different
// substreams are counted apart; each sends a message every r of its own.
func TestHashSplitPeriodic(t *testing.T) {
	c := New(mustSpec(t, "H[P3]2048"), DefaultOptions)
	a, b := tp(0x1000, 1), tp(0x2000, 5)
	ia, ib := c.samp.hash.Index(a), c.samp.hash.Index(b)
	require.NotEqual(t, ia, ib, "pick tuples in different substreams")
	stream := []tuple.Tuple{a, b, a, b, b, a, a, b, a, a}
	for _, x := range stream {
		c.Push(x)
	}
	// b's substream reaches 3 at the 5th tuple, a's at the 6th; then a
	// again at its 6th occurrence (the 10th tuple).
	require.Equal(t, []Message{{T: b, Count: 3}, {T: a, Count: 3}, {T: a, Count: 3}}, c.Out)
	require.Equal(t, uint64(2048*2), c.StorageBits(), "2048 two-bit counters")
}

// A_k merges repeated messages, dispatches the least recently used entry
// on replacement and any entry whose counter saturates.
func TestAssocMergesAndEvicts(t *testing.T) {
	a, b, c3 := tp(1, 1), tp(2, 2), tp(3, 3)
	for _, tc := range []struct {
		desc string
		in   []Message
		want []Message // dispatched during the stream
		left []Message // Drain at the end, oldest first
	}{
		{
			desc: "merges",
			in:   []Message{{a, 10}, {b, 10}, {a, 10}},
			left: []Message{{b, 10}, {a, 20}},
		},
		{
			desc: "replaces the least recently used",
			in:   []Message{{a, 10}, {b, 10}, {a, 10}, {c3, 10}},
			want: []Message{{b, 10}},
			left: []Message{{a, 20}, {c3, 10}},
		},
		{
			desc: "saturation dispatches (3 messages of a 2-bit counter)",
			in:   []Message{{a, 10}, {a, 10}, {a, 10}, {a, 10}},
			want: []Message{{a, 30}},
			left: []Message{{a, 10}},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			as := NewAssoc(2, 2, 10)
			var out []Message
			for _, m := range tc.in {
				out = as.Push(m, out)
			}
			require.Equal(t, tc.want, out)
			require.Equal(t, tc.left, as.Drain(nil))
		})
	}
}

// A_k with explicit counts (unit 1): an overflowing add dispatches what
// the entry held first.
func TestAssocExplicitCounts(t *testing.T) {
	a := tp(1, 1)
	as := NewAssoc(4, 4, 1) // counts up to 15
	out := as.Push(Message{a, 9}, nil)
	out = as.Push(Message{a, 9}, out)
	require.Equal(t, []Message{{a, 9}}, out)
	require.Equal(t, []Message{{a, 9}}, as.Drain(nil))
	out = as.Push(Message{a, 20}, nil)
	require.Equal(t, []Message{{a, 20}}, out, "too big for the counter: passed through")
}

// The tagged compressor's state machine (Fig. 6) on a scripted stream:
// one direct-mapped entry, 2-bit tags, a 3-bit hit counter (saturates at
// 7), a 2-bit miss counter, ShouldEvict at 3 hits, ShouldReplace at 3
// misses. Tags: A=(0x10,0) folds to 1, B=(0x20,0) to 2, C=(0x30,0) to 3.
func TestTaggedFSM(t *testing.T) {
	A, B, C := tp(0x10, 0), tp(0x20, 0), tp(0x30, 0)
	tg := NewTagged(TaggedSpec{TagBits: 2, HitBits: 3, MissBits: 2, Entries: 1, Ways: 1}, 3, 3, 1)
	type st struct {
		state     uint8
		tag       uint64
		hit, miss uint64
	}
	steps := []struct {
		desc string
		in   tuple.Tuple
		tr   int
		want st
		msg  *Message
	}{
		{"A allocates", A, E1, st{Valid, 1, 1, 0}, nil},
		{"B misses: A waits in Evict", B, E4, st{Evict, 1, 1, 1}, nil},
		{"A hits in Evict, 2 < ShouldEvict", A, E6a, st{Evict, 1, 2, 1}, nil},
		{"A hits again: evicted with 3; the miss count becomes the hit count", A, E6, st{Empty, 1, 1, 0}, &Message{A, 3}},
		{"B allocates with the handed-over count", B, E1, st{Valid, 2, 2, 0}, nil},
		{"B hits", B, E3, st{Valid, 2, 3, 0}, nil},
		{"C misses", C, E4, st{Evict, 2, 3, 1}, nil},
		{"A misses too", A, E5a, st{Evict, 2, 3, 2}, nil},
		{"C misses: ShouldReplace; C takes hit+miss", C, E5, st{Valid, 3, 6, 0}, nil},
		{"C hits: saturated", C, E3, st{Valid, 3, 7, 0}, nil},
		{"C hits a saturated counter: message of 8", C, E2, st{Empty, 3, 0, 0}, &Message{C, 8}},
	}
	var out []Message
	var seen int
	for i, s := range steps {
		before := tg.Transitions
		out = tg.Push(s.in, out)
		for tr := range tg.Transitions {
			d := tg.Transitions[tr] - before[tr]
			if tr == s.tr {
				require.Equal(t, uint64(1), d, "step %d (%s): %s", i, s.desc, TransitionNames[tr])
			} else {
				require.Zero(t, d, "step %d (%s): unexpected %s", i, s.desc, TransitionNames[tr])
			}
		}
		state, tag, hit, miss := tg.State(0)
		require.Equal(t, s.want, st{state, tag, hit, miss}, "step %d: %s", i, s.desc)
		if s.msg != nil {
			require.Len(t, out, seen+1, s.desc)
			require.Equal(t, *s.msg, out[seen])
			seen++
		} else {
			require.Len(t, out, seen, s.desc)
		}
	}
	// §4.1: the counts keep the stream length: 11 tuples = 3 + 8 in messages.
	var sum uint64
	for _, m := range out {
		sum += m.Count
	}
	require.Equal(t, uint64(len(steps)), sum)
}

// A set-associative tagged table holds two conflicting tuples at once.
func TestTaggedTwoWay(t *testing.T) {
	A, B := tp(0x10, 0), tp(0x20, 0)
	tg := NewTagged(TaggedSpec{TagBits: 2, HitBits: 8, MissBits: 3, Entries: 2, Ways: 2}, 16, 7, 1)
	var out []Message
	for i := 0; i < 10; i++ {
		out = tg.Push(A, out)
		out = tg.Push(B, out)
	}
	require.Empty(t, out)
	require.Equal(t, uint64(2), tg.Transitions[E1])
	require.Equal(t, uint64(18), tg.Transitions[E3])
	require.Zero(t, tg.Transitions[E4])
}

// §4.2: storage in bits; the paper's 1-bit-tag, 3-bit-miss design is 62%
// more than the stratified sampler's 8-bit counters.
func TestStorageBits(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want uint64
	}{
		{"R256", 0},
		{"P256", 8},
		{"H[P256]2048", 2048 * 8},
		{"H[P512]2048", 2048 * 9},
		{"CR256", 16},
		{"H[CR256]2048", 2048 * 16},
		{"D256", 9},
		{"T[1,8,3]2048", 2048 * 13},
		{"T[2,8,3]2048x2", 2048*14 + 1024*1},
		{"T[2,8,3]2048x4", 2048*14 + 512*5},
		{"H[P256]2048A16", 2048*8 + 16*(128+8+8+1+4)},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			c := New(mustSpec(t, tc.spec), DefaultOptions)
			require.Equal(t, tc.want, c.StorageBits())
		})
	}
	p := New(mustSpec(t, "H[P256]2048"), DefaultOptions).StorageBits()
	tgd := New(mustSpec(t, "T[1,8,3]2048"), DefaultOptions).StorageBits()
	require.InDelta(t, 1.625, float64(tgd)/float64(p), 1e-9, "§4.2: 5 extra bits on 8")
}

// Composition: H[P]A merges the first level's messages; the counts that
// reach software add up the same with and without A_k (lossless).
func TestTwoLevelLossless(t *testing.T) {
	one := New(mustSpec(t, "H[P4]64"), DefaultOptions)
	two := New(mustSpec(t, "H[P4]64A16"), DefaultOptions)
	for i := 0; i < 10000; i++ {
		x := tp(uint64(0x1000+4*(i%4)), uint64(i%3))
		one.Push(x)
		two.Push(x)
	}
	two.Drain()
	fold := func(ms []Message) map[tuple.Tuple]uint64 {
		m := map[tuple.Tuple]uint64{}
		for _, x := range ms {
			m[x.T] += x.Count
		}
		return m
	}
	require.Equal(t, fold(one.Out), fold(two.Out))
	require.Equal(t, uint64(len(one.Out)), two.FirstLevel)
	require.Less(t, len(two.Out), len(one.Out)/2, "12 distinct tuples fit in 16 entries")
}

// The convergence curve keeps at most max_points points, evenly spaced.
func TestConvergenceThinning(t *testing.T) {
	cfg, err := ReadConfig(profhw.NewUnitConfig("u", "stratified", map[string]any{
		"convergence.every": int64(10), "convergence.max_points": int64(4), "compressor": "P2"}))
	require.NoError(t, err)
	u := NewUnit("u", cfg, profhw.Env{})
	recs := make([]cpu.DynInst, 95)
	for i := range recs {
		recs[i] = cpu.DynInst{PC: 0x100, Result: uint64(i % 3), Inst: isa.Inst{Class: isa.Load}}
	}
	u.Retire(recs)
	require.NoError(t, u.Finish(profhw.End{}))
	var evs []uint64
	for _, p := range u.Points() {
		evs = append(evs, p.Events)
	}
	// 10..50: five points, more than 4: thinned to 20, 40, every 20 from
	// then on: 60, 80; the end adds 95.
	require.Equal(t, []uint64{20, 40, 60, 80, 95}, evs)
}

// The tuple queue (§3.5): one tuple leaves per cycle; a commit that finds
// it full stalls until there is room.
func TestTupleQueueStalls(t *testing.T) {
	cfg, err := ReadConfig(profhw.NewUnitConfig("u", "stratified", map[string]any{"queue.size": int64(2)}))
	require.NoError(t, err)
	u := NewUnit("u", cfg, profhw.Env{Mode: profhw.Timing})
	require.True(t, u.Watch().Committed)
	load := &cpu.DynInst{PC: 0x100, Inst: isa.Inst{Class: isa.Load}}
	add := &cpu.DynInst{PC: 0x104, Inst: isa.Inst{Class: isa.IntALU}}
	for i, s := range []struct {
		d     *cpu.DynInst
		cycle uint64
		stall uint64
	}{
		{load, 10, 0}, // queue 1
		{load, 10, 0}, // 2: full
		{add, 10, 0},  // not selected: no tuple
		{load, 10, 1}, // waits one cycle for a tuple to leave
		{load, 11, 1}, // the queue is full again at 11 (2 entries; the stall moved its clock to 11)
		{load, 20, 0}, // drained
	} {
		require.Equal(t, s.stall, u.Commit(&pipeline.Commit{D: s.d, Cycle: s.cycle}), "commit %d", i)
	}
	require.Equal(t, uint64(2), u.Summary().StallReq)
}

// The PC cache gives the §3.5 hash's index.
func TestPCCacheIndex(t *testing.T) {
	h := tuple.NewHash(9, 11)
	c := newPCCache(h)
	r := rng{s: 3}
	for i := 0; i < 100000; i++ {
		w := r.next() % 64
		switch r.next() % 4 {
		case 0:
			w += r.next() % 4 << (24 + 8*(r.next()%5)) // a few heaps: the top bytes change
		case 1:
			w = r.next()
		}
		x := tp(0x10000+2*(r.next()%5000), w)
		require.Equal(t, tuple.XorFold(h.Signature(x.PC, x.W), h.Bits()), c.index(x))
	}
}
