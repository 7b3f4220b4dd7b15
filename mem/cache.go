package mem

import (
	"fmt"
	"math/bits"
)

// Cache timing models for the out-of-order core: set-associative caches
// with LRU replacement, write-back and write-allocate, non-blocking with a
// bounded number of MSHRs, chained into a hierarchy that ends in a
// fixed-latency main memory.
//
// The model is timestamp based (as in ZSim): an access at cycle now returns
// the cycle its data is available, and the cache's state changes at once.
// A line being filled records the cycle its data arrives, so a later access
// to it waits for the fill (an MSHR hit, merged into the outstanding miss)
// instead of missing again. A miss takes an MSHR from the cycle the miss is
// detected until its fill arrives; when all MSHRs are busy the miss waits
// for the first to free. Lookups are serial: a miss costs this level's hit
// latency, then the next level's. Writebacks of dirty victims go to the next
// level off the critical path: they change its contents and statistics but
// add no latency and take no MSHR. The levels are neither inclusive nor
// exclusive.

// CacheConfig describes one cache level.
type CacheConfig struct {
	Name       string // for errors and reports ("l1d")
	Size       int    // capacity in bytes
	Assoc      int    // ways
	LineSize   int    // bytes, a power of two
	HitLatency uint64 // cycles
	MSHRs      int    // outstanding misses to distinct lines
}

// CacheStats counts a cache level's events.
type CacheStats struct {
	Reads, Writes           uint64 // accesses by kind
	Hits                    uint64 // data present when the access completes its lookup
	MSHRHits                uint64 // the line's fill was still in flight: the access waited for it
	ReadMisses, WriteMisses uint64 // line absent: a fill from the next level
	Writebacks              uint64 // dirty lines evicted to the next level
	WritebacksIn            uint64 // dirty lines received from the level above
	MSHRFull                uint64 // misses that waited for a free MSHR
	MSHRFullCycles          uint64 // cycles those misses waited
}

// Accesses returns Reads + Writes.
func (s CacheStats) Accesses() uint64 { return s.Reads + s.Writes }

// Misses returns ReadMisses + WriteMisses (MSHR hits are not misses).
func (s CacheStats) Misses() uint64 { return s.ReadMisses + s.WriteMisses }

// MainMemory is the fixed-latency memory at the bottom of a hierarchy.
type MainMemory struct {
	Latency uint64 // cycles from the request to the data
	Reads   uint64 // line fills
	Writes  uint64 // dirty lines written back
}

// Cache is one level of a cache hierarchy.
type Cache struct {
	cfg       CacheConfig
	lineShift uint
	setMask   uint64
	assoc     int
	ways      []way // set-major
	// mru is per set the way of its last hit or fill (an absolute way
	// index), tried before the scan of the set: a repeat access to a line
	// (the I-cache line of consecutive fetch blocks, a stack line) finds
	// it with one compare. Only a hint: a tag matches in at most one way,
	// so whichever way matches is the line's, and the scan finds the same.
	mru   []int32
	clock uint64
	mshr  []uint64 // per MSHR: the cycle its fill completes (free once <= now)
	next  *Cache
	mem   *MainMemory
	stats CacheStats
	// missedAt is the clock of the last miss, and nextMissed whether that
	// miss's fill missed in the next level too (LastMissed).
	missedAt   uint64
	nextMissed bool
}

// way is one line frame of a set. Its fields sit together (not one slice
// per field): a lookup that hits reads the tag, stamps the use and checks
// the fill with one bounds check and one cache line.
type way struct {
	tag   uint64 // line number + 1 (0: invalid)
	ready uint64 // the cycle the line's data arrives
	stamp uint64 // the LRU clock of the last use
	dirty bool
}

// NewCache builds a cache level whose misses go to next, or to mem when
// next is nil.
func NewCache(cfg CacheConfig, next *Cache, mem *MainMemory) (*Cache, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("cache %s: %s", cfg.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case cfg.LineSize <= 0 || bits.OnesCount(uint(cfg.LineSize)) != 1:
		return nil, bad("line size %d is not a power of two", cfg.LineSize)
	case cfg.Assoc <= 0:
		return nil, bad("associativity %d is not positive", cfg.Assoc)
	case cfg.Size <= 0 || cfg.Size%(cfg.Assoc*cfg.LineSize) != 0:
		return nil, bad("size %d is not a positive multiple of assoc x line (%d x %d)", cfg.Size, cfg.Assoc, cfg.LineSize)
	case cfg.MSHRs <= 0:
		return nil, bad("MSHR count %d is not positive", cfg.MSHRs)
	case cfg.HitLatency == 0:
		return nil, bad("hit latency must be at least 1 cycle")
	case next == nil && mem == nil:
		return nil, bad("no next level and no memory")
	}
	sets := cfg.Size / (cfg.Assoc * cfg.LineSize)
	if bits.OnesCount(uint(sets)) != 1 {
		return nil, bad("%d sets is not a power of two", sets)
	}
	n := sets * cfg.Assoc
	return &Cache{
		cfg:       cfg,
		lineShift: uint(bits.TrailingZeros(uint(cfg.LineSize))),
		setMask:   uint64(sets - 1),
		assoc:     cfg.Assoc,
		ways:      make([]way, n),
		mru:       make([]int32, sets),
		mshr:      make([]uint64, cfg.MSHRs),
		next:      next,
		mem:       mem,
	}, nil
}

// Config returns the level's configuration.
func (c *Cache) Config() CacheConfig { return c.cfg }

// Stats returns the level's counters.
func (c *Cache) Stats() CacheStats { return c.stats }

// LastMissed reports, after an Access that did not hit, whether it missed
// (a fill from the next level; false: it found its line's fill in flight)
// and, if so, whether the fill missed in the next cache level too (false
// when the next level is main memory). It tells the timing model what to
// charge an access to without reading the miss counters before and after.
func (c *Cache) LastMissed() (missed, nextMissed bool) {
	return c.missedAt == c.clock, c.nextMissed
}

// Misses is the number of read and write misses so far (cheaper than
// Stats, which copies every counter).
func (c *Cache) Misses() uint64 { return c.stats.ReadMisses + c.stats.WriteMisses }

// Next returns the next level (nil for the last cache level).
func (c *Cache) Next() *Cache { return c.next }

// Memory returns the main memory below the last level.
func (c *Cache) Memory() *MainMemory {
	for c.next != nil {
		c = c.next
	}
	return c.mem
}

// Access reads (or, with write, writes) the line holding addr at cycle now
// and returns the cycle the data is available and whether the access hit
// (data present, no wait for a fill). A write marks the line dirty; a write
// miss allocates the line (write-allocate).
func (c *Cache) Access(addr uint64, write bool, now uint64) (done uint64, hit bool) {
	line := addr >> (c.lineShift & 63) // (a line is at most 2^63 bytes: no test for a shift past 63)
	set := line & c.setMask
	c.clock++
	if write {
		c.stats.Writes++
	} else {
		c.stats.Reads++
	}
	t := line + 1
	p := &c.ways[c.mru[set]]
	if p.tag != t {
		w := c.find(int(set)*c.assoc, t)
		if w < 0 {
			return c.miss(line, int(set)*c.assoc, write, now)
		}
		c.mru[set] = int32(w)
		p = &c.ways[w]
	}
	p.stamp = c.clock
	if write {
		p.dirty = true
	}
	done = now + c.cfg.HitLatency
	if p.ready > done {
		c.stats.MSHRHits++
		return p.ready, false
	}
	c.stats.Hits++
	return done, true
}

// find returns the way of the set at base holding tag t, or -1.
func (c *Cache) find(base int, t uint64) int {
	for w, p := range c.ways[base : base+c.assoc] {
		if p.tag == t {
			return base + w
		}
	}
	return -1
}

// miss handles Access's miss of line (in the set at base): an MSHR, the
// fill from the next level, a victim.
func (c *Cache) miss(line uint64, base int, write bool, now uint64) (done uint64, hit bool) {
	if write {
		c.stats.WriteMisses++
	} else {
		c.stats.ReadMisses++
	}
	// The miss is known after the tag lookup; it then needs an MSHR.
	start := now + c.cfg.HitLatency
	m := 0
	for i := 1; i < len(c.mshr); i++ {
		if c.mshr[i] < c.mshr[m] {
			m = i
		}
	}
	if free := c.mshr[m]; free > start {
		c.stats.MSHRFull++
		c.stats.MSHRFullCycles += free - start
		start = free
	}
	c.missedAt, c.nextMissed = c.clock, false
	if c.next != nil {
		done, _ = c.next.Access(line<<c.lineShift, false, start)
		c.nextMissed = c.next.missedAt == c.next.clock // before a writeback moves its clock
	} else {
		c.mem.Reads++
		done = start + c.mem.Latency
	}
	c.mshr[m] = done
	w := c.victim(base)
	c.ways[w] = way{tag: line + 1, ready: done, stamp: c.clock, dirty: write}
	c.mru[line&c.setMask] = int32(w)
	return done, false
}

// victim picks the way to replace in the set at base (an invalid way, else
// the least recently used) and writes it back if it is dirty.
func (c *Cache) victim(base int) int {
	v := base
	for w := base; w < base+c.assoc; w++ {
		if c.ways[w].tag == 0 {
			return w
		}
		if c.ways[w].stamp < c.ways[v].stamp {
			v = w
		}
	}
	if c.ways[v].dirty {
		c.stats.Writebacks++
		addr := (c.ways[v].tag - 1) << c.lineShift
		if c.next != nil {
			c.next.writeback(addr)
		} else {
			c.mem.Writes++
		}
	}
	return v
}

// writeback receives a dirty line evicted from the level above. A whole
// line is written, so a miss allocates without a fill.
func (c *Cache) writeback(addr uint64) {
	c.stats.WritebacksIn++
	line := addr >> c.lineShift
	base := int(line&c.setMask) * c.assoc
	c.clock++
	t := line + 1
	if w := c.find(base, t); w >= 0 {
		c.ways[w].stamp, c.ways[w].dirty = c.clock, true
		return
	}
	w := c.victim(base)
	c.ways[w] = way{tag: t, stamp: c.clock, dirty: true}
}

// Contains reports whether the line holding addr is present (or being
// filled), without changing any state.
func (c *Cache) Contains(addr uint64) bool {
	line := addr >> c.lineShift
	return c.find(int(line&c.setMask)*c.assoc, line+1) >= 0
}

// Dirty reports whether the line holding addr is present and dirty.
func (c *Cache) Dirty(addr uint64) bool {
	line := addr >> c.lineShift
	w := c.find(int(line&c.setMask)*c.assoc, line+1)
	return w >= 0 && c.ways[w].dirty
}

// Warm installs the line holding addr as an access would, with no timing
// and no statistics: the line is ready at once (its next levels are
// warmed on a miss, dirty victims written back). Sampled simulation's
// functional warming (pipeline.Core.Warm).
func (c *Cache) Warm(addr uint64, write bool) {
	line := addr >> c.lineShift
	base := int(line&c.setMask) * c.assoc
	c.clock++
	t := line + 1
	if w := c.find(base, t); w >= 0 {
		p := &c.ways[w]
		p.stamp = c.clock
		p.ready = 0
		if write {
			p.dirty = true
		}
		return
	}
	if c.next != nil {
		c.next.Warm(line<<c.lineShift, false)
	}
	w := c.victim(base)
	c.ways[w] = way{tag: t, stamp: c.clock, dirty: write}
}

// CopyState makes c's lines (tags, LRU order, dirty bits) those of o, a
// level of the same geometry, with every fill complete and no statistics:
// sampled simulation hands a drained model's warm caches to the next
// window's (pipeline.Core.InheritState).
func (c *Cache) CopyState(o *Cache) {
	copy(c.ways, o.ways)
	for i := range c.ways {
		c.ways[i].ready = 0
	}
	copy(c.mru, o.mru)
	clear(c.mshr)
	c.clock = o.clock
}
