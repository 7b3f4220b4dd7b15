package pipeline

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGranuleTable checks the store queue's granule table (open addressing,
// backward-shift deletion) against a Go map: random swaps and deletions of
// granules that collide in a small table, every lookup answered alike.
func TestGranuleTable(t *testing.T) {
	var tab granuleTable
	tab.init(8) // 32 slots
	want := map[uint64]uint64{}
	x := uint64(3)
	for i := 0; i < 20000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		g, v := x%24*97, x>>40%5
		if x>>32&1 == 0 || len(want) >= 20 {
			old, ok := want[g]
			if ok && old != v && x>>33&1 == 0 {
				v = old // del removes g only if it records v: exercise both cases
			}
			tab.del(g, v)
			if ok && old == v {
				delete(want, g)
			}
		} else {
			got := tab.swap(g, v)
			old, ok := want[g]
			require.Equal(t, map[bool]uint64{true: old + 1}[ok], got, "op %d: swap(%d) returned", i, g)
			want[g] = v
		}
		for k := uint64(0); k < 24; k++ {
			v, ok := want[k*97]
			require.Equal(t, map[bool]uint64{true: v + 1}[ok], tab.get(k*97), "op %d: get(%d)", i, k*97)
		}
	}
}
