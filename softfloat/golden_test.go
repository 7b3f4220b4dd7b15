package softfloat

import (
	"bufio"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoldenVectors replays testdata/vectors.txt.gz, produced by the host
// x86-64 FPU (testdata/gen/gen.c, rebuilt by `go generate`). Each line is
// "op operands... result flags" for mode-independent operations, or
// "op operands... (result flags) x 4" for RNE, RTZ, RDN and RUP.
func TestGoldenVectors(t *testing.T) {
	fh, err := os.Open("testdata/vectors.txt.gz")
	require.NoError(t, err)
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	require.NoError(t, err)
	sc := bufio.NewScanner(zr)
	perOp := map[string]int{}
	failures := 0
	line := 0
	nums := make([]uint64, 0, 12)
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			t.Fatalf("line %d: empty", line)
		}
		op := f[0]
		arity, known := opArity[op]
		nums = nums[:0]
		for _, s := range f[1:] {
			v, err := strconv.ParseUint(s, 16, 64)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			nums = append(nums, v)
		}
		if !known || len(nums) != arity+2 && len(nums) != arity+8 {
			t.Fatalf("line %d: malformed: %q", line, sc.Text())
		}
		in, outs := nums[:arity], nums[arity:]
		modes := []RoundingMode{RNE, RTZ, RDN, RUP}
		if len(outs) == 2 {
			modes = allModes // mode-independent: must hold in every mode
		}
		for i, rm := range modes {
			want := outs[2*(i%(len(outs)/2)):]
			got, fl, err := runOp(op, in, rm)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			if got != want[0] || fl != Flags(want[1]) {
				failures++
				if failures <= 20 {
					t.Errorf("line %d: %s%#x %v = %#x %v, want %#x %v", line, op, in, rm, got, fl, want[0], Flags(want[1]))
				}
			}
		}
		perOp[op]++
	}
	require.NoError(t, sc.Err())
	require.Zero(t, failures, "mismatches")
	// Every operation of the API must be covered by vectors.
	for _, op := range allOpNames {
		require.Greater(t, perOp[op], 500, "vectors for %s", op)
	}
}
