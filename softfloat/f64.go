package softfloat

import (
	"math"
	"math/bits"
)

const (
	signBit64  = 1 << 63
	expShift64 = 52
	expMask64  = 0x7ff
	// expLo64 is the smallest exponent field a fast-path result (and the
	// dividend / radicand) may have: 2^-959. Above it the residuals computed
	// with math.FMA are exact and a nonzero residual never rounds to zero
	// (their granularity stays above 2^-1068), and the result is far from
	// tininess.
	expLo64 = 64
)

// nxIf returns NX if inexact is set.
func nxIf(inexact bool) Flags {
	if inexact {
		return NX
	}
	return 0
}

// fastRange64 reports whether bits b have an exponent field in
// [expLo64, 0x7fe]: finite, normal and not near the subnormal range.
func fastRange64(b uint64) bool {
	return (b>>expShift64)&expMask64-expLo64 < expMask64-expLo64
}

// Add64 returns a+b.
func Add64(a, b uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE {
		if r, fl, ok := FastAdd64(a, b); ok {
			return r, fl
		}
	}
	return f64.add(a, b, rm)
}

// Sub64 returns a-b.
func Sub64(a, b uint64, rm RoundingMode) (uint64, Flags) {
	return Add64(a, b^signBit64, rm)
}

// Mul64 returns a*b.
func Mul64(a, b uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE {
		if r, fl, ok := FastMul64(a, b); ok {
			return r, fl
		}
	}
	return f64.mul(a, b, rm)
}

// Div64 returns a/b.
func Div64(a, b uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE {
		if r, fl, ok := FastDiv64(a, b); ok {
			return r, fl
		}
	}
	return f64.div(a, b, rm)
}

// Sqrt64 returns the square root of a.
func Sqrt64(a uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE {
		if r, fl, ok := sqrt64Fast(a); ok {
			return r, fl
		}
	}
	return f64.sqrt(a, rm)
}

// The fast paths below compute the round-to-nearest-even result on the host
// FPU; ok is false when the operands or the result are outside the range
// where they are proven exact, and the slow path must run instead.
// FastAdd64, FastMul64 and FastDiv64 are exported and small enough for the
// compiler to inline into the core's interpreter loop.

func FastAdd64(a, b uint64) (uint64, Flags, bool) {
	// s finite implies x and y finite. Sums that land in the subnormal range
	// are exact, so no underflow is possible. Exactness (Dekker): for the
	// operand of larger magnitude, say x, s-x is computed exactly, so s-x
	// == y iff s == x+y; if the sum is exact both differences are exact.
	// So x+y is exact iff s-x == y and s-y == x.
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	s := x + y
	sb := math.Float64bits(s)
	return sb, nxIf(s-x != y || s-y != x), sb&(expMask64<<expShift64) != expMask64<<expShift64
}

// Multiplication and division test exactness with integer arithmetic on
// the significands rather than an FMA residual: math.FMA makes the
// compiler keep a CPU-feature flag live across the whole interpreter loop
// it is inlined into, which cost every instruction about 3%. Each is split
// in two inlinable halves for the interpreter: the rounded result with its
// range check (MulRNE64, DivRNE64) and the NX flag (MulNX64, DivNX64).

func FastMul64(a, b uint64) (uint64, Flags, bool) {
	r, ok := MulRNE64(a, b)
	return r, MulNX64(a, b), ok
}

func FastDiv64(a, b uint64) (uint64, Flags, bool) {
	r, ok := DivRNE64(a, b)
	return r, DivNX64(a, b, r), ok
}

// MulRNE64 is a*b rounded to nearest even; ok is false unless both
// operands are normal and the result is in the fast range.
func MulRNE64(a, b uint64) (uint64, bool) {
	zb := math.Float64bits(math.Float64frombits(a) * math.Float64frombits(b))
	return zb, fastRange64(zb) && normal64(a) && normal64(b)
}

// MulNX64 is NX if a*b is inexact, for operands MulRNE64 accepts: the
// 128-bit product of the left-aligned significands has its top bit at 127
// or 126, and the product is exact iff nothing below its top 53 bits is
// set.
func MulNX64(a, b uint64) Flags {
	hi, lo := bits.Mul64(sig64(a), sig64(b))
	return nxIf(lo != 0 || hi<<(53+^hi>>63) != 0)
}

// DivRNE64 is a/b rounded to nearest even; ok is false unless the divisor
// is normal, the dividend is not tiny and the result is in the fast range.
func DivRNE64(a, b uint64) (uint64, bool) {
	zb := math.Float64bits(math.Float64frombits(a) / math.Float64frombits(b))
	return zb, fastRange64(zb) && (a>>expShift64)&expMask64 >= expLo64 && normal64(b)
}

// DivNX64 is NX unless z (DivRNE64's result) is exactly a/b, that is
// unless z*b == a: the normalized product of z's and b's significands
// must equal a's.
func DivNX64(a, b, z uint64) Flags {
	hi, lo := bits.Mul64(sig64(z), sig64(b))
	s := ^hi >> 63 // 1 if the product's top bit is 126
	return nxIf(lo<<s != 0 || hi<<s|lo>>(64-s) != sig64(a))
}

// sig64 is the significand of normal b, left-aligned in 64 bits.
func sig64(b uint64) uint64 { return b<<11 | 1<<63 }

// normal64 reports whether b's exponent field is nonzero (normal, inf or
// NaN).
func normal64(b uint64) bool { return b&(expMask64<<expShift64) != 0 }

func sqrt64Fast(a uint64) (uint64, Flags, bool) {
	// Positive with exponent field in [expLo64, 0x7fe].
	if a-expLo64<<expShift64 >= (expMask64-expLo64)<<expShift64 {
		return 0, 0, false
	}
	x := math.Float64frombits(a)
	z := math.Sqrt(x)
	return math.Float64bits(z), nxIf(math.FMA(-z, z, x) != 0), true
}

// MulAdd64 returns a*b+c with a single rounding (fmadd.d).
func MulAdd64(a, b, c uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE {
		if r, fl, ok := mulAdd64Fast(a, b, c); ok {
			return r, fl
		}
	}
	return f64.mulAdd(a, b, c, rm)
}

// MulSub64 returns a*b-c with a single rounding (fmsub.d).
func MulSub64(a, b, c uint64, rm RoundingMode) (uint64, Flags) {
	return MulAdd64(a, b, c^signBit64, rm)
}

// NegMulSub64 returns -(a*b)+c with a single rounding (fnmsub.d).
func NegMulSub64(a, b, c uint64, rm RoundingMode) (uint64, Flags) {
	return MulAdd64(a^signBit64, b, c, rm)
}

// NegMulAdd64 returns -(a*b)-c with a single rounding (fnmadd.d).
func NegMulAdd64(a, b, c uint64, rm RoundingMode) (uint64, Flags) {
	return MulAdd64(a^signBit64, b, c^signBit64, rm)
}

// mulAdd64Fast is the round-to-nearest-even fast path of MulAdd64; ok is
// false when the operands are outside the range where it is proven.
//
// Inexactness comes from the error-free ErrFma of Boldo and Muller ("Exact
// and approximated error of the FMA", IEEE Trans. Computers 60(2), 2011):
// with x*y = u1+u2 exactly (TwoProd), z+u2 = a1+a2 and u1+a1 = b1+b2
// (TwoSum), and g = (b1-d)+b2, they prove x*y+z = d + g + a2 exactly. So the
// result d is exact iff g == -a2. The proof needs the product's error to be
// representable (exponent fields of x and y summing to >= 1076, i.e.
// ulp(x)*ulp(y) >= 2^-1074) and no overflow in the intermediates (fields
// summing to <= 3066 so |x*y| < 2^1022, and |z| < 2^1023).
func mulAdd64Fast(a, b, c uint64) (r uint64, fl Flags, ok bool) {
	x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
	d := math.FMA(x, y, z)
	db := math.Float64bits(d)
	u1 := float64(x * y) // the conversion forbids fusing into an FMA
	u2 := math.FMA(x, y, -u1)
	a1 := z + u2
	bp := a1 - z
	a2 := (z - (a1 - bp)) + (u2 - bp)
	b1 := u1 + a1
	bq := b1 - u1
	b2 := (u1 - (b1 - bq)) + (a1 - bq)
	g := (b1 - d) + b2
	pe := (a>>expShift64)&expMask64 + (b>>expShift64)&expMask64
	ok = fastRange64(db) && pe-1076 <= 3066-1076 && (c>>expShift64)&expMask64 < expMask64-1
	return db, nxIf(g != -a2), ok
}
