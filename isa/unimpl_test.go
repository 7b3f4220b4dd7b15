package isa

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionOf: words GNU as 2.40 assembled (-march with v, zfh, q,
// zicbom, zicboz) and Zcb's, hand-encoded from the Zcb specification,
// are named; words rvsim decodes, and reserved ones of no known
// extension, are not.
func TestExtensionOf(t *testing.T) {
	for _, tc := range []struct {
		asm  string
		raw  uint32
		want string
	}{
		{"vadd.vv v1,v2,v3", 0x022180d7, "V (vectors)"},
		{"vle32.v v1,(a0)", 0x02056087, "V (vectors)"},
		{"vse64.v v2,(a1)", 0x0205f127, "V (vectors)"},
		{"vsetvli t0,a0,e32,m1,ta,ma", 0x0d0572d7, "V (vectors)"},
		{"flh fa0,0(a0)", 0x00051507, "Zfh (half precision)"},
		{"fsh fa0,2(a1)", 0x00a59127, "Zfh (half precision)"},
		{"fadd.h fa0,fa1,fa2", 0x04c5f553, "Zfh (half precision)"},
		{"fcvt.s.h fa0,fa1", 0x40258553, "Zfh (half precision)"},
		{"fadd.q fa0,fa1,fa2", 0x06c5f553, "Q (quad precision)"},
		{"flq fa0,0(a0)", 0x00054507, "Q (quad precision)"},
		{"cbo.zero (a0)", 0x0045200f, "Zicbom/Zicboz (cache-block operations)"},
		{"cbo.clean (a1)", 0x0015a00f, "Zicbom/Zicboz (cache-block operations)"},
		{"c.lbu a0,0(a1) (100 000 s1' 00 a0' 00)", 0x8188, "Zcb (more compressed instructions)"},
		{"c.sh a0,0(a1) (100 011 ...)", 0x8d88, "Zcb (more compressed instructions)"},
		{"c.zext.b a0 (100 111 a0' 11 000 01)", 0x9d61, "Zcb (more compressed instructions)"},
		{"c.mul a0,a1 (100 111 a0' 10 a1' 01)", 0x9d4d, "Zcb (more compressed instructions)"},
		{"c.subw a0,a1: RV64C", 0x9d0d, ""},
		{"add a0,a1,a2: RV64I", 0x00c58533, ""},
		{"fadd.d: D", 0x02c5f553, ""},
		{"fcvt.s.d: D", 0x40158553, ""},
		{"custom-1", 0x0000002b, ""},
	} {
		t.Run(tc.asm, func(t *testing.T) {
			assert.Equal(t, tc.want, ExtensionOf(tc.raw))
			if tc.want != "" {
				_, err := Decode(tc.raw)
				require.Error(t, err, "rvsim decodes it")
			}
		})
	}
}
