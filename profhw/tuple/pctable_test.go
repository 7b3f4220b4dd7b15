package tuple

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// PCTable counts as a map does, through Add and AddAll alike, and Heavy
// reports exactly the words at or above the share, at every moment, as
// favourites drift and tables grow.
func TestPCTableCountsAndHeavy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const share = 0.1
	tab := NewPCTable(share)
	want := Counts{}
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
