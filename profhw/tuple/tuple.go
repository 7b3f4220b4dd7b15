// Package tuple is the profiling hardware's front end: the selectors that
// pick retired instructions and make two-word profile tuples of them
// (stratified-sampling.md §2.1), the tuple hash of §3.5 that the
// stratified sampler and the multi-hash profiler share, and exact tuple
// counts for reference profiles.
package tuple

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
)

// Tuple is a profile tuple: two 64-bit words and the selector's tag
// (§2.1: "the selector can assign … a different tag"). PC is the first
// word (the instruction's address) for every shipped kind.
type Tuple struct {
	PC  uint64
	W   uint64
	Tag uint8
}

// Kind says what the second word of a tuple is.
type Kind uint8

// The kinds (§2.1, §5.1).
const (
	Value      Kind = iota // ⟨PC, loaded value⟩ for loads, ⟨PC, result⟩ for other selected ops
	Edge                   // ⟨PC, target⟩: conditional branches (taken target or fall-through) and indirect jumps
	CallTarget             // ⟨PC, callee⟩: direct and indirect calls
	Address                // ⟨PC, effective address⟩: loads, stores, atomics
	numKinds
)

var kindNames = [numKinds]string{"value", "edge", "call-target", "address"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// KindByName parses a kind's name.
func KindByName(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// DefaultClasses are the classes a kind selects unless configured.
func (k Kind) DefaultClasses() profhw.ClassMask {
	switch k {
	case Value:
		return profhw.Classes(isa.Load)
	case Edge:
		return profhw.Classes(isa.Branch, isa.Jalr)
	case CallTarget:
		return profhw.Classes(isa.Call)
	case Address:
		return profhw.Classes(isa.Load, isa.Store, isa.AMO)
	}
	return 0
}

// Selector picks instructions by class and PC range and makes their tuples.
type Selector struct {
	Kind     Kind
	Classes  profhw.ClassMask
	Lo, Hi   uint64 // PC range [Lo, Hi); Hi == 0: every PC
	Tag      uint8
	Handlers bool // also select DISE-injected and handler instructions (default: the application's only)
}

// Select returns the instruction's tuple, if the selector picks it.
func (s *Selector) Select(d *cpu.DynInst) (Tuple, bool) {
	if !s.Classes.Has(d.Inst.Class) || (s.Hi != 0 && (d.PC < s.Lo || d.PC >= s.Hi)) {
		return Tuple{}, false
	}
	if !s.Handlers && (d.Injected || d.Handler) {
		return Tuple{}, false
	}
	t := Tuple{PC: d.PC, Tag: s.Tag}
	switch s.Kind {
	case Value:
		t.W = d.Result
	case Edge, CallTarget:
		t.W = d.NextPC
	case Address:
		t.W = d.Addr
	}
	return t, true
}

// appendAll is Select on every record, with the kind's choice of word and
// the PC range test taken out of the loop (a load-value unit runs it on a
// quarter of all instructions).
func (s *Selector) appendAll(buf []Tuple, recs []cpu.DynInst) []Tuple {
	if s.Hi != 0 || s.Handlers {
		for i := range recs {
			if t, ok := s.Select(&recs[i]); ok {
				buf = append(buf, t)
			}
		}
		return buf
	}
	// Room for every record first, so that the loop stores each tuple
	// with no growth check, and one loop per kind: the selection was 40
	// host instructions a tuple with append and the kind's switch inside
	// the loop (lisp), now about half.
	in, n := buf, len(buf)
	if cap(buf)-n < len(recs) {
		buf = append(buf[:cap(buf)], make([]Tuple, n+len(recs)-cap(buf))...)
	}
	out := buf[n : n+len(recs)]
	k, cls, tag := 0, s.Classes, s.Tag
	switch s.Kind {
	case Value:
		for i := range recs {
			d := &recs[i]
			out[k] = Tuple{PC: d.PC, W: d.Result, Tag: tag}
			if cls.Has(d.Inst.Class) && !d.Injected && !d.Handler {
				k++
			}
		}
	case Edge, CallTarget:
		for i := range recs {
			d := &recs[i]
			out[k] = Tuple{PC: d.PC, W: d.NextPC, Tag: tag}
			if cls.Has(d.Inst.Class) && !d.Injected && !d.Handler {
				k++
			}
		}
	case Address:
		for i := range recs {
			d := &recs[i]
			out[k] = Tuple{PC: d.PC, W: d.Addr, Tag: tag}
			if cls.Has(d.Inst.Class) && !d.Injected && !d.Handler {
				k++
			}
		}
	}
	if k == 0 {
		return in // (nil stays nil)
	}
	return buf[:n+k]
}

// Set is a unit's selectors (several may be active at once).
type Set []Selector

// Classes is the union of the selectors' classes.
func (s Set) Classes() profhw.ClassMask {
	var m profhw.ClassMask
	for i := range s {
		m |= s[i].Classes
	}
	return m
}

// Append appends the tuples of d's selectors to buf.
func (s Set) Append(buf []Tuple, d *cpu.DynInst) []Tuple {
	for i := range s {
		if t, ok := s[i].Select(d); ok {
			buf = append(buf, t)
		}
	}
	return buf
}

// AppendAll appends the tuples of every record to buf, in order.
func (s Set) AppendAll(buf []Tuple, recs []cpu.DynInst) []Tuple {
	if len(s) == 1 {
		return s[0].appendAll(buf, recs)
	}
	for i := range recs {
		buf = s.Append(buf, &recs[i])
	}
	return buf
}

// ValueOnly reports whether the set is what the core's value tap
// carries (cpu.SetTapValues): one value selector of the application's
// loads over every PC.
func (s Set) ValueOnly() bool {
	return len(s) == 1 && s[0].Kind == Value && s[0].Classes == profhw.Classes(isa.Load) && s[0].Hi == 0 && !s[0].Handlers
}

// AppendValues appends the tuples of a value tap's records (ValueOnly
// sets only): each is selected.
func (s Set) AppendValues(buf []Tuple, vals []cpu.TapValue) []Tuple {
	n := len(buf)
	if cap(buf)-n < len(vals) {
		buf = append(buf[:cap(buf)], make([]Tuple, n+len(vals)-cap(buf))...)
	}
	buf = buf[:n+len(vals)]
	out, tag := buf[n:], s[0].Tag
	out = out[:len(vals)] // (no bounds check in the loop)
	for i, v := range vals {
		out[i] = Tuple{PC: v.PC, W: v.Value, Tag: tag}
	}
	return buf
}

// ReadSet reads a unit's [unit.select] keys:
//
//	tuples = ["edge", "call-target"]  # one selector each; tag = its index unless tags is set
//	classes = ["load"]                # override the kinds' default classes (all selectors)
//	pc_range = ["0x10000", "0x20000"] # [lo, hi)
//	tags = [0, 1]
//	handlers = false                  # also DISE-injected and handler instructions
func ReadSet(c *profhw.UnitConfig, defKinds ...string) Set {
	names := c.Strings("select.tuples", defKinds)
	if len(names) == 0 {
		c.Errorf("select.tuples", "want at least one tuple kind (%s)", strings.Join(kindNames[:], ", "))
		return nil
	}
	var classes profhw.ClassMask
	if c.Has("select.classes") {
		for _, n := range c.Strings("select.classes", nil) {
			cl, ok := isa.ClassByName(n)
			if !ok {
				c.Errorf("select.classes", "unknown class %q (classes: %s)", n, classList())
				return nil
			}
			classes |= profhw.Classes(cl)
		}
	}
	var lo, hi uint64
	if c.Has("select.pc_range") {
		r := c.Ints("select.pc_range", nil)
		if len(r) != 2 || r[0] < 0 || r[1] <= r[0] {
			c.Errorf("select.pc_range", "want [lo, hi] with lo < hi")
			return nil
		}
		lo, hi = uint64(r[0]), uint64(r[1])
	}
	tags := c.Ints("select.tags", nil)
	if tags != nil && len(tags) != len(names) {
		c.Errorf("select.tags", "want one tag per tuple kind (%d), found %d", len(names), len(tags))
		return nil
	}
	handlers := c.Bool("select.handlers", false)
	set := make(Set, 0, len(names))
	for i, n := range names {
		k, ok := KindByName(n)
		if !ok {
			c.Errorf("select.tuples", "unknown tuple kind %q (kinds: %s)", n, strings.Join(kindNames[:], ", "))
			return nil
		}
		s := Selector{Kind: k, Classes: k.DefaultClasses(), Lo: lo, Hi: hi, Tag: uint8(i), Handlers: handlers}
		if classes != 0 {
			s.Classes = classes
		}
		if tags != nil {
			if tags[i] < 0 || tags[i] > 255 {
				c.Errorf("select.tags", "tag %d is out of range [0, 255]", tags[i])
				return nil
			}
			s.Tag = uint8(tags[i])
		}
		set = append(set, s)
	}
	return set
}

func classList() string {
	var names []string
	for c := isa.Class(0); c < isa.NumClasses; c++ {
		names = append(names, c.String())
	}
	return strings.Join(names, ", ")
}

// String is the set in configuration words, for summaries.
func (s Set) String() string {
	var parts []string
	for _, e := range s {
		p := e.Kind.String()
		if e.Hi != 0 {
			p += fmt.Sprintf("[%#x,%#x)", e.Lo, e.Hi)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "+")
}

// EachTuple calls f with every tuple and its count in Each's order, with
// the two strings of Each's entry that are not a number's formatting:
// the kind's name ("" for a tag no selector has) and, for edges and call
// targets, the word's symbol (else ""). The pprof file's samples come
// from it (profile.Pprof.WriteTuples): it formats no pc or word for each
// of millions of tuples.
func (p *Profile) EachTuple(f func(t Tuple, n uint64, kind, wordAt string)) {
	kindOf := p.kinds()
	sym := memo(p.sym)
	for _, c := range p.entries() {
		kind, wordAt := "", ""
		if k, known := kindOf[c.t.Tag]; known {
			kind = k.String()
			if k == Edge || k == CallTarget {
				wordAt = sym(c.t.W)
			}
		}
		f(c.t, c.n, kind, wordAt)
	}
}
