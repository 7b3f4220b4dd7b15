package tuple

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomProfile is a table of n tuples over a few hundred PCs, its words
// mostly small and some code addresses, with a symbolizer that names
// some addresses and not others (as sim's does, by fmt).
func randomProfile(seed uint64, n int) (Counts, Set, func(uint64) string) {
	r := rand.New(rand.NewPCG(seed, 1))
	c := Counts{}
	for len(c) < n {
		t := Tuple{PC: 0x10000 + 2*r.Uint64N(400), Tag: uint8(r.Uint64N(3))}
		switch r.Uint64N(3) {
		case 0:
			t.W = r.Uint64N(16)
		case 1:
			t.W = 0x10000 + 2*r.Uint64N(400)
		default:
			t.W = r.Uint64()
		}
		c[t] += 1 + r.Uint64N(1+r.Uint64N(1000))
	}
	set := Set{{Kind: Value, Tag: 0}, {Kind: Edge, Tag: 1}} // tag 2: no kind
	sym := func(a uint64) string {
		switch {
		case a%7 == 0:
			return "" // unnamed: no word_at
		case a%5 == 0:
			return fmt.Sprintf(`f"<%d>`, a%3) // escaped
		case a >= 0x10000 && a < 0x20000:
			return fmt.Sprintf("main+%#x", a-0x10000)
		}
		return fmt.Sprintf("%#x", a)
	}
	return c, set, sym
}

// oracleJSON is the profile's file by encoding/json, from the counts
// sorted by the comparison the file's order states (not sortCounted);
// tag 0 is a value, tag 1 an edge.
func oracleJSON(t *testing.T, unit string, c Counts, set Set, sym func(uint64) string) []byte {
	var ts []Tuple
	for tp := range c {
		ts = append(ts, tp)
	}
	less := func(a, b Tuple) bool {
		if c[a] != c[b] {
			return c[a] > c[b]
		}
		if a.PC != b.PC {
			return a.PC < b.PC
		}
		if a.W != b.W {
			return a.W < b.W
		}
		return a.Tag < b.Tag
	}
	for i := 1; i < len(ts); i++ { // insertion sort: slow, plainly right
		for j := i; j > 0 && less(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
	f := File{Unit: unit, Profile: "exact", Tuples: set.String(), Total: c.Total(), Entries: []Entry{}}
	for _, tp := range ts {
		e := Entry{PC: sym(tp.PC), PCHex: fmt.Sprintf("%#x", tp.PC), Word: fmt.Sprintf("%#x", tp.W), Tag: tp.Tag, Count: c[tp]}
		switch tp.Tag {
		case 0:
			e.Kind = "value"
		case 1:
			e.Kind, e.WordAt = "edge", sym(tp.W)
		}
		f.Entries = append(f.Entries, e)
	}
	want, err := json.MarshalIndent(f, "", "  ")
	require.NoError(t, err)
	return append(want, '\n')
}

// chunkRecorder keeps what is written and counts the writes.
type chunkRecorder struct {
	bytes.Buffer
	calls int
}

func (w *chunkRecorder) Write(p []byte) (int, error) {
	w.calls++
	return w.Buffer.Write(p)
}

// The streamed file (many chunks) is byte for byte encoding/json's
// rendering of the sorted profile, for the map and for the PC table,
// and Each gives the entries the file lists.
func TestProfileStreamMatchesEncodingJSON(t *testing.T) {
	for _, n := range []int{0, 1, 3000} {
		c, set, sym := randomProfile(uint64(n), n)
		want := oracleJSON(t, "u", c, set, sym)
		var w chunkRecorder
		require.NoError(t, c.Profile("u", "exact", set, sym).WriteJSON(&w))
		require.Equal(t, string(want), w.String(), "%d tuples (map)", n)
		if n == 3000 {
			assert.Greater(t, w.calls, 3, "written in chunks")
		}
		tab := NewPCTable(0)
		for tp, k := range c {
			tab.Add(tp, k)
		}
		p := tab.Profile("u", "exact", set, sym)
		require.Equal(t, string(want), string(p.Bytes()), "%d tuples (table)", n)

		var f File
		require.NoError(t, json.Unmarshal(want, &f))
		var got []Entry
		p.Each(func(pc uint64, e *Entry) {
			assert.Equal(t, fmt.Sprintf("%#x", pc), e.PCHex)
			got = append(got, *e)
		})
		assert.Equal(t, len(f.Entries), len(got))
		if len(f.Entries) > 0 {
			assert.Equal(t, f.Entries, got)
		}
	}
}

// failAfter fails every write once n bytes are written.
type failAfter struct {
	n, wrote int
	calls    int
}

var errFull = errors.New("no space left on device")

func (w *failAfter) Write(p []byte) (int, error) {
	if w.wrote >= w.n {
		w.calls++
		return 0, errFull
	}
	w.wrote += len(p)
	return len(p), nil
}

// A failing writer's error ends the write: returned, nothing more written.
func TestProfileStreamWriteError(t *testing.T) {
	c, set, sym := randomProfile(9, 3000)
	w := &failAfter{n: 100 << 10}
	err := c.Profile("u", "exact", set, sym).WriteJSON(w)
	assert.ErrorIs(t, err, errFull)
	assert.Equal(t, 1, w.calls, "stops at the first error")
}

// BenchmarkProfileWriteJSON writes an exact profile of a million tuples
// (about 170 MB of JSON) to io.Discard, with sim's kind of symbolizer.
func BenchmarkProfileWriteJSON(b *testing.B) {
	c, set, _ := randomProfile(1, 1_000_000)
	sym := func(a uint64) string { return fmt.Sprintf("main+%#x", a-0x10000) }
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := c.Profile("u", "exact", set, sym)
		var n countingWriter
		if err := p.WriteJSON(&n); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(n))
	}
}

type countingWriter int

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}
