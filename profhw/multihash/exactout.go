package multihash

import (
	"slices"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// exactProfile is the exact profile (Exact's) as the unit's file gives
// it, built by merging the reference's sorted runs rather than by a map
// of millions of tuples, which takes several times longer
// (TestExactProfileMatchesExact).
func (b *Bank) exactProfile(unit string, set tuple.Set, sym profhw.Symbolizer) *tuple.Profile {
	b.Sync()
	if b.exact != nil {
		return b.exact.Profile(unit, "exact", set, sym)
	}
	r := &b.run
	runs := slices.Clone(r.runs)
	if r.stage.n > 0 {
		runs = append(runs, r.stage.sorted(make([]runEntry, 0, r.stage.n)))
	}
	if len(r.dense.chunks) > 0 {
		runs = append(runs, r.dense.sorted(nil))
	}
	if len(b.perfect.order) > 0 { // the last interval's (before Finish)
		var last []runEntry
		for _, i := range b.perfect.order {
			s := &b.perfect.slots[i]
			t := slotTuple(s)
			last = append(last, runEntry{key: runKey(t.PC, t.W, t.Tag), pc: t.PC, n: s.n})
		}
		sortRun(last)
		runs = append(runs, last)
	}
	// Merge the shortest (the newest) first, down to two runs, whose
	// merge goes to the file's tuples a block at a time.
	for len(runs) > 2 {
		k := len(runs)
		runs = append(runs[:k-2], mergeRuns(runs[k-2], runs[k-1]))
	}
	runs = append(runs, nil, nil)
	a, c := runs[0], runs[1]
	return tuple.NewProfile(unit, "exact", set, sym, len(a)+len(c), func(add func(tuple.Tuple, uint64)) {
		var s mergeStream
		for s.start(a, c); len(s.buf) > 0; s.refill() {
			for k := range s.buf {
				add(s.buf[k].tuple(), s.buf[k].n&countMask)
			}
		}
	})
}

// mergeRuns is the merge of two runs, a tuple in both once with the sum
// of its counts.
func mergeRuns(a, b []runEntry) []runEntry {
	dst, i, j := mergeSome(make([]runEntry, 0, len(a)+len(b)), a, b, len(a)+len(b))
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// sortRun puts a run's entries in key order (runEntry.before).
func sortRun(r []runEntry) {
	slices.SortFunc(r, func(x, y runEntry) int {
		if x.before(&y) {
			return -1
		}
		if y.before(&x) {
			return 1
		}
		return 0
	})
}
