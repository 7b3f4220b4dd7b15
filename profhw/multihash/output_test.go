package multihash

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// The streamed NAME.intervals.json (an interval at a time) is what
// json.MarshalIndent writes for the whole file, for each kind, with the
// list empty, short and past a write chunk.
func TestIntervalsStreamed(t *testing.T) {
	sym := func(a uint64) string { return fmt.Sprintf("f<%#x>", a) }
	for _, kind := range []string{"multihash", "spacesaving", "countmin"} {
		for _, n := range []int{0, 9500, 200_000} {
			u := build(t, fmt.Sprintf("[[unit]]\nname = \"u-1\"\nkind = %q\ninterval = 2000\nthreshold_percent = 2\n", kind), profhw.Functional, nil)
			recs := loadStream(n)
			for i := 0; i < len(recs); i += 64 {
				u.Retire(recs[i:min(i+64, len(recs))])
			}
			require.NoError(t, u.Finish(profhw.End{Cycles: 19000}))
			h := u.intervalsHead()
			whole := struct {
				intervalsHead
				List []jsonInterval `json:"list"`
			}{h, []jsonInterval{}}
			for i := range u.track.Lists {
				whole.List = append(whole.List, u.interval(i, sym))
			}
			want, err := json.MarshalIndent(whole, "", "  ")
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, u.writeIntervals(&got, sym))
			require.Equal(t, string(append(want, '\n')), got.String(), "%s, %d records", kind, n)
			if n == 200_000 {
				require.Greater(t, got.Len(), 64<<10, "past a chunk")
			}
		}
	}
}

// The exact profile merged from the reference's runs is Exact's (a map)
// and an independent count's, byte for byte in its file: with many runs
// merged, keys that collide, tuples in several runs, and before Finish
// (the last interval still in the perfect table) as after.
func TestExactProfileMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const interval = 30000
	set := tuple.Set{{Kind: tuple.Value, Tag: 0}, {Kind: tuple.Edge, Tag: 1}}
	sym := func(a uint64) string { return fmt.Sprintf("f+%#x", a) }
	for _, finish := range []bool{false, true} {
		b := NewBank(interval, 1)
		run := tuple.Counts{}
		sameKey := runKey(0x4000, 77, 1)
		for i := 0; i < 20*interval+1234; i++ {
			var tp tuple.Tuple
			switch r.IntN(7) {
			case 0, 1: // hot
				tp = tuple.Tuple{PC: 0x1000 + 4*uint64(r.IntN(10)), W: uint64(r.IntN(5)), Tag: uint8(r.IntN(2))}
			case 2: // one key, other PCs and tags
				pc, tag := 0x4000+4*uint64(r.IntN(6)), uint8(r.IntN(3))
				tp = tuple.Tuple{PC: pc, W: runValue(sameKey, pc, tag), Tag: tag}
			case 3: // a counter: dense words, counted in chunks
				tp = tuple.Tuple{PC: 0xc000, W: 0x10 + 8*uint64(i/4), Tag: 0}
			default: // cold: mostly new, some again in later runs
				tp = tuple.Tuple{PC: 0x8000, W: uint64(r.IntN(2_000_000)), Tag: 1}
			}
			b.Add(tp)
			run[tp]++
		}
		if finish {
			b.Finish()
		} else {
			b.Sync() // the reference's state is its goroutine's until then
		}
		require.Greater(t, len(b.run.runs), 1, "runs")
		require.Positive(t, slices.Max(b.run.level), "runs merged")
		require.Positive(t, b.run.stage.n, "counts staged")
		require.NotEmpty(t, b.run.dense.chunks, "dense words in chunks")
		got := b.exactProfile("u", set, sym).Bytes()
		sameBytes(t, run.Profile("u", "exact", set, sym).Bytes(), got, "finished %v", finish)
		sameBytes(t, b.Exact().Profile("u", "exact", set, sym).Bytes(), got, "finished %v", finish)
	}
}

// sameBytes fails at the first byte that differs (testify's diff of
// megabytes takes minutes).
func sameBytes(t *testing.T, want, got []byte, msg string, args ...any) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	t.Fatalf("%s: %d bytes, want %d; first difference at %d: %q, want %q", fmt.Sprintf(msg, args...), len(got), len(want), i,
		got[i:min(i+80, len(got))], want[i:min(i+80, len(want))])
}

// mergeRuns gives each tuple of two runs once, with its counts summed,
// in run order, whichever run ends first.
func TestMergeRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	mkRun := func(n int) ([]runEntry, map[tuple.Tuple]uint64) {
		m := map[tuple.Tuple]uint64{}
		for len(m) < n {
			m[tuple.Tuple{PC: 0x1000 + 4*uint64(r.IntN(8)), W: uint64(r.IntN(300)), Tag: uint8(r.IntN(2))}] += 1 + uint64(r.IntN(9))
		}
		var run []runEntry
		for tp, c := range m {
			run = append(run, runEntry{key: runKey(tp.PC, tp.W, tp.Tag), pc: tp.PC, n: uint64(tp.Tag)<<56 | c})
		}
		slices.SortFunc(run, func(x, y runEntry) int {
			if x.before(&y) {
				return -1
			}
			return 1
		})
		return run, m
	}
	for trial := 0; trial < 200; trial++ {
		a, ma := mkRun(r.IntN(400))
		b, mb := mkRun(r.IntN(400))
		want := map[tuple.Tuple]uint64{}
		for _, m := range []map[tuple.Tuple]uint64{ma, mb} {
			for tp, c := range m {
				want[tp] += c
			}
		}
		got := mergeRuns(a, b)
		require.Len(t, got, len(want), "trial %d", trial)
		for k := range got {
			require.Equal(t, want[got[k].tuple()], got[k].n&countMask, "trial %d", trial)
			if k > 0 {
				require.True(t, got[k-1].before(&got[k]), "trial %d: in order", trial)
			}
		}
	}
}
