package tuple

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The table agrees with a Go map on a random stream with many repeats and
// many distinct tuples (it grows several times).
func TestTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tab, want := NewTable(), Counts{}
	for i := 0; i < 200000; i++ {
		k := Tuple{PC: 0x10000 + 4*uint64(r.IntN(300)), W: uint64(r.IntN(50)) << uint(r.IntN(40)), Tag: uint8(r.IntN(3))}
		n := uint64(1 + r.IntN(3))
		tab.Add(k, n)
		want[k] += n
	}
	require.Equal(t, len(want), tab.Len())
	assert.Equal(t, want, tab.Counts())
	for k, n := range want {
		require.Equal(t, n, tab.Get(k))
	}
	assert.Zero(t, tab.Get(Tuple{PC: 1, W: 2}))
	tab.Reset()
	assert.Zero(t, tab.Len())
	assert.Zero(t, tab.Get(Tuple{PC: 0x10000}))
}

func BenchmarkTableAdd(b *testing.B) {
	tab := NewTable()
	for i := 0; i < b.N; i++ {
		tab.Add(Tuple{PC: 0x10000 + uint64(i&1023)*4, W: uint64(i & 7)}, 1)
	}
}

func BenchmarkMapAdd(b *testing.B) {
	m := Counts{}
	for i := 0; i < b.N; i++ {
		m[Tuple{PC: 0x10000 + uint64(i&1023)*4, W: uint64(i & 7)}]++
	}
}
