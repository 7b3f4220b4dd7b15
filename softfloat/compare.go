package softfloat

import "math"

// Comparisons return false when either operand is NaN. Eq is a quiet
// comparison (NV only for a signalling NaN); Lt and Le are signalling (NV for
// any NaN). -0 and +0 compare equal.

// Eq64 reports a == b (feq.d).
func Eq64(a, b uint64) (bool, Flags) {
	if math.Float64frombits(a) == math.Float64frombits(b) {
		return true, 0
	}
	return false, nvIf(f64.isSNaN(a) || f64.isSNaN(b))
}

// Lt64 reports a < b (flt.d).
func Lt64(a, b uint64) (bool, Flags) {
	if math.Float64frombits(a) < math.Float64frombits(b) {
		return true, 0
	}
	return false, nvIf(f64.isNaN(a) || f64.isNaN(b))
}

// Le64 reports a <= b (fle.d).
func Le64(a, b uint64) (bool, Flags) {
	if math.Float64frombits(a) <= math.Float64frombits(b) {
		return true, 0
	}
	return false, nvIf(f64.isNaN(a) || f64.isNaN(b))
}

// Eq32 reports a == b (feq.s).
func Eq32(a, b uint32) (bool, Flags) {
	if math.Float32frombits(a) == math.Float32frombits(b) {
		return true, 0
	}
	return false, nvIf(f32.isSNaN(uint64(a)) || f32.isSNaN(uint64(b)))
}

// Lt32 reports a < b (flt.s).
func Lt32(a, b uint32) (bool, Flags) {
	if math.Float32frombits(a) < math.Float32frombits(b) {
		return true, 0
	}
	return false, nvIf(f32.isNaN(uint64(a)) || f32.isNaN(uint64(b)))
}

// Le32 reports a <= b (fle.s).
func Le32(a, b uint32) (bool, Flags) {
	if math.Float32frombits(a) <= math.Float32frombits(b) {
		return true, 0
	}
	return false, nvIf(f32.isNaN(uint64(a)) || f32.isNaN(uint64(b)))
}

// fmin/fmax follow IEEE 754-2019 minimumNumber/maximumNumber as the RISC-V
// F extension (2.2+) specifies: -0 < +0; if one operand is NaN the other is
// returned; if both are, the canonical NaN; a signalling NaN operand raises NV
// even when the result is not NaN.

// minMax returns min(a, b) (or max when max is set) for either format.
func (f *format) minMax(a, b uint64, max bool) (uint64, Flags) {
	aNaN, bNaN := f.isNaN(a), f.isNaN(b)
	if aNaN || bNaN {
		fl := nvIf(f.isSNaN(a) || f.isSNaN(b))
		switch {
		case aNaN && bNaN:
			return f.nan, fl
		case aNaN:
			return b, fl
		default:
			return a, fl
		}
	}
	lo, hi := a, b
	if f.less(b, a) {
		lo, hi = b, a
	} else if !f.less(a, b) {
		// Equal values: identical bits, or +0 and -0, where min takes the
		// negative one and max the positive one.
		lo, hi = a|b, a&b
	}
	if max {
		return hi, 0
	}
	return lo, 0
}

// less reports a < b for non-NaN a and b, with -0 == +0. It is strict, so
// for equal values both less(a, b) and less(b, a) are false.
func (f *format) less(a, b uint64) bool {
	sb := f.signBit()
	sa, sbb := a&sb != 0, b&sb != 0
	if sa != sbb {
		return sa && (a|b)&^sb != 0 // negative < positive unless both zero
	}
	if sa {
		return a > b // both negative: larger magnitude is smaller
	}
	return a < b
}

// Min64 returns the smaller of a and b (fmin.d).
func Min64(a, b uint64) (uint64, Flags) { return f64.minMax(a, b, false) }

// Max64 returns the larger of a and b (fmax.d).
func Max64(a, b uint64) (uint64, Flags) { return f64.minMax(a, b, true) }

// Min32 returns the smaller of a and b (fmin.s).
func Min32(a, b uint32) (uint32, Flags) {
	r, fl := f32.minMax(uint64(a), uint64(b), false)
	return uint32(r), fl
}

// Max32 returns the larger of a and b (fmax.s).
func Max32(a, b uint32) (uint32, Flags) {
	r, fl := f32.minMax(uint64(a), uint64(b), true)
	return uint32(r), fl
}

// The fclass result bits.
const (
	ClassNegInf       = 1 << 0
	ClassNegNormal    = 1 << 1
	ClassNegSubnormal = 1 << 2
	ClassNegZero      = 1 << 3
	ClassPosZero      = 1 << 4
	ClassPosSubnormal = 1 << 5
	ClassPosNormal    = 1 << 6
	ClassPosInf       = 1 << 7
	ClassSNaN         = 1 << 8
	ClassQNaN         = 1 << 9
)

func (f *format) class(a uint64) uint64 {
	neg := f.sign(a) != 0
	e := f.expField(a)
	frac := a & f.fracMask()
	pick := func(n, p uint64) uint64 {
		if neg {
			return n
		}
		return p
	}
	switch {
	case e == f.expMax && frac == 0:
		return pick(ClassNegInf, ClassPosInf)
	case e == f.expMax:
		if f.isSNaN(a) {
			return ClassSNaN
		}
		return ClassQNaN
	case e == 0 && frac == 0:
		return pick(ClassNegZero, ClassPosZero)
	case e == 0:
		return pick(ClassNegSubnormal, ClassPosSubnormal)
	}
	return pick(ClassNegNormal, ClassPosNormal)
}

// Class64 returns the 10-bit fclass.d mask of a (exactly one bit set).
func Class64(a uint64) uint64 { return f64.class(a) }

// Class32 returns the 10-bit fclass.s mask of a (exactly one bit set).
func Class32(a uint32) uint64 { return f32.class(uint64(a)) }
