package tuple

import (
	"encoding/json"
	"sort"

	"github.com/rvsim/rvsim/profhw"
)

// Counts is a tuple profile: occurrences (exact) or estimated occurrences
// (from messages) per tuple.
type Counts map[Tuple]uint64

// Total is the sum of the counts.
func (c Counts) Total() uint64 {
	var n uint64
	for _, v := range c {
		n += v
	}
	return n
}

// Entry is one tuple of a profile file.
type Entry struct {
	PC     string `json:"pc"`                // symbol+offset
	PCHex  string `json:"pc_hex"`            // the address
	Word   string `json:"word"`              // the second word, hex
	WordAt string `json:"word_at,omitempty"` // the second word as a code address (edges, call targets)
	Tag    uint8  `json:"tag"`
	Kind   string `json:"kind,omitempty"`
	Count  uint64 `json:"count"`
}

// File is a tuple profile as written to NAME.profile.json or
// NAME.exact.json.
type File struct {
	Unit    string  `json:"unit"`
	Profile string  `json:"profile"` // "estimated" or "exact"
	Tuples  string  `json:"tuples"`  // the selectors, e.g. "edge+call-target"
	Total   uint64  `json:"total"`
	Entries []Entry `json:"entries"`
}

// Sorted returns the tuples by count, highest first (ties by PC, word,
// tag: deterministic).
func (c Counts) Sorted() []Tuple {
	ts := make([]Tuple, 0, len(c))
	for t := range c {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool {
		a, b := ts[i], ts[j]
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
	})
	return ts
}

// JSON renders the profile; kinds names each tag's tuple kind (the
// selector set), and code-address words are symbolized.
func (c Counts) JSON(unit, profile string, set Set, sym profhw.Symbolizer) ([]byte, error) {
	kindOf := map[uint8]Kind{}
	for _, s := range set {
		kindOf[s.Tag] = s.Kind
	}
	f := File{Unit: unit, Profile: profile, Tuples: set.String(), Total: c.Total(), Entries: []Entry{}}
	for _, t := range c.Sorted() {
		e := Entry{PC: sym(t.PC), PCHex: hex(t.PC), Word: hex(t.W), Tag: t.Tag, Count: c[t]}
		if k, ok := kindOf[t.Tag]; ok {
			e.Kind = k.String()
			if k == Edge || k == CallTarget {
				e.WordAt = sym(t.W)
			}
		}
		f.Entries = append(f.Entries, e)
	}
	out, err := json.MarshalIndent(f, "", "  ")
	return append(out, '\n'), err
}

func hex(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0x0"
	}
	var b [18]byte
	i := len(b)
	for v != 0 {
		i--
		b[i] = digits[v&15]
		v >>= 4
	}
	i--
	b[i] = 'x'
	i--
	b[i] = '0'
	return string(b[i:])
}
