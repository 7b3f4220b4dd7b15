package profile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand"
	"testing"

	pprof "github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw/tuple"
)

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	return out
}

// randomTuples is a tuple profile of n random tuples: PCs in and out of
// the mapping and the resolver's functions, words that are also code
// addresses, tags with and without a selector (so some tuples have no
// kind and no word_at), and a symbolizer whose names may equal other
// strings of the file (a word's hex, a label key, a function's name).
func randomTuples(r *rand.Rand, n int) *tuple.Profile {
	set := tuple.Set{{Kind: tuple.Value, Tag: 0}, {Kind: tuple.Edge, Tag: 1}, {Kind: tuple.CallTarget, Tag: 7}, {Kind: tuple.Address, Tag: 3}}
	set = set[:r.Intn(len(set)+1)]
	tags := []uint8{0, 1, 3, 7, 9, 200}
	addr := func() uint64 {
		switch r.Intn(4) {
		case 0:
			return 0x1000 + uint64(r.Intn(0x40))*2 // f
		case 1:
			return 0x2000 + uint64(r.Intn(0x40))*2 // g
		case 2:
			return 0x3000 + uint64(r.Intn(8))*4 // mapped, no function: named by its address
		}
		return 0x80000 + uint64(r.Intn(8))*4 // outside the mapping
	}
	c := tuple.Counts{}
	for len(c) < n {
		w := addr()
		switch r.Intn(3) {
		case 0:
			w = r.Uint64() >> uint(r.Intn(64))
		case 1:
			w = uint64(r.Intn(16))
		}
		c[tuple.Tuple{PC: addr(), W: w, Tag: tags[r.Intn(len(tags))]}] += 1 + uint64(r.Int63n(1<<uint(1+r.Intn(40))))
	}
	sym := func(a uint64) string {
		switch {
		case a>>12 == 1:
			return "f"
		case a>>12 == 2:
			return "word"
		case a>>12 == 3:
			return Hex(a)
		}
		return ""
	}
	return c.Profile("u", []string{"exact", "estimated"}[r.Intn(2)], set, sym)
}

// WriteTuples writes the protobuf AddTuples and Write (the pprof
// package's encoder, the general path) write, byte for byte (gzipped by
// another compressor), and the pprof package reads it back as a valid
// profile.
func TestWriteTuplesMatchesPprof(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 60; i++ {
		n := []int{0, 1, 2, 5, 50, 3000}[i%6]
		tp := randomTuples(r, n)
		var old, streamed bytes.Buffer
		b := NewPprof("/prog", 0x1000, 0x3100, fakeResolver)
		b.AddTuples(tp)
		require.NoError(t, b.Write(&old))
		b = NewPprof("/prog", 0x1000, 0x3100, fakeResolver)
		require.NoError(t, b.WriteTuples(&streamed, tp))
		var again bytes.Buffer
		require.NoError(t, b.WriteTuples(&again, tp))
		require.Equal(t, streamed.Bytes(), again.Bytes(), "profile %d: written twice (profhw.Output.Write)", i)
		require.Equal(t, gunzip(t, old.Bytes()), gunzip(t, streamed.Bytes()), "profile %d (%d tuples): the protobuf", i, n)

		p, err := pprof.Parse(bytes.NewReader(streamed.Bytes()))
		require.NoError(t, err)
		require.NoError(t, p.CheckValid())
		require.Len(t, p.Sample, n)
		assert.Equal(t, "u_"+tp.Profile+"_tuples", p.DefaultSampleType)
	}
}

// hexWord takes exactly the strings Hex makes.
func TestHexWord(t *testing.T) {
	for _, w := range []uint64{0, 1, 0xa, 0x10, 0xdeadbeef, 1<<63 | 1, ^uint64(0)} {
		got, ok := hexWord(Hex(w))
		assert.True(t, ok, Hex(w))
		assert.Equal(t, w, got, Hex(w))
	}
	for _, s := range []string{"", "0", "0x", "0x01", "0x00", "0xA", "0X1", "0x1g", "x10", "0x10000000000000000", "word"} {
		_, ok := hexWord(s)
		assert.False(t, ok, s)
	}
}

// A profile that already has samples is refused (WriteTuples writes the
// tuples alone).
func TestWriteTuplesRefusesSamples(t *testing.T) {
	b := NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
	b.AddTuples(randomTuples(rand.New(rand.NewSource(2)), 3))
	err := b.WriteTuples(io.Discard, randomTuples(rand.New(rand.NewSource(3)), 3))
	assert.EqualError(t, err, "pprof: WriteTuples: the profile already has samples")
}

// failAfter fails every write after its first n bytes.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// The writer's first error is WriteTuples', whether it comes mid-way
// through the samples or at the gzip stream's close.
func TestWriteTuplesWriteError(t *testing.T) {
	tp := randomTuples(rand.New(rand.NewSource(4)), 20000)
	for _, n := range []int{0, 10, 100 << 10} {
		b := NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
		assert.EqualError(t, b.WriteTuples(&failAfter{n}, tp), "disk full", "after %d bytes", n)
	}
}

// BenchmarkWriteTuples writes a profile of a million random tuples
// (value words, a few thousand PCs) to a counter.
func BenchmarkWriteTuples(b *testing.B) {
	r := rand.New(rand.NewSource(5))
	c := tuple.Counts{}
	for len(c) < 1_000_000 {
		c[tuple.Tuple{PC: 0x1000 + uint64(r.Intn(4000))*4, W: r.Uint64() >> uint(r.Intn(64))}] += 1 + uint64(r.Intn(1000))
	}
	tp := c.Profile("u", "exact", tuple.Set{{Kind: tuple.Value}}, func(uint64) string { return "" })
	tp.Len() // (sorted once, outside the loop)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var n countWriter
		if err := NewPprof("/prog", 0x1000, 0x8000, fakeResolver).WriteTuples(&n, tp); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(n))
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
