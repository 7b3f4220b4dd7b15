package softfloat

import (
	"math"
	"math/bits"
)

// This file is the slow path: exact integer arithmetic on unpacked operands,
// generic over the two formats, correct in every rounding mode.

// exactZero is the sign of an exact zero sum of operands with opposite signs
// (x + -x): +0, except -0 when rounding down.
func exactZero(rm RoundingMode) uint64 {
	if rm == RDN {
		return 1
	}
	return 0
}

// add returns a+b rounded.
func (f *format) add(a, b uint64, rm RoundingMode) (uint64, Flags) {
	ea, eb := f.expField(a), f.expField(b)
	sa, sb := f.sign(a), f.sign(b)
	if ea == f.expMax || eb == f.expMax {
		if f.isNaN(a) || f.isNaN(b) {
			return f.nanResult(a, b, 0)
		}
		if ea == f.expMax {
			if eb == f.expMax && sa != sb {
				return f.nan, NV // inf - inf
			}
			return a, 0
		}
		return b, 0
	}
	magA, magB := a&^f.signBit(), b&^f.signBit()
	if magA == 0 {
		if magB == 0 {
			if sa == sb {
				return a, 0
			}
			return f.zero(exactZero(rm)), 0
		}
		return b, 0
	}
	if magB == 0 {
		return a, 0
	}
	if magA < magB {
		a, b, sa, sb = b, a, sb, sa
	}
	expA, sigA := f.unpack(a)
	expB, sigB := f.unpack(b)
	// One bit of headroom for the carry; |a| >= |b| so expA >= expB. The
	// larger operand keeps its low zero bits, so after jamming the smaller one
	// an inexact sum is odd and never lands on a rounding boundary.
	sigA >>= 1
	sigB = shiftRightJam(sigB>>1, uint(expA-expB))
	var s uint64
	if sa == sb {
		s = sigA + sigB
	} else {
		s = sigA - sigB
		if s == 0 {
			return f.zero(exactZero(rm)), 0
		}
	}
	return f.normRoundPack(sa, expA+1, s, rm)
}

// mul returns a*b rounded.
func (f *format) mul(a, b uint64, rm RoundingMode) (uint64, Flags) {
	sign := f.sign(a) ^ f.sign(b)
	ea, eb := f.expField(a), f.expField(b)
	if ea == f.expMax || eb == f.expMax {
		if f.isNaN(a) || f.isNaN(b) {
			return f.nanResult(a, b, 0)
		}
		if f.isZero(a) || f.isZero(b) {
			return f.nan, NV // inf * 0
		}
		return f.inf(sign), 0
	}
	if f.isZero(a) || f.isZero(b) {
		return f.zero(sign), 0
	}
	expA, sigA := f.unpack(a)
	expB, sigB := f.unpack(b)
	hi, lo := bits.Mul64(sigA, sigB) // in [2^124, 2^126)
	sig := hi<<2 | lo>>62
	if lo<<2 != 0 {
		sig |= 1
	}
	return f.normRoundPack(sign, expA+expB-f.bias, sig, rm)
}

// div returns a/b rounded.
func (f *format) div(a, b uint64, rm RoundingMode) (uint64, Flags) {
	sign := f.sign(a) ^ f.sign(b)
	ea, eb := f.expField(a), f.expField(b)
	if ea == f.expMax || eb == f.expMax {
		if f.isNaN(a) || f.isNaN(b) {
			return f.nanResult(a, b, 0)
		}
		if ea == f.expMax {
			if eb == f.expMax {
				return f.nan, NV // inf / inf
			}
			return f.inf(sign), 0
		}
		return f.zero(sign), 0 // x / inf
	}
	if f.isZero(b) {
		if f.isZero(a) {
			return f.nan, NV // 0 / 0
		}
		return f.inf(sign), DZ
	}
	if f.isZero(a) {
		return f.zero(sign), 0
	}
	expA, sigA := f.unpack(a)
	expB, sigB := f.unpack(b)
	// q = floor(sigA * 2^63 / sigB) in (2^62, 2^64); sigA>>1 < sigB so the
	// quotient fits.
	q, r := bits.Div64(sigA>>1, sigA<<63, sigB)
	if r != 0 {
		q |= 1
	}
	return f.normRoundPack(sign, expA-expB+f.bias-1, q, rm)
}

// sqrt returns the square root of a, rounded.
func (f *format) sqrt(a uint64, rm RoundingMode) (uint64, Flags) {
	sign := f.sign(a)
	if f.expField(a) == f.expMax {
		if f.isNaN(a) {
			return f.nanResult(a, 0, 0)
		}
		if sign != 0 {
			return f.nan, NV // sqrt(-inf)
		}
		return a, 0
	}
	if f.isZero(a) {
		return a, 0 // sqrt(+-0) = +-0
	}
	if sign != 0 {
		return f.nan, NV
	}
	exp, sig := f.unpack(a)
	// a = sig * 2^E. Scale sig by 2^k, k in {46, 47}, so that E-k is even
	// and S = sig*2^k is in [2^108, 2^110); then sqrt(a) = sqrt(S) *
	// 2^((E-k)/2) with floor(sqrt(S)) in [2^54, 2^55): 55 bits plus sticky.
	E := exp - f.bias - 62
	k := int32(46)
	if (E-k)&1 != 0 {
		k = 47
	}
	shi, slo := sig>>(64-uint(k)), sig<<uint(k)
	// sig has at most 53 significant bits, so float64(sig)*2^k is exact and
	// the host's correctly rounded sqrt is within 2 of sqrt(S); the loops
	// below make r = floor(sqrt(S)) exactly.
	r := uint64(math.Sqrt(math.Ldexp(float64(sig), int(k))))
	for {
		h, l := bits.Mul64(r, r)
		if h < shi || h == shi && l <= slo {
			break
		}
		r--
	}
	for {
		h, l := bits.Mul64(r+1, r+1)
		if h > shi || h == shi && l > slo {
			break
		}
		r++
	}
	if h, l := bits.Mul64(r, r); h != shi || l != slo {
		r |= 1
	}
	return f.normRoundPack(0, 62+(E-k)/2+f.bias, r, rm)
}

// mulAdd returns a*b+c with a single rounding. The RISC-V variants negate
// the product and/or c before calling it.
func (f *format) mulAdd(a, b, c uint64, rm RoundingMode) (uint64, Flags) {
	sp := f.sign(a) ^ f.sign(b)
	sc := f.sign(c)
	ea, eb, ec := f.expField(a), f.expField(b), f.expField(c)
	if ea == f.expMax || eb == f.expMax || ec == f.expMax {
		aInf, bInf := f.isInf(a), f.isInf(b)
		// RISC-V: inf*0 raises NV even when c is a quiet NaN.
		invalidProduct := aInf && f.isZero(b) || bInf && f.isZero(a)
		if f.isNaN(a) || f.isNaN(b) || f.isNaN(c) {
			r, fl := f.nanResult(a, b, c)
			if invalidProduct {
				fl |= NV
			}
			return r, fl
		}
		if invalidProduct {
			return f.nan, NV
		}
		if aInf || bInf {
			if ec == f.expMax && sc != sp {
				return f.nan, NV // inf - inf
			}
			return f.inf(sp), 0
		}
		return c, 0 // c is infinite, the product finite
	}
	if f.isZero(a) || f.isZero(b) {
		if f.isZero(c) {
			if sp == sc {
				return c, 0
			}
			return f.zero(exactZero(rm)), 0
		}
		return c, 0
	}
	expA, sigA := f.unpack(a)
	expB, sigB := f.unpack(b)
	// The exact product P in [2^124, 2^126): value = P/2^124 * 2^(ep-bias).
	ph, pl := bits.Mul64(sigA, sigB)
	ep := expA + expB - f.bias
	if f.isZero(c) {
		sig := ph<<2 | pl>>62
		if pl<<2 != 0 {
			sig |= 1
		}
		return f.normRoundPack(sp, ep, sig, rm)
	}
	expC, sigC := f.unpack(c)
	ch, cl := sigC>>2, sigC<<62 // c on the same scale as P
	// Align to the larger exponent. Either the shift only drops zero bits
	// (P has >= 20 low zero bits, C >= 62), or the shifted operand is far
	// smaller than the other, so jamming never meets massive cancellation.
	e := ep
	if d := ep - expC; d >= 0 {
		ch, cl = shiftRightJam128(ch, cl, uint(d))
	} else {
		e = expC
		ph, pl = shiftRightJam128(ph, pl, uint(-d))
	}
	var rh, rl uint64
	sign := sp
	if sp == sc {
		var carry uint64
		rl, carry = bits.Add64(pl, cl, 0)
		rh, _ = bits.Add64(ph, ch, carry)
	} else {
		var borrow uint64
		if ph > ch || ph == ch && pl >= cl {
			rl, borrow = bits.Sub64(pl, cl, 0)
			rh, _ = bits.Sub64(ph, ch, borrow)
		} else {
			rl, borrow = bits.Sub64(cl, pl, 0)
			rh, _ = bits.Sub64(ch, ph, borrow)
			sign = sc
		}
		if rh|rl == 0 {
			return f.zero(exactZero(rm)), 0
		}
	}
	// Bring the 128-bit result to 64 bits with the leading one at bit 62.
	lz := bits.LeadingZeros64(rh)
	if rh == 0 {
		lz = 64 + bits.LeadingZeros64(rl)
	}
	var sig uint64
	if n := 65 - lz; n > 0 {
		_, sig = shiftRightJam128(rh, rl, uint(n))
	} else {
		sig = rl << uint(-n)
	}
	return f.roundPack(sign, e+3-int32(lz), sig, rm)
}
