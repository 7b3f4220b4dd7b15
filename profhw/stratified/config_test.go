package stratified

import (
	"regexp"
	"testing"

	"github.com/rvsim/rvsim/profhw"
	"github.com/stretchr/testify/require"
)

// Bad values are one line naming the file, line, unit and key.
func TestConfigErrors(t *testing.T) {
	head := "[[unit]]\nname = \"s\"\nkind = \"stratified\"\n"
	for _, tc := range []struct {
		desc, body, msg string
	}{
		{"bad notation", `compressor = "H[P256]1000"`,
			`f.toml:4: unit s: compressor: "H[P256]1000": at offset 7: substream count n = 1000 is not a power of two (the hash folds to log2 n bits) (docs/PROFHW.md: the notation)`},
		{"wrong type", `compressor = 256`, `f.toml:4: unit s: compressor: want a string, found the integer 256`},
		{"count bits", "count_bits = 0", `f.toml:4: unit s: count_bits: 0 is out of range [1, 63]`},
		{"evict beyond the hit counter", "compressor = \"T[2,4,3]64\"\n[unit.tagged]\nevict_hits = 16",
			`f.toml:6: unit s: tagged.evict_hits: 16 does not fit the 4-bit hit counter of T[2,4,3]64`},
		{"replace beyond the miss counter", "compressor = \"T[2,8,2]64\"\n[unit.tagged]\nreplace_misses = 4",
			`f.toml:6: unit s: tagged.replace_misses: 4 does not fit the 2-bit miss counter of T[2,8,2]64`},
		{"fraction", "[unit.error]\nmin_tuple_fraction = 1.5", `f.toml:5: unit s: error.min_tuple_fraction: 1.5 is out of range [0, 1]`},
		{"buffer", "[unit.delivery]\nbuffer = 0", `f.toml:5: unit s: delivery.buffer: 0 is out of range [1, 1048576]`},
		{"unknown key", "[unit.queue]\nsize = 4\ndepth = 2", `f.toml:6: unit s: queue.depth: unknown key for kind "stratified" (docs/PROFHW.md lists its keys)`},
		{"tuple kind", "[unit.select]\ntuples = [\"values\"]", `f.toml:5: unit s: select.tuples: unknown tuple kind "values" (kinds: value, edge, call-target, address)`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			cfgs, err := profhw.Parse("f.toml", []byte(head+tc.body+"\n"))
			require.NoError(t, err)
			_, err = profhw.Build(cfgs, profhw.Env{})
			require.EqualError(t, err, tc.msg)
		})
	}
}

// Every preset builds, in both modes.
func TestPresetsBuild(t *testing.T) {
	for _, p := range []string{"stratified-value", "random-value", "periodic-value", "tagged-value", "stratified-value-a16", "stratified-edge-call"} {
		t.Run(p, func(t *testing.T) {
			cfgs, err := profhw.LoadPreset(p)
			require.NoError(t, err)
			units, err := profhw.Build(cfgs, profhw.Env{Mode: profhw.Timing})
			require.NoError(t, err)
			require.Len(t, units, 1)
			require.Equal(t, p, units[0].Name())
			require.True(t, units[0].Watch().Committed)
		})
	}
}

// A configuration fuzz target: any file either fails with an error or
// builds units that run.
func FuzzConfig(f *testing.F) {
	f.Add("[[unit]]\nname = \"s\"\nkind = \"stratified\"\ncompressor = \"H[P4]16A2\"\n")
	f.Add("[[unit]]\nname = \"s\"\nkind = \"stratified\"\ncompressor = \"T[2,3,2]4x2\"\n[unit.tagged]\nevict_hits = 3\n")
	f.Add("[[unit]]\nname = \"s\"\nkind = \"stratified\"\n[unit.select]\ntuples = [\"edge\", \"call-target\"]\n")
	f.Fuzz(func(t *testing.T, text string) {
		cfgs, err := profhw.Parse("f.toml", []byte(text))
		if err != nil {
			return
		}
		for _, c := range cfgs {
			if c.Kind != "stratified" {
				return
			}
			if s := c.String("compressor", ""); len(s) > 30 || bigNumber.MatchString(s) {
				return // keep the tables small
			}
		}
		units, err := profhw.Build(cfgs, profhw.Env{})
		if err != nil {
			return
		}
		for _, u := range units {
			_ = u.Finish(profhw.End{})
		}
	})
}

var bigNumber = regexp.MustCompile(`[0-9]{6}`)
