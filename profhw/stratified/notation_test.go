package stratified

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		desc, in string
		want     Spec
	}{
		{"random", "R256", Spec{Base: Random, Rate: 256}},
		{"periodic", "P256", Spec{Base: Periodic, Rate: 256}},
		{"counter random", "CR256", Spec{Base: Random, Counter: true, Rate: 256}},
		{"countdown", "D10", Spec{Base: Countdown, Rate: 10}},
		{"stratified periodic", "H[P256]2048", Spec{Base: Periodic, Rate: 256, Hash: 2048}},
		{"stratified random", "H[R256]2048", Spec{Base: Random, Rate: 256, Hash: 2048}},
		{"stratified counter random", "H[CR256]2048", Spec{Base: Random, Counter: true, Rate: 256, Hash: 2048}},
		{"two-level", "H[P256]2048A16", Spec{Base: Periodic, Rate: 256, Hash: 2048, Assoc: 16}},
		{"random two-level", "R256A16", Spec{Base: Random, Rate: 256, Assoc: 16}},
		{"tagged §5.4", "T[2,8,3]2048x2", Spec{Tagged: &TaggedSpec{TagBits: 2, HitBits: 8, MissBits: 3, Entries: 2048, Ways: 2}}},
		{"tagged direct-mapped two-level", "T[1,8,3]1024A16", Spec{Tagged: &TaggedSpec{TagBits: 1, HitBits: 8, MissBits: 3, Entries: 1024, Ways: 1}, Assoc: 16}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ParseSpec(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.in, got.String(), "prints back")
		})
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		desc, in, msg string
	}{
		{"empty", "", `compressor "": at offset 0: expected a sampler R, P, D, CR, CP or CD, found the end`},
		{"unknown sampler", "X256", `compressor "X256": at offset 0: expected a sampler R, P, D, CR, CP or CD, found "X"`},
		{"no rate", "P", `compressor "P": at offset 1: expected sampling rate r (a number), found the end`},
		{"zero rate", "P0", `compressor "P0": at offset 1: sampling rate r 0 is out of range [1, 16777216]`},
		{"unclosed", "H[P256", `compressor "H[P256": at offset 6: expected "]", found the end`},
		{"not a power of two", "H[P256]1000", `compressor "H[P256]1000": at offset 7: substream count n = 1000 is not a power of two (the hash folds to log2 n bits)`},
		{"trailing", "P256x", `compressor "P256x": at offset 4: unexpected "x" after the compressor (want A<k> or the end)`},
		{"nested hash", "H[H[P2]4]8", `compressor "H[H[P2]4]8": at offset 2: expected a sampler R, P, D, CR, CP or CD, found "H"`},
		{"bad ways", "T[2,8,3]2048x3", `compressor "T[2,8,3]2048x3": at offset 14: 2048 entries in 3 ways: want a power-of-two number of sets`},
		{"a table past the bound", "H[P256]16777216", `compressor "H[P256]16777216": at offset 7: substream count n 16777216 is out of range [1, 1048576]`},
		{"a tagged table past the bound", "T[2,8,3]2097152x2", `compressor "T[2,8,3]2097152x2": at offset 8: entry count 2097152 is out of range [1, 1048576]`},
		{"huge", "P99999999999999999999", `compressor "P99999999999999999999": at offset 1: sampling rate r 99999999999999999999 is out of range [1, 16777216]`},
		{"assoc zero", "P4A0", `compressor "P4A0": at offset 3: associative table size k 0 is out of range [1, 4096]`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := ParseSpec(tc.in)
			require.EqualError(t, err, tc.msg)
		})
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"R256", "P256", "CR256", "H[P256]2048", "H[R256]2048", "H[CR256]2048",
		"H[P256]2048A16", "T[2,8,3]2048x2", "D10", "T[1,1,1]1", "H[P", "T[2,8", "A16"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			return
		}
		back, err := ParseSpec(spec.String())
		if err != nil || back.String() != spec.String() {
			t.Fatalf("%q parses to %q, which does not parse back: %v", s, spec.String(), err)
		}
		if len(s) < 40 { // build small ones: no panic
			if spec.Hash <= 1<<16 && (spec.Tagged == nil || spec.Tagged.Entries <= 1<<16) {
				c := New(spec, DefaultOptions)
				c.Push(tp(1, 2))
				c.Drain()
				_ = c.StorageBits()
			}
		}
	})
}
