package isa

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// opConstNames returns the Op constant identifiers in op.go, in order.
func opConstNames(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "op.go", nil, 0)
	require.NoError(t, err)
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var names []string
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				names = append(names, n.Name)
			}
		}
		if len(names) > 0 && names[0] == "ILLEGAL" {
			return names
		}
	}
	t.Fatal("no Op const block in op.go")
	return nil
}

func TestTableRows(t *testing.T) {
	opConstName := opConstNames(t)
	require.Len(t, opConstName, int(NumOps)+1)
	require.Equal(t, "NumOps", opConstName[NumOps])
	names := map[string]Op{}
	for op := Op(1); op < NumOps; op++ {
		info := op.Info()
		require.NotEmpty(t, info.Name, "op %d has no row", op)
		require.Zero(t, info.Match&^info.Mask, "%s: match has bits outside mask", op)
		require.NotContains(t, names, info.Name, "duplicate mnemonic")
		names[info.Name] = op
		got, ok := OpByName(info.Name)
		require.True(t, ok)
		require.Equal(t, op, got)
		require.Equal(t, info.Name, op.String())
		require.Equal(t, strings.ToUpper(strings.ReplaceAll(info.Name, ".", "_")), opConstName[op], "op constant and mnemonic disagree")
		if op.Compressed() {
			require.Equal(t, FmtC, info.Format, "%s", op)
			require.Equal(t, uint32(0), info.Mask>>16, "%s: 16-bit mask", op)
			require.NotEqual(t, uint32(3), info.Match&3, "%s: quadrant", op)
			exp := info.Expand.Info()
			require.False(t, info.Expand == ILLEGAL || info.Expand.Compressed(), "%s expands to %s", op, info.Expand)
			require.Equal(t, exp.MemSize, info.MemSize, "%s", op)
			require.Equal(t, exp.Class, info.Class, "%s", op)
		} else {
			require.Equal(t, uint32(3), info.Match&3, "%s: 32-bit ops end in 11", op)
			require.Equal(t, uint32(0x7f), info.Mask&0x7f, "%s: opcode must be fixed", op)
			require.NotEqual(t, FmtC, info.Format)
			require.Equal(t, ILLEGAL, info.Expand)
		}
		fp := info.Ext == "F" || info.Ext == "D"
		require.Equal(t, info.RM, fp && info.Mask&0x7000 == 0 && !op.Compressed(), "%s: rm is a free funct3 in an F/D op", op)
		require.Equal(t, info.AqRl, info.Ext == "A", "%s", op)
	}
	require.Equal(t, ILLEGAL, Op(0))
	require.Equal(t, "illegal", ILLEGAL.String())
	require.Equal(t, "op(255)", Op(255).String())
	require.Equal(t, ILLEGAL.Info(), Op(255).Info())
	_, ok := OpByName("amoadd.w.aq")
	require.False(t, ok, "ordering suffixes are operands, not ops")
}

// TestTableOverlaps checks that no word matches two rows except where the
// ISA manual defines one code point inside another (c.nop in c.addi, ...)
// and the bucket order puts the specific row first.
func TestTableOverlaps(t *testing.T) {
	// specific row, general row -> a word of the specific row
	nested := map[[2]Op]uint32{
		{C_NOP, C_ADDI}: 0x0005, {C_ADDI16SP, C_LUI}: 0x7101, {C_JR, C_MV}: 0x8082,
		{C_EBREAK, C_JALR}: 0x9002, {C_EBREAK, C_ADD}: 0x9002, {C_JALR, C_ADD}: 0x9082,
	}
	for a := Op(1); a < NumOps; a++ {
		for b := a + 1; b < NumOps; b++ {
			ia, ib := a.Info(), b.Info()
			if a.Compressed() != b.Compressed() || (ia.Match^ib.Match)&ia.Mask&ib.Mask != 0 {
				continue // disjoint
			}
			require.Contains(t, nested, [2]Op{a, b}, "%s and %s share encodings", a, b)
			require.Greater(t, bits.OnesCount32(ia.Mask), bits.OnesCount32(ib.Mask), "%s must be more specific than %s", a, b)
			require.Equal(t, ia.Mask, ia.Mask|ib.Mask, "%s must fix every bit %s fixes", a, b)
		}
	}
	for pair, w := range nested {
		in, err := Decode(w)
		require.NoError(t, err)
		require.Equal(t, pair[0], in.COp, "%#04x", w)
	}
}

// TestClassOfEveryRow derives each row's class from its mnemonic by the
// rules of the brief, independently of the table.
func TestClassOfEveryRow(t *testing.T) {
	want := func(op Op) Class {
		info := op.Info()
		n := info.Name
		if op.Compressed() {
			n = info.Expand.String()
		}
		has := func(prefixes ...string) bool {
			for _, p := range prefixes {
				if strings.HasPrefix(n, p) {
					return true
				}
			}
			return false
		}
		switch {
		case n == "jal":
			return Jal
		case n == "jalr":
			return Jalr
		case has("beq", "bne", "blt", "bge"):
			return Branch
		case has("lr.", "sc.", "amo"):
			return AMO
		case has("lb", "lh", "lw", "ld", "flw", "fld"):
			return Load
		case has("sb", "sh.", "sw", "sd", "fsw", "fsd") || n == "sh":
			return Store
		case has("mul") || has("clmul"): // carry-less multiplies run on the multiplier
			return Mul
		case has("div", "rem"):
			return Div
		case has("fadd", "fsub", "fmin", "fmax", "fsgnj", "feq", "flt", "fle"):
			return FPAdd
		case has("fmul", "fmadd", "fmsub", "fnmadd", "fnmsub"):
			return FPMul
		case has("fdiv", "fsqrt"):
			return FPDiv
		case has("fcvt", "fmv", "fclass"):
			return FPConv
		case has("csrr"):
			return CSR
		case has("ecall", "ebreak", "mret", "sret", "wfi", "sfence.vma", "hps.", "dise."):
			return System
		case has("fence"):
			return Fence
		}
		return IntALU
	}
	for op := Op(1); op < NumOps; op++ {
		assert.Equal(t, want(op).String(), op.Info().Class.String(), "%s", op)
	}
}

func TestClassNames(t *testing.T) {
	want := []string{"int-alu", "mul", "div", "load", "store", "amo", "branch", "jal", "jalr",
		"call", "return", "fp-add", "fp-mul", "fp-div/sqrt", "fp-conv", "csr", "system", "fence"}
	require.Len(t, want, int(NumClasses))
	for c, name := range want {
		require.Equal(t, name, Class(c).String())
		got, ok := ClassByName(name)
		require.True(t, ok)
		require.Equal(t, Class(c), got)
	}
	require.Equal(t, "class(200)", Class(200).String())
	_, ok := ClassByName("nope")
	require.False(t, ok)
}

func TestMemSize(t *testing.T) {
	for op := Op(1); op < NumOps; op++ {
		info := op.Info()
		n := info.Name
		if op.Compressed() {
			n = info.Expand.String()
		}
		var want uint8
		switch info.Class {
		case Load, Store, AMO:
			switch {
			case strings.HasSuffix(n, "b") || strings.HasSuffix(n, "bu"):
				want = 1
			case strings.HasSuffix(n, "h") || strings.HasSuffix(n, "hu"):
				want = 2
			case strings.HasSuffix(n, "w") || strings.HasSuffix(n, "wu") || strings.HasSuffix(n, ".w"):
				want = 4
			case strings.HasSuffix(n, "d") || strings.HasSuffix(n, ".d"):
				want = 8
			}
		}
		assert.Equal(t, want, info.MemSize, "%s", op)
		assert.Equal(t, info.Unsigned, strings.HasSuffix(n, "u") && info.Class == Load, "%s", op)
	}
}

func TestCallReturnHints(t *testing.T) {
	tests := []struct {
		desc string
		raw  uint32 // hand-encoded
		want Class
	}{
		{"jal ra is a call", 0x008000ef, Call},
		{"jal t0 (alternate link) is a call", 0x008002ef, Call},
		{"jal zero is a plain jump", 0x0080006f, Jal},
		{"jal a0 is a plain jump", 0x0080056f, Jal},
		{"jalr ra,0(a0) is a call", 0x000500e7, Call},
		{"jalr t0,0(a0) is a call", 0x000502e7, Call},
		{"jalr ra,0(ra): rd=rs1 link, push: call", 0x000080e7, Call},
		{"jalr ra,0(t0): pop then push: call", 0x000280e7, Call},
		{"jalr t0,0(ra): pop then push: call", 0x000082e7, Call},
		{"jalr zero,0(ra) (ret) is a return", 0x00008067, Return},
		{"jalr zero,0(t0) is a return", 0x00028067, Return},
		{"jalr a0,0(ra): rd not link, rs1 link: return", 0x00008567, Return},
		{"jalr zero,0(a0) is an indirect jump", 0x00050067, Jalr},
		{"jalr a1,0(a0) is an indirect jump", 0x000505e7, Jalr},
		{"c.jr ra is a return", 0x8082, Return},
		{"c.jr t0 is a return", 0x8282, Return},
		{"c.jr a0 is an indirect jump", 0x8502, Jalr},
		{"c.jalr a0 writes ra: call", 0x9502, Call},
		{"c.jalr ra: rd=rs1=ra: call", 0x9082, Call},
		{"c.j is a plain jump", 0xa001, Jal},
		{"beq is a branch", 0x00b50463, Branch},
		{"c.beqz is a branch", 0xc119, Branch},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			in, err := Decode(tt.raw)
			require.NoError(t, err)
			require.Equal(t, tt.want.String(), in.Class.String())
		})
	}
}

func TestCSRNamesAgainstObjdump(t *testing.T) {
	f, err := os.Open("testdata/csr.golden")
	require.NoError(t, err)
	defer f.Close()
	named := map[uint16]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		num, name, ok := strings.Cut(sc.Text(), "|")
		require.True(t, ok, sc.Text())
		n, err := strconv.ParseUint(num, 16, 12)
		require.NoError(t, err)
		named[uint16(n)] = name
	}
	require.Greater(t, len(named), 300)
	for n := uint16(0); n < 4096; n++ {
		want, ok := named[n]
		if !ok {
			want = fmt.Sprintf("0x%x", n)
		}
		require.Equal(t, want, CSRName(n), "csr %#x", n)
		got, found := CSRByName(want)
		require.Equal(t, ok, found, "%s", want)
		if ok {
			require.Equal(t, n, got)
		}
	}
}
