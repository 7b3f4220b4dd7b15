package softfloat

import "testing"

// FuzzFastSlow feeds arbitrary bit patterns to every fast path and checks
// it against the slow path (bits and flags), then runs every operation of
// the API in the fuzzed rounding mode (valid or not) to check nothing
// panics.
func FuzzFastSlow(f *testing.F) {
	seeds := [][3]uint64{
		{one, p53, pz},
		{oneU, oneD, mone},
		{0x2000000000000001, 0x1ffffffffffffffe, nz},
		{maxF, two, maxF | nz},
		{minS, half, qnan},
		{pinf, pz, snan},
		{uint64(oneU32)<<32 | oneU32, 0x337ffffe, oneU32},
		{0x20000001, 0x1ffffffe, 0x80000000},
		{0x41dfffffffe00000, 0x380fffffff000000, 0x47efffffff000000},
	}
	for i, s := range seeds {
		f.Add(s[0], s[1], s[2], uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b, c uint64, rm uint8) {
		for _, ft := range formats {
			fm := ft.f
			o := []uint64{a, b, c}
			if fm == f32 {
				o = []uint64{a & 0xffffffff, b & 0xffffffff, c & 0xffffffff}
			}
			for _, op := range arithOps {
				if op.fast == nil {
					continue
				}
				if got, gfl, ok := op.fast(fm, o[:op.arity]); ok {
					want, wfl := op.slow(fm, o[:op.arity], RNE)
					if got != want || gfl != wfl {
						t.Fatalf("%s %s%#x: fast %#x %v, slow %#x %v", ft.name, op.name, o[:op.arity], got, gfl, want, wfl)
					}
				}
			}
		}
		mode := RoundingMode(rm)
		for _, op := range allOpNames {
			in := []uint64{a, b, c}[:opArity[op]]
			if _, _, err := runOp(op, in, mode); err != nil {
				t.Fatal(err)
			}
		}
	})
}
