package multihash

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

// The reference model against Go maps: per interval, every tuple's count,
// the distinct tuples and the candidates in first-occurrence order; over
// the run, the exact profile. Intervals of 30,000 events with thousands
// of distinct tuples grow the perfect table mid-interval, and 200,000
// distinct tuples in all fill the staging table several times and grow
// the run's; eighteen tuples of one hash share a home slot, and so do
// four tuples of one value and different PCs.
func TestReferenceAgainstMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const interval, thresh = 30000, 40
	b := NewBank(interval, 100*float64(thresh)/interval)
	require.EqualValues(t, thresh, b.Threshold())
	tr := b.track("none", noEngine{})
	tr.KeepLists = 5
	run := tuple.Counts{}
	var ivs []map[tuple.Tuple]uint64
	var orders [][]tuple.Tuple
	cur, order := map[tuple.Tuple]uint64{}, []tuple.Tuple(nil)
	sameKey := runKey(0x4000, 77, 1)
	var twins []uint64 // PCs whose ⟨PC, 7⟩ hash to one home in tables of up to 2^16 slots
	for pc := uint64(0x6000); len(twins) < 4; pc += 4 {
		if runKey(pc, 7, 0)>>48 == runKey(0x6000, 7, 0)>>48 {
			twins = append(twins, pc)
		}
	}
	const n = 7*interval + 1234
	for i := 0; i < n; i++ {
		var tp tuple.Tuple
		switch r.IntN(5) {
		case 0, 1:
			tp = tuple.Tuple{PC: 0x1000 + 4*uint64(r.IntN(10)), W: uint64(r.IntN(5)), Tag: uint8(r.IntN(2))}
		case 2: // one hash, other PCs and tags: one home slot in the tables
			pc, tag := 0x4000+4*uint64(r.IntN(6)), uint8(r.IntN(3))
			tp = tuple.Tuple{PC: pc, W: runValue(sameKey, pc, tag), Tag: tag}
			if r.IntN(2) == 0 { // one value and tag, other PCs, one home slot
				tp = tuple.Tuple{PC: twins[r.IntN(len(twins))], W: 7}
			}
		default:
			tp = tuple.Tuple{PC: 0x8000, W: uint64(i)*2654435761 + uint64(r.IntN(3)), Tag: 1}
		}
		b.Add(tp)
		run[tp]++
		if cur[tp] == 0 {
			order = append(order, tp)
		}
		cur[tp]++
		if (i+1)%interval == 0 {
			ivs, orders = append(ivs, cur), append(orders, order)
			cur, order = map[tuple.Tuple]uint64{}, nil
		}
	}
	b.Finish()
	require.Len(t, b.Distinct, 7)
	for k, iv := range ivs {
		require.Equal(t, len(iv), b.Distinct[k], "interval %d's distinct tuples", k)
		var want []Cand
		for _, tp := range orders[k] {
			if iv[tp] >= thresh {
				want = append(want, Cand{tp, iv[tp]})
			}
		}
		require.Equal(t, len(want), b.PerfectCands[k], "interval %d's candidates", k)
		require.NotEmpty(t, want)
		if k < 5 {
			require.Equal(t, want, tr.Lists[k].Perfect, "interval %d's candidates in first-occurrence order", k)
		}
		require.Equal(t, len(want), tr.Intervals[k].Perfect)
		require.Equal(t, len(want), tr.Intervals[k].NFalseNeg, "an engine without candidates misses every one")
		require.InDelta(t, 100, tr.Intervals[k].Error, 1e-9)
	}
	require.Len(t, tr.Lists, 5)
	require.Greater(t, len(run), 1<<stageLog, "the stage filled")
	require.Equal(t, run, b.Exact())
}

// The perfect table grown mid-interval keeps every count and the
// first-occurrence order (the scored candidates' order).
func TestPerfectTableGrowKeepsOrder(t *testing.T) {
	var p perfectTable
	p.countTable = newCountTable(4)
	want := map[tuple.Tuple]uint64{}
	var order []tuple.Tuple
	for i := 0; i < 5000; i++ {
		tp := tuple.Tuple{PC: uint64(i % 700), W: uint64(i % 3), Tag: uint8(i % 2)}
		if want[tp] == 0 {
			order = append(order, tp)
		}
		want[tp]++
		p.add(tp)
	}
	require.Equal(t, len(order), len(p.order))
	var got []Cand
	got = p.candidates(got, 1)
	for i, c := range got {
		require.Equal(t, order[i], c.T, "position %d", i)
		require.Equal(t, want[c.T], c.Count)
		require.Equal(t, want[c.T], p.Count(c.T))
	}
	require.Zero(t, p.Count(tuple.Tuple{PC: 1 << 40}))
	p.reset()
	require.Zero(t, p.Count(order[0]))
	require.Empty(t, p.candidates(nil, 1))
}

// The perfect table's loop over value records (addValues, countRun)
// against a Go map: counts and first-occurrence order, in a table small
// enough that one PC and value under several tags share probe chains
// (a tag's home differs only in the hash's top bits), grown as it fills.
func TestPerfectAddValuesAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for round := range 20 {
		var p perfectTable
		p.countTable = newCountTable(3)
		want := map[tuple.Tuple]uint64{}
		var order []tuple.Tuple
		for range 200 {
			tag := uint8(r.IntN(4))
			vals := make([]cpu.TapValue, r.IntN(6))
			for i := range vals {
				vals[i] = cpu.TapValue{PC: 0x100 + 4*uint64(r.IntN(3)), Value: uint64(r.IntN(2 + round))}
				tp := tuple.Tuple{PC: vals[i].PC, W: vals[i].Value, Tag: tag}
				if want[tp] == 0 {
					order = append(order, tp)
				}
				want[tp]++
			}
			p.addValues(vals, tag)
		}
		got := p.candidates(nil, 1)
		require.Len(t, got, len(order), "round %d", round)
		for i, c := range got {
			require.Equal(t, order[i], c.T, "round %d, position %d", round, i)
			require.Equal(t, want[c.T], c.Count, "round %d, %v", round, c.T)
		}
	}
}

// The unit's results do not depend on where its bank and reference run:
// inline (GOMAXPROCS 1) and on their own goroutines give the same files.
func TestOffloadedUnitIsInlineUnit(t *testing.T) {
	recs := loadStream(50000)
	for _, c := range []struct{ desc, cfg string }{
		{"multihash, 4 tables C1", `kind = "multihash"`},
		{"single-hash R1", "kind = \"multihash\"\ntables = 1\nreset = true"},
		{"spacesaving", `kind = "spacesaving"`},
		{"countmin", `kind = "countmin"`},
	} {
		t.Run(c.desc, func(t *testing.T) {
			outputs := func(procs int) map[string]string {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				u := build(t, "[[unit]]\nname = \"u\"\ninterval = 2000\n"+c.cfg+"\n", profhw.Functional, nil)
				for i := 0; i < len(recs); i += 100 {
					u.Retire(recs[i : i+100])
				}
				require.Equal(t, procs > 1, u.hwOffloaded())
				return finishFiles(t, u, 20)
			}
			require.Equal(t, outputs(1), outputs(2))
		})
	}
}

// The run's exact profile (dense words' chunks, staging table, sorted
// runs and their merges) against a Go map, on tuples chosen so that runs
// collide: the same tuple in many runs, and different tuples with the
// same key (runKey is a bijection of the value word for a PC and tag, so
// runValue gives, for another PC, the word with the same key). And dense
// words: a counter (stride 1), heap pointers 32 bytes apart with words
// off the stride and outside the heap beside them, words 64 apart at the
// top of the word space, a second tag at the counter's PC; their chunks
// are made while the stage holds some of their words, and a tuple then
// has counts both in the runs and in a chunk.
func TestRunProfileAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 1000; i++ {
		pc, w, tag := r.Uint64(), r.Uint64(), uint8(r.IntN(256))
		require.Equal(t, w, runValue(runKey(pc, w, tag), pc, tag))
	}
	rp := newRunProfile()
	rp.stage = newCountTable(6) // 32 tuples a run: many runs and merges
	rp.dense.min = 6
	want := tuple.Counts{}
	var p perfectTable
	p.countTable = newCountTable(4)
	base := tuple.Tuple{PC: 0x4000, W: 77, Tag: 1}
	key := runKey(base.PC, base.W, base.Tag)
	const heap = 0x3ff7f7f010
	counter := uint64(0)
	for iv := 0; iv < 600; iv++ {
		for range 1 + r.IntN(60) {
			var tp tuple.Tuple
			switch r.IntN(11) {
			case 0: // hot tuples, in most runs
				tp = tuple.Tuple{PC: 0x1000 + 4*uint64(r.IntN(8)), W: uint64(r.IntN(4))}
			case 1: // same key, other PCs and tags
				pc, tag := 0x4000+4*uint64(r.IntN(6)), uint8(r.IntN(3))
				tp = tuple.Tuple{PC: pc, W: runValue(key, pc, tag), Tag: tag}
			case 2, 3: // the long tail
				tp = tuple.Tuple{PC: 0x8000, W: r.Uint64N(1 << 20), Tag: 2}
			case 4: // a counter (and, now and then, the same words under another tag)
				counter++
				tp = tuple.Tuple{PC: 0xa000, W: counter, Tag: uint8(r.IntN(8) / 7)}
			case 5, 6: // heap pointers, and words off the stride or outside
				tp = tuple.Tuple{PC: 0xb000, W: heap + 32*r.Uint64N(9000), Tag: 3}
				switch r.IntN(40) { // one word in twenty off the stride
				case 0:
					tp.W = []uint64{0, 0x77000, 1, heap + 8, heap + 16}[r.IntN(5)]
				case 1:
					tp.W = 32 * r.Uint64N(1<<20)
				}
			case 9, 10: // chunks 0, 2 and 4 of stride 8, then 1 and 3 (holes in
				// the directory filled), and one far away
				k := r.Uint64N(chunkSize) + 2*chunkSize*r.Uint64N(3)
				if iv >= 300 {
					k = r.Uint64N(5 * chunkSize)
				}
				tp = tuple.Tuple{PC: 0xd000, W: 8 * k, Tag: 0}
				if r.IntN(4) == 0 {
					tp.W += 1 << 40
				}
			default: // 64 apart at the top of the word space
				tp = tuple.Tuple{PC: 0xc000, W: -(64 * (1 + r.Uint64N(5000))), Tag: 0}
			}
			n := 1 + r.IntN(3)
			for range n {
				p.add(tp)
			}
			want[tp] += uint64(n)
		}
		rp.add(&p)
		p.reset()
		if iv%100 == 99 {
			require.Equal(t, want, rp.counts(), "after interval %d", iv)
		}
	}
	require.Greater(t, len(want), 5000)
	for _, run := range rp.runs {
		for k := 1; k < len(run); k++ {
			require.True(t, run[k-1].before(&run[k]), "a run is in strict order")
		}
	}
	require.Greater(t, len(rp.runs), 1)
	rp.flush()
	require.Equal(t, want, rp.counts())
	// Each dense instruction has chunks, with its stride.
	for _, c := range []struct {
		pc    uint64
		tag   uint8
		shift int8
	}{{0xa000, 0, 0}, {0xb000, 3, 5}, {0xc000, 0, 6}, {0xd000, 0, 3}} {
		i := rp.dense.instAt.get(c.pc, uint64(c.tag))
		require.GreaterOrEqual(t, i, int32(0), "%#x", c.pc)
		in := rp.dense.insts[i]
		require.Equal(t, c.shift, in.shift, "%#x's stride", c.pc)
		require.Positive(t, in.chunks, "%#x's chunks", c.pc)
	}
	require.Zero(t, rp.dense.insts[rp.dense.instAt.get(0x8000, 2)].chunks, "the long tail is too sparse for a chunk")
	far := rp.dense.insts[rp.dense.instAt.get(0xd000, 0)]
	require.Positive(t, far.far, "a chunk outside the directory")
	require.Len(t, far.dir, 5, "chunks 0 to 4 in the directory")
	for c, ch := range rp.dense.chunks {
		var n uint64
		for _, x := range ch {
			n += x
		}
		require.Positive(t, n, "chunk %d (%+v) holds counts", c, rp.dense.info[c])
	}
	var inChunks, all uint64
	for _, ch := range rp.dense.chunks {
		for _, n := range ch {
			inChunks += n
		}
	}
	for _, n := range want {
		all += n
	}
	require.Greater(t, 4*inChunks, all, "over a quarter of the counts are in chunks")
}

// The reference fed value records (Bank.AddAllValues with one engine:
// the records go to it as they are, a batch per tag) scores and counts
// as when fed the same tuples (AddAll): chunks of any size, tags that
// change between chunks, value chunks between tuple chunks.
func TestReferenceValuesEqualTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	stream := make([]tuple.Tuple, 150000)
	sameKey := runKey(0x4000, 77, 1)
	for i := range stream {
		pc, w := 0x1000+4*uint64(r.IntN(40)), uint64(r.IntN(6))
		switch r.IntN(6) {
		case 0, 1:
			w = r.Uint64() >> r.IntN(64)
		case 2: // one home slot for other PCs (with the tag its chunk gets, a third of the time)
			pc = 0x4000 + 4*uint64(r.IntN(6))
			w = runValue(sameKey, pc, uint8(r.IntN(3)))
		}
		stream[i] = tuple.Tuple{PC: pc, W: w}
	}
	type result struct {
		exact                  tuple.Counts
		distinct, cands, fresh []int
		intervals              []IntervalError
		lists                  []IntervalLists
		profile                tuple.Counts
	}
	run := func(values bool) result {
		p := Params{Interval: 2000, ThresholdPct: 1, Tables: 4, Entries: 256, Conservative: true, Retain: true, HashBits: 24, Seed: 1}
		b := NewBank(p.Interval, p.ThresholdPct)
		e, err := NewProfiler(p)
		require.NoError(t, err)
		tr := b.AddProfiler("e", e)
		tr.KeepLists = 8
		rc := rand.New(rand.NewPCG(5, 5))
		for rest, c := stream, 0; len(rest) > 0; c++ {
			// Chunks within and across intervals: one tuple with several
			// tags in an interval's tables.
			n := min(len(rest), 1+rc.IntN(5000))
			tag := uint8(c / 2 % 3) // a tag for two chunks
			ts := make([]tuple.Tuple, n)
			for i, x := range rest[:n] {
				ts[i] = tuple.Tuple{PC: x.PC, W: x.W, Tag: tag}
			}
			if values && c%4 != 3 {
				vals := make([]cpu.TapValue, n)
				for i, x := range rest[:n] {
					vals[i] = cpu.TapValue{PC: x.PC, Value: x.W}
				}
				b.AddAllValues(vals, tag)
			} else {
				b.AddAll(ts)
			}
			rest = rest[n:]
		}
		b.Finish()
		return result{b.Exact(), b.Distinct, b.PerfectCands, b.NewCands, tr.Intervals, tr.Lists, tr.Profile}
	}
	want := run(false)
	require.Len(t, want.distinct, len(stream)/2000)
	require.Greater(t, len(want.exact), 20000)
	require.Equal(t, want, run(true))
}
