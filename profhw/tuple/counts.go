package tuple

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"slices"
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
	slices.SortFunc(es, func(a, b counted) int {
		switch {
		case a.n != b.n:
			return cmp.Compare(b.n, a.n)
		case a.t.PC != b.t.PC:
			return cmp.Compare(a.t.PC, b.t.PC)
		case a.t.W != b.t.W:
			return cmp.Compare(a.t.W, b.t.W)
		}
		return cmp.Compare(a.t.Tag, b.t.Tag)
	})
	return es
}

// Profile is a tuple profile ready to be written: its tuples in Sorted's
// order, and what its file names them by. Its file is what
// json.MarshalIndent(File, "", "  ") would write, followed by a newline
// (TestCountsJSONBytes), written by hand and streamed: exact profiles
// run to millions of tuples and hundreds of megabytes.
type Profile struct {
	Unit    string
	Profile string // "estimated" or "exact"
	Set     Set
	sym     profhw.Symbolizer
	load    func() []counted // the tuples sorted, taken when first needed
	es      []counted
}

// entries are the tuples sorted: taken when the profile is first
// written, so that a run's several profiles are not all in memory at
// once before their files are written.
func (p *Profile) entries() []counted {
	if p.load != nil {
		p.es, p.load = p.load(), nil
	}
	return p.es
}

// Profile is the counts' profile; kinds name each tag's tuple kind (the
// selector set), and code-address words are symbolized by sym.
func (c Counts) Profile(unit, profile string, set Set, sym profhw.Symbolizer) *Profile {
	return &Profile{Unit: unit, Profile: profile, Set: set, sym: sym, load: c.sorted}
}

// Profile is Counts.Profile of the table's counts.
func (t *PCTable) Profile(unit, profile string, set Set, sym profhw.Symbolizer) *Profile {
	return &Profile{Unit: unit, Profile: profile, Set: set, sym: sym, load: func() []counted {
		es := make([]counted, 0, t.Len())
		t.Each(func(k Tuple, n uint64) { es = append(es, counted{k, n}) })
		return sortCounted(es)
	}}
}

// NewProfile is the profile of the n tuples each gives, each once with
// its count (a table that is neither Counts nor a PCTable: no map of
// millions of tuples is built).
func NewProfile(unit, profile string, set Set, sym profhw.Symbolizer, n int, each func(add func(Tuple, uint64))) *Profile {
	return &Profile{Unit: unit, Profile: profile, Set: set, sym: sym, load: func() []counted {
		es := make([]counted, 0, n)
		each(func(k Tuple, c uint64) { es = append(es, counted{k, c}) })
		return sortCounted(es)
	}}
}

// JSON renders the profile whole (Profile.WriteJSON into memory).
func (c Counts) JSON(unit, profile string, set Set, sym profhw.Symbolizer) ([]byte, error) {
	return c.Profile(unit, profile, set, sym).Bytes(), nil
}

// JSON is Counts.JSON of the table's counts.
func (t *PCTable) JSON(unit, profile string, set Set, sym profhw.Symbolizer) ([]byte, error) {
	return t.Profile(unit, profile, set, sym).Bytes(), nil
}

// Output is the profile as a unit's file NAME.SUFFIX, streamed (its
// Source is p, for --profile-format pprof).
func (p *Profile) Output(suffix string) profhw.Output {
	return profhw.Output{Suffix: suffix, Write: p.WriteJSON, Source: p}
}

// Bytes is the whole file.
func (p *Profile) Bytes() []byte {
	var b bytes.Buffer
	p.WriteJSON(&b)
	return b.Bytes()
}

// Len is the number of tuples.
func (p *Profile) Len() int { return len(p.entries()) }

// Total is the sum of the counts.
func (p *Profile) Total() uint64 {
	var total uint64
	for _, e := range p.entries() {
		total += e.n
	}
	return total
}

// Each calls f with every entry, in the file's order, and its pc.
func (p *Profile) Each(f func(pc uint64, e *Entry)) {
	kindOf := p.kinds()
	sym := memo(p.sym)
	var e Entry
	for _, c := range p.entries() {
		e = Entry{PC: sym(c.t.PC), PCHex: hex(c.t.PC), Word: hex(c.t.W), Tag: c.t.Tag, Count: c.n}
		if k, known := kindOf[c.t.Tag]; known {
			e.Kind = k.String()
			if k == Edge || k == CallTarget {
				e.WordAt = sym(c.t.W)
			}
		}
		f(c.t.PC, &e)
	}
}

func (p *Profile) kinds() map[uint8]Kind {
	kindOf := map[uint8]Kind{}
	for _, s := range p.Set {
		kindOf[s.Tag] = s.Kind
	}
	return kindOf
}

// memo is sym remembering its names: a profile's millions of tuples
// share a few thousand instructions.
func memo(sym profhw.Symbolizer) profhw.Symbolizer {
	names := map[uint64]string{}
	return func(a uint64) string {
		s, ok := names[a]
		if !ok {
			s = sym(a)
			names[a] = s
		}
		return s
	}
}

// WriteJSON writes the profile's file to w, a chunk at a time, and
// returns w's first error.
func (p *Profile) WriteJSON(w io.Writer) error {
	const chunk = 64 << 10
	kindOf := p.kinds()
	sym := memo(p.sym)
	b := make([]byte, 0, chunk+4096)
	b = append(b, "{\n  \"unit\": "...)
	b = appendString(b, p.Unit)
	b = append(b, ",\n  \"profile\": "...)
	b = appendString(b, p.Profile)
	b = append(b, ",\n  \"tuples\": "...)
	b = appendString(b, p.Set.String())
	b = append(b, ",\n  \"total\": "...)
	b = strconv.AppendUint(b, p.Total(), 10)
	b = append(b, ",\n  \"entries\": ["...)
	es := p.entries()
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"pc\": "...)
		b = appendString(b, sym(e.t.PC))
		b = append(b, ",\n      \"pc_hex\": \""...)
		b = appendHex(b, e.t.PC)
		b = append(b, "\",\n      \"word\": \""...)
		b = appendHex(b, e.t.W)
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
		if len(b) >= chunk {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if len(es) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	_, err := w.Write(b)
	return err
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

func hex(v uint64) string { return string(appendHex(nil, v)) }

// appendHex appends v as "0x1a" (strconv's base 16, prefixed).
func appendHex(b []byte, v uint64) []byte {
	b = append(b, "0x"...)
	return strconv.AppendUint(b, v, 16)
}
