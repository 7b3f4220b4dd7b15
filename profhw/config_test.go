package profhw_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw"
	_ "github.com/rvsim/rvsim/profhw/all"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		desc, text, want string
	}{
		{"syntax", "[[unit]\nname = 1", `f.toml:1: `},
		{"no unit", "# nothing\n", "f.toml: no [[unit]] table: nothing to simulate"},
		{"top-level key", "x = 1\n[[unit]]\nname=\"a\"\nkind=\"exact\"\n", "f.toml:1: x: unknown top-level key: a file holds [[unit]] tables"},
		{"unit not array", "[unit]\nname = \"a\"\n", "f.toml:1: unit: want [[unit]] tables (an array of tables)"},
		{"missing name", "[[unit]]\nkind = \"exact\"\n", `f.toml:1: unit: missing name = "..." (the unit's output file prefix)`},
		{"bad name", "[[unit]]\nname = \"a b\"\nkind = \"exact\"\n", `f.toml:2: name: "a b": want letters, digits, - and _`},
		{"missing kind", "[[unit]]\nname = \"a\"\n", "f.toml:1: unit a: missing kind"},
		{"unknown kind", "[[unit]]\nname = \"a\"\nkind = \"bogus\"\n", `f.toml:3: unit a: kind: unknown kind "bogus"`},
		{"kind not string", "[[unit]]\nname = \"a\"\nkind = 3\n", `f.toml:3: unit a: kind: want a string, found the integer 3`},
		{"duplicate name", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[[unit]]\nname = \"a\"\nkind = \"exact\"\n", `f.toml:5: name: unit name "a" repeated (first at line 2)`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := profhw.Parse("f.toml", []byte(tc.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		desc, text, want string
	}{
		{"unknown key", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\ntuples = [\"value\"]\ncolour = 3\n",
			`f.toml:6: unit a: select.colour: unknown key for kind "exact"`},
		{"bad tuple kind", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\ntuples = [\"values\"]\n",
			`f.toml:5: unit a: select.tuples: unknown tuple kind "values" (kinds: value, edge, call-target, address)`},
		{"bad class", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\nclasses = [\"loads\"]\n",
			`f.toml:5: unit a: select.classes: unknown class "loads"`},
		{"bad range", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\npc_range = [\"0x20\", \"0x10\"]\n",
			`f.toml:5: unit a: select.pc_range: want [lo, hi] with lo < hi`},
		{"bad size", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\npc_range = [\"0x10\", \"12Q\"]\n",
			`f.toml:5: unit a: select.pc_range: "12Q" is not an integer`},
		{"tags count", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\ntuples = [\"edge\", \"call-target\"]\ntags = [1]\n",
			`f.toml:6: unit a: select.tags: want one tag per tuple kind (2), found 1`},
		{"tag range", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\ntags = [300]\n",
			`f.toml:5: unit a: select.tags: tag 300 is out of range [0, 255]`},
		{"bool type", "[[unit]]\nname = \"a\"\nkind = \"exact\"\n[unit.select]\nhandlers = \"yes\"\n",
			`f.toml:5: unit a: select.handlers: want true or false, found "yes"`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			cfgs, err := profhw.Parse("f.toml", []byte(tc.text))
			require.NoError(t, err)
			_, err = profhw.Build(cfgs, profhw.Env{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

func TestGetters(t *testing.T) {
	c := profhw.NewUnitConfig("u", "exact", map[string]any{
		"a": int64(5), "b": "64K", "c": "0x10", "d": 2.5, "e": true, "f": []any{"x", "y"}, "g": []any{int64(1), "2K"},
	})
	assert.Equal(t, int64(5), c.Int("a", 0, 0, 10))
	assert.Equal(t, int64(64<<10), c.Int("b", 0, 0, 1<<20))
	assert.Equal(t, int64(16), c.Int("c", 0, 0, 100))
	assert.Equal(t, 2.5, c.Float("d", 0, 0, 10))
	assert.True(t, c.Bool("e", false))
	assert.Equal(t, []string{"x", "y"}, c.Strings("f", nil))
	assert.Equal(t, []int64{1, 2048}, c.Ints("g", nil))
	assert.Equal(t, int64(7), c.Int("absent", 7, 0, 10), "default")
	assert.NoError(t, c.Err())

	c = profhw.NewUnitConfig("u", "exact", map[string]any{"a": int64(50)})
	assert.Equal(t, int64(1), c.Int("a", 1, 0, 10), "out of range gives the default")
	assert.EqualError(t, c.Err(), "<config>: unit u: a: 50 is out of range [0, 10]")
}

func TestPresetsParseAndBuild(t *testing.T) {
	require.NotEmpty(t, profhw.Presets())
	for _, name := range profhw.Presets() {
		t.Run(name, func(t *testing.T) {
			assert.NotEmpty(t, profhw.PresetTitle(name), "first line is a # title")
			cfgs, err := profhw.LoadPreset(name)
			require.NoError(t, err)
			for _, mode := range []profhw.Mode{profhw.Functional, profhw.Timing} {
				units, err := profhw.Build(cfgs, profhw.Env{Mode: mode, Interrupt: func(profhw.Unit) {}})
				if err != nil {
					// A preset may need timing mode (metrics along paths).
					require.Equal(t, profhw.Functional, mode, "preset %s fails in timing mode: %v", name, err)
					continue
				}
				require.Len(t, units, len(cfgs))
			}
		})
	}
	_, err := profhw.LoadPreset("no-such")
	assert.ErrorContains(t, err, `unknown profhw preset "no-such"`)
}

// FuzzParse: no input makes the parser or the builders panic, and every
// error is one line.
func FuzzParse(f *testing.F) {
	for _, name := range profhw.Presets() {
		data, err := profhw.PresetText(name)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("[[unit]]\nname=\"a\"\nkind=\"exact\"\n[unit.select]\ntuples=[\"edge\",\"value\"]\npc_range=[\"0x0\",\"1G\"]\n"))
	f.Add([]byte("[[unit]]\n[[unit]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfgs, err := profhw.Parse("fuzz.toml", data)
		if err == nil {
			_, err = profhw.Build(cfgs, profhw.Env{Interrupt: func(profhw.Unit) {}})
		}
		if err != nil {
			if s := err.Error(); len(s) == 0 || containsNewline(s) {
				t.Fatalf("error is not one line: %q", s)
			}
		}
	})
}

func containsNewline(s string) bool {
	for _, r := range s {
		if r == '\n' {
			return true
		}
	}
	return false
}

// --profhw-set: KEY=VALUE with a TOML value or a bare word; bad forms
// are one-line errors.
func TestParseSetting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		key  string
		val  any
		want string // error
	}{
		{in: "error.exact=false", key: "error.exact", val: false},
		{in: " interval = 100000 ", key: "interval", val: int64(100000)},
		{in: "threshold_percent=0.1", key: "threshold_percent", val: 0.1},
		{in: "compressor=H[P256]2048", key: "compressor", val: "H[P256]2048"},
		{in: `compressor="R256"`, key: "compressor", val: "R256"},
		{in: `select.tuples=["edge","call-target"]`, key: "select.tuples", val: []any{"edge", "call-target"}},
		{in: "error.exact", want: "want KEY=VALUE"},
		{in: "=1", want: "want KEY=VALUE"},
		{in: "a..b=1", want: "is not a key"},
		{in: "a b=1", want: "is not a key"},
		{in: "kind=exact", want: "set in its file"},
	} {
		key, val, err := profhw.ParseSetting(tc.in)
		if tc.want != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.want, tc.in)
			assert.False(t, containsNewline(err.Error()))
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.key, key, tc.in)
		assert.Equal(t, tc.val, val, tc.in)
	}
}

// A setting overrides a preset's key; an unknown key is an error naming
// the unit; error.exact = false set over a preset's convergence curve
// turns the curve off instead of contradicting it.
func TestSetOverridesPreset(t *testing.T) {
	cfgs, err := profhw.LoadPreset("stratified-value")
	require.NoError(t, err)
	cfgs[0].Set("error.exact", false)
	assert.True(t, cfgs[0].Overridden("error.exact"))
	_, err = profhw.Build(cfgs, profhw.Env{Interrupt: func(profhw.Unit) {}})
	require.NoError(t, err)

	cfgs, err = profhw.LoadPreset("multihash-value")
	require.NoError(t, err)
	cfgs[0].Set("error.exat", false)
	_, err = profhw.Build(cfgs, profhw.Env{Interrupt: func(profhw.Unit) {}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unit multihash-value: error.exat: unknown key")
}

// FuzzParseSetting: no --profhw-set text makes ParseSetting panic, every
// error is one line, and a setting it accepts names a dotted key and is
// accepted by a unit's getters or rejected by them in one line.
func FuzzParseSetting(f *testing.F) {
	for _, s := range []string{"error.exact=false", "interval=1K", `select.tuples=["edge"]`, "compressor=H[P256]2048", "a=", "=b", "x.y.z=[1,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		key, val, err := profhw.ParseSetting(s)
		if err != nil {
			if containsNewline(err.Error()) {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		cfgs, err := profhw.LoadPreset("stratified-value")
		require.NoError(t, err)
		cfgs[0].Set(key, val)
		if _, err := profhw.Build(cfgs, profhw.Env{Interrupt: func(profhw.Unit) {}}); err != nil && containsNewline(err.Error()) {
			t.Fatalf("error is not one line: %q", err)
		}
	})
}
