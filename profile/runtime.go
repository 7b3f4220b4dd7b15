package profile

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// RuntimeABI is the handler runtime ABI this package reads
// (hps_runtime_abi, HPS_ABI in toolchain/handlers/src/handlers.h).
const RuntimeABI = 2

// What a handler runtime says about itself: HPS_HANDLER and HPS_PROFILE
// (handlers.h) leave descriptors between the symbols
// hps_handlers_start/end and hps_profiles_start/end.
const (
	handlerMagic    = "HPSHDL02"
	profileMagic    = "HPSPRF02"
	handlerDescSize = 40 // magic[8], name*, min_args, max_args, flags
	profileDescSize = 64 // magic[8], type*, handlers*, key*, key2*, value*, format, table*
	flagTagged      = 1
	maxDescriptors  = 4096
	maxString       = 256
)

// Format says how a key field of a profile entry is written.
type Format string

// Formats of entry fields.
const (
	FormatDec  Format = "dec"  // a signed decimal number
	FormatHex  Format = "hex"  // "0x…"
	FormatCode Format = "code" // "0x…", and NAME_function: the program's function holding the address
	FormatSum  Format = "sum"  // an unsigned decimal number: a table's summed value
)

// formats are HPS_DEC, HPS_HEX and HPS_CODE.
var formats = []Format{FormatDec, FormatHex, FormatCode}

// HandlerDecl is one HPS_HANDLER: an entry point an ACF may call.
type HandlerDecl struct {
	Name             string
	MinArgs, MaxArgs int
	Tagged           bool // called as call(Name, …) as "PROFILE": the tag word is in mailbox slot 0
}

// TableDecl is one HPS_PROFILE: a table and how it is written.
type TableDecl struct {
	Type     string   // the profile type; "" for a tagged table (the ACF names its profiles)
	Handlers []string // entry points that fill it
	Key      Field    // Name "" when unused
	Key2     Field
	Value    Field
	Table    uint64 // the table header's address
}

// Runtime is a handler runtime's description of itself.
type Runtime struct {
	Handlers map[string]HandlerDecl
	Tables   []TableDecl
}

// Handler returns the declaration of a handler entry point.
func (rt *Runtime) Handler(name string) (HandlerDecl, bool) {
	h, ok := rt.Handlers[name]
	return h, ok
}

// ReadRuntime reads a handler runtime's descriptors from its memory;
// lookup gives the address of a runtime symbol.
func ReadRuntime(read Reader, lookup func(string) (uint64, bool)) (*Runtime, error) {
	rt := &Runtime{Handlers: map[string]HandlerDecl{}}
	var err error
	each := func(what string, size uint64, f func(addr uint64, d []byte) error) {
		if err != nil {
			return
		}
		start, ok1 := lookup(what + "_start")
		end, ok2 := lookup(what + "_end")
		if !ok1 || !ok2 {
			err = fmt.Errorf("no symbols %s_start and %s_end (not linked with the runtime's link.ld?)", what, what)
			return
		}
		if end < start || (end-start)%size != 0 || (end-start)/size > maxDescriptors {
			err = fmt.Errorf("%s_start %#x and %s_end %#x do not bound whole descriptors", what, start, what, end)
			return
		}
		d := make([]byte, size)
		for a := start; a < end; a += size {
			if err = read(a, d); err != nil {
				err = fmt.Errorf("descriptor at %#x: %v", a, err)
				return
			}
			if err = f(a, d); err != nil {
				return
			}
		}
	}
	le := binary.LittleEndian
	str := func(addr uint64) (string, error) {
		if addr == 0 {
			return "", nil
		}
		return readString(read, addr)
	}
	each("hps_handlers", handlerDescSize, func(a uint64, d []byte) error {
		if string(d[:8]) != handlerMagic {
			return fmt.Errorf("handler descriptor at %#x: bad magic %q, want %q", a, d[:8], handlerMagic)
		}
		name, err := str(le.Uint64(d[8:]))
		if err != nil || name == "" {
			return fmt.Errorf("handler descriptor at %#x: no name (%v)", a, err)
		}
		h := HandlerDecl{Name: name, MinArgs: int(le.Uint64(d[16:])), MaxArgs: int(le.Uint64(d[24:])), Tagged: le.Uint64(d[32:])&flagTagged != 0}
		limit := MailboxSlots
		if h.Tagged {
			limit--
		}
		switch {
		case h.MinArgs < 0 || h.MinArgs > h.MaxArgs || h.MaxArgs > limit:
			return fmt.Errorf("handler %s: takes %d to %d arguments, want 0 <= min <= max <= %d", name, h.MinArgs, h.MaxArgs, limit)
		case rt.Handlers[name].Name != "":
			return fmt.Errorf("handler %s is declared twice", name)
		}
		rt.Handlers[name] = h
		return nil
	})
	each("hps_profiles", profileDescSize, func(a uint64, d []byte) error {
		if string(d[:8]) != profileMagic {
			return fmt.Errorf("profile descriptor at %#x: bad magic %q, want %q", a, d[:8], profileMagic)
		}
		var s [5]string
		for i := range s {
			var err error
			if s[i], err = str(le.Uint64(d[8+8*i:])); err != nil {
				return fmt.Errorf("profile descriptor at %#x: %v", a, err)
			}
		}
		format := le.Uint64(d[48:])
		kf, k2f := format&0xff, format>>8&0xff
		if kf >= uint64(len(formats)) || k2f >= uint64(len(formats)) || format>>16 != 0 {
			return fmt.Errorf("profile %q: format %#x is not HPS_FMT(key, key2) of HPS_DEC, HPS_HEX or HPS_CODE", s[0], format)
		}
		t := TableDecl{Type: s[0], Handlers: strings.Fields(s[1]),
			Key: Field{s[2], formats[kf]}, Key2: Field{s[3], formats[k2f]}, Value: Field{s[4], FormatSum},
			Table: le.Uint64(d[56:])}
		if len(t.Handlers) == 0 {
			return fmt.Errorf("profile %q at %#x: no handler fills it", t.Type, a)
		}
		rt.Tables = append(rt.Tables, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rt, rt.check(lookup)
}

// check validates the descriptors against each other.
func (rt *Runtime) check(lookup func(string) (uint64, bool)) error {
	types := map[string]bool{}
	for _, t := range rt.Tables {
		for _, h := range t.Handlers {
			d, ok := rt.Handlers[h]
			if !ok {
				continue // filled by a handler with no HPS_HANDLER (hand-written assembly)
			}
			if d.Tagged != (t.Type == "") {
				if d.Tagged {
					return fmt.Errorf("handler %s is tagged but fills profile %q: a tagged handler fills a table of type 0, whose profiles the ACF names", h, t.Type)
				}
				return fmt.Errorf("handler %s fills a tagged table (type 0) but is not declared HPS_TAGGED", h)
			}
		}
		if t.Type == "" {
			continue
		}
		if syms, builtin := tableSymbols[Kind(t.Type)]; builtin {
			found := false
			for _, sym := range syms {
				if a, ok := lookup(sym); ok && a == t.Table {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("profile type %q is built in (tables %s): name yours differently", t.Type, strings.Join(syms, ", "))
			}
			continue
		}
		if !validName(t.Type) {
			return fmt.Errorf("profile type %q: want letters, digits, '-', '_' and '.'", t.Type)
		}
		if types[t.Type] {
			return fmt.Errorf("profile type %q is declared twice", t.Type)
		}
		types[t.Type] = true
		if t.Key.Name == "" && t.Key2.Name == "" {
			return fmt.Errorf("profile %q names neither key field", t.Type)
		}
		if err := checkFieldNames(t.Type, t.Key.Name, t.Key2.Name, t.Value.Name); err != nil {
			return err
		}
	}
	return nil
}

// MailboxSlots is the size of the handler mailbox (MAILBOX_SLOTS).
const MailboxSlots = 8

// validName reports whether s is a usable profile type or field name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// reservedFields are the entry fields every profile has.
var reservedFields = map[string]bool{"count": true}

// checkFieldNames checks a profile's field names ("" unused).
func checkFieldNames(profile string, names ...string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" {
			continue
		}
		switch {
		case !validName(n):
			return fmt.Errorf("profile %q: field name %q: want letters, digits, '-', '_' and '.'", profile, n)
		case reservedFields[n]:
			return fmt.Errorf("profile %q: field name %q is taken by the entry's own count", profile, n)
		case seen[n]:
			return fmt.Errorf("profile %q: two fields are named %q", profile, n)
		}
		seen[n] = true
	}
	return nil
}

func readString(read Reader, addr uint64) (string, error) {
	var b []byte
	var c [1]byte
	for i := 0; i < maxString; i++ {
		if err := read(addr+uint64(i), c[:]); err != nil {
			return "", fmt.Errorf("string at %#x: %v", addr, err)
		}
		if c[0] == 0 {
			return string(b), nil
		}
		b = append(b, c[0])
	}
	return "", fmt.Errorf("string at %#x is longer than %d bytes", addr, maxString)
}

// Named is a profile an ACF names: call(Handler, args…) as "Name".
type Named struct {
	Name    string
	Handler string
	Tag     uint64  // its number: the tag word's low half
	Keys    []Field // one per argument (at most two are written)
}

// Plan is what a run writes for --profile-out: the built-in profile types
// and the user-typed tables that the ACF's handlers fill, and the profiles
// the ACF names.
type Plan struct {
	Kinds  []Kind
	Tables []TableDecl
	Named  []NamedTable
}

// NamedTable is a profile the ACF names and the tagged table it is in.
type NamedTable struct {
	Named
	Table TableDecl
}

// Plan works out which profiles a run writes: called are the handlers the
// ACF calls, named the profiles it names.
func (rt *Runtime) Plan(called []string, named []Named) (Plan, error) {
	var p Plan
	calls := map[string]bool{}
	for _, h := range called {
		calls[h] = true
	}
	kinds := map[Kind]bool{}
	for _, t := range rt.Tables {
		filled := false
		for _, h := range t.Handlers {
			filled = filled || calls[h]
		}
		switch {
		case !filled || t.Type == "":
		case tableSymbols[Kind(t.Type)] != nil:
			if !kinds[Kind(t.Type)] {
				kinds[Kind(t.Type)] = true
				p.Kinds = append(p.Kinds, Kind(t.Type))
			}
		default:
			p.Tables = append(p.Tables, t)
		}
	}
	sort.Slice(p.Kinds, func(i, j int) bool { return p.Kinds[i] < p.Kinds[j] })
	sort.Slice(p.Tables, func(i, j int) bool { return p.Tables[i].Type < p.Tables[j].Type })
	for _, n := range named {
		var table *TableDecl
		for i := range rt.Tables {
			t := &rt.Tables[i]
			if t.Type != "" {
				continue
			}
			for _, h := range t.Handlers {
				if h == n.Handler {
					table = t
				}
			}
		}
		if table == nil {
			return p, fmt.Errorf("profile %q: handler %s fills no tagged table (declare one: HPS_PROFILE(var, bits, 0, %q, 0, 0, 0, 0))", n.Name, n.Handler, n.Handler)
		}
		for _, t := range rt.Tables {
			if t.Type == n.Name {
				return p, fmt.Errorf("profile %q: the handler runtime has a profile type of that name", n.Name)
			}
		}
		p.Named = append(p.Named, NamedTable{Named: n, Table: *table})
	}
	sort.Slice(p.Named, func(i, j int) bool { return p.Named[i].Name < p.Named[j].Name })
	return p, nil
}

// ReadProfiles reads every profile of the plan from the runtime's
// memory and builds them, hottest entries first.
func ReadProfiles(read Reader, lookup func(string) (uint64, bool), p Plan, sym Symbolizer) ([]Profile, error) {
	var out []Profile
	if len(p.Kinds) > 0 {
		c, err := ReadTables(read, lookup, p.Kinds)
		if err != nil {
			return nil, err
		}
		for _, k := range p.Kinds {
			out = append(out, Build(k, c, sym))
		}
	}
	// Tagged tables are read once however many profiles they hold.
	type tagged struct {
		h       tableHeader
		entries map[uint64][]rawEntry
	}
	cache := map[uint64]*tagged{}
	for _, t := range p.Tables {
		h, err := readHeader(read, t.Type, t.Table)
		if err != nil {
			return nil, err
		}
		var es []rawEntry
		if err := eachEntry(read, t.Type, h.entries, h.capacity, func(e rawEntry) { es = append(es, e) }); err != nil {
			return nil, err
		}
		out = append(out, buildGeneric(t.Type, h.dropped, []Field{t.Key, t.Key2}, t.Value, es, sym))
	}
	for _, n := range p.Named {
		tg := cache[n.Table.Table]
		if tg == nil {
			h, err := readHeader(read, n.Name, n.Table.Table)
			if err != nil {
				return nil, err
			}
			tg = &tagged{h: h, entries: map[uint64][]rawEntry{}}
			if err := eachEntry(read, n.Name, h.entries, h.capacity, func(e rawEntry) { tg.entries[e.tag] = append(tg.entries[e.tag], e) }); err != nil {
				return nil, err
			}
			cache[n.Table.Table] = tg
		}
		keys := []Field{{}, {}}
		copy(keys, n.Keys)
		out = append(out, buildGeneric(n.Name, tg.h.dropped, keys, n.Table.Value, tg.entries[n.Tag], sym))
	}
	return out, nil
}
