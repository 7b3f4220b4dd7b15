// Package profile holds the profiles the DISE handler runtime collects:
// the three profile types of the HPS paper
// (hps-phase-aware-remote-profiling.md §3.5: hot code regions, hot methods
// and hot call pairs) and the profiles users define (a type their own
// handler declares, or a name their ACF gives Count_handler's counts). It
// reads the runtime's description of itself and its tables from guest
// memory, computes the exact (reference) profile of the built-in types
// from the dynamic instruction stream, and writes profiles as JSON with
// functions named from the program's ELF symbols.
package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Kind is a profile type.
type Kind string

// The profile types.
const (
	CodeRegion Kind = "hot-code-region" // per branch: executions and instructions since the previous branch
	Method     Kind = "hot-method"      // per function: invocations and taken backward branches
	CallPair   Kind = "call-pair"       // per call site and callee: calls
)

// Kinds lists the profile types.
var Kinds = []Kind{CodeRegion, Method, CallPair}

// Region is one branch's code-region data.
type Region struct {
	Count        uint64 // dynamic executions of the branch
	Instructions uint64 // application instructions since the previous dynamic branch, summed
	Unattributed uint64 // executions whose region was not measured (the first branch of a sample)
}

// Pair is a call site and its callee.
type Pair struct{ Site, Target uint64 }

// Counts is the raw data of all three profiles, keyed by addresses.
type Counts struct {
	Regions   map[uint64]Region // by branch pc
	Calls     map[uint64]uint64 // invocations by callee address
	Backedges map[uint64]uint64 // taken backward conditional branches by branch pc
	Pairs     map[Pair]uint64   // calls by call site and callee
	Dropped   uint64            // events a full handler table could not record
}

// NewCounts returns empty counts.
func NewCounts() *Counts {
	return &Counts{Regions: map[uint64]Region{}, Calls: map[uint64]uint64{}, Backedges: map[uint64]uint64{}, Pairs: map[Pair]uint64{}}
}

// Events returns how many events of kind k the counts hold.
func (c *Counts) Events(k Kind) uint64 {
	var n uint64
	switch k {
	case CodeRegion:
		for _, r := range c.Regions {
			n += r.Count
		}
	case Method:
		for _, v := range c.Calls {
			n += v
		}
		for _, v := range c.Backedges {
			n += v
		}
	case CallPair:
		for _, v := range c.Pairs {
			n += v
		}
	}
	return n
}

// Profile is one profile as written to JSON.
type Profile struct {
	Type    Kind    `json:"type"`
	Program string  `json:"program,omitempty"`
	Source  string  `json:"source,omitempty"` // "handlers" (collected by DISE) or "exact"
	Dropped uint64  `json:"dropped,omitempty"`
	Fields  []Field `json:"fields,omitempty"` // a user-defined profile's entry fields besides count
	Entries []Entry `json:"entries"`
}

// Field is a named field of a user-defined profile's entries.
type Field struct {
	Name   string `json:"name"`
	Format Format `json:"format"`
}

// FieldValue is one field of a user-defined profile's entry.
type FieldValue struct {
	Field
	Value    uint64
	Function string // FormatCode: the function holding the address ("" if none)
}

// Entry is one profile entry: a count plus the fields of its type.
//
//	hot-code-region: pc, function, count, instructions, unattributed
//	hot-method:      function, pc (its entry), count = calls + backward_branches
//	call-pair:       caller, callee, pc (call site), target, count
//	user-defined:    count and the profile's Fields, written flat:
//	                 "pc": "0x10a4", "pc_function": "main", "rs1": -3, "bytes": 812
type Entry struct {
	Count            uint64       `json:"count"`
	Function         string       `json:"function,omitempty"`
	Caller           string       `json:"caller,omitempty"`
	Callee           string       `json:"callee,omitempty"`
	PC               string       `json:"pc,omitempty"`
	Target           string       `json:"target,omitempty"`
	Instructions     *uint64      `json:"instructions,omitempty"`
	Unattributed     *uint64      `json:"unattributed,omitempty"`
	Calls            *uint64      `json:"calls,omitempty"`
	BackwardBranches *uint64      `json:"backward_branches,omitempty"`
	Fields           []FieldValue `json:"-"`
}

type entryJSON Entry

// MarshalJSON writes the fixed fields, then a user-defined profile's.
func (e Entry) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(entryJSON(e))
	if err != nil || len(e.Fields) == 0 {
		return b, err
	}
	var w bytes.Buffer
	w.Write(b[:len(b)-1]) // without the closing brace
	add := func(name string, v any) {
		k, _ := json.Marshal(name)
		x, _ := json.Marshal(v)
		w.WriteByte(',')
		w.Write(k)
		w.WriteByte(':')
		w.Write(x)
	}
	for _, f := range e.Fields {
		switch f.Format {
		case FormatCode:
			add(f.Name, Hex(f.Value))
			if f.Function != "" {
				add(f.Name+"_function", f.Function)
			}
		case FormatHex:
			add(f.Name, Hex(f.Value))
		case FormatDec:
			add(f.Name, int64(f.Value))
		default:
			add(f.Name, f.Value)
		}
	}
	w.WriteByte('}')
	return w.Bytes(), nil
}

type profileJSON struct {
	Type    Kind              `json:"type"`
	Program string            `json:"program,omitempty"`
	Source  string            `json:"source,omitempty"`
	Dropped uint64            `json:"dropped,omitempty"`
	Fields  []Field           `json:"fields,omitempty"`
	Entries []json.RawMessage `json:"entries"`
}

// UnmarshalJSON reads what MarshalJSON wrote: the entries' own fields are
// those the profile lists.
func (p *Profile) UnmarshalJSON(data []byte) error {
	var pj profileJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return err
	}
	*p = Profile{Type: pj.Type, Program: pj.Program, Source: pj.Source, Dropped: pj.Dropped, Fields: pj.Fields}
	if pj.Entries != nil {
		p.Entries = make([]Entry, len(pj.Entries))
	}
	for i, raw := range pj.Entries {
		e := &p.Entries[i]
		if len(pj.Fields) == 0 {
			if err := json.Unmarshal(raw, (*entryJSON)(e)); err != nil {
				return fmt.Errorf("profile %s: entry %d: %v", p.Type, i, err)
			}
			continue
		}
		// A user-defined profile's entries hold its count and its own
		// fields, whose names may be those of the built-in types' fields.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("profile %s: entry %d: %v", p.Type, i, err)
		}
		if err := json.Unmarshal(m["count"], &e.Count); err != nil {
			return fmt.Errorf("profile %s: entry %d: count: %v", p.Type, i, err)
		}
		for _, f := range pj.Fields {
			fv := FieldValue{Field: f}
			v, ok := m[f.Name]
			if !ok {
				return fmt.Errorf("profile %s: entry %d has no field %q", p.Type, i, f.Name)
			}
			var err error
			switch f.Format {
			case FormatCode, FormatHex:
				var s string
				if err = json.Unmarshal(v, &s); err == nil {
					fv.Value, err = strconv.ParseUint(s, 0, 64)
				}
				if fn, ok := m[f.Name+"_function"]; ok && f.Format == FormatCode && err == nil {
					err = json.Unmarshal(fn, &fv.Function)
				}
			case FormatDec:
				var x int64
				err = json.Unmarshal(v, &x)
				fv.Value = uint64(x)
			default:
				err = json.Unmarshal(v, &fv.Value)
			}
			if err != nil {
				return fmt.Errorf("profile %s: entry %d: field %q: %v", p.Type, i, f.Name, err)
			}
			e.Fields = append(e.Fields, fv)
		}
	}
	return nil
}

// Symbolizer names the function containing an address ("" if none).
type Symbolizer func(addr uint64) string

// Hex formats an address as the profiles do.
func Hex(a uint64) string { return "0x" + strconv.FormatUint(a, 16) }

func name(sym Symbolizer, a uint64) string {
	if sym != nil {
		if n := sym(a); n != "" {
			return n
		}
	}
	return Hex(a)
}

func u(v uint64) *uint64 { return &v }

// Build makes the profile of kind k from counts, hottest entries first.
func Build(k Kind, c *Counts, sym Symbolizer) Profile {
	p := Profile{Type: k, Dropped: c.Dropped, Entries: []Entry{}}
	switch k {
	case CodeRegion:
		for pc, r := range c.Regions {
			p.Entries = append(p.Entries, Entry{Count: r.Count, PC: Hex(pc), Function: name(sym, pc),
				Instructions: u(r.Instructions), Unattributed: u(r.Unattributed)})
		}
	case Method:
		type acc struct {
			entry           uint64
			calls, backward uint64
			haveEntry       bool
		}
		byFunc := map[string]*acc{}
		get := func(n string) *acc {
			if byFunc[n] == nil {
				byFunc[n] = &acc{}
			}
			return byFunc[n]
		}
		for t, v := range c.Calls {
			a := get(name(sym, t))
			a.calls += v
			if !a.haveEntry || t < a.entry {
				a.entry, a.haveEntry = t, true
			}
		}
		for pc, v := range c.Backedges {
			get(name(sym, pc)).backward += v
		}
		for n, a := range byFunc {
			e := Entry{Count: a.calls + a.backward, Function: n, Calls: u(a.calls), BackwardBranches: u(a.backward)}
			if a.haveEntry {
				e.PC = Hex(a.entry)
			}
			p.Entries = append(p.Entries, e)
		}
	case CallPair:
		for pr, v := range c.Pairs {
			p.Entries = append(p.Entries, Entry{Count: v, Caller: name(sym, pr.Site), Callee: name(sym, pr.Target),
				PC: Hex(pr.Site), Target: Hex(pr.Target)})
		}
	}
	sort.Slice(p.Entries, func(i, j int) bool {
		a, b := &p.Entries[i], &p.Entries[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Function != b.Function {
			return a.Function < b.Function
		}
		if a.PC != b.PC {
			return a.PC < b.PC
		}
		return a.Target < b.Target
	})
	return p
}

// buildGeneric makes a user-defined profile from table entries: keys
// names the entries' key and key2 fields (Name "": not written), value
// their summed value.
func buildGeneric(typ string, dropped uint64, keys []Field, value Field, es []rawEntry, sym Symbolizer) Profile {
	p := Profile{Type: Kind(typ), Dropped: dropped, Entries: []Entry{}}
	for _, f := range keys {
		if f.Name != "" {
			p.Fields = append(p.Fields, f)
		}
	}
	if value.Name != "" {
		p.Fields = append(p.Fields, value)
	}
	for _, r := range es {
		e := Entry{Count: r.count}
		for k, f := range keys {
			if f.Name == "" {
				continue
			}
			v := r.key
			if k == 1 {
				v = r.key2
			}
			fv := FieldValue{Field: f, Value: v}
			if f.Format == FormatCode && sym != nil {
				fv.Function = sym(v)
			}
			e.Fields = append(e.Fields, fv)
		}
		if value.Name != "" {
			e.Fields = append(e.Fields, FieldValue{Field: value, Value: r.value})
		}
		p.Entries = append(p.Entries, e)
	}
	sort.Slice(p.Entries, func(i, j int) bool {
		a, b := &p.Entries[i], &p.Entries[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		for k := range a.Fields {
			if a.Fields[k].Value != b.Fields[k].Value {
				return a.Fields[k].Value < b.Fields[k].Value
			}
		}
		return false
	})
	return p
}

// Write writes profiles as JSON: one profile as an object, several as an
// array of objects.
func Write(w io.Writer, ps []Profile) error {
	var v any = ps
	switch len(ps) {
	case 0:
		return fmt.Errorf("profile: nothing to write (no replacement calls a handler that fills a profile)")
	case 1:
		v = ps[0]
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// Read parses what Write wrote: one profile (an object) or several (an
// array). A file that is not JSON gives a SyntaxError; a profile of the
// wrong shape an error that names it.
func Read(data []byte) ([]Profile, error) {
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("profile: %v", err)
		}
		// encoding/json's offsets are right only for the whole file, so
		// only its syntax errors are placed by line and column.
		off := min(max(se.Offset, 0), int64(len(data)))
		if off > 0 && !strings.Contains(se.Error(), "unexpected end") {
			off-- // the offset is just past the offending byte
		}
		before := data[:off]
		line, col := bytes.Count(before, []byte("\n"))+1, int(off)-bytes.LastIndexByte(before, '\n')
		return nil, &SyntaxError{Line: line, Col: col, Msg: se.Error()}
	}
	raw = bytes.TrimSpace(raw)
	var elems []json.RawMessage
	switch raw[0] {
	case '{':
		elems = []json.RawMessage{raw}
	case '[':
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, fmt.Errorf("profile: %v", err)
		}
	default:
		return nil, fmt.Errorf("profile: want a profile (an object) or an array of them, found %.20s", raw)
	}
	ps := make([]Profile, len(elems))
	for i, e := range elems {
		where := "profile: "
		if raw[0] == '[' {
			where = fmt.Sprintf("profile: [%d]: ", i)
		}
		if err := json.Unmarshal(e, &ps[i]); err != nil {
			return nil, fmt.Errorf("%s%v", where, err)
		}
		if ps[i].Type == "" {
			return nil, fmt.Errorf("%sno type", where)
		}
	}
	return ps, nil
}

// SyntaxError is a profile file that is not JSON, at a line and column
// (1-based; the column counts bytes).
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }
