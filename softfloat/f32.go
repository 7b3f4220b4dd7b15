package softfloat

import "math"

const (
	signBit32 = 1 << 31
	expInf32  = 0xff << 23
	// minNormal32 is the smallest normal binary32 as a float64. A double
	// result at or above it means the exact result is not tiny (for the
	// operations here the double is either exact near this threshold or
	// far closer to it than half a single ulp).
	minNormal32 = 0x1p-126
)

func finite32(b uint32) bool { return b&expInf32 != expInf32 }

// Add32 returns a+b.
func Add32(a, b uint32, rm RoundingMode) (uint32, Flags) {
	if rm == RNE {
		if r, fl, ok := add32Fast(a, b); ok {
			return r, fl
		}
	}
	r, fl := f32.add(uint64(a), uint64(b), rm)
	return uint32(r), fl
}

// Sub32 returns a-b.
func Sub32(a, b uint32, rm RoundingMode) (uint32, Flags) {
	return Add32(a, b^signBit32, rm)
}

// Mul32 returns a*b.
func Mul32(a, b uint32, rm RoundingMode) (uint32, Flags) {
	if rm == RNE {
		if r, fl, ok := mul32Fast(a, b); ok {
			return r, fl
		}
	}
	r, fl := f32.mul(uint64(a), uint64(b), rm)
	return uint32(r), fl
}

// Div32 returns a/b.
func Div32(a, b uint32, rm RoundingMode) (uint32, Flags) {
	if rm == RNE {
		if r, fl, ok := div32Fast(a, b); ok {
			return r, fl
		}
	}
	r, fl := f32.div(uint64(a), uint64(b), rm)
	return uint32(r), fl
}

// Sqrt32 returns the square root of a.
func Sqrt32(a uint32, rm RoundingMode) (uint32, Flags) {
	if rm == RNE {
		if r, fl, ok := sqrt32Fast(a); ok {
			return r, fl
		}
	}
	r, fl := f32.sqrt(uint64(a), rm)
	return uint32(r), fl
}

// MulAdd32 returns a*b+c with a single rounding (fmadd.s).
func MulAdd32(a, b, c uint32, rm RoundingMode) (uint32, Flags) {
	if rm == RNE {
		if r, fl, ok := mulAdd32Fast(a, b, c); ok {
			return r, fl
		}
	}
	r, fl := f32.mulAdd(uint64(a), uint64(b), uint64(c), rm)
	return uint32(r), fl
}

// The binary32 fast paths compute in float64 and round once more with
// float32(), which gives the correctly rounded single (see the package
// documentation); ok is false when the slow path must run.

func add32Fast(a, b uint32) (uint32, Flags, bool) {
	// Sums that land in the single subnormal range are exact (multiples of
	// 2^-149 below 2^-125), so only overflow needs the slow path. The double
	// sum s is exact iff s-x == y and s-y == x (see FastAdd64); the result
	// is exact iff s is and float32 did not change it.
	x, y := float64(math.Float32frombits(a)), float64(math.Float32frombits(b))
	s := x + y
	f := float32(s)
	fb := math.Float32bits(f)
	return fb, nxIf(s-x != y || s-y != x || float64(f) != s), fb&expInf32 != expInf32
}

// notTiny32 reports whether the double d is at least the smallest normal
// single in magnitude (exponent field >= 1023-126); false for NaN too.
func notTiny32(d float64) bool {
	return math.Float64bits(d)&(expMask64<<expShift64) >= (1023-126)<<expShift64
}

func mul32Fast(a, b uint32) (uint32, Flags, bool) {
	d := float64(math.Float32frombits(a)) * float64(math.Float32frombits(b)) // exact: 24+24 bits
	f := float32(d)
	fb := math.Float32bits(f)
	return fb, nxIf(float64(f) != d), notTiny32(d) && fb&expInf32 != expInf32
}

func div32Fast(a, b uint32) (uint32, Flags, bool) {
	// f*y is exact in float64, so it equals x iff f is the exact quotient.
	x, y := float64(math.Float32frombits(a)), float64(math.Float32frombits(b))
	f := float32(x / y)
	fb := math.Float32bits(f)
	return fb, nxIf(float64(f)*y != x), notTiny32(x/y) && fb&expInf32 != expInf32
}

func sqrt32Fast(a uint32) (uint32, Flags, bool) {
	// Positive, nonzero and finite: the root is always a normal single. The
	// square of f is exact in float64.
	x := float64(math.Float32frombits(a))
	f := float32(math.Sqrt(x))
	return math.Float32bits(f), nxIf(float64(f)*float64(f) != x), a-1 < expInf32-1
}

func mulAdd32Fast(a, b, c uint32) (uint32, Flags, bool) {
	x, y := float64(math.Float32frombits(a)), float64(math.Float32frombits(b))
	z := float64(math.Float32frombits(c))
	p := float64(x * y) // exact; the conversion forbids fusing with the add
	s := p + z
	inexact := s-p != z || s-z != p // s != p+z (see FastAdd64)
	f := float32(s)
	fb := math.Float32bits(f)
	// float32(s) is the correctly rounded v = p+z unless s sits exactly on a
	// single-precision midpoint while v does not (any other breakpoint
	// between v and s would be a double nearer to v than s): then give up.
	if !notTiny32(s) || !finite32(fb) || inexact && math.Float64bits(s)&(1<<29-1) == 1<<28 {
		return 0, 0, false
	}
	return fb, nxIf(inexact || float64(f) != s), true
}

// MulSub32 returns a*b-c with a single rounding (fmsub.s).
func MulSub32(a, b, c uint32, rm RoundingMode) (uint32, Flags) {
	return MulAdd32(a, b, c^signBit32, rm)
}

// NegMulSub32 returns -(a*b)+c with a single rounding (fnmsub.s).
func NegMulSub32(a, b, c uint32, rm RoundingMode) (uint32, Flags) {
	return MulAdd32(a^signBit32, b, c, rm)
}

// NegMulAdd32 returns -(a*b)-c with a single rounding (fnmadd.s).
func NegMulAdd32(a, b, c uint32, rm RoundingMode) (uint32, Flags) {
	return MulAdd32(a^signBit32, b, c^signBit32, rm)
}
