package multihash

import (
	"testing"

	"github.com/rvsim/rvsim/profhw/tuple"

	"github.com/stretchr/testify/require"
)

func candMap(cs []Cand) map[uint64]uint64 {
	m := map[uint64]uint64{}
	for _, c := range cs {
		m[c.T.W] = c.Count
	}
	return m
}

// Space-Saving, k = 2, threshold 3: A A B C → C takes B's place with
// count 2 (error 1); A reaches 3; one more C reaches 3.
func TestSpaceSaving(t *testing.T) {
	s, err := NewSpaceSaving(2, 3, 20, 128)
	require.NoError(t, err)
	for _, w := range []uint64{1, 1, 2, 3, 1} {
		s.Add(tu(w))
	}
	require.Equal(t, map[uint64]uint64{1: 3}, candMap(s.Candidates(nil)))
	i := s.top.index.get(tu(3))
	require.EqualValues(t, 2, s.top.count[i])
	require.EqualValues(t, 1, s.top.err[i])
	require.Negative(t, s.top.index.get(tu(2)), "B was evicted")
	s.Add(tu(3))
	require.Equal(t, map[uint64]uint64{1: 3, 3: 3}, candMap(s.Candidates(nil)))
	require.EqualValues(t, 2*(128+40), s.StorageBits())
	s.EndInterval()
	require.Empty(t, s.Candidates(nil))
	require.Equal(t, 10, SpaceSavingEntries(1680, 20, 128))
}

// Count-Min with conservative update and a top-2 table (tables wide
// enough not to alias these tuples): C enters only when its estimate
// beats the table's smallest.
func TestCountMinTopK(t *testing.T) {
	cm, err := NewCountMin(2, 1<<16, 2, 3, 24, 20, 128, 5)
	require.NoError(t, err)
	A, B, C := tu(0x1111), tu(0x2222), tu(0x3333)
	for _, x := range []uint64{A.W, A.W, A.W, B.W, B.W, C.W} {
		cm.Add(tu(x))
	}
	require.Equal(t, map[uint64]uint64{A.W: 3}, candMap(cm.Candidates(nil)))
	require.Negative(t, cm.top.index.get(C), "C's estimate 1 does not beat B's 2")
	cm.Add(C)
	require.Negative(t, cm.top.index.get(C), "2 does not beat 2")
	cm.Add(C)
	require.Equal(t, map[uint64]uint64{A.W: 3, C.W: 3}, candMap(cm.Candidates(nil)))
	require.EqualValues(t, 2*(1<<16)*24+2*(128+20), cm.StorageBits())
	cm.EndInterval()
	require.Empty(t, cm.Candidates(nil))
}

// The stratified unit's H[P2]1024, threshold 4, by hand: A×5 sends two
// messages (at 2 and 4), which software counts as 4; the hardware's
// counter runs on across the interval's end.
func TestStratifiedBaseline(t *testing.T) {
	h, err := NewStratified("H[P2]1024", 4, 1)
	require.NoError(t, err)
	require.Equal(t, "H[P2]1024", h.Spec())
	for i := 0; i < 5; i++ {
		h.Add(tu(9))
	}
	require.EqualValues(t, 2, h.Messages)
	require.Equal(t, map[uint64]uint64{9: 4}, candMap(h.Candidates(nil)))
	h.EndInterval()
	require.Empty(t, h.Candidates(nil))
	h.Add(tu(9))
	require.EqualValues(t, 3, h.Messages, "the counter was not reset at the interval's end")
	require.EqualValues(t, 1024*1, h.StorageBits(), "1024 counters of log2(2) bits")
	_, err = NewStratified("H[Q2]1024", 4, 1)
	require.Error(t, err)
}

// Against an independent model of §3.5's H[P_r]_n over a skewed stream:
// a table of 2048 counters indexed by the §3.5 hash of the same seed;
// a counter reaching r is reset and its tuple's interval count grows by r.
func TestStratifiedBaselineAgainstModel(t *testing.T) {
	const r, thresh, interval = 10, 40, 4000
	h, err := NewStratified("H[P10]2048", thresh, 7)
	require.NoError(t, err)
	hash := tuple.NewHash(7, 11)
	table := make([]uint64, 2048)
	soft := map[tuple.Tuple]uint64{}
	for i, tp := range randomStream(31, 5*interval, 25, 700) {
		h.Add(tp)
		c := &table[hash.Index(tp)]
		*c++
		if *c == r {
			*c = 0
			soft[tp] += r
		}
		if (i+1)%interval == 0 {
			want := map[tuple.Tuple]uint64{}
			for x, n := range soft {
				if n >= thresh {
					want[x] = n
				}
			}
			got := map[tuple.Tuple]uint64{}
			for _, c := range h.Candidates(nil) {
				got[c.T] = c.Count
			}
			require.Equal(t, want, got, "interval %d", i/interval)
			require.NotEmpty(t, got)
			h.EndInterval()
			soft = map[tuple.Tuple]uint64{}
		}
	}
	require.EqualValues(t, 2048*4, h.StorageBits(), "2048 counters counting to 9")
}
