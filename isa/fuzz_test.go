package isa

import (
	"testing"
)

// FuzzDecode: Decode and String never panic; the decode agrees with x/arch
// (modulo manualOverrides); valid 32-bit words re-encode to themselves and
// re-assemble from their text.
func FuzzDecode(f *testing.F) {
	for _, g := range readGolden(f, "testdata/golden.txt") {
		f.Add(g.raw)
	}
	for _, raw := range []uint32{0, 0xffffffff, 0x0000001f, 0x0000100b, 0x8082, 0xdead8082} {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw uint32) {
		in, err := Decode(raw)
		s := in.String()
		_ = in.StringAt(0x80000000)
		if raw&3 != 3 {
			raw &= 0xffff
		}
		if msg := compare(raw, newStats()); msg != "" {
			t.Fatalf("%#08x: %s", raw, msg)
		}
		if err != nil {
			if in.Op != ILLEGAL || s[0] != '.' {
				t.Fatalf("%#08x: failed decode returned %+v printing %q", raw, in, s)
			}
			return
		}
		if in.Len == 2 {
			return
		}
		w, err := Encode(in)
		if err != nil || w != raw {
			t.Fatalf("Encode(Decode(%#08x)) = %#08x, %v", raw, w, err)
		}
		back, err := Assemble(s)
		if err != nil || back != in {
			t.Fatalf("Assemble(%q) = %+v, %v; want %+v", s, back, err, in)
		}
	})
}
