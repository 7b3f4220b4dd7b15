package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPresetsValid(t *testing.T) {
	names := Presets()
	require.Equal(t, "default", names[0])
	for _, want := range []string{"hpp", "hps", "sonicboom", "stratified"} {
		assert.Contains(t, names, want)
	}
	for _, n := range names {
		m, err := Preset(n)
		require.NoError(t, err, n)
		assert.NoError(t, m.Validate(), n)
		assert.Equal(t, n, m.Name)
		assert.NotEmpty(t, PresetTitle(n))
	}
	_, err := Preset("pentium")
	assert.ErrorContains(t, err, `unknown preset "pentium"`)
	assert.Equal(t, "default", Default().Name)
}

// TestPresetValues pins the values each paper states (the presets' reason
// to exist), so an edit cannot silently change a paper's machine.
func TestPresetValues(t *testing.T) {
	hpp, _ := Preset("hpp") // hardware-path-profiling.md Table 4
	assert.Equal(t, 4, hpp.Core.IssueWidth)
	assert.Equal(t, 128, hpp.Core.ROB)
	assert.Equal(t, 64, hpp.Core.LSQ)
	assert.Equal(t, 16, hpp.Core.FetchQueue)
	assert.Equal(t, Unit{Count: 4, Latency: 1, Pipelined: true}, hpp.FU.IntALU)
	assert.Equal(t, 2, hpp.FU.IntMul.Count)
	assert.Equal(t, 4, hpp.FU.FPAdd.Count)
	assert.Equal(t, 2, hpp.FU.FPMul.Count)
	assert.Equal(t, Cache{Size: 32 << 10, Assoc: 1, Line: 32, Latency: 1, MSHRs: 4}, hpp.L1I)
	assert.Equal(t, 32<<10, hpp.L1D.Size)
	assert.Equal(t, 1, hpp.L1D.Assoc)
	assert.Equal(t, 32, hpp.L1D.Line)
	assert.Equal(t, 1, hpp.L1D.Latency)
	assert.Equal(t, 512<<10, hpp.L2.Size)
	assert.Equal(t, 4, hpp.L2.Assoc)
	assert.Equal(t, 10, hpp.L2.Latency)
	assert.Equal(t, 100, hpp.Memory.Latency)
	assert.Equal(t, BPred{Kind: "tournament", BimodalEntries: 8192, GshareEntries: 8192, HistoryBits: 12,
		MetaEntries: 1024, BTBEntries: 2048, BTBAssoc: 4, RASDepth: 32}, hpp.BPred)
	assert.Equal(t, 3, hpp.Core.RedirectPenalty)

	hps, _ := Preset("hps") // hps-phase-aware-remote-profiling.md §5.1
	assert.Equal(t, 4, hps.Core.FetchWidth)
	assert.Equal(t, 128, hps.Core.ROB)
	assert.Equal(t, 80, hps.Core.IQ)
	assert.Equal(t, 32<<10, hps.L1I.Size)
	assert.Equal(t, 32<<10, hps.L1D.Size)
	assert.Equal(t, 1<<20, hps.L2.Size)
	assert.Equal(t, 1, hps.Core.DISEPenalty)
	assert.False(t, hps.Core.DISEPerInst)

	// SonicBOOM: riscv-boom's WithNMegaBooms (MegaBoomConfig), the sizes
	// computed here by hand from its nSets x nWays x line (64 bytes) and
	// the predictors' sets x fetch slots (fetchWidth 8).
	sb, _ := Preset("sonicboom")
	assert.Equal(t, 4, sb.Core.DecodeWidth)
	assert.Equal(t, 4, sb.Core.RenameWidth)
	assert.Equal(t, 2+4+2, sb.Core.IssueWidth, "mem + int + fp issue ports")
	assert.Equal(t, 24+40+32, sb.Core.IQ, "mem + int + fp issue slots")
	assert.Equal(t, 128, sb.Core.ROB)
	assert.Equal(t, 32, sb.Core.FetchQueue)
	assert.Equal(t, 32, sb.Core.LQ)
	assert.Equal(t, 32, sb.Core.SQ)
	assert.Equal(t, 0, sb.Core.LSQ)
	assert.Equal(t, 128, sb.Core.IntRegs)
	assert.Equal(t, 128, sb.Core.FPRegs)
	assert.Equal(t, 4, sb.FU.IntALU.Count)
	assert.Equal(t, 2, sb.FU.MemPort.Count)
	assert.Equal(t, 3, sb.FU.IntMul.Latency)
	assert.Equal(t, 4, sb.FU.FPMul.Latency)
	assert.Equal(t, Cache{Size: 64 * 8 * 64, Assoc: 8, Line: 64, Latency: 3, MSHRs: 1}, sb.L1I)
	assert.Equal(t, 64*8*64, sb.L1D.Size)
	assert.Equal(t, 8, sb.L1D.Assoc)
	assert.Equal(t, 8, sb.L1D.MSHRs)
	assert.Equal(t, 512<<10, sb.L2.Size)
	assert.Equal(t, 8, sb.L2.Assoc)
	assert.Equal(t, 128*2*8, sb.BPred.BTBEntries)
	assert.Equal(t, 2, sb.BPred.BTBAssoc)
	assert.Equal(t, 32, sb.BPred.RASDepth)
	assert.Equal(t, 2048*8, sb.BPred.BimodalEntries)
	assert.Equal(t, (128+128+256+256+128+128)*8, sb.BPred.GshareEntries)

	st, _ := Preset("stratified") // stratified-sampling.md §5.2
	assert.Equal(t, 4, st.Core.IssueWidth)
	assert.Equal(t, 64<<10, st.L1I.Size)
	assert.Equal(t, 64<<10, st.L1D.Size)
	assert.Equal(t, 1<<20, st.L2.Size)
	assert.Equal(t, "gshare", st.BPred.Kind)
}

// TestSonicBOOMCited: every value of the sonicboom preset says where it
// comes from (a BOOM source, "assumed" or "approx"), except the DISE and
// deadlock keys, which are rvsim's own.
func TestSonicBOOMCited(t *testing.T) {
	notes := presets["sonicboom"].notes
	for _, k := range Keys() {
		if strings.HasPrefix(k, "core.dise") || k == "core.deadlock_cycles" {
			continue
		}
		assert.NotEmpty(t, notes[k], k)
	}
	for k := range notes {
		assert.Contains(t, Keys(), k, "a note for a key that does not exist")
	}
}

// TestShowRoundTrip: `config show` prints a file that parses back to the
// same machine, and says where its values come from.
func TestShowRoundTrip(t *testing.T) {
	sources := map[string]string{"hpp": "Table 4", "hps": "§5.1", "stratified": "§5.2", "sonicboom": "WithNMegaBooms", "default": "not taken from a paper"}
	for _, n := range Presets() {
		t.Run(n, func(t *testing.T) {
			text, err := Show(n)
			require.NoError(t, err)
			assert.Contains(t, text, sources[n])
			assert.Contains(t, text, `preset = "`+n+`"`)
			for _, k := range Keys() {
				sect, key, _ := strings.Cut(k, ".")
				if strings.HasPrefix(k, "fu.") {
					sect, key = k[:strings.LastIndexByte(k, '.')], k[strings.LastIndexByte(k, '.')+1:]
				}
				assert.Contains(t, text, "["+sect+"]")
				assert.Regexp(t, "(?m)^"+regexp.QuoteMeta(key)+" = ", text, k)
			}
			m, err := Parse("shown.toml", []byte(text))
			require.NoError(t, err)
			want, _ := Preset(n)
			want.Name = "shown.toml"
			assert.Equal(t, want, m)
			// Every line is a comment, blank, a header or key = value.
			for i, l := range strings.Split(text, "\n") {
				assert.Regexp(t, `^(|#.*|\[[a-z_.0-9]+\]|[a-z_0-9]+ = .+)$`, l, "line %d", i+1)
			}
		})
	}
	_, err := Show("nope")
	assert.Error(t, err)
}

func TestFormatRoundTrip(t *testing.T) {
	m := Default()
	m.Name = "mine"
	m.Core.ROB = 77
	m.BPred.Kind = "perfect"
	m.L2.Size = 2 << 20
	m.FU.FPDiv.Pipelined = true
	got, err := Parse("f.toml", []byte(Format(m)))
	require.NoError(t, err)
	m.Name = "f.toml"
	assert.Equal(t, m, got)
}

// TestParseOverrides: a file overrides only what it sets, on top of its preset.
func TestParseOverrides(t *testing.T) {
	text := `
# a comment
preset = "hps"   # start from the HPS machine

[core]
rob = 0x40        # hex
iq = 4_0          # underscores
fetch_queue = 1_6 # more underscores
dise_penalty_per_inst = true

[fu.int_div]
pipelined = true

[bpred]
kind = "gshare"
`
	m, err := Parse("o.toml", []byte(text))
	require.NoError(t, err)
	hps, _ := Preset("hps")
	assert.Equal(t, 64, m.Core.ROB)
	assert.Equal(t, 40, m.Core.IQ)
	assert.Equal(t, 16, m.Core.FetchQueue)
	assert.True(t, m.Core.DISEPerInst)
	assert.True(t, m.FU.IntDiv.Pipelined)
	assert.Equal(t, "gshare", m.BPred.Kind)
	assert.Equal(t, hps.L1I, m.L1I, "unset keys keep the preset's values")
	assert.Equal(t, hps.Core.DecodeStages, m.Core.DecodeStages)
	assert.Equal(t, "o.toml", m.Name)

	m, err = Parse("empty.toml", nil)
	require.NoError(t, err)
	def := Default()
	def.Name = "empty.toml"
	assert.Equal(t, def, m, "an empty file is the default preset")

	m, err = Parse("crlf.toml", []byte("[core]\r\nrob = 99\r\n"))
	require.NoError(t, err)
	assert.Equal(t, 99, m.Core.ROB)

	m, err = Parse("s.toml", []byte("[bpred]\nkind = \"bi\\u\"\n"))
	assert.Error(t, err)
	assert.Nil(t, m)
}

// TestDISERedirect: the redirect penalty of DISE's control transfers is
// the machine's redirect penalty unless a file sets it.
func TestDISERedirect(t *testing.T) {
	for _, tc := range []struct {
		desc, text string
		want       int
	}{
		{"default preset: redirect_penalty (2)", "", 2},
		{"hps preset: redirect_penalty (1)", "preset = \"hps\"\n", 1},
		{"hpp preset: redirect_penalty (3)", "preset = \"hpp\"\n", 3},
		{"follows redirect_penalty when that is set", "[core]\nredirect_penalty = 9\n", 9},
		{"set explicitly", "[core]\ndise_redirect_penalty = 5\n", 5},
		{"zero", "[core]\ndise_redirect_penalty = 0\n", 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m, err := Parse("d.toml", []byte(tc.text))
			require.NoError(t, err)
			assert.Equal(t, tc.want, m.Core.DISERedirect())
		})
	}
	for _, name := range Presets() {
		m, _ := Preset(name)
		assert.Equal(t, -1, m.Core.DISERedirectPenalty, "%s: derived from redirect_penalty", name)
	}
}

// TestParseErrors: every error is one line, "file:line: key: message".
func TestParseErrors(t *testing.T) {
	tests := []struct {
		desc, text, want string
	}{
		{"unknown key", "[core]\nrobb = 3\n", `^x\.toml:2: core\.robb: unknown key \(keys of \[core\]: fetch_width, `},
		{"unknown section", "[cache]\n", `^x\.toml:1: \[cache\]: unknown section \(sections: core, `},
		{"not a value", "[core]\nrob = lots\n", `^x\.toml:2: core\.rob: expected value but found "lots" instead$`},
		{"a string for an integer", "[core]\nrob = \"lots\"\n", `^x\.toml:2: core\.rob: want an integer, found the string "lots"$`},
		{"leading zeros", "[core]\nrob = 016\n", `^x\.toml:2: core\.rob: Invalid integer "016": cannot have leading zeroes$`},
		{"a float", "[core]\nrob = 1.5\n", `^x\.toml:2: core\.rob: want an integer, found the number 1\.5$`},
		{"out of range", "[core]\n\nrob = 0\n", `^x\.toml:3: core\.rob: 0 is out of range \[1, 8192\]$`},
		{"negative", "[memory]\nlatency = -5\n", `^x\.toml:2: memory\.latency: -5 is out of range \[1, 100000\]$`},
		{"huge", "[memory]\nlatency = 99999999999999999999\n", `^x\.toml:2: memory\.latency: 99999999999999999999 is out of range for int64$`},
		{"beyond any machine", "[memory]\nlatency = 0x7fffffffffffffff\n", `^x\.toml:2: memory\.latency: 9223372036854775807 is out of range$`},
		{"not a power of two", "[l1d]\nline = 48\n", `^x\.toml:2: l1d\.line: 48 is not a power of two$`},
		{"bad bool", "[fu.int_alu]\npipelined = 1\n", `^x\.toml:2: fu\.int_alu\.pipelined: want true or false, found the integer 1$`},
		{"not a bool", "[fu.int_alu]\npipelined = yes\n", `^x\.toml:2: fu\.int_alu\.pipelined: expected value but found "yes" instead$`},
		{"bad choice", "[bpred]\nkind = \"oracle\"\n", `^x\.toml:2: bpred\.kind: "oracle" is not one of perfect, bimodal, gshare, tournament$`},
		{"unquoted string", "[bpred]\nkind = gshare\n", `^x\.toml:2: bpred\.kind: expected value but found "gshare" instead$`},
		{"not a string", "[bpred]\nkind = 3\n", `^x\.toml:2: bpred\.kind: want a double-quoted string, found the integer 3$`},
		{"unterminated string", "[bpred]\nkind = \"gshare\n", `^x\.toml:2: bpred\.kind: strings cannot contain newlines$`},
		{"set twice", "[core]\nrob = 8\nrob = 9\n", `^x\.toml:3: core\.rob: set twice \(first at line 2\)$`},
		{"section twice", "[core]\n[l1d]\n[core]\n", `^x\.toml:3: \[core\]: set twice \(first at line 1\)$`},
		{"unknown preset", "preset = \"p4\"\n", `^x\.toml:1: preset: unknown preset "p4" \(presets: default, `},
		{"top-level key", "rob = 3\n", `^x\.toml:1: rob: unknown top-level key`},
		{"no equals", "[core]\nrob 3\n", `^x\.toml:2: expected '\.' or '=', but got '3' instead$`},
		{"missing value", "[core]\nrob =\n", `^x\.toml:2: core\.rob: expected value but found '\\n' instead$`},
		{"bad header", "[core\n", `^x\.toml:1: expected '\.' or '\]' to end table name, but got '\\n' instead$`},
		{"array of tables", "[[core]]\n", `^x\.toml:1: \[core\]: want a \[core\] table, found an array$`},
		{"a section as a value", "core = 3\n", `^x\.toml:1: \[core\]: want a \[core\] table, found the integer 3$`},
		{"unknown sub-section", "[fu.int_adder]\ncount = 1\n", `^x\.toml:1: \[fu\.int_adder\]: unknown section \(sections: core, `},
		{"key of a prefix", "[fu]\ncount = 1\n", `^x\.toml:2: fu\.count: unknown key: \[fu\] is not a section \(sections: core, `},
		{"preset not a string", "preset = 3\n", `^x\.toml:1: preset: want a string, found the integer 3$`},
		{"first error in file order", "[l2]\nline = \"x\"\n[core]\nrob = \"y\"\n", `^x\.toml:2: l2\.line: want an integer`},
		{"dotted key", "[core]\nr.o.b = 3\n", `^x\.toml:2: core\.r: unknown key \(keys of \[core\]: `},
		{"queue smaller than width", "[core]\nfetch_width = 8\nfetch_queue = 4\n", `^x\.toml:3: core\.fetch_queue: 4 is smaller than core\.fetch_width \(8\)$`},
		{"size not a multiple", "[l1d]\nsize = 1000\n", `^x\.toml:2: l1d\.size: 1000 is not a multiple of assoc x line \(8 x 64\)$`},
		{"sets not a power of two", "[l1d]\nsize = 1152\nassoc = 3\n", `^x\.toml:2: l1d\.size: 1152 gives 6 sets`},
		{"l2 line smaller than l1", "[l2]\nline = 32\n", `^x\.toml:2: l2\.line: 32 is smaller than l1i\.line \(64\)`},
		{"btb assoc above entries", "[bpred]\nbtb_entries = 4\nbtb_assoc = 8\n", `^x\.toml:3: bpred\.btb_assoc: 8 is larger than bpred\.btb_entries \(4\)$`},
		{"tiny lsq", "[core]\nlsq = 1\n", `^x\.toml:2: core\.lsq: 1 is too small`},
		{"dise redirect below -1", "[core]\ndise_redirect_penalty = -2\n", `^x\.toml:2: core\.dise_redirect_penalty: -2 is out of range \[-1, 100000\]$`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			m, err := Parse("x.toml", []byte(tc.text))
			require.Error(t, err)
			assert.Nil(t, m)
			assert.Regexp(t, tc.want, err.Error())
			assert.NotContains(t, err.Error(), "\n", "one line")
			var ce *Error
			assert.ErrorAs(t, err, &ce)
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.toml")
	require.NoError(t, os.WriteFile(p, []byte("[core]\nrob = 100\n"), 0o644))
	m, err := Load(p)
	require.NoError(t, err)
	assert.Equal(t, 100, m.Core.ROB)
	_, err = Load(filepath.Join(dir, "missing.toml"))
	require.Error(t, err)
	assert.Regexp(t, `missing\.toml: no such file or directory$`, err.Error())
}

func TestValidateInCode(t *testing.T) {
	m := Default()
	m.L1D.MSHRs = 0
	err := m.Validate()
	require.Error(t, err)
	assert.Equal(t, "l1d.mshrs: 0 is out of range [1, 1024]", err.Error(), "no file position for a machine built in code")
}

func TestKeysDocumented(t *testing.T) {
	keys := Keys()
	assert.Len(t, keys, 20+7*3+8+3*5+1)
	seen := map[string]bool{}
	for _, k := range keys {
		assert.False(t, seen[k], "duplicate key %s", k)
		seen[k] = true
		assert.NotEmpty(t, KeyDoc(k), k)
	}
	assert.Empty(t, KeyDoc("core.nothing"))
}

// FuzzParse: the parser never panics, and whatever it accepts is valid and
// prints back to the same machine.
func FuzzParse(f *testing.F) {
	for _, n := range Presets() {
		s, _ := Show(n)
		f.Add(s)
	}
	f.Add("[core]\nrob = 0x10\niq = 8\n")
	f.Add("preset = \"hpp\"\n[l1d]\nsize = 1024\nassoc = 2\n")
	f.Add("[bpred]\nkind = \"g\\\"x\"  # c\n")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := Parse("f", []byte(text))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid machine: %v", err)
		}
		back, err := Parse("f", []byte(Format(m)))
		if err != nil {
			t.Fatalf("Format output does not parse: %v", err)
		}
		if *back != *m {
			t.Fatalf("round trip changed the machine")
		}
	})
}

// TestTOMLForms: the file is TOML, so its other spellings of the same keys
// work too, and their errors still name the line.
func TestTOMLForms(t *testing.T) {
	m, err := Parse("t.toml", []byte("core.rob = 96\n\"fu\".int_alu = { count = 3, pipelined = false }\n[l2]\n'size' = 0x20_0000\n"))
	require.NoError(t, err)
	assert.Equal(t, 96, m.Core.ROB)
	assert.Equal(t, 3, m.FU.IntALU.Count)
	assert.False(t, m.FU.IntALU.Pipelined)
	assert.Equal(t, 2<<20, m.L2.Size)

	for _, tc := range []struct{ text, want string }{
		{"# c\ncore.rob = 0\n", `^t\.toml:2: core\.rob: 0 is out of range`},
		{"[fu]\nint_alu.latency = 0\n", `^t\.toml:2: fu\.int_alu\.latency: 0 is out of range`},
		{"[core]\n\"rob\" = 0\n", `^t\.toml:2: core\.rob: 0 is out of range`},
		{"[bpred]\nkind = \"\"\"\nrob = 3\n\"\"\"\n[core]\nrob = 0\n", `^t\.toml:6: core\.rob: 0 is out of range`},
	} {
		_, err := Parse("t.toml", []byte(tc.text))
		require.Error(t, err, tc.text)
		assert.Regexp(t, tc.want, err.Error(), tc.text)
	}
}
