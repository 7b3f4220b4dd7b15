package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoLevel builds a small hierarchy: L1 1 KiB 2-way 64 B lines, 2 cycles,
// 2 MSHRs; L2 4 KiB 4-way 64 B lines, 10 cycles, 4 MSHRs; memory 100.
func twoLevel(t *testing.T) (*Cache, *Cache, *MainMemory) {
	t.Helper()
	m := &MainMemory{Latency: 100}
	l2, err := NewCache(CacheConfig{Name: "l2", Size: 4096, Assoc: 4, LineSize: 64, HitLatency: 10, MSHRs: 4}, nil, m)
	require.NoError(t, err)
	l1, err := NewCache(CacheConfig{Name: "l1", Size: 1024, Assoc: 2, LineSize: 64, HitLatency: 2, MSHRs: 2}, l2, m)
	require.NoError(t, err)
	return l1, l2, m
}

func TestCacheLatencies(t *testing.T) {
	tests := []struct {
		desc  string
		steps []struct {
			addr  uint64
			write bool
			now   uint64
			done  uint64
			hit   bool
		}
	}{
		{desc: "cold miss to memory, then hits in the same line", steps: []struct {
			addr  uint64
			write bool
			now   uint64
			done  uint64
			hit   bool
		}{
			{0x1000, false, 0, 2 + 10 + 100, false}, // l1 2, l2 10, memory 100
			{0x1008, false, 200, 202, true},         // same line, filled
			{0x103f, true, 300, 302, true},          // last byte of the line
		}},
		{desc: "an access while the fill is in flight waits for it (MSHR hit)", steps: []struct {
			addr  uint64
			write bool
			now   uint64
			done  uint64
			hit   bool
		}{
			{0x2000, false, 0, 112, false},
			{0x2010, false, 5, 112, false},
			{0x2020, false, 109, 112, false}, // 109+2 = 111 < 112: waits for the fill
			{0x2030, false, 110, 112, true},  // 110+2 = 112: the data has arrived, a hit
		}},
		{desc: "an L1 miss that hits the L2: l1 2 + l2 10", steps: []struct {
			addr  uint64
			write bool
			now   uint64
			done  uint64
			hit   bool
		}{
			{0x3000, false, 0, 112, false},
			// Evict 0x3000 from the 2-way L1 set (set stride 512 bytes).
			{0x3200, false, 200, 312, false},
			{0x3400, false, 400, 512, false},
			{0x3000, false, 600, 612, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			l1, _, _ := twoLevel(t)
			for i, s := range tc.steps {
				done, hit := l1.Access(s.addr, s.write, s.now)
				assert.Equal(t, s.done, done, "step %d done", i)
				assert.Equal(t, s.hit, hit, "step %d hit", i)
			}
		})
	}
}

// TestCacheLRU: a 2-way set keeps the two most recently used lines.
func TestCacheLRU(t *testing.T) {
	l1, _, _ := twoLevel(t)
	a, b, c := uint64(0x0000), uint64(0x0200), uint64(0x0400) // one set (8 sets x 64 B)
	now := uint64(0)
	access := func(addr uint64) bool {
		now += 1000
		_, hit := l1.Access(addr, false, now)
		return hit
	}
	require.False(t, access(a))
	require.False(t, access(b))
	require.True(t, access(a)) // a is now MRU, b LRU
	require.False(t, access(c))
	assert.True(t, l1.Contains(a), "a was used more recently than b")
	assert.False(t, l1.Contains(b), "b was the LRU line")
	assert.True(t, l1.Contains(c))
	s := l1.Stats()
	assert.Equal(t, uint64(4), s.Reads)
	assert.Equal(t, uint64(1), s.Hits)
	assert.Equal(t, uint64(3), s.ReadMisses)
}

// TestCacheWriteBack: a write allocates and dirties a line; evicting it
// writes it back to the L2 (dirty there) and, from the L2, to memory.
func TestCacheWriteBack(t *testing.T) {
	l1, l2, m := twoLevel(t)
	now := uint64(0)
	step := func(addr uint64, write bool) {
		now += 1000
		l1.Access(addr, write, now)
	}
	step(0x0000, true) // write miss: allocate, dirty
	assert.True(t, l1.Dirty(0x0000))
	assert.Equal(t, uint64(1), l1.Stats().WriteMisses)
	step(0x0200, false)
	step(0x0400, false) // evicts dirty 0x0000 from the L1
	assert.False(t, l1.Contains(0x0000))
	assert.Equal(t, uint64(1), l1.Stats().Writebacks)
	assert.Equal(t, uint64(1), l2.Stats().WritebacksIn)
	assert.True(t, l2.Dirty(0x0000), "the L2 copy is dirty now")
	assert.Zero(t, m.Writes)
	// Evict 0x0000 from the 4-way L2 set (set stride 1 KiB): four more lines.
	for i := uint64(1); i <= 4; i++ {
		step(i*0x400+0x10000, false)
	}
	assert.False(t, l2.Contains(0x0000))
	assert.Equal(t, uint64(1), l2.Stats().Writebacks)
	assert.Equal(t, uint64(1), m.Writes)
	// A clean line is dropped silently.
	before := l2.Stats().Writebacks
	for i := uint64(5); i <= 9; i++ {
		step(i*0x400+0x10000, false)
	}
	assert.Equal(t, before, l2.Stats().Writebacks)
}

// TestCacheMSHRs: misses to distinct lines overlap up to the MSHR count;
// a further miss waits for the first MSHR to free.
func TestCacheMSHRs(t *testing.T) {
	l1, _, _ := twoLevel(t) // 2 MSHRs in the L1, 4 in the L2
	// Three lines in three different sets.
	d1, _ := l1.Access(0x10000, false, 0)
	d2, _ := l1.Access(0x20040, false, 0)
	d3, _ := l1.Access(0x30080, false, 0)
	assert.Equal(t, uint64(112), d1)
	assert.Equal(t, uint64(112), d2, "the second miss overlaps the first")
	// The third miss is detected at 2 but both MSHRs are busy until 112:
	// it starts then and costs l2 10 + memory 100 more.
	assert.Equal(t, uint64(112+10+100), d3)
	s := l1.Stats()
	assert.Equal(t, uint64(1), s.MSHRFull)
	assert.Equal(t, uint64(110), s.MSHRFullCycles)
	// An access to a line being filled needs no MSHR.
	d4, hit := l1.Access(0x10008, false, 1)
	assert.False(t, hit)
	assert.Equal(t, uint64(112), d4)
	assert.Equal(t, uint64(1), l1.Stats().MSHRHits)
}

func TestCacheMemory(t *testing.T) {
	l1, _, m := twoLevel(t)
	assert.Same(t, m, l1.Memory())
	l1.Access(0, false, 0)
	assert.Equal(t, uint64(1), m.Reads)
	assert.Equal(t, "l1", l1.Config().Name)
	assert.NotNil(t, l1.Next())
}

func TestNewCacheErrors(t *testing.T) {
	m := &MainMemory{Latency: 1}
	tests := []struct {
		desc string
		cfg  CacheConfig
		mem  *MainMemory
		want string
	}{
		{"line not a power of two", CacheConfig{Size: 1024, Assoc: 1, LineSize: 48, HitLatency: 1, MSHRs: 1}, m, "line size"},
		{"zero associativity", CacheConfig{Size: 1024, Assoc: 0, LineSize: 64, HitLatency: 1, MSHRs: 1}, m, "associativity"},
		{"size not a multiple", CacheConfig{Size: 1000, Assoc: 1, LineSize: 64, HitLatency: 1, MSHRs: 1}, m, "size"},
		{"sets not a power of two", CacheConfig{Size: 3 * 64, Assoc: 1, LineSize: 64, HitLatency: 1, MSHRs: 1}, m, "sets"},
		{"no MSHRs", CacheConfig{Size: 1024, Assoc: 1, LineSize: 64, HitLatency: 1, MSHRs: 0}, m, "MSHR"},
		{"zero latency", CacheConfig{Size: 1024, Assoc: 1, LineSize: 64, HitLatency: 0, MSHRs: 1}, m, "latency"},
		{"nothing below", CacheConfig{Size: 1024, Assoc: 1, LineSize: 64, HitLatency: 1, MSHRs: 1}, nil, "no next level"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			tc.cfg.Name = "x"
			_, err := NewCache(tc.cfg, nil, tc.mem)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "cache x")
		})
	}
}

// TestCacheFullyAssociative: one set of 16 ways behaves as a 16-line LRU.
func TestCacheFullyAssociative(t *testing.T) {
	m := &MainMemory{Latency: 50}
	c, err := NewCache(CacheConfig{Name: "fa", Size: 1024, Assoc: 16, LineSize: 64, HitLatency: 1, MSHRs: 4}, nil, m)
	require.NoError(t, err)
	now := uint64(0)
	for pass := 0; pass < 3; pass++ {
		for i := uint64(0); i < 16; i++ {
			now += 100
			c.Access(i*4096, false, now)
		}
	}
	s := c.Stats()
	assert.Equal(t, uint64(16), s.ReadMisses, "16 distinct lines fit")
	assert.Equal(t, uint64(32), s.Hits)
	now += 100
	c.Access(16*4096, false, now) // a 17th line evicts the LRU one (line 0)
	assert.False(t, c.Contains(0))
	assert.True(t, c.Contains(4096))
}

func BenchmarkCacheAccess(b *testing.B) {
	m := &MainMemory{Latency: 100}
	l2, _ := NewCache(CacheConfig{Name: "l2", Size: 1 << 20, Assoc: 8, LineSize: 64, HitLatency: 12, MSHRs: 16}, nil, m)
	l1, _ := NewCache(CacheConfig{Name: "l1", Size: 32 << 10, Assoc: 8, LineSize: 64, HitLatency: 3, MSHRs: 8}, l2, m)
	addr := uint64(0)
	for i := 0; i < b.N; i++ {
		addr = addr*6364136223846793005 + 1442695040888963407
		l1.Access((addr>>40)&0xffff8, i&7 == 0, uint64(i))
	}
}

// Warm installs lines as accesses would, ready at once and uncounted: an
// access after it hits at the hit latency in both levels it filled; LRU
// order and write-backs follow; CopyState gives another hierarchy the
// same lines with every fill complete.
func TestCacheWarm(t *testing.T) {
	l1, l2, m := twoLevel(t)
	l1.Warm(0x1000, true) // a store: dirty in L1
	l1.Warm(0x2040, false)
	assert.Equal(t, CacheStats{}, l1.Stats(), "warming counts nothing")
	assert.Equal(t, CacheStats{}, l2.Stats())
	assert.Zero(t, m.Reads)
	assert.True(t, l2.Contains(0x1000) && l2.Contains(0x2040), "an L1 warm miss warms the L2")
	// L1 is 2-way with 8 sets: 0x1000, 0x1400 and 0x1800 share set 0, so
	// a third line evicts the least recently used (0x1000 is used last).
	l1.Warm(0x1400, false)
	done, hit := l1.Access(0x1000, false, 100)
	assert.True(t, hit)
	assert.Equal(t, uint64(102), done)
	assert.True(t, l1.Dirty(0x1000))
	l1.Warm(0x1800, false)
	assert.True(t, l1.Contains(0x1800))
	assert.False(t, l1.Contains(0x1400), "LRU: the older line goes")
	assert.True(t, l1.Contains(0x1000))

	c1, c2, _ := twoLevel(t)
	l1.Access(0x3000, false, 200)  // a fill in flight
	c1.Access(0x3000, false, 1000) // the target's own fills in flight, MSHRs busy
	c1.Access(0x5000, false, 1000)
	before := c1.Stats()
	c1.CopyState(l1)
	c2.CopyState(l2)
	for _, a := range []uint64{0x1000, 0x1400, 0x1800, 0x2040, 0x3000} {
		assert.Equal(t, l1.Contains(a), c1.Contains(a), "%#x", a)
		assert.Equal(t, l2.Contains(a), c2.Contains(a), "%#x", a)
	}
	assert.Equal(t, before, c1.Stats(), "copying counts nothing")
	done, hit = c1.Access(0x3000, false, 0)
	assert.True(t, hit, "copied lines are ready: no fill in flight")
	assert.Equal(t, uint64(2), done)
	done, _ = c1.Access(0x7000, false, 0)
	assert.Equal(t, uint64(2+10+100), done, "no MSHR busy")
}

// refLevel is an independent model of one cache level for
// TestCacheAgainstReference: each set a list of lines, most recently used
// first (the Cache keeps LRU stamps and a most-recent-way hint instead).
type refLevel struct {
	sets      [][]refLine
	assoc     int
	shift     uint
	lat       uint64
	mshr      []uint64
	next      *refLevel
	memLat    uint64
	stats     CacheStats
	memReads  uint64
	memWrites uint64
}

type refLine struct {
	line, ready uint64
	dirty       bool
}

func newRef(cfg CacheConfig, next *refLevel, memLat uint64) *refLevel {
	sets := cfg.Size / (cfg.Assoc * cfg.LineSize)
	return &refLevel{sets: make([][]refLine, sets), assoc: cfg.Assoc, shift: 6, lat: cfg.HitLatency,
		mshr: make([]uint64, cfg.MSHRs), next: next, memLat: memLat}
}

// touch moves line l of set s to the front, inserting it (and evicting the
// last, written back if dirty) if absent; it returns the line's old state.
func (r *refLevel) touch(s int, l refLine, present func(*refLine)) (refLine, bool) {
	set := r.sets[s]
	for i, x := range set {
		if x.line == l.line {
			copy(set[1:i+1], set[:i])
			present(&x)
			set[0] = x
			return x, true
		}
	}
	if len(set) == r.assoc {
		if v := set[len(set)-1]; v.dirty {
			r.stats.Writebacks++
			if r.next != nil {
				r.next.writeback(v.line << r.shift)
			} else {
				r.memWrites++
			}
		}
		set = set[:len(set)-1]
	}
	r.sets[s] = append([]refLine{l}, set...)
	return l, false
}

func (r *refLevel) access(addr uint64, write bool, now uint64) (uint64, bool) {
	if write {
		r.stats.Writes++
	} else {
		r.stats.Reads++
	}
	line := addr >> r.shift
	s := int(line % uint64(len(r.sets)))
	done := now + r.lat
	for _, x := range r.sets[s] {
		if x.line == line {
			r.touch(s, x, func(p *refLine) { p.dirty = p.dirty || write })
			if x.ready > done {
				r.stats.MSHRHits++
				return x.ready, false
			}
			r.stats.Hits++
			return done, true
		}
	}
	if write {
		r.stats.WriteMisses++
	} else {
		r.stats.ReadMisses++
	}
	start, m := done, 0
	for i := range r.mshr {
		if r.mshr[i] < r.mshr[m] {
			m = i
		}
	}
	if r.mshr[m] > start {
		r.stats.MSHRFull++
		r.stats.MSHRFullCycles += r.mshr[m] - start
		start = r.mshr[m]
	}
	if r.next != nil {
		done, _ = r.next.access(line<<r.shift, false, start)
	} else {
		r.memReads++
		done = start + r.memLat
	}
	r.mshr[m] = done
	r.touch(s, refLine{line: line, ready: done, dirty: write}, nil)
	return done, false
}

func (r *refLevel) writeback(addr uint64) {
	r.stats.WritebacksIn++
	line := addr >> r.shift
	r.touch(int(line%uint64(len(r.sets))), refLine{line: line, dirty: true}, func(p *refLine) { p.dirty = true })
}

// TestCacheAgainstReference runs random streams with locality (repeats of
// the last lines, a few hot sets, writes, fills in flight) through a
// two-level hierarchy and through the independent list-based model:
// every access's completion cycle and hit, and every counter, agree.
func TestCacheAgainstReference(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		l1, l2, m := twoLevel(t)
		r2 := newRef(l2.Config(), nil, 100)
		r1 := newRef(l1.Config(), r2, 100)
		rng := seed
		rand := func(n uint64) uint64 {
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			return rng % n
		}
		now, addr := uint64(0), uint64(0)
		for i := 0; i < 5000; i++ {
			switch rand(4) {
			case 0: // the same line again
			case 1:
				addr += 8 // the next word, sometimes the next line
			default: // 64 lines over 8 L1 sets: conflicts in both levels
				addr = rand(64) * 64
			}
			now += rand(8)
			write := rand(3) == 0
			m1, m2 := l1.Stats().Misses(), l2.Stats().Misses()
			done, hit := l1.Access(addr, write, now)
			wdone, whit := r1.access(addr, write, now)
			require.Equal(t, wdone, done, "seed %d access %d (%#x at %d) done", seed, i, addr, now)
			require.Equal(t, whit, hit, "seed %d access %d (%#x at %d) hit", seed, i, addr, now)
			if !hit { // LastMissed against the counters' moves
				missed, next := l1.LastMissed()
				require.Equal(t, l1.Stats().Misses() != m1, missed, "seed %d access %d: L1 missed", seed, i)
				require.Equal(t, l2.Stats().Misses() != m2, missed && next, "seed %d access %d: L2 missed", seed, i)
			}
		}
		assert.Equal(t, r1.stats, l1.Stats(), "seed %d: l1 counters", seed)
		assert.Equal(t, r2.stats, l2.Stats(), "seed %d: l2 counters", seed)
		assert.Equal(t, r2.memReads, m.Reads, "seed %d: memory reads", seed)
		assert.Equal(t, r2.memWrites, m.Writes, "seed %d: memory writes", seed)
	}
}
