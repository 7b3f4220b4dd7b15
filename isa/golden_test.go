package isa

import (
	"bufio"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var goldenFile = flag.String("isa.golden", "testdata/golden.txt", "hex|asm file checked by TestGolden (regenerate with testdata/gen.sh)")

type goldenLine struct {
	line int
	hex  string
	raw  uint32
	len  int
	asm  string
}

func readGolden(t testing.TB, path string) []goldenLine {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []goldenLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		hexw, asm, ok := strings.Cut(text, "|")
		require.True(t, ok, "%s:%d: want hex|asm", path, n)
		v, err := strconv.ParseUint(hexw, 16, 32)
		require.NoError(t, err, "%s:%d", path, n)
		require.Contains(t, []int{4, 8}, len(hexw), "%s:%d: want 4 or 8 hex digits", path, n)
		out = append(out, goldenLine{line: n, hex: hexw, raw: uint32(v), len: len(hexw) / 2, asm: asm})
	}
	require.NoError(t, sc.Err())
	return out
}

// goldenOverrides lists golden words where rvsim deliberately differs from
// objdump 2.40 (keyed by the hex column): the expected text is given here.
var goldenOverrides = map[string]struct{ asm, reason string }{
	"0000":     {".2byte 0x0", "ISA manual: the all-zero 16-bit word is defined illegal (objdump: unimp)"},
	"6101":     {".2byte 0x6101", "ISA manual: c.addi16sp with nzimm=0 is reserved (objdump: addi sp,sp,0)"},
	"02b5d553": {".4byte 0x2b5d553", "ISA manual: rounding mode 5 is reserved (objdump prints it as 'unknown')"},
	"d2057553": {"fcvt.d.w fa0,a0,dyn", "ISA manual: fcvt.d.w has an rm field it never needs; binutils 2.40 accepts only rm=0"},
}

func TestGolden(t *testing.T) {
	lines := readGolden(t, *goldenFile)
	var seen [NumOps]bool
	usedOverrides := map[string]bool{}
	failures := 0
	for _, g := range lines {
		want := g.asm
		if o, ok := goldenOverrides[g.hex]; ok {
			want = o.asm
			usedOverrides[g.hex] = true
		}
		in, err := Decode(g.raw)
		got := in.String()
		// A raw-word line is an invalid word or a valid fence with nonzero reserved fields.
		if got != want || (err != nil && !strings.HasPrefix(want, ".")) {
			failures++
			if failures <= 30 {
				t.Errorf("%s:%d: %0*x: got %q (err %v), want %q", *goldenFile, g.line, 2*g.len, g.raw, got, err, want)
			}
			continue
		}
		if err != nil {
			continue
		}
		require.Equal(t, g.len, int(in.Len), "line %d", g.line)
		seen[in.Op], seen[in.COp] = true, true
		if g.len == 4 {
			back, err := Assemble(want)
			if err != nil || back != in {
				failures++
				t.Errorf("%s:%d: Assemble(%q) = %+v, %v; want %+v", *goldenFile, g.line, want, back, err, in)
			}
		}
	}
	require.Zero(t, failures)
	if *goldenFile == "testdata/golden.txt" {
		for op := Op(1); op < NumOps; op++ {
			require.True(t, seen[op], "no golden line exercises %s", op)
		}
		for h := range goldenOverrides {
			require.True(t, usedOverrides[h], "override %s is not in the golden file", h)
		}
	}
	t.Logf("%d golden lines", len(lines))
}
