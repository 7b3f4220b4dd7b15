package bpred

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/isa"
)

func cfg(kind string) config.BPred {
	return config.BPred{Kind: kind, BimodalEntries: 1024, GshareEntries: 4096, HistoryBits: 10,
		MetaEntries: 1024, BTBEntries: 64, BTBAssoc: 4, RASDepth: 4}
}

func newP(t *testing.T, kind string) *Predictor {
	t.Helper()
	p, err := New(cfg(kind))
	require.NoError(t, err)
	return p
}

// branch predicts a conditional branch at pc with the given outcome
// (target pc+64).
func branch(p *Predictor, pc uint64, taken bool) bool {
	next := pc + 4
	if taken {
		next = pc + 64
	}
	return p.Predict(pc, Cond, taken, next, pc+4)
}

// accuracy runs outcomes(i) for n executions of one branch and returns the
// accuracy over the last half (after warm-up).
func accuracy(p *Predictor, n int, outcome func(i int) bool) float64 {
	right := 0
	for i := 0; i < n; i++ {
		if branch(p, 0x1000, outcome(i)) && i >= n/2 {
			right++
		}
	}
	return float64(right) / float64(n-n/2)
}

func TestDirectionPredictors(t *testing.T) {
	always := func(int) bool { return true }
	alternate := func(i int) bool { return i%2 == 0 }
	period3 := func(i int) bool { return i%3 != 0 } // T T N ...
	tests := []struct {
		desc    string
		kind    string
		outcome func(int) bool
		min     float64
		max     float64
	}{
		{"bimodal learns an always-taken branch", "bimodal", always, 1, 1},
		{"gshare learns an always-taken branch", "gshare", always, 1, 1},
		{"bimodal cannot learn alternation", "bimodal", alternate, 0, 0.55},
		{"gshare learns alternation from history", "gshare", alternate, 1, 1},
		{"tournament chooses gshare for alternation", "tournament", alternate, 0.98, 1},
		{"gshare learns a period-3 pattern", "gshare", period3, 1, 1},
		{"bimodal gets two thirds of a period-3 pattern", "bimodal", period3, 0.6, 0.7},
		{"perfect is never wrong", "perfect", alternate, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			acc := accuracy(newP(t, tc.kind), 2000, tc.outcome)
			assert.GreaterOrEqual(t, acc, tc.min)
			assert.LessOrEqual(t, acc, tc.max)
		})
	}
}

// TestTournamentFollowsBetter: with many biased branches whose history is
// noise, the meta chooser moves to bimodal, which learns each branch alone.
func TestTournamentFollowsBetter(t *testing.T) {
	// A BTB big enough for every branch: the test is about directions.
	c := cfg("tournament")
	c.BTBEntries = 4096
	tour, err := New(c)
	require.NoError(t, err)
	c.Kind = "gshare"
	gsh, err := New(c)
	require.NoError(t, err)
	rng := uint32(1)
	var rightT, rightG, n int
	for i := 0; i < 40000; i++ {
		rng = rng*1664525 + 1013904223
		pc := uint64(0x4000 + 4*(rng>>24&63)) // 64 branches, random order
		taken := pc&8 != 0                    // each branch always goes one way
		// Interleave random noise branches to scramble the global history.
		rng = rng*1664525 + 1013904223
		noise := rng>>31 == 1
		branch(tour, 0x9000, noise)
		branch(gsh, 0x9000, noise)
		a, b := branch(tour, pc, taken), branch(gsh, pc, taken)
		if i > 20000 {
			n++
			if a {
				rightT++
			}
			if b {
				rightG++
			}
		}
	}
	accT, accG := float64(rightT)/float64(n), float64(rightG)/float64(n)
	assert.Greater(t, accT, 0.98, "tournament")
	assert.Less(t, accG, accT, "gshare suffers from the noisy history")
}

func TestBTB(t *testing.T) {
	var b BTB
	require.NoError(t, b.init(8, 2)) // 4 sets of 2; set = (pc>>1)&3
	_, hit := b.Lookup(0x100)
	assert.False(t, hit)
	b.Update(0x100, 0x500)
	tgt, hit := b.Lookup(0x100)
	require.True(t, hit)
	assert.Equal(t, uint64(0x500), tgt)
	// 0x108 and 0x110 map to the same set as 0x100 ((pc>>1)&3 == 0).
	b.Update(0x108, 0x600)
	b.Lookup(0x100) // 0x100 becomes MRU
	b.Update(0x110, 0x700)
	_, hit = b.Lookup(0x108)
	assert.False(t, hit, "0x108 was the LRU entry")
	_, hit = b.Lookup(0x100)
	assert.True(t, hit)
	assert.Equal(t, uint64(1), b.Evictions)
	b.Update(0x100, 0x900) // a changed target overwrites in place
	tgt, _ = b.Lookup(0x100)
	assert.Equal(t, uint64(0x900), tgt)
	assert.Error(t, (&BTB{}).init(6, 4))
}

// TestBTBLookupUpdate: LookupUpdate answers as Lookup and leaves the BTB
// as Lookup then Update do, on random PCs crowding a small BTB (hits,
// changed targets, evictions).
func TestBTBLookupUpdate(t *testing.T) {
	var one, two BTB
	require.NoError(t, one.init(16, 4))
	require.NoError(t, two.init(16, 4))
	x := uint64(7)
	for i := 0; i < 5000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		pc, target := 0x1000+(x%40)*2, 0x8000+(x>>20)%4*4
		t1, h1 := one.LookupUpdate(pc, target)
		t2, h2 := two.Lookup(pc)
		two.Update(pc, target)
		require.Equal(t, h2, h1, "access %d (pc %#x): hit", i, pc)
		require.Equal(t, t2, t1, "access %d (pc %#x): target", i, pc)
		require.Equal(t, two, one, "access %d (pc %#x): state", i, pc)
	}
	assert.NotZero(t, one.Evictions)
	assert.NotZero(t, one.Hits)
}

func TestRAS(t *testing.T) {
	var r RAS
	r.init(3)
	_, ok := r.Pop()
	assert.False(t, ok, "empty")
	for _, v := range []uint64{1, 2, 3, 4} { // 4 overwrites 1
		r.Push(v)
	}
	assert.Equal(t, 3, r.Len())
	for _, want := range []uint64{4, 3, 2} {
		v, ok := r.Pop()
		require.True(t, ok)
		assert.Equal(t, want, v)
	}
	_, ok = r.Pop()
	assert.False(t, ok, "the overwritten entry is gone")
}

func TestCallsAndReturns(t *testing.T) {
	p := newP(t, "bimodal")
	// call at 0x100 to 0x800 (first time: BTB miss), return from 0x900 to 0x104.
	assert.False(t, p.Predict(0x100, Call, true, 0x800, 0x104), "cold BTB")
	assert.True(t, p.Predict(0x900, Return, true, 0x104, 0x904), "RAS")
	assert.True(t, p.Predict(0x100, Call, true, 0x800, 0x104), "BTB hit")
	assert.True(t, p.Predict(0x900, Return, true, 0x104, 0x904))
	// A return with an empty RAS mispredicts.
	assert.False(t, p.Predict(0x900, Return, true, 0x104, 0x904))
	s := p.Stats(Return)
	assert.Equal(t, uint64(3), s.Lookups)
	assert.Equal(t, uint64(1), s.Mispredicts)
	assert.Equal(t, uint64(1), s.RASWrong)
	assert.Equal(t, uint64(1), p.Stats(Call).BTBMisses)
	// Deep recursion overflows the 4-entry RAS: the innermost 4 returns
	// are right, the rest wrong.
	for i := uint64(0); i < 6; i++ {
		p.Predict(0x100+i*8, Call, true, 0x800, 0x104+i*8)
	}
	right := 0
	for i := int64(5); i >= 0; i-- {
		if p.Predict(0x900, Return, true, 0x104+uint64(i)*8, 0x904) {
			right++
		}
	}
	assert.Equal(t, 4, right)
	// Without a RAS, returns use the BTB.
	c := cfg("bimodal")
	c.RASDepth = 0
	q, err := New(c)
	require.NoError(t, err)
	assert.False(t, q.Predict(0x900, Return, true, 0x104, 0x904))
	assert.True(t, q.Predict(0x900, Return, true, 0x104, 0x904))
	// Injected calls push the RAS without a lookup.
	p.PushReturn(0x5000)
	assert.True(t, p.Predict(0x900, Return, true, 0x5000, 0x904))
}

func TestJumpsAndBTBMiss(t *testing.T) {
	p := newP(t, "bimodal")
	assert.False(t, p.Predict(0x200, Jump, true, 0x400, 0x204), "a taken jump misses the cold BTB")
	assert.True(t, p.Predict(0x200, Jump, true, 0x400, 0x204))
	assert.False(t, p.Predict(0x300, Indirect, true, 0x400, 0x304))
	assert.True(t, p.Predict(0x300, Indirect, true, 0x400, 0x304))
	assert.False(t, p.Predict(0x300, Indirect, true, 0x480, 0x304), "the indirect target changed")
	// A taken conditional branch: the first time the direction is wrong
	// (counters start weakly not-taken), then it is learnt.
	assert.False(t, branch(p, 0x700, true))
	assert.True(t, branch(p, 0x700, true))
	// Four jumps in the same BTB set (16 sets: pc multiple of 32) evict
	// it: predicted taken, but no target: a BTB miss, a mispredict.
	for pc := uint64(0x720); pc <= 0x780; pc += 0x20 {
		p.Predict(pc, Jump, true, 0x2000, pc+4)
	}
	assert.False(t, branch(p, 0x700, true))
	s := p.Stats(Cond)
	assert.Equal(t, uint64(1), s.BTBMisses)
	assert.Equal(t, uint64(1), s.DirWrong)
	assert.Equal(t, uint64(2), s.Mispredicts)
}

func TestGroupOf(t *testing.T) {
	for _, tc := range []struct {
		class isa.Class
		g     Group
		ok    bool
	}{
		{isa.Branch, Cond, true}, {isa.Jal, Jump, true}, {isa.Jalr, Indirect, true},
		{isa.Call, Call, true}, {isa.Return, Return, true}, {isa.Load, 0, false}, {isa.IntALU, 0, false},
	} {
		g, ok := GroupOf(tc.class)
		assert.Equal(t, tc.ok, ok, tc.class.String())
		if ok {
			assert.Equal(t, tc.g, g, tc.class.String())
		}
	}
	assert.Equal(t, "conditional", Cond.String())
	assert.Equal(t, "return", Return.String())
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		mod  func(c *config.BPred)
	}{
		{"unknown kind", func(c *config.BPred) { c.Kind = "neural" }},
		{"bimodal not a power of two", func(c *config.BPred) { c.BimodalEntries = 1000 }},
		{"gshare zero", func(c *config.BPred) { c.Kind, c.GshareEntries = "gshare", 0 }},
		{"history too long", func(c *config.BPred) { c.Kind, c.HistoryBits = "gshare", 64 }},
		{"meta not a power of two", func(c *config.BPred) { c.Kind, c.MetaEntries = "tournament", 3 }},
		{"BTB sets not a power of two", func(c *config.BPred) { c.BTBEntries, c.BTBAssoc = 48, 4 }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			c := cfg("bimodal")
			tc.mod(&c)
			_, err := New(c)
			assert.Error(t, err)
		})
	}
	var s Stats
	assert.Equal(t, 1.0, s.Accuracy())
}
