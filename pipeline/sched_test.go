package pipeline

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWheel: events come back exactly at their cycle, whether they sit in a
// bucket, overflow a full bucket or lie beyond the wheel; next finds the
// first cycle with an event.
func TestWheel(t *testing.T) {
	var w wheel
	now := uint64(1000)
	want := map[uint64][]uint64{} // cycle -> positions
	add := func(at, pos uint64) {
		w.add(at, now, pos)
		if at <= now {
			at = now + 1
		}
		want[at] = append(want[at], pos)
	}
	for i := uint64(0); i < 100; i++ { // 100 > bucketCap in one cycle
		add(now+3, i)
	}
	add(now+1, 500)
	add(now, 501)    // not after now: next cycle
	add(now+63, 502) // the last bucket
	add(now+64, 503) // beyond the wheel
	add(now+5000, 504)
	require.Equal(t, 105, w.n)
	for w.n > 0 {
		next := w.next(now)
		require.NotEqual(t, ^uint64(0), next)
		for c := now + 1; c < next; c++ {
			assert.Empty(t, want[c], "cycle %d skipped", c)
		}
		now = next
		var got []uint64
		got = append(got, w.take(now)...)
		for {
			p, ok := w.takeFar(now)
			if !ok {
				break
			}
			got = append(got, p)
		}
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		exp := append([]uint64(nil), want[now]...)
		sort.Slice(exp, func(i, j int) bool { return exp[i] < exp[j] })
		require.Equal(t, exp, got, "cycle %d", now)
		delete(want, now)
	}
	assert.Empty(t, want)
	assert.Equal(t, ^uint64(0), w.next(now))
}

func TestPosHeap(t *testing.T) {
	var h posHeap
	h.init(4)
	in := []uint64{9, 3, 7, 1, 8, 2, 6} // more than the initial capacity
	for _, v := range in {
		h.push(v)
	}
	var out []uint64
	for h.len() > 0 {
		out = append(out, h.pop())
	}
	assert.Equal(t, []uint64{1, 2, 3, 6, 7, 8, 9}, out)
}
