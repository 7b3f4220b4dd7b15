package softfloat

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arithOp binds one arithmetic operation of both formats to the exported
// API, the slow path and the fast path, with operands as uint64 bit patterns.
type arithOp struct {
	name  string
	arity int
	api   func(f *format, o []uint64, rm RoundingMode) (uint64, Flags)
	slow  func(f *format, o []uint64, rm RoundingMode) (uint64, Flags)
	fast  func(f *format, o []uint64) (uint64, Flags, bool) // nil: none
	// oracle maps the operands to (big op, operands) for the math/big oracle.
	oracle func(f *format, o []uint64) (string, []uint64)
}

func w32(r uint32, fl Flags) (uint64, Flags)                  { return uint64(r), fl }
func w32ok(r uint32, fl Flags, ok bool) (uint64, Flags, bool) { return uint64(r), fl, ok }

func neg(f *format, a uint64) uint64 { return a ^ f.signBit() }

var arithOps = []arithOp{
	{name: "add", arity: 2,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(Add32(uint32(o[0]), uint32(o[1]), rm))
			}
			return Add64(o[0], o[1], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.add(o[0], o[1], rm) },
		fast: func(f *format, o []uint64) (uint64, Flags, bool) {
			if f == f32 {
				return w32ok(add32Fast(uint32(o[0]), uint32(o[1])))
			}
			return FastAdd64(o[0], o[1])
		},
		oracle: func(f *format, o []uint64) (string, []uint64) { return "add", o }},
	{name: "sub", arity: 2,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(Sub32(uint32(o[0]), uint32(o[1]), rm))
			}
			return Sub64(o[0], o[1], rm)
		},
		slow:   func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.add(o[0], neg(f, o[1]), rm) },
		oracle: func(f *format, o []uint64) (string, []uint64) { return "sub", o }},
	{name: "mul", arity: 2,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(Mul32(uint32(o[0]), uint32(o[1]), rm))
			}
			return Mul64(o[0], o[1], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.mul(o[0], o[1], rm) },
		fast: func(f *format, o []uint64) (uint64, Flags, bool) {
			if f == f32 {
				return w32ok(mul32Fast(uint32(o[0]), uint32(o[1])))
			}
			return FastMul64(o[0], o[1])
		},
		oracle: func(f *format, o []uint64) (string, []uint64) { return "mul", o }},
	{name: "div", arity: 2,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(Div32(uint32(o[0]), uint32(o[1]), rm))
			}
			return Div64(o[0], o[1], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.div(o[0], o[1], rm) },
		fast: func(f *format, o []uint64) (uint64, Flags, bool) {
			if f == f32 {
				return w32ok(div32Fast(uint32(o[0]), uint32(o[1])))
			}
			return FastDiv64(o[0], o[1])
		},
		oracle: func(f *format, o []uint64) (string, []uint64) { return "div", o }},
	{name: "sqrt", arity: 1,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(Sqrt32(uint32(o[0]), rm))
			}
			return Sqrt64(o[0], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.sqrt(o[0], rm) },
		fast: func(f *format, o []uint64) (uint64, Flags, bool) {
			if f == f32 {
				return w32ok(sqrt32Fast(uint32(o[0])))
			}
			return sqrt64Fast(o[0])
		},
		oracle: func(f *format, o []uint64) (string, []uint64) {
			return "sqrt", []uint64{o[0] &^ f.signBit()}
		}},
	{name: "fmadd", arity: 3,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(MulAdd32(uint32(o[0]), uint32(o[1]), uint32(o[2]), rm))
			}
			return MulAdd64(o[0], o[1], o[2], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) { return f.mulAdd(o[0], o[1], o[2], rm) },
		fast: func(f *format, o []uint64) (uint64, Flags, bool) {
			if f == f32 {
				return w32ok(mulAdd32Fast(uint32(o[0]), uint32(o[1]), uint32(o[2])))
			}
			return mulAdd64Fast(o[0], o[1], o[2])
		},
		oracle: func(f *format, o []uint64) (string, []uint64) { return "fma", o }},
	{name: "fmsub", arity: 3,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(MulSub32(uint32(o[0]), uint32(o[1]), uint32(o[2]), rm))
			}
			return MulSub64(o[0], o[1], o[2], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			return f.mulAdd(o[0], o[1], neg(f, o[2]), rm)
		},
		oracle: func(f *format, o []uint64) (string, []uint64) {
			return "fma", []uint64{o[0], o[1], neg(f, o[2])}
		}},
	{name: "fnmsub", arity: 3,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(NegMulSub32(uint32(o[0]), uint32(o[1]), uint32(o[2]), rm))
			}
			return NegMulSub64(o[0], o[1], o[2], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			return f.mulAdd(neg(f, o[0]), o[1], o[2], rm)
		},
		oracle: func(f *format, o []uint64) (string, []uint64) {
			return "fma", []uint64{neg(f, o[0]), o[1], o[2]}
		}},
	{name: "fnmadd", arity: 3,
		api: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			if f == f32 {
				return w32(NegMulAdd32(uint32(o[0]), uint32(o[1]), uint32(o[2]), rm))
			}
			return NegMulAdd64(o[0], o[1], o[2], rm)
		},
		slow: func(f *format, o []uint64, rm RoundingMode) (uint64, Flags) {
			return f.mulAdd(neg(f, o[0]), o[1], neg(f, o[2]), rm)
		},
		oracle: func(f *format, o []uint64) (string, []uint64) {
			return "fma", []uint64{neg(f, o[0]), o[1], neg(f, o[2])}
		}},
}

var formats = []struct {
	name string
	f    *format
}{{"f64", f64}, {"f32", f32}}

func hexOps(o []uint64) string { return fmt.Sprintf("%#x", o) }

// TestFastPathMatchesSlowPath checks, for structured random operands
// (specials included), that whenever a fast path claims a result it equals
// the slow path's RNE result bit for bit, flags included, and that the fast
// path really is taken for most ordinary operands.
func TestFastPathMatchesSlowPath(t *testing.T) {
	const n = 40000
	for _, ft := range formats {
		for _, op := range arithOps {
			if op.fast == nil {
				continue
			}
			t.Run(ft.name+"/"+op.name, func(t *testing.T) {
				r := &rng{s: uint64(len(op.name))*7919 + uint64(ft.f.fracBits)}
				taken := 0
				for i := 0; i < n; i++ {
					o := r.operands(ft.f, op.arity, i%4 == 0, false)
					got, gfl, ok := op.fast(ft.f, o)
					if !ok {
						continue
					}
					taken++
					want, wfl := op.slow(ft.f, o, RNE)
					if got != want || gfl != wfl {
						t.Fatalf("%s%s: fast %#x %v, slow %#x %v", op.name, hexOps(o), got, gfl, want, wfl)
					}
				}
				// The generator puts about half of its exponents near the
				// bias, so the fast path must handle a good share.
				require.Greater(t, taken, n/5, "fast path taken %d of %d times", taken, n)
			})
		}
	}
}

// TestFastPathOrdinaryOperands uses operands of ordinary magnitude (the
// case the fast path exists for) and requires it to be taken nearly always.
func TestFastPathOrdinaryOperands(t *testing.T) {
	const n = 20000
	for _, ft := range formats {
		f := ft.f
		for _, op := range arithOps {
			if op.fast == nil {
				continue
			}
			t.Run(ft.name+"/"+op.name, func(t *testing.T) {
				r := &rng{s: 99 + uint64(len(op.name))}
				taken := 0
				for i := 0; i < n; i++ {
					o := make([]uint64, op.arity)
					for j := range o {
						e := f.bias - 20 + int32(r.n(40))
						o[j] = uint64(r.n(2))<<f.signShift | uint64(e)<<f.fracBits | r.u64()&f.fracMask()
					}
					if op.name == "sqrt" {
						o[0] &^= f.signBit()
					}
					got, gfl, ok := op.fast(f, o)
					if !ok {
						continue
					}
					taken++
					want, wfl := op.slow(f, o, RNE)
					if got != want || gfl != wfl {
						t.Fatalf("%s%s: fast %#x %v, slow %#x %v", op.name, hexOps(o), got, gfl, want, wfl)
					}
				}
				require.Greater(t, taken, n*95/100, "fast path taken %d of %d times", taken, n)
			})
		}
	}
}

// TestAgainstBigOracle compares every arithmetic operation in all five
// rounding modes with math/big on finite nonzero operands.
func TestAgainstBigOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	for _, ft := range formats {
		for _, op := range arithOps {
			t.Run(ft.name+"/"+op.name, func(t *testing.T) {
				r := &rng{s: 1234567 + uint64(len(op.name))*31 + uint64(ft.f.fracBits)}
				for i := 0; i < n; i++ {
					o := r.operands(ft.f, op.arity, true, true)
					bop, bo := op.oracle(ft.f, o)
					for _, rm := range allModes {
						want, wfl := oracleOp(ft.f, bop, bo, rm)
						if op.name == "sqrt" {
							o[0] = bo[0]
						}
						got, gfl := op.api(ft.f, o, rm)
						if got != want || gfl != wfl {
							t.Fatalf("%s%s %v: got %#x %v, want %#x %v", op.name, hexOps(o), rm, got, gfl, want, wfl)
						}
					}
				}
			})
		}
	}
}

// TestRMMOnlyDiffersAtTies checks that RMM and RNE disagree only when the
// exact result is halfway between two neighbours, and that RMM then takes
// the one of larger magnitude; enough ties must occur for this to mean
// something.
func TestRMMOnlyDiffersAtTies(t *testing.T) {
	for _, ft := range formats {
		f := ft.f
		ties := 0
		r := &rng{s: 77}
		for i := 0; i < 20000; i++ {
			op := arithOps[i%len(arithOps)]
			o := r.operands(f, op.arity, true, true)
			if op.name == "sqrt" {
				o[0] &^= f.signBit()
			}
			rne, fne := op.api(f, o, RNE)
			rmm, fmm := op.api(f, o, RMM)
			if rne == rmm {
				continue
			}
			bop, bo := op.oracle(f, o)
			exact := exactBig(f, bop, bo)
			require.True(t, isTie(f, exact), "%s %v %s: RNE %#x RMM %#x but not a tie", ft.name, op.name, hexOps(o), rne, rmm)
			require.Greater(t, rmm&^f.signBit(), rne&^f.signBit(), "%s %s: RMM must pick the larger magnitude", op.name, hexOps(o))
			require.Equal(t, fne, fmm, "%s %s: flags", op.name, hexOps(o))
			ties++
		}
		require.Greater(t, ties, 50, "%s: only %d ties seen", ft.name, ties)
	}
}

// exactBig is the exact (or sticky stand-in) result the oracle rounds.
func exactBig(f *format, op string, o []uint64) *big.Float {
	x := toBig(f, o[0])
	z := new(big.Float).SetPrec(workPrec)
	switch op {
	case "add":
		return z.Add(x, toBig(f, o[1]))
	case "sub":
		return z.Sub(x, toBig(f, o[1]))
	case "mul":
		return z.Mul(x, toBig(f, o[1]))
	case "fma":
		z.Mul(x, toBig(f, o[1]))
		return z.Add(z, toBig(f, o[2]))
	case "div":
		z.SetMode(big.ToZero).Quo(x, toBig(f, o[1]))
		return sticky(z, z.Acc() != big.Exact)
	}
	return bigSqrt(x)
}

// TestConversionFastPathsMatchSoft checks the host-conversion paths used in
// RNE (integer to float, double to single) against roundPack.
func TestConversionFastPathsMatchSoft(t *testing.T) {
	r := &rng{s: 4242}
	soft := func(f *format, sign, mag uint64) (uint64, Flags) {
		if mag == 0 {
			return 0, 0
		}
		return f.normRoundPack(sign, f.bias+62, mag, RNE)
	}
	for i := 0; i < 50000; i++ {
		v := r.u64() >> uint(r.n(64))
		if r.n(4) == 0 {
			v = 1<<uint(r.n(64)) + uint64(r.n(9)) - 4 // around powers of two: ties
		}
		sv := int64(v)
		if r.n(2) == 0 {
			sv = -sv
		}
		sign, mag := signMag(sv)
		got, gfl := I64ToF64(sv, RNE)
		want, wfl := soft(f64, sign, mag)
		require.Equal(t, [2]uint64{want, uint64(wfl)}, [2]uint64{got, uint64(gfl)}, "I64ToF64(%d)", sv)
		got, gfl = U64ToF64(v, RNE)
		want, wfl = soft(f64, 0, v)
		require.Equal(t, [2]uint64{want, uint64(wfl)}, [2]uint64{got, uint64(gfl)}, "U64ToF64(%d)", v)
		g32, gfl := I64ToF32(sv, RNE)
		want, wfl = soft(f32, sign, mag)
		require.Equal(t, [2]uint64{want, uint64(wfl)}, [2]uint64{uint64(g32), uint64(gfl)}, "I64ToF32(%d)", sv)
		g32, gfl = U64ToF32(v, RNE)
		want, wfl = soft(f32, 0, v)
		require.Equal(t, [2]uint64{want, uint64(wfl)}, [2]uint64{uint64(g32), uint64(gfl)}, "U64ToF32(%d)", v)

		d := r.value(f64, true, true)
		if e := f64.expField(d); r.n(2) == 0 && e > 0 {
			// exponents around the single range, so both paths see normal,
			// subnormal and overflowing singles
			d = d&^(uint64(0x7ff)<<52) | uint64(1023-160+r.n(300))<<52
		}
		g32, gfl = F64ToF32(d, RNE)
		exp, sig := f64.unpack(d)
		want, wfl = f32.roundPack(f64.sign(d), exp-f64.bias+f32.bias, sig, RNE)
		require.Equal(t, [2]uint64{want, uint64(wfl)}, [2]uint64{uint64(g32), uint64(gfl)}, "F64ToF32(%#x)", d)
	}
}

// TestFastPathExactResults aims at the exactness tests of the fast paths:
// operands with few significant bits give exact products and quotients
// (and their neighbours inexact ones), in both orders of magnitude of the
// significand product.
func TestFastPathExactResults(t *testing.T) {
	r := &rng{s: 4242}
	few := func(k uint) uint64 { // ±1.m × 2^e, m of k bits, the last one set
		m := (r.u64()&(1<<k-1) | 1) << (52 - k)
		if k == 0 {
			m = 0
		}
		e := uint64(1023 - 30 + r.n(60))
		return uint64(r.n(2))<<63 | e<<52 | m
	}
	exact, total := 0, 0
	for i := 0; i < 200000; i++ {
		// Significands of ka+1 and kb+1 bits, at most 53 bits together:
		// the exact product fills up to all 53 bits of a double.
		ka := uint(r.n(53))
		a, b := few(ka), few(uint(r.n(int(53-ka))))
		if i%3 == 0 {
			a++ // a neighbour: usually inexact
		}
		for _, c := range []struct {
			name string
			fast func(a, b uint64) (uint64, Flags, bool)
			slow func(a, b uint64, rm RoundingMode) (uint64, Flags)
			x, y uint64
		}{
			{"mul", FastMul64, f64.mul, a, b},
			{"div", FastDiv64, f64.div, a, b},
			// a*b/b is exact when a*b was
			{"div-exact", FastDiv64, f64.div, math.Float64bits(math.Float64frombits(a) * math.Float64frombits(b)), b},
		} {
			got, gfl, ok := c.fast(c.x, c.y)
			if !ok {
				continue
			}
			total++
			if gfl == 0 {
				exact++
			}
			want, wfl := c.slow(c.x, c.y, RNE)
			if got != want || gfl != wfl {
				t.Fatalf("%s(%#x, %#x): fast %#x %v, slow %#x %v", c.name, c.x, c.y, got, gfl, want, wfl)
			}
		}
	}
	assert.Greater(t, exact, total/5, "exact results: %d of %d", exact, total)
	assert.Less(t, exact, total*9/10, "inexact results: %d of %d", total-exact, total)
}
