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
			`f.toml:6: unit s: tagged.evict_hits: 16 does not fit the 4-bit hit counter of T[2,4,3]64 (at most 15)`},
		{"replace beyond the miss counter", "compressor = \"T[2,8,2]64\"\n[unit.tagged]\nreplace_misses = 4",
			`f.toml:6: unit s: tagged.replace_misses: 4 does not fit the 2-bit miss counter of T[2,8,2]64 (at most 3)`},
		{"tagged keys on an untagged compressor", "compressor = \"H[P256]2048\"\n[unit.tagged]\nevict_hits = 16",
			`f.toml:6: unit s: tagged.evict_hits: applies to a tagged compressor (T[…]) only, and compressor H[P256]2048 has none`},
		{"tagged keys on the default compressor", "[unit.tagged]\nreplace_misses = 3",
			`f.toml:5: unit s: tagged.replace_misses: applies to a tagged compressor (T[…]) only, and compressor H[P256]2048 has none`},
		{"interrupt cycles in the paper's model", "[unit.delivery]\ninterrupt_cycles = 214",
			`f.toml:5: unit s: delivery.interrupt_cycles: charged only by delivery.cost_model = "split" (the paper's model, the default, has the interrupt inside message_cycles: docs/PROFHW.md)`},
		{"a table past the bound", `compressor = "T[2,8,3]16777216"`,
			`f.toml:4: unit s: compressor: "T[2,8,3]16777216": at offset 8: entry count 16777216 is out of range [1, 1048576] (docs/PROFHW.md: the notation)`},
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

// The tagged thresholds' defaults are clamped to counters too narrow for
// them (PROFHW.md); a value the user writes that fits is kept as written.
func TestTaggedDefaultsClamped(t *testing.T) {
	for _, tc := range []struct {
		desc          string
		vals          map[string]any
		evict, replac uint64
	}{
		{"defaults fit", map[string]any{"compressor": "T[2,8,3]2048x2"}, DefaultOptions.EvictHits, DefaultOptions.ReplaceMiss},
		{"a 4-bit hit counter", map[string]any{"compressor": "T[2,4,3]2048"}, min(DefaultOptions.EvictHits, 15), DefaultOptions.ReplaceMiss},
		{"a 2-bit miss counter", map[string]any{"compressor": "T[2,8,2]2048"}, DefaultOptions.EvictHits, min(DefaultOptions.ReplaceMiss, 3)},
		{"written past the default's clamp", map[string]any{"compressor": "T[2,4,2]2048", "tagged.evict_hits": int64(15), "tagged.replace_misses": int64(3)}, 15, 3},
		{"1-bit counters", map[string]any{"compressor": "T[2,1,1]2048"}, 1, 1},
		{"written and fitting", map[string]any{"compressor": "T[2,4,3]2048", "tagged.evict_hits": int64(9), "tagged.replace_misses": int64(2)}, 9, 2},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			cfg, err := ReadConfig(profhw.NewUnitConfig("u", "stratified", tc.vals))
			require.NoError(t, err)
			require.Equal(t, tc.evict, cfg.Options.EvictHits)
			require.Equal(t, tc.replac, cfg.Options.ReplaceMiss)
			u := NewUnit("u", cfg, profhw.Env{})
			require.NoError(t, u.Finish(profhw.End{}))
			require.Equal(t, tc.evict, u.Summary().Extra["tagged_evict_hits"])
			require.Equal(t, tc.replac, u.Summary().Extra["tagged_replace_misses"])
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
