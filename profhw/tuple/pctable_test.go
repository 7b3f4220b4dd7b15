package tuple

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/stretchr/testify/require"
)

// PCTable counts as a map does, through Add and AddAll alike, and Heavy
// reports exactly the words at or above the share, at every moment, as
// favourites drift and tables grow.
func TestPCTableCountsAndHeavy(t *testing.T) {
	const share = 0.1
	r, tab, want := newPCTableTest(1, share)
	var batch []Tuple
	for i := 0; i < 300000; i++ {
		pc := 0x4000 + 2*r.Uint64N(30)
		var w uint64
		switch r.Uint64N(3) {
		case 0:
			w = pc>>1%5 + uint64(i/50000) // the instruction's favourite, drifting
		case 1:
			w = r.Uint64N(8)
		default:
			w = r.Uint64() // many distinct words: big tables
		}
		k := Tuple{PC: pc, W: w, Tag: uint8(r.Uint64N(2))}
		want[k]++
		if i%3 == 0 {
			tab.Add(k, 1)
		} else {
			batch = append(batch, k)
			if len(batch) == 37 {
				tab.AddAll(batch)
				batch = batch[:0]
			}
		}
		if i%20000 == 0 || i == 299999 {
			tab.AddAll(batch)
			batch = batch[:0]
			require.Equal(t, want, tab.Counts(), "event %d", i)
			require.Equal(t, len(want), tab.Len())
			for j := range tab.Insts() {
				in := &tab.Insts()[j]
				var got, all []uint64
				tab.Heavy(in, share, func(w, n uint64) {
					require.Equal(t, want[Tuple{PC: in.PC, W: w, Tag: in.Tag}], n)
					got = append(got, w)
				})
				var total uint64
				in.Each(func(w, n uint64) { total += n })
				require.Equal(t, total, in.Total)
				in.Each(func(w, n uint64) {
					if float64(n) >= share*float64(in.Total) {
						all = append(all, w)
					}
				})
				sortWords(all)
				require.Equal(t, all, got, "event %d, pc %#x tag %d", i, in.PC, in.Tag)
			}
		}
	}
	require.Zero(t, tab.Get(Tuple{PC: 0x4000, W: 1 << 60}))
	require.Nil(t, tab.Inst(0x9999, 0))
}

// A PCTable's JSON is its counts' JSON.
func TestPCTableJSON(t *testing.T) {
	tab := NewPCTable(0)
	c := Counts{}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 5000; i++ {
		k := Tuple{PC: 2 * r.Uint64N(20), W: r.Uint64N(30), Tag: uint8(r.Uint64N(2))}
		tab.AddAll([]Tuple{k})
		c[k]++
	}
	set := Set{{Kind: Value}}
	sym := func(a uint64) string { return "f+" + hex(a) }
	want, _ := c.JSON("u", "exact", set, sym)
	got, err := tab.JSON("u", "exact", set, sym)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

// EachHeavy, which lands only the pending counts that may make a word
// heavy, reports what a map of the counts gives (every instruction's
// total, the words at or above the share and their counts, in word
// order), at every point, with most counts still pending between
// points: favourites that change at once (a new one heavy while its
// count is still pending), a tail that evicts, instructions seen only
// in the cache. Shares below the table's take the settling path.
func TestEachHeavyMatchesMap(t *testing.T) {
	const share = 0.1
	r, tab, want := newPCTableTest(3, share)
	type heavy struct {
		total uint64
		words []WordCount
	}
	check := func(at int, s float64) {
		exp := map[Tuple]*heavy{} // by instruction (W = 0)
		for k, n := range want {
			in := Tuple{PC: k.PC, Tag: k.Tag}
			if exp[in] == nil {
				exp[in] = &heavy{}
			}
			exp[in].total += n
		}
		for k, n := range want {
			h := exp[Tuple{PC: k.PC, Tag: k.Tag}]
			if float64(n) >= s*float64(h.total) {
				h.words = append(h.words, WordCount{k.W, n})
			}
		}
		for _, h := range exp {
			sort.Slice(h.words, func(a, b int) bool { return h.words[a].W < h.words[b].W })
		}
		got := map[Tuple]*heavy{}
		tab.EachHeavy(s, func(in *PCInst, total uint64, ws []WordCount) {
			got[Tuple{PC: in.PC, Tag: in.Tag}] = &heavy{total, append([]WordCount(nil), ws...)}
		})
		require.Equal(t, len(exp), len(got), "event %d share %v", at, s)
		for k, h := range exp {
			require.NotNil(t, got[k], "event %d: pc %#x", at, k.PC)
			require.Equal(t, h.total, got[k].total, "event %d: pc %#x total", at, k.PC)
			if len(h.words) == 0 {
				require.Empty(t, got[k].words, "event %d: pc %#x", at, k.PC)
				continue
			}
			require.Equal(t, h.words, got[k].words, "event %d share %v: pc %#x tag %d", at, s, k.PC, k.Tag)
		}
	}
	var batch []Tuple
	const n = 600000
	for i := 0; i < n; i++ {
		pc := 0x4000 + 2*r.Uint64N(40)
		if i > n/2 && r.Uint64N(50) == 0 {
			pc = 0x8000 + 2*r.Uint64N(4) // late instructions, often only in the cache at a point
		}
		var w uint64
		switch r.Uint64N(4) {
		case 0, 1:
			w = pc>>1%7 + uint64(i/7000)<<20 // the favourite, replaced every 7,000 events
		case 2:
			w = r.Uint64N(6)
		default:
			w = r.Uint64N(1 << 17) // a tail the cache cannot hold
		}
		k := Tuple{PC: pc, W: w, Tag: uint8(r.Uint64N(2))}
		want[k]++
		batch = append(batch, k)
		if len(batch) == 61 {
			tab.AddAll(batch)
			batch = batch[:0]
		}
		if i%9000 == 8999 {
			tab.AddAll(batch)
			batch = batch[:0]
			check(i, share)
			if i%45000 == 8999 {
				check(i, 0.25)
			}
		}
	}
	tab.AddAll(batch)
	check(n, share)
	check(n, 0.05)
	require.Equal(t, want, tab.Counts())
	check(n, share)
}

// Instructions whose words are dense (counters up and down, indices,
// ranges at 0 and at the top of the word space) count as a map does
// when their tables take the dense form, widen, and turn back into hash
// tables when a stray word or a spread makes the range too sparse; and
// their heavy words too.
func TestPCTableDenseWords(t *testing.T) {
	const share = 0.1
	r, tab, want := newPCTableTest(5, share)
	var batch []Tuple
	add := func(k Tuple) {
		want[k]++
		if batch = append(batch, k); len(batch) == 53 {
			tab.AddAll(batch)
			batch = batch[:0]
		}
	}
	var sawDense, sawBack [8]bool
	const n = 200000
	for i := uint64(0); i < n; i++ {
		add(Tuple{PC: 0x100, W: 1000 + i/2})        // a counter, each word twice
		add(Tuple{PC: 0x102, W: 1<<40 - i})         // counting down
		add(Tuple{PC: 0x104, W: r.Uint64N(20000)})  // indices from 0
		add(Tuple{PC: 0x106, W: ^r.Uint64N(12000)}) // at the top of the word space
		add(Tuple{PC: 0x108, W: i / 3 % 9000 * 2})  // every other word
		add(Tuple{PC: 0x10a, W: 7})                 // a heavy word beside a counter
		add(Tuple{PC: 0x10a, W: 1<<20 + i})
		if i%2 == 0 { // growing both ways from the middle
			add(Tuple{PC: 0x10e, W: 1<<30 + i/2})
		} else {
			add(Tuple{PC: 0x10e, W: 1<<30 - i/2 - 1})
		}
		w := i
		if i > n/2 {
			w = r.Uint64() // the counter gives way to a spread: back to a hash table
		}
		add(Tuple{PC: 0x10c, W: w})
		if i%25000 == 24999 {
			tab.AddAll(batch)
			batch = batch[:0]
			require.Equal(t, want, tab.Counts(), "event %d", i)
			totals := map[uint64]uint64{}
			for k, c := range want {
				totals[k.PC] += c
			}
			exp := map[uint64][]uint64{}
			for k, c := range want {
				if float64(c) >= share*float64(totals[k.PC]) {
					exp[k.PC] = append(exp[k.PC], k.W)
				}
			}
			for j, in := range tab.Insts() {
				if in.words.dense != nil {
					sawDense[j] = true
				} else if sawDense[j] {
					sawBack[j] = true
				}
				var heavy []uint64
				tab.Heavy(&tab.Insts()[j], share, func(w, n uint64) { heavy = append(heavy, w) })
				sortWords(exp[in.PC])
				require.Equal(t, exp[in.PC], heavy, "event %d pc %#x", i, in.PC)
			}
		}
	}
	// Not dense: a heavy word beside a counter. (Every other word is
	// dense at a stride of two.)
	require.Equal(t, [8]bool{true, true, true, true, true, false, true, true}, sawDense, "dense form taken")
	require.True(t, sawBack[7], "back to a hash table")
	require.Equal(t, len(want), tab.Len())
	require.Zero(t, tab.Get(Tuple{PC: 0x100, W: 999}))
	require.Equal(t, uint64(2), tab.Get(Tuple{PC: 0x100, W: 1000}))
}

// Instructions whose words are mostly in one class modulo a power of two
// (heap pointers 32 bytes apart at 16 past a multiple of 32, with words
// off the stride and far outside the range; words 64 apart at the top of
// the word space; every fourth word around a heavy one; words off the
// stride inside the range; a range that
// drifts upward until its overflow outgrows the counts) count as a map
// does in the strided form, and their heavy words too; an instruction
// whose classes are mixed keeps its hash table.
func TestPCTableStridedWords(t *testing.T) {
	const share = 0.1
	r, tab, want := newPCTableTest(7, share)
	var batch []Tuple
	add := func(k Tuple) {
		want[k]++
		if batch = append(batch, k); len(batch) == 47 {
			tab.AddAll(batch)
			batch = batch[:0]
		}
	}
	const n = 240000
	strideOf := map[uint64]uint{}
	var sawBack bool
	for i := uint64(0); i < n; i++ {
		switch w := 0x7f0000 + 32*r.Uint64N(14000) + 16; r.Uint64N(40) {
		case 0:
			add(Tuple{PC: 0x200, W: 0}) // off the stride
		case 1:
			add(Tuple{PC: 0x200, W: 0x77000 + r.Uint64N(64)})
		case 2:
			add(Tuple{PC: 0x200, W: 1<<40 + 16}) // on the stride, far away
			add(Tuple{PC: 0x200, W: 16})         // and far below
		default:
			add(Tuple{PC: 0x200, W: w, Tag: uint8(i & 1)}) // two instructions
		}
		add(Tuple{PC: 0x202, W: ^uint64(0) - 64*r.Uint64N(9000)})
		if i%3 == 0 {
			add(Tuple{PC: 0x204, W: 6}) // heavy, off the stride
		} else {
			add(Tuple{PC: 0x204, W: 1<<33 + 4*r.Uint64N(12000) + 1})
		}
		add(Tuple{PC: 0x206, W: 1<<24 + 16*(i/4)}) // drifting up: the overflow takes over
		add(Tuple{PC: 0x208, W: 8*r.Uint64N(9000) + r.Uint64N(4)})
		if w := 0x40000 + 32*r.Uint64N(10000); r.Uint64N(25) == 0 {
			add(Tuple{PC: 0x20a, W: w + 8}) // off the stride, in the range
		} else {
			add(Tuple{PC: 0x20a, W: w + 16})
		}
		if i%20000 == 19999 {
			tab.AddAll(batch)
			batch = batch[:0]
			require.Equal(t, want, tab.Counts(), "event %d", i)
			totals := map[Tuple]uint64{}
			for k, c := range want {
				totals[Tuple{PC: k.PC, Tag: k.Tag}] += c
			}
			exp := map[Tuple][]uint64{}
			for k, c := range want {
				if in := (Tuple{PC: k.PC, Tag: k.Tag}); float64(c) >= share*float64(totals[in]) {
					exp[in] = append(exp[in], k.W)
				}
			}
			for j := range tab.Insts() {
				in := &tab.Insts()[j]
				if in.words.dense != nil {
					require.NotZero(t, in.words.sh, "pc %#x", in.PC)
					strideOf[in.PC] = in.words.sh
					if in.PC != 0x206 { // (the drifting range's overflow may pass its counts before a grow)
						require.GreaterOrEqual(t, 2*in.words.nd, in.words.used, "pc %#x: counts", in.PC)
					}
				} else if strideOf[in.PC] != 0 && in.PC == 0x206 {
					sawBack = true
				}
				var heavy []uint64
				tab.Heavy(in, share, func(w, n uint64) { heavy = append(heavy, w) })
				k := Tuple{PC: in.PC, Tag: in.Tag}
				sortWords(exp[k])
				require.Equal(t, exp[k], heavy, "event %d pc %#x", i, in.PC)
				for _, w := range heavy {
					require.Equal(t, want[Tuple{PC: in.PC, W: w, Tag: in.Tag}], in.Count(w))
				}
			}
		}
	}
	require.Equal(t, map[uint64]uint{0x200: 5, 0x202: 6, 0x204: 2, 0x206: 4, 0x20a: 5}, strideOf, "strides taken")
	for _, in := range tab.Insts() {
		if in.PC == 0x200 {
			require.NotNil(t, in.words.dense, "pc %#x tag %d: strided beside a far word", in.PC, in.Tag)
		}
	}
	require.True(t, sawBack, "the drifting range back to a hash table")
	require.Equal(t, len(want), tab.Len())
	require.Zero(t, tab.Get(Tuple{PC: 0x200, W: 0x7f0000}))
	require.Equal(t, want[Tuple{PC: 0x200, W: 1<<40 + 16}], tab.Get(Tuple{PC: 0x200, W: 1<<40 + 16}))
}

// newPCTableTest is a test's random source, its table and the map that
// is its oracle.
func newPCTableTest(seed uint64, share float64) (*rand.Rand, *PCTable, Counts) {
	return rand.New(rand.NewPCG(seed, seed+1)), NewPCTable(share), Counts{}
}

// TestWordTableWidenKeepsBothEnds fills a dense table's every slot, its
// first and its last included, and then widens it below and above: every
// count must survive each move (a copy one slot short, or off by one at
// either end, loses a word the random patterns above leave empty).
func TestWordTableWidenKeepsBothEnds(t *testing.T) {
	var wt wordTable
	want := map[uint64]uint64{}
	add := func(w uint64) {
		c, _ := wt.add(w)
		*c++
		want[w]++
	}
	check := func(what string) {
		t.Helper()
		for w, n := range want {
			c := wt.find(w)
			require.NotNil(t, c, "%s: word %#x lost", what, w)
			require.Equal(t, n, *c, "%s: word %#x", what, w)
		}
		require.Equal(t, len(want), wt.used, what)
	}
	for w := uint64(1 << 20); wt.dense == nil; w++ {
		add(w)
	}
	fill := func() {
		for i := range wt.dense {
			add(wt.base + uint64(i))
		}
	}
	fill()
	add(wt.base - 1) // below: the last slot must move too
	require.NotNil(t, wt.dense, "still dense")
	check("widened below")
	fill()
	add(wt.base + uint64(len(wt.dense))) // above: the first slot must move too
	require.NotNil(t, wt.dense, "still dense")
	check("widened above")
}

// AddAllValues (a value tap's records under one tag) leaves the table
// exactly as AddAll on the tuples they stand for: counts, heavy words,
// the combining cache and what waits to land, chunk by chunk, as tables
// grow and take their dense and strided forms.
func TestPCTableAddAllValues(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	a, b := NewPCTable(0.1), NewPCTable(0.1)
	for chunk := 0; chunk < 400; chunk++ {
		tag := uint8(chunk % 3)
		n := r.IntN(3000)
		ts := make([]Tuple, n)
		vs := make([]cpu.TapValue, n)
		for i := range ts {
			pc := 0x4000 + 2*r.Uint64N(20)
			var w uint64
			switch r.Uint64N(4) {
			case 0:
				w = r.Uint64N(6)
			case 1:
				w = uint64(chunk*3000 + i) // a counter's words: a dense table
			case 2:
				w = 0x10000 + 32*r.Uint64N(20000) // heap pointers: a strided table
			default:
				w = r.Uint64()
			}
			ts[i], vs[i] = Tuple{PC: pc, W: w, Tag: tag}, cpu.TapValue{PC: pc, Value: w}
		}
		a.AddAll(ts)
		b.AddAllValues(vs, tag)
		if chunk%50 == 49 {
			require.True(t, reflect.DeepEqual(a, b), "chunk %d", chunk)
		}
	}
	require.Equal(t, a.Counts(), b.Counts())
	require.True(t, reflect.DeepEqual(a, b))
}
