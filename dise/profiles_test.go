package dise

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// A call that names a profile passes the profile's tag word first; calls
// naming the same profile share its tag, and the key fields are named from
// the arguments unless the ACF names them.
func TestNamedProfiles(t *testing.T) {
	p := compile(t, DefaultConfig(), `
P1: T.OPCLASS == call -> R1
R1: call(Count_handler, T.PC, T.TARGET) as "indirect-call-target"; T.INSN
P2: T.OPCLASS == load -> R2
R2: {
	call(Count_handler, T.PC) as "hot-load-pc"
	call(Count_handler, T.RS1, T.IMM) as "load-base"(base, offset)
	call(Count_handler, T.INSN, a0, $d3, 7, T.PC+4) as "misc"
	call(CallPair_handler, T.PC, T.TARGET)
	T.INSN
}
P3: T.OPCLASS == store -> R3
R3: call(Count_handler, T.PC) as "hot-load-pc"; T.INSN
`)
	assert.Equal(t, []NamedProfile{
		{Name: "indirect-call-target", Handler: "Count_handler", Tag: 1, Keys: []ProfileField{{"pc", "code"}, {"target", "code"}}, Pos: Pos{"test.acf", 3, 44}},
		{Name: "hot-load-pc", Handler: "Count_handler", Tag: 2, Keys: []ProfileField{{"pc", "code"}}, Pos: Pos{"test.acf", 6, 31}},
		{Name: "load-base", Handler: "Count_handler", Tag: 3, Keys: []ProfileField{{"base", "dec"}, {"offset", "dec"}}, Pos: Pos{"test.acf", 7, 39}},
		{Name: "misc", Handler: "Count_handler", Tag: 4,
			Keys: []ProfileField{{"insn", "hex"}, {"a0", "dec"}, {"d3", "dec"}, {"key4", "dec"}, {"pc", "code"}}, Pos: Pos{"test.acf", 8, 53}},
	}, p.NamedProfiles())
	// RT entries: one per argument plus one, and one for a tag word.
	assert.Equal(t, (1+2+1+1)+(3+4+7+3+1)+(3+1), p.RTUsed)

	rt := &Runtime{Mailbox: mailboxBase, Stack: stackTop, File: "test", Names: []string{"Count_handler", "CallPair_handler"},
		Lookup:   func(name string) (uint64, bool) { return handlerBase, true },
		Handlers: map[string]HandlerInfo{"Count_handler": {1, 5, true}, "CallPair_handler": {2, 2, false}}}
	e, err := New(p, rt)
	require.NoError(t, err)
	var regs [256]uint64
	e.regs = &regs
	ld, err := isa.Assemble("ld a1, 16(a2)")
	require.NoError(t, err)
	const pc = 0x10040
	x := e.Edit(&ld, pc)
	require.NotNil(t, x)
	var calls []*cpu.HandlerCall
	for _, s := range x.Seq {
		if s.Kind == cpu.SeqCall {
			calls = append(calls, s.Call)
		}
	}
	require.Len(t, calls, 4)
	slot := func(k uint64) uint64 { return mailboxBase + 8*k }
	assert.Equal(t, []cpu.HandlerArg{
		{Addr: slot(0), Source: cpu.ArgConst, Value: 2 | 1<<32},
		{Addr: slot(1), Source: cpu.ArgConst, Value: pc},
	}, calls[0].Args, "hot-load-pc: tag 2, one argument")
	assert.Equal(t, []cpu.HandlerArg{
		{Addr: slot(0), Source: cpu.ArgConst, Value: 3 | 2<<32},
		{Addr: slot(1), Source: cpu.ArgReg, Value: 12}, // a2's value
		{Addr: slot(2), Source: cpu.ArgConst, Value: 16},
	}, calls[1].Args)
	assert.Equal(t, uint64(4|5<<32), calls[2].Args[0].Value)
	assert.Equal(t, []cpu.HandlerArg{
		{Addr: slot(0), Source: cpu.ArgConst, Value: pc},
		{Addr: slot(1), Source: cpu.ArgOrigTarget},
	}, calls[3].Args, "an untagged call's arguments start at slot 0")
}

// CheckRuntime checks handler names, argument counts and tags against
// what the runtime declares.
func TestCheckRuntime(t *testing.T) {
	rt := &Runtime{File: "rt.elf", Names: []string{"Count_handler", "CallPair_handler", "Clobber_handler"},
		Lookup: func(name string) (uint64, bool) {
			return handlerBase, name == "Count_handler" || name == "CallPair_handler" || name == "Clobber_handler"
		},
		Handlers: map[string]HandlerInfo{"Count_handler": {1, 2, true}, "CallPair_handler": {2, 2, false}}}
	for _, tc := range []struct {
		desc, body string
		err        string
	}{
		{"fine", `call(Count_handler, T.PC) as "n"; call(CallPair_handler, T.PC, T.TARGET); call(Clobber_handler, 1, 2, 3)`, ""},
		{"unknown handler", `call(Nope_handler, T.PC)`,
			"test.acf:2:4: handler Nope_handler is not in the handler runtime rt.elf (it has: CallPair_handler, Clobber_handler, Count_handler)"},
		{"too many arguments", `call(CallPair_handler, T.PC, T.TARGET, 3)`, "test.acf:2:4: CallPair_handler takes 2 arguments, found 3"},
		{"too few arguments", `call(Count_handler) as "n"`, "test.acf:2:4: Count_handler takes 1 or 2 arguments, found 0"},
		{"a tagged handler without a name", `call(Count_handler, T.PC)`,
			`test.acf:2:4: Count_handler is tagged: name the profile it collects, as in call(Count_handler, …) as "NAME"`},
		{"a name for an untagged handler", `call(CallPair_handler, T.PC, T.TARGET) as "pairs"`,
			`test.acf:2:46: as "pairs": CallPair_handler is not a tagged handler, so the ACF cannot name its profile (the tagged handlers of rt.elf: Count_handler)`},
		{"a name for an undeclared handler", `call(Clobber_handler) as "x"`,
			`test.acf:2:29: as "x": Clobber_handler is not a tagged handler`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := compile(t, DefaultConfig(), "P: T.OPCLASS == call -> R\nR: "+tc.body+"; T.INSN\n")
			err := p.CheckRuntime(rt)
			if tc.err == "" {
				require.NoError(t, err)
				_, err = New(p, rt)
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			_, err = New(p, rt)
			assert.Contains(t, err.Error(), tc.err, "New checks the runtime too")
		})
	}
}

// The shipped ACFs draw no warnings.
func TestShippedACFsHaveNoWarnings(t *testing.T) {
	for _, name := range []string{"call-pair", "call-pair-hps", "call-pair-dise", "hot-code-region", "hot-code-region-hps",
		"hot-code-region-dise", "hot-method", "hot-method-hps", "hot-method-dise", "hps-triggers", "sampling-framework"} {
		p, err := LoadFiles(DefaultConfig(), "../acf/"+name+".acf")
		require.NoError(t, err, name)
		assert.Empty(t, p.Warnings, name)
	}
}

// A runtime's handlers are its entry points and its declared handlers,
// one list for every message: an undeclared one (an assembly routine) is
// listed, and said to be undeclared.
func TestRuntimeHandlerNames(t *testing.T) {
	rt := &Runtime{Names: []string{"Count_handler", "Clobber_handler", "Null_handler"},
		Handlers: map[string]HandlerInfo{"Count_handler": {1, 2, true}, "Null_handler": {0, 0, false}, "Only_declared": {1, 1, false}}}
	assert.Equal(t, []string{"Clobber_handler", "Count_handler", "Null_handler", "Only_declared"}, rt.HandlerNames())
	var got []string
	for _, n := range rt.HandlerNames() {
		got = append(got, rt.Describe(n))
	}
	assert.Equal(t, []string{"Clobber_handler (arguments not declared)", "Count_handler (1-2 arguments, tagged)",
		"Null_handler (0 arguments)", "Only_declared (1 argument)"}, got)
}
