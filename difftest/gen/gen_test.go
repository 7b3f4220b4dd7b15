package gen

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/arch/riscv64/riscv64asm"

	"github.com/rvsim/rvsim/isa"
)

// decodeAll splits code into instructions with our decoder.
func decodeAll(t *testing.T, code []byte) []isa.Inst {
	t.Helper()
	var out []isa.Inst
	for off := 0; off < len(code); {
		raw := uint32(binary.LittleEndian.Uint16(code[off:]))
		if raw&3 == 3 {
			raw = binary.LittleEndian.Uint32(code[off:])
		}
		in, err := isa.Decode(raw)
		require.NoError(t, err, "offset %#x", off)
		out = append(out, in)
		off += int(in.Len)
	}
	return out
}

func TestGenerateDeterministic(t *testing.T) {
	a, err := Generate(42, 500)
	require.NoError(t, err)
	b, err := Generate(42, 500)
	require.NoError(t, err)
	c, err := Generate(43, 500)
	require.NoError(t, err)
	assert.Equal(t, a, b, "same seed, same program")
	assert.False(t, bytes.Equal(a.Code, c.Code), "different seeds, different code")
	assert.GreaterOrEqual(t, a.Static, 500)
	assert.Len(t, a.Data, DataSize)
}

// TestEncodingsAgreeWithXArch decodes every generated instruction with
// golang.org/x/arch, an independent decoder, and compares mnemonic and
// length with isa.Decode (which the generator already checked its
// hand-built compressed encodings against).
func TestEncodingsAgreeWithXArch(t *testing.T) {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToUpper(s), ".", "_") }
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		p, err := Generate(seed, 500)
		require.NoError(t, err)
		off := 0
		for _, in := range decodeAll(t, p.Code) {
			x, err := riscv64asm.Decode(p.Code[off : off+int(in.Len)])
			require.NoError(t, err, "seed %d offset %#x: %#x", seed, off, in.Raw)
			assert.Equal(t, int(in.Len), x.Len, "seed %d offset %#x", seed, off)
			// x/arch decodes a 16-bit instruction as its expansion, as
			// isa.Inst.Op does; aq/rl suffixes extend its names.
			ours := in.Op.String()
			xs := norm(x.Op.String())
			if !strings.HasPrefix(xs, norm(ours)) {
				t.Errorf("seed %d offset %#x: %#x is %s for isa, %s for x/arch", seed, off, in.Raw, ours, x.Op)
			}
			seen[ours] = true
			if in.Len == 2 {
				seen[in.COp.String()] = true
			}
			off += int(in.Len)
		}
	}
	t.Logf("%d distinct operations", len(seen))
}

// TestCoverage checks that the programs exercise what the issue asks for.
func TestCoverage(t *testing.T) {
	ops := map[isa.Op]int{}
	cops := map[isa.Op]int{}
	rms := map[uint8]int{}
	var taken, backward int
	for seed := uint64(1); seed <= 100; seed++ {
		p, err := Generate(seed, 500)
		require.NoError(t, err)
		for _, in := range decodeAll(t, p.Code) {
			ops[in.Op]++
			if in.Len == 2 {
				cops[in.COp]++
			}
			if in.Info().RM && !in.Info().ExactRM {
				rms[in.Rm]++
			}
			switch in.Info().Class {
			case isa.Branch, isa.Jal:
				taken++
				if in.Imm < 0 {
					backward++
				}
			}
		}
	}
	for op := isa.Op(1); op < isa.NumOps; op++ {
		info := op.Info()
		switch info.Ext {
		case "I", "M", "A", "F", "D", "Zicsr", "Zifencei":
		case "C":
			if op != isa.C_EBREAK {
				assert.NotZero(t, cops[op], "compressed %s never generated", op)
			}
			continue
		default:
			continue
		}
		switch op {
		case isa.EBREAK, isa.MRET, isa.WFI, isa.CSRRWI + 100:
			continue
		}
		if op == isa.ECALL {
			continue
		}
		assert.NotZero(t, ops[op], "%s never generated", op)
	}
	for rm := uint8(0); rm <= 4; rm++ {
		assert.NotZero(t, rms[rm], "static rounding mode %d never used", rm)
	}
	assert.NotZero(t, rms[7], "dynamic rounding never used")
	assert.NotZero(t, taken)
	assert.NotZero(t, backward, "no loops")
}

// TestSpecialOperands checks the constant pool holds the FP edge cases.
func TestSpecialOperands(t *testing.T) {
	want := map[string]uint64{
		"sNaN64": 0x7ff0000000000001, "qNaN64": 0x7ff8000000000000, "inf64": 0x7ff0000000000000,
		"-0": 1 << 63, "subnormal64": 1, "2^63": 0x43e0000000000000,
		"sNaN32": 0xffffffff7f800001, "qNaN32": 0xffffffff7fc00000, "subnormal32": 0xffffffff00000001,
		"2^31 (single)": 0xffffffff4f000000,
	}
	found := map[string]bool{}
	for seed := uint64(1); seed <= 50; seed++ {
		p, err := Generate(seed, 500)
		require.NoError(t, err)
		for i := 0; i < poolLen; i++ {
			v := binary.LittleEndian.Uint64(p.Data[8*i:])
			for k, w := range want {
				if v == w {
					found[k] = true
				}
			}
		}
	}
	for k := range want {
		assert.True(t, found[k], "%s never in the pool", k)
	}
}

// TestCompressedBranchEncoding checks encodeCBranch against hand-encoded
// words (ISA manual CJ and CB formats).
func TestCompressedBranchEncoding(t *testing.T) {
	for _, tt := range []struct {
		desc string
		h    uint16
		off  int64
		want uint16
	}{
		{"c.j +2", 0xa001, 2, 0xa009},
		{"c.j -2", 0xa001, -2, 0xbffd},
		{"c.j +2046", 0xa001, 2046, 0xaffd},
		{"c.beqz s0, +4", 0xc001, 4, 0xc011},
		{"c.bnez a5, -256", 0xe381, -256, 0xf381},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			got := encodeCBranch(tt.h, tt.off)
			assert.Equal(t, tt.want, got, "%#04x", got)
			in, err := isa.Decode(uint32(got))
			require.NoError(t, err)
			assert.Equal(t, tt.off, in.Imm)
		})
	}
}
