package stratified

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// The compressor notation of stratified-sampling.md §3.3, §3.4 and §4:
//
//	spec    := first [ "A" k ]                   two-level: a k-entry associative counter table (§3.4)
//	first   := sampler                           R256, P256, CR256, D256, CD256
//	         | "H[" sampler "]" n                 hash splitter into n substreams (§3.2, §3.5)
//	         | "T[" tag "," hit "," miss "]" n [ "x" ways ]
//	                                             tagged compressor (§4): tag, hit- and miss-counter
//	                                             widths in bits, n entries, ways-way set-associative
//	sampler := [ "C" ] ( "R" | "P" | "D" ) r     random, periodic, countdown-random at rate r; "C"
//	                                             adds the counter (messages carry the count since
//	                                             the last sample)
//
// D_r is the countdown random sampler of the paper's §3.1 remark (a
// countdown register reloaded uniformly from (1, 2r)). Examples:
// H[P256]2048A16, T[2,8,3]2048x2 (the §5.4 configuration), H[CR10]16.

// Base is a sampler's kind.
type Base uint8

// The samplers (§3.1).
const (
	Random    Base = iota // R_r: each tuple with probability 1/r, independently
	Periodic              // P_r: every r-th tuple
	Countdown             // D_r: a countdown register reloaded uniformly in (1, 2r)
)

var baseLetters = [...]string{"R", "P", "D"}

// Spec is a parsed compressor name.
type Spec struct {
	Base    Base
	Counter bool   // the C component: messages carry the count since the last sample
	Rate    uint64 // r
	Hash    uint64 // n substreams of H[X]_n; 0: no splitter
	Tagged  *TaggedSpec
	Assoc   uint64 // k of the second-level A_k; 0: none
}

// TaggedSpec is the tagged compressor's geometry (§4.1).
type TaggedSpec struct {
	TagBits, HitBits, MissBits uint
	Entries, Ways              uint64
}

// String is the spec in the notation (it parses back to the same spec).
func (s Spec) String() string {
	var b strings.Builder
	if s.Tagged != nil {
		t := s.Tagged
		fmt.Fprintf(&b, "T[%d,%d,%d]%d", t.TagBits, t.HitBits, t.MissBits, t.Entries)
		if t.Ways != 1 {
			fmt.Fprintf(&b, "x%d", t.Ways)
		}
	} else {
		smp := baseLetters[s.Base] + strconv.FormatUint(s.Rate, 10)
		if s.Counter {
			smp = "C" + smp
		}
		if s.Hash != 0 {
			smp = "H[" + smp + "]" + strconv.FormatUint(s.Hash, 10)
		}
		b.WriteString(smp)
	}
	if s.Assoc != 0 {
		fmt.Fprintf(&b, "A%d", s.Assoc)
	}
	return b.String()
}

// NotationError is a compressor name that does not parse: the name, the
// byte offset and what was expected there.
type NotationError struct {
	Name string
	Off  int
	Msg  string
}

func (e *NotationError) Error() string {
	return fmt.Sprintf("compressor %q: at offset %d: %s", e.Name, e.Off, e.Msg)
}

// Limits on the notation's numbers (hardware-sized, and small enough that
// tables can be allocated: 2^20 entries are 40 MB of tagged entries or
// 12 MB of sampler counters on the host; the paper's tables have 512 to
// 4096).
const (
	maxRate    = 1 << 24
	maxEntries = 1 << 20
	maxAssoc   = 1 << 12
	maxWidth   = 32
)

type notationParser struct {
	s   string
	pos int
	err *NotationError
}

// ParseSpec reads a compressor name in the notation above.
func ParseSpec(name string) (Spec, error) {
	p := &notationParser{s: name}
	spec := p.spec()
	if p.err != nil {
		return Spec{}, p.err
	}
	return spec, nil
}

func (p *notationParser) fail(msg string, args ...any) {
	if p.err == nil {
		p.err = &NotationError{Name: p.s, Off: p.pos, Msg: fmt.Sprintf(msg, args...)}
	}
}

func (p *notationParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *notationParser) found() string {
	if p.pos >= len(p.s) {
		return "the end"
	}
	return strconv.Quote(p.s[p.pos : p.pos+1])
}

func (p *notationParser) expect(c byte) {
	if p.err != nil {
		return
	}
	if p.peek() != c {
		p.fail("expected %q, found %s", string(c), p.found())
		return
	}
	p.pos++
}

// number reads a decimal number in [lo, hi].
func (p *notationParser) number(what string, lo, hi uint64) uint64 {
	if p.err != nil {
		return 0
	}
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		p.fail("expected %s (a number), found %s", what, p.found())
		return 0
	}
	text := p.s[start:p.pos]
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil || n < lo || n > hi {
		p.pos = start
		p.fail("%s %s is out of range [%d, %d]", what, text, lo, hi)
		return 0
	}
	return n
}

func (p *notationParser) spec() Spec {
	var s Spec
	switch p.peek() {
	case 'H':
		p.pos++
		p.expect('[')
		p.sampler(&s)
		p.expect(']')
		s.Hash = p.number("substream count n", 1, maxEntries)
		if p.err == nil && bits.OnesCount64(s.Hash) != 1 {
			p.pos -= len(strconv.FormatUint(s.Hash, 10))
			p.fail("substream count n = %d is not a power of two (the hash folds to log2 n bits)", s.Hash)
		}
	case 'T':
		p.pos++
		p.expect('[')
		t := &TaggedSpec{Ways: 1}
		t.TagBits = uint(p.number("tag width", 1, maxWidth))
		p.expect(',')
		t.HitBits = uint(p.number("hit-counter width", 1, maxWidth))
		p.expect(',')
		t.MissBits = uint(p.number("miss-counter width", 1, maxWidth))
		p.expect(']')
		t.Entries = p.number("entry count", 1, maxEntries)
		if p.err == nil && p.peek() == 'x' {
			p.pos++
			t.Ways = p.number("associativity", 1, 64)
		}
		if p.err == nil {
			sets := t.Entries / t.Ways
			if t.Entries%t.Ways != 0 || bits.OnesCount64(sets) != 1 {
				p.fail("%d entries in %d ways: want a power-of-two number of sets", t.Entries, t.Ways)
			}
		}
		s.Tagged = t
	default:
		p.sampler(&s)
	}
	if p.err == nil && p.peek() == 'A' {
		p.pos++
		s.Assoc = p.number("associative table size k", 1, maxAssoc)
	}
	if p.err == nil && p.pos != len(p.s) {
		p.fail("unexpected %s after the compressor (want A<k> or the end)", p.found())
	}
	return s
}

func (p *notationParser) sampler(s *Spec) {
	if p.err != nil {
		return
	}
	if p.peek() == 'C' {
		s.Counter = true
		p.pos++
	}
	switch p.peek() {
	case 'R':
		s.Base = Random
	case 'P':
		s.Base = Periodic
	case 'D':
		s.Base = Countdown
	default:
		p.fail("expected a sampler R, P, D, CR, CP or CD, found %s", p.found())
		return
	}
	p.pos++
	s.Rate = p.number("sampling rate r", 1, maxRate)
}
