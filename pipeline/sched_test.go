package pipeline

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
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
		got := takeAll(&w, now)
		exp := append([]uint64(nil), want[now]...)
		sort.Slice(exp, func(i, j int) bool { return exp[i] < exp[j] })
		require.Equal(t, exp, got, "cycle %d", now)
		delete(want, now)
	}
	assert.Empty(t, want)
	assert.Equal(t, ^uint64(0), w.next(now))
}

// takeAll takes every event of cycle now, the bucket's and the heap's,
// sorted (as wakeup does, less the order).
func takeAll(w *wheel, now uint64) []uint64 {
	got := append([]uint64(nil), w.take(now)...)
	for {
		p, ok := w.takeFar(now)
		if !ok {
			break
		}
		got = append(got, p)
	}
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	return got
}

// TestWheelDue: cycle by cycle, a wheel that says no event is due has none
// to take (wakeup is skipped then), and every event still comes back at its
// cycle, the overflowing and far ones included.
func TestWheelDue(t *testing.T) {
	var w wheel
	now := uint64(1000)
	want := map[uint64][]uint64{}      // cycle -> positions
	for i := uint64(0); i < 100; i++ { // 100 > bucketCap in one cycle
		w.add(now+3, now, i)
		want[now+3] = append(want[now+3], i)
	}
	for i, at := range []uint64{now + 1, now + 63, now + 64, now + 130, now + 5000} {
		w.add(at, now, 500+uint64(i))
		want[at] = append(want[at], 500+uint64(i))
	}
	start, skipped := now, 0
	for w.n > 0 {
		now++
		var got []uint64
		if w.due(now) {
			got = takeAll(&w, now)
		} else {
			skipped++
		}
		require.Equal(t, want[now], got, "cycle %d", now)
		delete(want, now)
		if now == start+5000 { // the heap is empty now: events in buckets only
			for i, d := range []uint64{1, 10, 50, 63} {
				w.add(now+d, now, 600+uint64(i))
				want[now+d] = append(want[now+d], 600+uint64(i))
			}
		}
	}
	assert.Empty(t, want)
	assert.Equal(t, 59, skipped, "the cycles with nothing due once the heap is empty")
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

// TestSlotSet: the ready set returns the same oldest member as a sorted
// list of positions, as the window's lower bound (the ROB head) moves
// around the ring and members sit in every word, wrapped or not; in a
// small window and in the largest (its bitmap's every word in use).
func TestSlotSet(t *testing.T) {
	for _, slots := range []uint64{256, maxWindow} {
		testSlotSet(t, slots)
	}
}

func testSlotSet(t *testing.T, slots uint64) {
	var s slotSet
	s.init(int(slots))
	var ref []uint64 // members, sorted
	lo := uint64(1_000_000 - 3)
	rng := uint64(12345)
	rand := func(n uint64) uint64 { // xorshift: deterministic
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return rng % n
	}
	for step := 0; step < 200000; step++ {
		switch op := rand(3); {
		case op == 0 && uint64(len(ref)) < slots/2: // add a position in [lo, lo+slots)
			p := lo + rand(slots)
			i := sort.Search(len(ref), func(i int) bool { return ref[i] >= p })
			if i < len(ref) && ref[i] == p {
				continue
			}
			s.add(p)
			ref = append(ref[:i], append([]uint64{p}, ref[i:]...)...)
		case op == 1 && len(ref) > 0: // remove the oldest, as issue does
			require.Equal(t, ref[0], s.next(lo), "step %d", step)
			s.del(ref[0])
			ref = ref[1:]
		default: // the head advances, never past the oldest member
			adv := rand(8)
			if len(ref) > 0 {
				adv = min(adv, ref[0]-lo)
			}
			lo += adv
		}
		require.Equal(t, len(ref), s.len())
		if len(ref) > 0 {
			require.Equal(t, ref[0], s.next(lo), "step %d", step)
			if len(ref) > 1 { // the search after a member finds the next one
				require.Equal(t, ref[1], s.next(ref[0]+1), "step %d", step)
			}
		}
	}
}

// TestLargestWindow: the largest machine the configuration allows builds
// (its window fits the ready sets' bitmaps, maxWindow slots).
func TestLargestWindow(t *testing.T) {
	m := config.Default()
	k := &m.Core
	k.ROB, k.DecodeWidth, k.DecodeStages, k.FetchQueue = 8192, 64, 64, 4096
	k.FetchWidth, k.RenameWidth, k.IssueWidth, k.CommitWidth = 64, 64, 64, 64
	c, err := New(m)
	require.NoError(t, err)
	require.LessOrEqual(t, len(c.win), maxWindow)
	require.Greater(t, 2*len(c.win), maxWindow, "maxWindow is the largest window, not more")
}

// TestEdgesReclaimed: once a run has drained, every dependency edge is
// back on the free list (wake returns a producer's whole list at once),
// and the pool stayed within its initial capacity (no edge leaked, so
// none had to be added).
func TestEdgesReclaimed(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		c := feed(t, m, insts, 256, nil)
		free := 0
		for i := c.edges.free; i >= 0; i = c.edges.e[i].next {
			free++
			require.LessOrEqual(t, free, len(c.edges.e), "%s: a cycle in the free list", preset)
		}
		require.Equal(t, len(c.edges.e), free, "%s: edges not reclaimed", preset)
		require.LessOrEqual(t, len(c.edges.e), 4*m.Core.ROB, "%s: the pool grew", preset)
	}
}
