package profile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/mem"
)

// fakeRuntime lays out a runtime's descriptors in fakeMem the way
// HPS_HANDLER and HPS_PROFILE do (toolchain/handlers/src/handlers.h).
type fakeRuntime struct {
	mem      fakeMem
	syms     map[string]uint64
	strs     uint64 // next free string address
	handlers []byte
	profiles []byte
}

func newFakeRuntime() *fakeRuntime {
	return &fakeRuntime{mem: fakeMem{}, syms: map[string]uint64{}, strs: 0x10000}
}

func (f *fakeRuntime) str(s string) uint64 {
	if s == "" {
		return 0
	}
	a := f.strs
	f.mem[a] = append([]byte(s), 0)
	f.strs += uint64(len(s)) + 1
	return a
}

func (f *fakeRuntime) handler(name string, minArgs, maxArgs, flags uint64) {
	d := make([]byte, handlerDescSize)
	copy(d, handlerMagic)
	le := binary.LittleEndian
	le.PutUint64(d[8:], f.str(name))
	le.PutUint64(d[16:], minArgs)
	le.PutUint64(d[24:], maxArgs)
	le.PutUint64(d[32:], flags)
	f.handlers = append(f.handlers, d...)
}

func (f *fakeRuntime) profile(typ, handlers, key, key2, value string, format, table uint64) {
	d := make([]byte, profileDescSize)
	copy(d, profileMagic)
	le := binary.LittleEndian
	for i, s := range []string{typ, handlers, key, key2, value} {
		le.PutUint64(d[8+8*i:], f.str(s))
	}
	le.PutUint64(d[48:], format)
	le.PutUint64(d[56:], table)
	f.profiles = append(f.profiles, d...)
}

func (f *fakeRuntime) lookup(n string) (uint64, bool) { a, ok := f.syms[n]; return a, ok }

// finish places the descriptor arrays and their bounding symbols.
func (f *fakeRuntime) finish() {
	f.mem[0x1000] = f.handlers
	f.syms["hps_handlers_start"], f.syms["hps_handlers_end"] = 0x1000, 0x1000+uint64(len(f.handlers))
	f.mem[0x4000] = f.profiles
	f.syms["hps_profiles_start"], f.syms["hps_profiles_end"] = 0x4000, 0x4000+uint64(len(f.profiles))
	if len(f.handlers) == 0 {
		delete(f.mem, 0x1000)
	}
	if len(f.profiles) == 0 {
		delete(f.mem, 0x4000)
	}
}

const fmtCodeDec, fmtHexCode, fmtCodeCode = 2, 1 | 2<<8, 2 | 2<<8

func TestReadRuntime(t *testing.T) {
	f := newFakeRuntime()
	f.handler("Load_handler", 2, 2, 0)
	f.handler("Count_handler", 1, 2, flagTagged)
	f.profile("hot-load-page", "Load_handler Other_handler", "page", "", "bytes", 1, 0x9000)
	f.profile("", "Count_handler", "", "", "", 0, 0x9100)
	f.finish()
	rt, err := ReadRuntime(f.mem.read, f.lookup)
	require.NoError(t, err)
	assert.Equal(t, map[string]HandlerDecl{
		"Load_handler":  {Name: "Load_handler", MinArgs: 2, MaxArgs: 2},
		"Count_handler": {Name: "Count_handler", MinArgs: 1, MaxArgs: 2, Tagged: true},
	}, rt.Handlers)
	assert.Equal(t, []TableDecl{
		{Type: "hot-load-page", Handlers: []string{"Load_handler", "Other_handler"}, Key: Field{"page", FormatHex},
			Key2: Field{"", FormatDec}, Value: Field{"bytes", FormatSum}, Table: 0x9000},
		{Type: "", Handlers: []string{"Count_handler"}, Key: Field{"", FormatDec}, Key2: Field{"", FormatDec},
			Value: Field{"", FormatSum}, Table: 0x9100},
	}, rt.Tables)
}

func TestReadRuntimeErrors(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		build func(f *fakeRuntime)
		err   string
	}{
		{"no descriptor symbols", func(f *fakeRuntime) { delete(f.syms, "hps_profiles_end") },
			"no symbols hps_profiles_start and hps_profiles_end (not linked with the runtime's link.ld?)"},
		{"partial descriptor", func(f *fakeRuntime) { f.syms["hps_handlers_end"] -= 8 },
			"do not bound whole descriptors"},
		{"bad handler magic", func(f *fakeRuntime) { copy(f.mem[0x1000], "HPSHDL01") },
			`handler descriptor at 0x1000: bad magic "HPSHDL01", want "HPSHDL02"`},
		{"arguments out of range", func(f *fakeRuntime) { binary.LittleEndian.PutUint64(f.mem[0x1000][24:], 8) },
			"handler Count_handler: takes 1 to 8 arguments, want 0 <= min <= max <= 7"},
		{"min above max", func(f *fakeRuntime) { binary.LittleEndian.PutUint64(f.mem[0x1000][16:], 3) },
			"handler Count_handler: takes 3 to 2 arguments"},
		{"bad profile magic", func(f *fakeRuntime) { copy(f.mem[0x4000], "XXXXXXXX") },
			`profile descriptor at 0x4000: bad magic "XXXXXXXX"`},
		{"bad format", func(f *fakeRuntime) { binary.LittleEndian.PutUint64(f.mem[0x4000][48:], 3) },
			`profile "": format 0x3 is not HPS_FMT(key, key2) of HPS_DEC, HPS_HEX or HPS_CODE`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := newFakeRuntime()
			f.handler("Count_handler", 1, 2, flagTagged)
			f.profile("", "Count_handler", "", "", "", 0, 0x9100)
			f.finish()
			tc.build(f)
			_, err := ReadRuntime(f.mem.read, f.lookup)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
	for _, tc := range []struct {
		desc  string
		build func(f *fakeRuntime)
		err   string
	}{
		{"tagged handler, typed table", func(f *fakeRuntime) {
			f.handler("H", 1, 1, flagTagged)
			f.profile("mine", "H", "k", "", "", 0, 0x9000)
		}, `handler H is tagged but fills profile "mine"`},
		{"untagged handler, tagged table", func(f *fakeRuntime) {
			f.handler("H", 1, 1, 0)
			f.profile("", "H", "", "", "", 0, 0x9000)
		}, "handler H fills a tagged table (type 0) but is not declared HPS_TAGGED"},
		{"a built-in type on another table", func(f *fakeRuntime) {
			f.syms["hps_call_pairs"] = 0x9100
			f.profile("call-pair", "H", "k", "", "", 0, 0x9000)
		}, `profile type "call-pair" is built in (tables hps_call_pairs): name yours differently`},
		{"type declared twice", func(f *fakeRuntime) {
			f.profile("mine", "H", "k", "", "", 0, 0x9000)
			f.profile("mine", "G", "k", "", "", 0, 0x9100)
		}, `profile type "mine" is declared twice`},
		{"bad type name", func(f *fakeRuntime) { f.profile("my profile", "H", "k", "", "", 0, 0x9000) },
			`profile type "my profile": want letters, digits`},
		{"no key field", func(f *fakeRuntime) { f.profile("mine", "H", "", "", "v", 0, 0x9000) },
			`profile "mine" names neither key field`},
		{"field named count", func(f *fakeRuntime) { f.profile("mine", "H", "count", "", "", 0, 0x9000) },
			`profile "mine": field name "count" is taken by the entry's own count`},
		{"two fields of one name", func(f *fakeRuntime) { f.profile("mine", "H", "pc", "pc", "", 0, 0x9000) },
			`profile "mine": two fields are named "pc"`},
		{"no handler", func(f *fakeRuntime) { f.profile("mine", " ", "pc", "", "", 0, 0x9000) },
			`profile "mine" at 0x4000: no handler fills it`},
		{"handler declared twice", func(f *fakeRuntime) { f.handler("H", 0, 0, 0); f.handler("H", 0, 0, 0) },
			"handler H is declared twice"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := newFakeRuntime()
			tc.build(f)
			f.finish()
			_, err := ReadRuntime(f.mem.read, f.lookup)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

// A user-typed table and a tagged table holding two named profiles, read,
// built and written.
func TestReadProfiles(t *testing.T) {
	f := newFakeRuntime()
	f.handler("Load_handler", 2, 2, 0)
	f.handler("Count_handler", 1, 2, flagTagged)
	f.handler("Unused_handler", 0, 0, 0)
	f.profile("hot-load-page", "Load_handler", "page", "", "bytes", 1, 0x9000)
	f.profile("", "Count_handler", "", "", "", 0, 0x9100)
	f.profile("never", "Unused_handler", "k", "", "", 0, 0x9200)
	f.finish()
	f.mem.table(0x9000, 0x20000, 8, [][5]uint64{{0x7fff0, 0, 0, 3, 24}, {0x12, 0, 0, 5, 20}}, tableMagic)
	f.mem.table(0x9100, 0x30000, 8, [][5]uint64{
		{0x108, 0x140, 1, 3, 0}, {0x10c, 0x900, 1, 3, 0}, {0x110, 0, 2, 9, 0}, {uint64(1<<64 - 4), 0, 2, 1, 0},
	}, tableMagic)
	rt, err := ReadRuntime(f.mem.read, f.lookup)
	require.NoError(t, err)

	named := []Named{
		{Name: "indirect-call-target", Handler: "Count_handler", Tag: 1, Keys: []Field{{"site", FormatCode}, {"target", FormatCode}}},
		{Name: "load-offset", Handler: "Count_handler", Tag: 2, Keys: []Field{{"imm", FormatDec}}},
	}
	plan, err := rt.Plan([]string{"Load_handler", "Count_handler"}, named)
	require.NoError(t, err)
	assert.Empty(t, plan.Kinds)
	require.Len(t, plan.Tables, 1, "the unused handler's profile is not written")
	ps, err := ReadProfiles(f.mem.read, f.lookup, plan, syms)
	require.NoError(t, err)
	require.Len(t, ps, 3)

	assert.Equal(t, Profile{Type: "hot-load-page", Dropped: 7, Fields: []Field{{"page", FormatHex}, {"bytes", FormatSum}},
		Entries: []Entry{
			{Count: 5, Fields: []FieldValue{{Field{"page", FormatHex}, 0x12, ""}, {Field{"bytes", FormatSum}, 20, ""}}},
			{Count: 3, Fields: []FieldValue{{Field{"page", FormatHex}, 0x7fff0, ""}, {Field{"bytes", FormatSum}, 24, ""}}},
		}}, ps[0])
	assert.Equal(t, Profile{Type: "indirect-call-target", Dropped: 7, Fields: []Field{{"site", FormatCode}, {"target", FormatCode}},
		Entries: []Entry{
			{Count: 3, Fields: []FieldValue{{Field{"site", FormatCode}, 0x108, "main"}, {Field{"target", FormatCode}, 0x140, "f"}}},
			{Count: 3, Fields: []FieldValue{{Field{"site", FormatCode}, 0x10c, "main"}, {Field{"target", FormatCode}, 0x900, ""}}},
		}}, ps[1], "tie on count: by key")
	assert.Equal(t, Profile{Type: "load-offset", Dropped: 7, Fields: []Field{{"imm", FormatDec}},
		Entries: []Entry{
			{Count: 9, Fields: []FieldValue{{Field{"imm", FormatDec}, 0x110, ""}}},
			{Count: 1, Fields: []FieldValue{{Field{"imm", FormatDec}, 1<<64 - 4, ""}}},
		}}, ps[2])

	// The JSON: fields flat in each entry, and read back to the same profiles.
	var b bytes.Buffer
	require.NoError(t, Write(&b, ps[1:]))
	want, err := os.ReadFile(filepath.Join("testdata", "named.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
	back, err := Read(b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, ps[1:], back)

	// A named profile needs a tagged table, and may not take a type's name.
	_, err = rt.Plan(nil, []Named{{Name: "x", Handler: "Load_handler", Tag: 1}})
	assert.EqualError(t, err, `profile "x": handler Load_handler fills no tagged table (declare one: HPS_PROFILE(var, bits, 0, "Load_handler", 0, 0, 0, 0))`)
	_, err = rt.Plan(nil, []Named{{Name: "hot-load-page", Handler: "Count_handler", Tag: 1}})
	assert.EqualError(t, err, `profile "hot-load-page": the handler runtime has a profile type of that name`)
}

// The runtime make builds describes itself as handlers.c says.
func TestShippedRuntime(t *testing.T) {
	path := filepath.Join("..", "build", "handlers", "rvsim-handlers.elf")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal("build/handlers/rvsim-handlers.elf is not built: run 'make -C toolchain/handlers'")
		}
		t.Skip("build/handlers/rvsim-handlers.elf is not built: run 'make -C toolchain/handlers'")
	}
	prog, err := elf.LoadFile(path)
	require.NoError(t, err)
	m := mem.New()
	_, err = prog.Load(m, 0)
	require.NoError(t, err)
	lookup := func(n string) (uint64, bool) { s, ok := prog.Lookup(n); return s.Value, ok }
	rt, err := ReadRuntime(m.Peek, lookup)
	require.NoError(t, err)
	assert.Equal(t, map[string]HandlerDecl{
		"Branch_handler":     {Name: "Branch_handler", MinArgs: 3, MaxArgs: 3},
		"HotMethod_handler":  {Name: "HotMethod_handler", MinArgs: 1, MaxArgs: 1},
		"HotMethod_backedge": {Name: "HotMethod_backedge", MinArgs: 1, MaxArgs: 1},
		"CallPair_handler":   {Name: "CallPair_handler", MinArgs: 2, MaxArgs: 2},
		"Count_handler":      {Name: "Count_handler", MinArgs: 1, MaxArgs: 2, Tagged: true},
		"Null_handler":       {Name: "Null_handler"},
		"Stratified_handler": {Name: "Stratified_handler", MinArgs: 1, MaxArgs: 1}, // profhw/stratified's real handler
	}, rt.Handlers)
	plan, err := rt.Plan([]string{"Branch_handler", "HotMethod_backedge", "CallPair_handler", "Null_handler"}, nil)
	require.NoError(t, err)
	assert.Equal(t, []Kind{CallPair, CodeRegion, Method}, plan.Kinds)
	assert.Empty(t, plan.Tables)
	plan, err = rt.Plan([]string{"Count_handler"}, []Named{{Name: "n", Handler: "Count_handler", Tag: 1}})
	require.NoError(t, err)
	assert.Empty(t, plan.Kinds)
	require.Len(t, plan.Named, 1)
	s, _ := prog.Lookup("hps_counts")
	assert.Equal(t, s.Value, plan.Named[0].Table.Table)
	// The tables start empty and well-formed.
	ps, err := ReadProfiles(m.Peek, lookup, plan, nil)
	require.NoError(t, err)
	assert.Equal(t, []Profile{{Type: "n", Entries: []Entry{}}}, ps)
}
