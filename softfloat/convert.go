package softfloat

import "math"

// F32ToF64 widens a single to a double (fcvt.d.s). It is exact; a NaN gives
// the canonical NaN, with NV for a signalling one.
func F32ToF64(a uint32) (uint64, Flags) {
	if f32.isNaN(uint64(a)) {
		return CanonicalNaN64, nvIf(f32.isSNaN(uint64(a)))
	}
	return math.Float64bits(float64(math.Float32frombits(a))), 0
}

// F64ToF32 narrows a double to a single (fcvt.s.d).
func F64ToF32(a uint64, rm RoundingMode) (uint32, Flags) {
	x := math.Float64frombits(a)
	// Normal, not tiny, and below the RNE overflow threshold (MaxFloat32 plus
	// half an ulp): the host conversion is exact-or-correctly-rounded.
	if ax := math.Abs(x); rm == RNE && ax >= minNormal32 && ax < 0x1.ffffffp127 {
		f := float32(x)
		if float64(f) != x {
			return math.Float32bits(f), NX
		}
		return math.Float32bits(f), 0
	}
	sign := f64.sign(a)
	switch {
	case f64.isNaN(a):
		return CanonicalNaN32, nvIf(f64.isSNaN(a))
	case f64.isInf(a):
		return uint32(f32.inf(sign)), 0
	case f64.isZero(a):
		return uint32(f32.zero(sign)), 0
	}
	exp, sig := f64.unpack(a)
	r, fl := f32.roundPack(sign, exp-f64.bias+f32.bias, sig, rm)
	return uint32(r), fl
}

func nvIf(b bool) Flags {
	if b {
		return NV
	}
	return 0
}

// roundToInt rounds x to an integral value in mode rm. It is exact, and
// NaN and infinities pass through.
func roundToInt(x float64, rm RoundingMode) float64 {
	switch rm {
	case RTZ:
		return math.Trunc(x)
	case RDN:
		return math.Floor(x)
	case RUP:
		return math.Ceil(x)
	case RMM:
		return math.Round(x)
	}
	return math.RoundToEven(x)
}

// Float-to-integer conversions follow the RISC-V table "domains of
// float-to-integer conversions": the value is rounded in mode rm; if the
// rounded value fits it is returned (NX if it differs from the input),
// otherwise the result saturates (NaN and +inf to the maximum, -inf to the
// minimum) and only NV is raised. Singles are widened to double first, which
// is exact.

func toI32(x float64, rm RoundingMode) (int32, Flags) {
	r := roundToInt(x, rm)
	if r >= math.MinInt32 && r <= math.MaxInt32 {
		if r != x {
			return int32(r), NX
		}
		return int32(r), 0
	}
	if x < 0 {
		return math.MinInt32, NV
	}
	return math.MaxInt32, NV // positive or NaN
}

func toU32(x float64, rm RoundingMode) (uint32, Flags) {
	r := roundToInt(x, rm)
	if r >= 0 && r <= math.MaxUint32 { // -0 (from -1 < x < 0) is valid
		if r != x {
			return uint32(r), NX
		}
		return uint32(r), 0
	}
	if x < 0 {
		return 0, NV
	}
	return math.MaxUint32, NV
}

func toI64(x float64, rm RoundingMode) (int64, Flags) {
	r := roundToInt(x, rm)
	if r >= -0x1p63 && r < 0x1p63 {
		if r != x {
			return int64(r), NX
		}
		return int64(r), 0
	}
	if x < 0 {
		return math.MinInt64, NV
	}
	return math.MaxInt64, NV
}

func toU64(x float64, rm RoundingMode) (uint64, Flags) {
	r := roundToInt(x, rm)
	if r >= 0 && r < 0x1p64 {
		if r != x {
			return uint64(r), NX
		}
		return uint64(r), 0
	}
	if x < 0 {
		return 0, NV
	}
	return math.MaxUint64, NV
}

// F64ToI32 converts a double to int32 (fcvt.w.d).
func F64ToI32(a uint64, rm RoundingMode) (int32, Flags) {
	return toI32(math.Float64frombits(a), rm)
}

// F64ToU32 converts a double to uint32 (fcvt.wu.d). The core sign-extends
// the result into the destination register.
func F64ToU32(a uint64, rm RoundingMode) (uint32, Flags) {
	return toU32(math.Float64frombits(a), rm)
}

// F64ToI64 converts a double to int64 (fcvt.l.d).
func F64ToI64(a uint64, rm RoundingMode) (int64, Flags) {
	return toI64(math.Float64frombits(a), rm)
}

// F64ToU64 converts a double to uint64 (fcvt.lu.d).
func F64ToU64(a uint64, rm RoundingMode) (uint64, Flags) {
	return toU64(math.Float64frombits(a), rm)
}

// F32ToI32 converts a single to int32 (fcvt.w.s).
func F32ToI32(a uint32, rm RoundingMode) (int32, Flags) {
	return toI32(float64(math.Float32frombits(a)), rm)
}

// F32ToU32 converts a single to uint32 (fcvt.wu.s).
func F32ToU32(a uint32, rm RoundingMode) (uint32, Flags) {
	return toU32(float64(math.Float32frombits(a)), rm)
}

// F32ToI64 converts a single to int64 (fcvt.l.s).
func F32ToI64(a uint32, rm RoundingMode) (int64, Flags) {
	return toI64(float64(math.Float32frombits(a)), rm)
}

// F32ToU64 converts a single to uint64 (fcvt.lu.s).
func F32ToU64(a uint32, rm RoundingMode) (uint64, Flags) {
	return toU64(float64(math.Float32frombits(a)), rm)
}

// I32ToF64 converts an int32 to a double (fcvt.d.w); always exact.
func I32ToF64(v int32) uint64 { return math.Float64bits(float64(v)) }

// U32ToF64 converts a uint32 to a double (fcvt.d.wu); always exact.
func U32ToF64(v uint32) uint64 { return math.Float64bits(float64(v)) }

// Go's integer-to-float conversions round to nearest even, so in RNE (and
// whenever the value is exact) the host conversion is the result; it is
// inexact iff converting back does not give the integer. A result of 2^63
// (2^64) from a signed (unsigned) 64-bit integer is always inexact and is
// tested first, since converting it back would overflow.

// I64ToF64 converts an int64 to a double (fcvt.d.l).
func I64ToF64(v int64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE || -1<<53 <= v && v <= 1<<53 {
		r := float64(v)
		return math.Float64bits(r), nxIf(r == 0x1p63 || int64(r) != v)
	}
	sign, mag := signMag(v)
	return f64.normRoundPack(sign, f64.bias+62, mag, rm)
}

// U64ToF64 converts a uint64 to a double (fcvt.d.lu).
func U64ToF64(v uint64, rm RoundingMode) (uint64, Flags) {
	if rm == RNE || v <= 1<<53 {
		r := float64(v)
		return math.Float64bits(r), nxIf(r == 0x1p64 || uint64(r) != v)
	}
	return f64.normRoundPack(0, f64.bias+62, v, rm)
}

// I32ToF32 converts an int32 to a single (fcvt.s.w).
func I32ToF32(v int32, rm RoundingMode) (uint32, Flags) {
	return I64ToF32(int64(v), rm)
}

// U32ToF32 converts a uint32 to a single (fcvt.s.wu).
func U32ToF32(v uint32, rm RoundingMode) (uint32, Flags) {
	return U64ToF32(uint64(v), rm)
}

// I64ToF32 converts an int64 to a single (fcvt.s.l).
func I64ToF32(v int64, rm RoundingMode) (uint32, Flags) {
	if rm == RNE || -1<<24 <= v && v <= 1<<24 {
		r := float32(v)
		return math.Float32bits(r), nxIf(r == 0x1p63 || int64(r) != v)
	}
	sign, mag := signMag(v)
	r, fl := f32.normRoundPack(sign, f32.bias+62, mag, rm)
	return uint32(r), fl
}

// U64ToF32 converts a uint64 to a single (fcvt.s.lu).
func U64ToF32(v uint64, rm RoundingMode) (uint32, Flags) {
	if rm == RNE || v <= 1<<24 {
		r := float32(v)
		return math.Float32bits(r), nxIf(r == 0x1p64 || uint64(r) != v)
	}
	r, fl := f32.normRoundPack(0, f32.bias+62, v, rm)
	return uint32(r), fl
}

// signMag splits v into a sign bit and magnitude (MinInt64 gives 2^63).
func signMag(v int64) (uint64, uint64) {
	if v < 0 {
		return 1, uint64(-v)
	}
	return 0, uint64(v)
}
