package softfloat

import (
	"math"
	"math/big"
)

var allModes = []RoundingMode{RNE, RTZ, RDN, RUP, RMM}

// rng is splitmix64: deterministic, so failures reproduce.
type rng struct{ s uint64 }

func (r *rng) u64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rng) n(k int) int { return int(r.u64() % uint64(k)) }

// sig returns a fraction field of nbits bits with a pattern that stresses
// rounding: random, few significant bits, runs of ones, single bits.
func (r *rng) sig(nbits uint) uint64 {
	mask := uint64(1)<<nbits - 1
	switch r.n(8) {
	case 0, 1, 2:
		return r.u64() & mask
	case 3: // few significant bits (exact or tie-prone products/sums)
		k := uint(r.n(int(nbits)) + 1)
		return (r.u64() & mask) &^ (uint64(1)<<(nbits-k) - 1)
	case 4: // all ones, possibly with a few low bits cleared
		return mask &^ (uint64(1)<<uint(r.n(4)) - 1)
	case 5: // a single bit
		return uint64(1) << uint(r.n(int(nbits)))
	case 6: // run of ones
		lo := uint(r.n(int(nbits)))
		hi := lo + uint(r.n(int(nbits-lo))) + 1
		return (uint64(1)<<hi - 1) &^ (uint64(1)<<lo - 1) & mask
	default: // few low bits
		return r.u64() & 0xff & mask
	}
}

// expField returns an exponent field for a format with expMax as all-ones,
// biased towards zero/subnormal, around the bias and near overflow.
func (r *rng) expField(f *format) int32 {
	max := f.expMax
	switch r.n(6) {
	case 0:
		return int32(r.n(int(max) + 1))
	case 1:
		return int32(r.n(int(f.fracBits) + 8)) // subnormal and smallest normals
	case 2:
		return max - 1 - int32(r.n(int(f.fracBits)+4)) // near overflow
	default:
		return f.bias - 40 + int32(r.n(80))
	}
}

// value returns a structured random value of format f (bits in a uint64).
// finite restricts it to finite values (zero included unless nonzero).
func (r *rng) value(f *format, finite, nonzero bool) uint64 {
	if !finite && r.n(12) == 0 {
		specials := []uint64{f.nan, f.nan | 1, f.inf(0), f.inf(1),
			uint64(f.expMax)<<f.fracBits | 1, // sNaN
			uint64(f.expMax)<<f.fracBits | f.fracMask()>>1}
		return specials[r.n(len(specials))] | uint64(r.n(2))<<f.signShift&f.signBit()
	}
	for {
		e := r.expField(f)
		if e == f.expMax {
			e--
		}
		v := uint64(r.n(2))<<f.signShift | uint64(e)<<f.fracBits | r.sig(f.fracBits)
		if nonzero && f.isZero(v) {
			continue
		}
		return v
	}
}

// related returns a value of format f whose exponent is near that of a
// (alignment, cancellation and ties in add/fma), or a itself perturbed.
func (r *rng) related(f *format, a uint64) uint64 {
	e := f.expField(a)
	switch r.n(3) {
	case 0: // a perturbed by a few ulps, either sign
		v := a + uint64(r.n(5)) - 2
		if f.expField(v) == f.expMax || v>>f.signShift>>1 != 0 {
			v = a
		}
		return v ^ uint64(r.n(2))<<f.signShift
	default:
		e += int32(r.n(2*int(f.fracBits)+8)) - int32(f.fracBits) - 4
		if e < 0 {
			e = 0
		}
		if e >= f.expMax {
			e = f.expMax - 1
		}
		return uint64(r.n(2))<<f.signShift | uint64(e)<<f.fracBits | r.sig(f.fracBits)
	}
}

// operands returns n structured operands; later ones are often related to
// the first so that sums and fused products cancel or tie.
func (r *rng) operands(f *format, n int, finite, nonzero bool) []uint64 {
	ops := make([]uint64, n)
	ops[0] = r.value(f, finite, nonzero)
	for i := 1; i < n; i++ {
		if r.n(2) == 0 || !finite && f.expField(ops[0]) == f.expMax {
			ops[i] = r.value(f, finite, nonzero)
		} else {
			ops[i] = r.related(f, ops[0])
		}
		if nonzero && f.isZero(ops[i]) {
			ops[i] = r.value(f, finite, nonzero)
		}
	}
	if n >= 2 && r.n(5) == 0 && f.expField(ops[0]) != f.expMax {
		// b chosen so that a*b or a/b lands near the smallest normal.
		ea := f.expField(ops[0])
		eb := f.bias + 1 - ea // product exponent near emin
		if r.n(2) == 0 {
			eb = ea + f.bias - 1 // quotient exponent near emin
		}
		eb += int32(r.n(5)) - 2
		if eb < 1 {
			eb = 1
		}
		if eb >= f.expMax {
			eb = f.expMax - 1
		}
		ops[1] = uint64(r.n(2))<<f.signShift | uint64(eb)<<f.fracBits | r.sig(f.fracBits)
	}
	if n == 3 && r.n(3) == 0 {
		// c close to -(a*b): massive cancellation in the fused add.
		prod, _ := f.mul(ops[0], ops[1], RNE)
		if f.expField(prod) != f.expMax && !f.isZero(prod) {
			ops[2] = (prod ^ f.signBit()) + uint64(r.n(7)) - 3
			if f.expField(ops[2]) == f.expMax || f.isZero(ops[2]) || ops[2]>>f.signShift>>1 != 0 {
				ops[2] = prod ^ f.signBit()
			}
		}
	}
	return ops
}

// --- math/big oracle ---------------------------------------------------------

type bigFmt struct {
	prec uint // significand bits including the hidden one
	emin int  // exponent of the smallest normal
	emax int  // exponent of the largest finite binade
}

func (f *format) big() bigFmt {
	return bigFmt{prec: f.fracBits + 1, emin: int(1 - f.bias), emax: int(f.bias)}
}

const workPrec = 4400 // exact for every sum, product and fused product-sum of binary64 values

func toBig(f *format, a uint64) *big.Float {
	var x float64
	if f == f32 {
		x = float64(math.Float32frombits(uint32(a)))
	} else {
		x = math.Float64frombits(a)
	}
	return new(big.Float).SetPrec(workPrec).SetFloat64(x)
}

func bigMode(rm RoundingMode) big.RoundingMode {
	switch rm {
	case RTZ:
		return big.ToZero
	case RDN:
		return big.ToNegativeInf
	case RUP:
		return big.ToPositiveInf
	case RMM:
		return big.ToNearestAway
	}
	return big.ToNearestEven
}

// bigRound rounds the exact nonzero finite value x to format f in mode rm,
// independently of the package: precision from math/big, subnormal
// quantisation by hand, tininess after rounding, overflow per mode.
func bigRound(f *format, x *big.Float, rm RoundingMode) (uint64, Flags) {
	bf := f.big()
	neg := x.Signbit()
	var fl Flags
	// Round with unbounded exponent range.
	u := new(big.Float).SetPrec(bf.prec).SetMode(bigMode(rm)).Set(x)
	if u.Acc() != big.Exact {
		fl |= NX
	}
	uexp := u.MantExp(nil) - 1 // |u| in [2^uexp, 2^(uexp+1))
	if uexp > bf.emax {
		toInf := rm == RNE || rm == RMM || rm == RDN && neg || rm == RUP && !neg
		var sign uint64
		if neg {
			sign = 1
		}
		r := f.inf(sign)
		if !toInf {
			r--
		}
		return r, OF | NX
	}
	tiny := uexp < bf.emin
	xexp := x.MantExp(nil) - 1
	if xexp >= bf.emin {
		return bigBits(f, u), fl
	}
	// Subnormal range: round x to a multiple of q = 2^(emin-prec+1).
	qexp := bf.emin - int(bf.prec) + 1
	n := new(big.Float).SetPrec(workPrec).SetMantExp(x, -qexp) // x/q exactly
	an := new(big.Float).Abs(n)
	var k *big.Float // rounded |n|, integral
	if an.Cmp(big.NewFloat(1)) < 0 {
		half := an.Cmp(big.NewFloat(0.5))
		up := false
		switch rm {
		case RNE:
			up = half > 0
		case RMM:
			up = half >= 0
		case RDN:
			up = neg
		case RUP:
			up = !neg
		}
		k = big.NewFloat(0)
		if up {
			k = big.NewFloat(1)
		}
	} else {
		l := uint(an.MantExp(nil)) // bits of the integer part
		k = new(big.Float).SetPrec(l).SetMode(bigMode(rm)).Set(n)
		k.Abs(k)
	}
	fl &^= NX
	if k.Cmp(an) != 0 {
		fl |= NX
		if tiny {
			fl |= UF
		}
	}
	res := new(big.Float).SetPrec(workPrec).SetMantExp(k, qexp)
	if neg {
		res.Neg(res)
	}
	if res.Sign() == 0 && neg {
		return f.zero(1), fl
	}
	return bigBits(f, res), fl
}

// bigBits converts an exactly representable value to the format's bits.
func bigBits(f *format, x *big.Float) uint64 {
	if f == f32 {
		v, acc := x.Float32()
		if acc != big.Exact {
			panic("bigBits: not representable")
		}
		return uint64(math.Float32bits(v))
	}
	v, acc := x.Float64()
	if acc != big.Exact {
		panic("bigBits: not representable")
	}
	return math.Float64bits(v)
}

// oracleOp computes op on finite nonzero operands exactly with math/big and
// rounds it with bigRound. op is one of add sub mul div sqrt fma.
func oracleOp(f *format, op string, ops []uint64, rm RoundingMode) (uint64, Flags) {
	x := toBig(f, ops[0])
	var exact *big.Float
	switch op {
	case "add", "sub", "mul", "fma":
		y := toBig(f, ops[1])
		z := new(big.Float).SetPrec(workPrec)
		switch op {
		case "add":
			z.Add(x, y)
		case "sub":
			z.Sub(x, y)
		case "mul":
			z.Mul(x, y)
		case "fma":
			z.Mul(x, y)
			z.Add(z, toBig(f, ops[2]))
		}
		if z.Acc() != big.Exact {
			panic("oracle: inexact work precision")
		}
		exact = z
	case "div":
		// Truncate at work precision; if inexact, add half a work ulp so the
		// stand-in rounds like the exact quotient at any smaller precision.
		y := toBig(f, ops[1])
		z := new(big.Float).SetPrec(workPrec).SetMode(big.ToZero).Quo(x, y)
		exact = sticky(z, z.Acc() != big.Exact)
	case "sqrt":
		exact = bigSqrt(x)
	}
	if exact.Sign() == 0 {
		// Exact cancellation (operands are nonzero): +0, or -0 rounding down.
		if rm == RDN {
			return f.zero(1), 0
		}
		return 0, 0
	}
	return bigRound(f, exact, rm)
}

// sticky returns z, or z moved half a unit in its last place away from zero
// when inexact is set.
func sticky(z *big.Float, inexact bool) *big.Float {
	if !inexact {
		return z
	}
	e := z.MantExp(nil)
	h := new(big.Float).SetMantExp(big.NewFloat(0.5), e-int(z.Prec()))
	if z.Signbit() {
		h.Neg(h)
	}
	return new(big.Float).SetPrec(z.Prec()+2).Add(z, h)
}

// bigSqrt returns sqrt(x) for x > 0 as a sticky stand-in, using the exact
// integer square root of big.Int.
func bigSqrt(x *big.Float) *big.Float {
	m := new(big.Int)
	mant := new(big.Float)
	e := x.MantExp(mant)       // x = mant * 2^e, mant in [0.5, 1)
	mant.SetMantExp(mant, 200) // integer (<= 53 bits) times 2^147
	mant.Int(m)                // exact
	e -= 200                   // x = m * 2^e
	shift := 400 + (e & 1)     // make e-shift even
	m.Lsh(m, uint(shift))      // S = m * 2^shift
	e -= shift                 // x = S * 2^e, e even
	r := new(big.Int).Sqrt(m)  // floor(sqrt(S))
	inexact := new(big.Int).Mul(r, r).Cmp(m) != 0
	z := new(big.Float).SetPrec(workPrec).SetInt(r)
	z.SetMantExp(z, e/2)
	if inexact { // sqrt(S) in (r, r+1): use r + 1/2
		h := new(big.Float).SetMantExp(big.NewFloat(0.5), e/2)
		z.Add(z, h)
	}
	return z
}

// isTie reports whether exact (nonzero, normal or subnormal range of f)
// lies exactly halfway between two neighbouring values of f.
func isTie(f *format, exact *big.Float) bool {
	dn, _ := bigRound(f, exact, RDN)
	up, _ := bigRound(f, exact, RUP)
	if dn == up {
		return false
	}
	mid := new(big.Float).SetPrec(workPrec).Add(toBig(f, dn), toBig(f, up))
	mid.SetMantExp(mid, -1)
	return mid.Cmp(exact) == 0
}
