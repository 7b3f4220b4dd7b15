package tuple

import (
	"encoding/json"
	"sort"
	"strconv"

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
	es := c.sorted()
	ts := make([]Tuple, len(es))
	for i, e := range es {
		ts[i] = e.t
	}
	return ts
}

type counted struct {
	t Tuple
	n uint64
}

// sorted is the profile in Sorted's order, with the counts (no map
// lookups in the comparisons: profiles run to millions of tuples).
func (c Counts) sorted() []counted {
	es := make([]counted, 0, len(c))
	for t, n := range c {
		es = append(es, counted{t, n})
	}
	return sortCounted(es)
}

func sortCounted(es []counted) []counted {
	sort.Slice(es, func(i, j int) bool {
		a, b := &es[i], &es[j]
		if a.n != b.n {
			return a.n > b.n
		}
		if a.t.PC != b.t.PC {
			return a.t.PC < b.t.PC
		}
		if a.t.W != b.t.W {
			return a.t.W < b.t.W
		}
		return a.t.Tag < b.t.Tag
	})
	return es
}

// JSON renders the profile; kinds names each tag's tuple kind (the
// selector set), and code-address words are symbolized. It writes what
// json.MarshalIndent(File, "", "  ") would (TestCountsJSONBytes), by
// hand: exact profiles run to millions of tuples.
func (c Counts) JSON(unit, profile string, set Set, sym profhw.Symbolizer) ([]byte, error) {
	return writeJSON(unit, profile, set, sym, c.sorted()), nil
}

// JSON is Counts.JSON of the table's counts.
func (t *PCTable) JSON(unit, profile string, set Set, sym profhw.Symbolizer) ([]byte, error) {
	es := make([]counted, 0, t.Len())
	t.Each(func(k Tuple, n uint64) { es = append(es, counted{k, n}) })
	return writeJSON(unit, profile, set, sym, sortCounted(es)), nil
}

func writeJSON(unit, profile string, set Set, sym profhw.Symbolizer, es []counted) []byte {
	kindOf := map[uint8]Kind{}
	for _, s := range set {
		kindOf[s.Tag] = s.Kind
	}
	var total uint64
	for _, e := range es {
		total += e.n
	}
	b := make([]byte, 0, 64+160*len(es))
	b = append(b, "{\n  \"unit\": "...)
	b = appendString(b, unit)
	b = append(b, ",\n  \"profile\": "...)
	b = appendString(b, profile)
	b = append(b, ",\n  \"tuples\": "...)
	b = appendString(b, set.String())
	b = append(b, ",\n  \"total\": "...)
	b = strconv.AppendUint(b, total, 10)
	b = append(b, ",\n  \"entries\": ["...)
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"pc\": "...)
		b = appendString(b, sym(e.t.PC))
		b = append(b, ",\n      \"pc_hex\": \""...)
		b = append(b, hex(e.t.PC)...)
		b = append(b, "\",\n      \"word\": \""...)
		b = append(b, hex(e.t.W)...)
		b = append(b, '"')
		k, known := kindOf[e.t.Tag]
		if known && (k == Edge || k == CallTarget) {
			if at := sym(e.t.W); at != "" {
				b = append(b, ",\n      \"word_at\": "...)
				b = appendString(b, at)
			}
		}
		b = append(b, ",\n      \"tag\": "...)
		b = strconv.AppendUint(b, uint64(e.t.Tag), 10)
		if known {
			b = append(b, ",\n      \"kind\": "...)
			b = appendString(b, k.String())
		}
		b = append(b, ",\n      \"count\": "...)
		b = strconv.AppendUint(b, e.n, 10)
		b = append(b, "\n    }"...)
	}
	if len(es) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	return b
}

// appendString appends s as encoding/json writes a string (HTML-safe
// escapes included), quickly for the usual symbol names.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
