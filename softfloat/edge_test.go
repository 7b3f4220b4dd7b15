package softfloat

import (
	"math"
	"testing"
)

// Hand-computed edge cases. Each expected value was derived by hand from
// the operands (the comments give the arithmetic); none was produced by
// running this package.

// binary64 patterns
const (
	pz    = 0x0000000000000000
	nz    = 0x8000000000000000
	pinf  = 0x7ff0000000000000
	ninf  = 0xfff0000000000000
	qnan  = 0x7ff8000000000000
	nqnan = 0xfff8000000000000 // negative quiet NaN (x86's default NaN)
	pqnan = 0x7ff8000000000001 // quiet NaN with payload
	snan  = 0x7ff0000000000001
	nsnan = 0xfff4000000000000
	one   = 0x3ff0000000000000
	mone  = 0xbff0000000000000
	two   = 0x4000000000000000
	three = 0x4008000000000000
	half  = 0x3fe0000000000000
	oneU  = 0x3ff0000000000001 // 1 + 2^-52
	oneD  = 0x3feffffffffffffe // 1 - 2^-52
	p53   = 0x3ca0000000000000 // 2^-53, half an ulp of 1
	p54   = 0x3c90000000000000 // 2^-54
	maxF  = 0x7fefffffffffffff
	minN  = 0x0010000000000000
	maxS  = 0x000fffffffffffff
	minS  = 0x0000000000000001
)

// binary32 patterns
const (
	pz32   = 0x00000000
	nz32   = 0x80000000
	pinf32 = 0x7f800000
	ninf32 = 0xff800000
	qnan32 = 0x7fc00000
	snan32 = 0x7f800001
	one32  = 0x3f800000
	two32  = 0x40000000
	half32 = 0x3f000000
	oneU32 = 0x3f800001 // 1 + 2^-23
	p24    = 0x33800000 // 2^-24, half an ulp of 1
	maxF32 = 0x7f7fffff
	minN32 = 0x00800000
	maxS32 = 0x007fffff
)

type res struct {
	r  uint64
	fl Flags
}

type edgeCase struct {
	desc string
	op   string
	in   []uint64
	rm   RoundingMode
	want res
}

// perMode expands one case into the five modes, results in the order
// RNE, RTZ, RDN, RUP, RMM.
func perMode(desc, op string, in []uint64, rne, rtz, rdn, rup, rmm res) []edgeCase {
	out := make([]edgeCase, 0, 5)
	for i, r := range []res{rne, rtz, rdn, rup, rmm} {
		out = append(out, edgeCase{desc, op, in, RoundingMode(i), r})
	}
	return out
}

// anyMode expands a case whose result does not depend on the mode.
func anyMode(desc, op string, in []uint64, r uint64, fl Flags) []edgeCase {
	x := res{r, fl}
	return perMode(desc, op, in, x, x, x, x, x)
}

func ops(v ...uint64) []uint64 { return v }

func arithEdgeCases() []edgeCase {
	var cs []edgeCase
	add := func(c ...[]edgeCase) {
		for _, x := range c {
			cs = append(cs, x...)
		}
	}
	nx := func(r uint64) res { return res{r, NX} }
	ofnx := func(r uint64) res { return res{r, OF | NX} }
	ufnx := func(r uint64) res { return res{r, UF | NX} }
	ex := func(r uint64) res { return res{r, 0} }

	// --- add / sub, binary64
	add(
		perMode("1 + 2^-53 is a tie; even is 1", "add64", ops(one, p53),
			nx(one), nx(one), nx(one), nx(oneU), nx(oneU)),
		perMode("(1+2^-52) + 2^-53 ties to the even 1+2^-51", "add64", ops(oneU, p53),
			nx(0x3ff0000000000002), nx(oneU), nx(oneU), nx(0x3ff0000000000002), nx(0x3ff0000000000002)),
		perMode("1 + 2^-54 is below the tie", "add64", ops(one, p54),
			nx(one), nx(one), nx(one), nx(oneU), nx(one)),
		perMode("-1 - 2^-53 tie, negative", "add64", ops(mone, p53|nz),
			nx(mone), nx(mone), nx(oneU|nz), nx(mone), nx(oneU|nz)),
		perMode("1 + -1 is +0 except -0 rounding down", "add64", ops(one, mone),
			ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		perMode("1 - 1 (sub) likewise", "sub64", ops(one, one),
			ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		anyMode("-0 + -0 = -0", "add64", ops(nz, nz), nz, 0),
		perMode("+0 + -0", "add64", ops(pz, nz), ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		perMode("+0 - +0", "sub64", ops(pz, pz), ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		anyMode("x + 0 = x exactly", "add64", ops(three, nz), three, 0),
		perMode("max + max overflows", "add64", ops(maxF, maxF),
			ofnx(pinf), ofnx(maxF), ofnx(maxF), ofnx(pinf), ofnx(pinf)),
		perMode("-max - max overflows", "add64", ops(maxF|nz, maxF|nz),
			ofnx(ninf), ofnx(maxF|nz), ofnx(ninf), ofnx(maxF|nz), ofnx(ninf)),
		// ulp(max) = 2^971; max + 2^970 is the tie between max (odd) and 2^1024.
		perMode("max + half ulp: tie rounds to inf, directed modes stay", "add64", ops(maxF, 0x7c90000000000000),
			ofnx(pinf), nx(maxF), nx(maxF), ofnx(pinf), ofnx(pinf)),
		anyMode("inf - inf is invalid", "add64", ops(pinf, ninf), qnan, NV),
		anyMode("inf - inf (sub) is invalid", "sub64", ops(pinf, pinf), qnan, NV),
		anyMode("inf + inf", "add64", ops(pinf, pinf), pinf, 0),
		anyMode("-inf + 1", "add64", ops(ninf, one), ninf, 0),
		anyMode("1 - inf", "sub64", ops(one, pinf), ninf, 0),
		anyMode("qNaN + 1: canonical, quiet", "add64", ops(qnan, one), qnan, 0),
		anyMode("negative qNaN is canonicalised", "add64", ops(one, nqnan), qnan, 0),
		anyMode("payload is dropped", "add64", ops(pqnan, pqnan), qnan, 0),
		anyMode("sNaN + 1 is invalid", "add64", ops(snan, one), qnan, NV),
		anyMode("inf + sNaN is invalid", "add64", ops(pinf, nsnan), qnan, NV),
		anyMode("subnormal sums are exact: no UF", "add64", ops(minS, minS), 2, 0),
		anyMode("max subnormal + min subnormal = min normal", "add64", ops(maxS, minS), minN, 0),
		anyMode("min normal - min subnormal = max subnormal, exact", "sub64", ops(minN, minS), maxS, 0),
	)
	// --- mul, binary64
	// 0x2000000000000001 = 2^-511(1+2^-52), 0x1ffffffffffffffe = 2^-511(1-2^-52);
	// the product is 2^-1022(1-2^-104): within 2^-1126 of the smallest normal,
	// so rounding to 53 bits with unbounded exponent gives 2^-1022 in RNE,
	// RUP and RMM (not tiny: no UF) but stays below it in RTZ and RDN (tiny).
	add(
		perMode("product just below min normal: tininess after rounding", "mul64",
			ops(0x2000000000000001, 0x1ffffffffffffffe),
			nx(minN), ufnx(maxS), ufnx(maxS), nx(minN), nx(minN)),
		perMode("same, negative", "mul64", ops(0x2000000000000001|nz, 0x1ffffffffffffffe),
			nx(minN|nz), ufnx(maxS|nz), nx(minN|nz), ufnx(maxS|nz), nx(minN|nz)),
		// minN*(1-2^-53) = 2^-1022 - 2^-1075: representable with 53 bits but
		// below 2^-1022 (tiny in every mode) and halfway between max
		// subnormal (odd) and min normal (even).
		perMode("min normal * (1-2^-53): tiny tie", "mul64", ops(minN, 0x3fefffffffffffff),
			ufnx(minN), ufnx(maxS), ufnx(maxS), ufnx(minN), ufnx(minN)),
		perMode("min subnormal * 0.5 = 2^-1075: tie between 0 and min subnormal", "mul64", ops(minS, half),
			ufnx(pz), ufnx(pz), ufnx(pz), ufnx(minS), ufnx(minS)),
		perMode("-min subnormal * 0.5", "mul64", ops(minS|nz, half),
			ufnx(nz), ufnx(nz), ufnx(minS|nz), ufnx(nz), ufnx(minS|nz)),
		anyMode("min normal * 0.5 is an exact subnormal: no UF", "mul64", ops(minN, half), 0x0008000000000000, 0),
		perMode("max * 2 overflows", "mul64", ops(maxF, two),
			ofnx(pinf), ofnx(maxF), ofnx(maxF), ofnx(pinf), ofnx(pinf)),
		perMode("-max * 2 overflows", "mul64", ops(maxF|nz, two),
			ofnx(ninf), ofnx(maxF|nz), ofnx(ninf), ofnx(maxF|nz), ofnx(ninf)),
		anyMode("0 * inf is invalid", "mul64", ops(pz, pinf), qnan, NV),
		anyMode("-inf * -0 is invalid", "mul64", ops(ninf, nz), qnan, NV),
		anyMode("-0 * 3 = -0", "mul64", ops(nz, three), nz, 0),
		anyMode("inf * -2 = -inf", "mul64", ops(pinf, two|nz), ninf, 0),
		anyMode("3 * 0.5 = 1.5 exactly", "mul64", ops(three, half), 0x3ff8000000000000, 0),
		anyMode("sNaN * 0 is invalid", "mul64", ops(snan, pz), qnan, NV),
		// (1+2^-52)^2 = 1 + 2^-51 + 2^-104
		perMode("(1+2^-52)^2", "mul64", ops(oneU, oneU),
			nx(0x3ff0000000000002), nx(0x3ff0000000000002), nx(0x3ff0000000000002), nx(0x3ff0000000000003), nx(0x3ff0000000000002)),
	)
	// --- div, binary64. 1/3 = 0x1.5555555555555|555...p-2: the rest is 1/3 ulp.
	add(
		perMode("1/3", "div64", ops(one, three),
			nx(0x3fd5555555555555), nx(0x3fd5555555555555), nx(0x3fd5555555555555), nx(0x3fd5555555555556), nx(0x3fd5555555555555)),
		perMode("-1/3", "div64", ops(mone, three),
			nx(0xbfd5555555555555), nx(0xbfd5555555555555), nx(0xbfd5555555555556), nx(0xbfd5555555555555), nx(0xbfd5555555555555)),
		// 2/3 = 0x1.5555555555555|555...p-1
		perMode("2/3", "div64", ops(two, three),
			nx(0x3fe5555555555555), nx(0x3fe5555555555555), nx(0x3fe5555555555555), nx(0x3fe5555555555556), nx(0x3fe5555555555555)),
		anyMode("6/3 = 2 exactly", "div64", ops(0x4018000000000000, three), two, 0),
		anyMode("1/0 = +inf, DZ", "div64", ops(one, pz), pinf, DZ),
		anyMode("-1/0 = -inf, DZ", "div64", ops(mone, pz), ninf, DZ),
		anyMode("1/-0 = -inf, DZ", "div64", ops(one, nz), ninf, DZ),
		anyMode("0/0 is invalid", "div64", ops(pz, nz), qnan, NV),
		anyMode("inf/inf is invalid", "div64", ops(pinf, ninf), qnan, NV),
		anyMode("inf/0 = inf, no DZ", "div64", ops(pinf, pz), pinf, 0),
		anyMode("0/inf = 0", "div64", ops(pz, ninf), nz, 0),
		anyMode("-1/inf = -0", "div64", ops(mone, pinf), nz, 0),
		anyMode("qNaN/0 is quiet", "div64", ops(qnan, pz), qnan, 0),
		anyMode("1/sNaN is invalid", "div64", ops(one, snan), qnan, NV),
		anyMode("min normal / 2^52 = min subnormal exactly", "div64", ops(minN, 0x4330000000000000), minS, 0),
		perMode("max / 0.5 overflows", "div64", ops(maxF, half),
			ofnx(pinf), ofnx(maxF), ofnx(maxF), ofnx(pinf), ofnx(pinf)),
		perMode("min subnormal / 2 = 2^-1075 tie", "div64", ops(minS, two),
			ufnx(pz), ufnx(pz), ufnx(pz), ufnx(minS), ufnx(minS)),
	)
	// --- sqrt, binary64. sqrt(2) = 1.41421356237309504880..., between
	// 0x3ff6a09e667f3bcc (1.414213562373094923) and ...bcd (1.414213562373095145),
	// nearer the upper one.
	add(
		perMode("sqrt(2)", "sqrt64", ops(two),
			nx(0x3ff6a09e667f3bcd), nx(0x3ff6a09e667f3bcc), nx(0x3ff6a09e667f3bcc), nx(0x3ff6a09e667f3bcd), nx(0x3ff6a09e667f3bcd)),
		anyMode("sqrt(4) = 2", "sqrt64", ops(0x4010000000000000), two, 0),
		anyMode("sqrt(-0) = -0", "sqrt64", ops(nz), nz, 0),
		anyMode("sqrt(+0) = +0", "sqrt64", ops(pz), pz, 0),
		anyMode("sqrt(-1) is invalid", "sqrt64", ops(mone), qnan, NV),
		anyMode("sqrt(-min subnormal) is invalid", "sqrt64", ops(minS|nz), qnan, NV),
		anyMode("sqrt(-inf) is invalid", "sqrt64", ops(ninf), qnan, NV),
		anyMode("sqrt(inf) = inf", "sqrt64", ops(pinf), pinf, 0),
		anyMode("sqrt(sNaN) is invalid", "sqrt64", ops(snan), qnan, NV),
		anyMode("sqrt(-qNaN) is quiet", "sqrt64", ops(nqnan), qnan, 0),
		anyMode("sqrt(2^-1074) = 2^-537 exactly", "sqrt64", ops(minS), 0x1e60000000000000, 0),
		// sqrt(2^1024(1-2^-53)) = 2^512(1 - 2^-54 - 2^-109 - ...): just below
		// the midpoint of 2^512(1-2^-53) and 2^512.
		perMode("sqrt(max)", "sqrt64", ops(maxF),
			nx(0x5fefffffffffffff), nx(0x5fefffffffffffff), nx(0x5fefffffffffffff), nx(0x5ff0000000000000), nx(0x5fefffffffffffff)),
	)
	// --- fused multiply-add, binary64
	add(
		anyMode("inf*0 + qNaN is invalid (RISC-V)", "fmadd64", ops(pinf, pz, qnan), qnan, NV),
		anyMode("0*inf + qNaN is invalid", "fmadd64", ops(nz, ninf, nqnan), qnan, NV),
		anyMode("inf*0 + 1 is invalid", "fmadd64", ops(pinf, pz, one), qnan, NV),
		anyMode("qNaN*0 + inf is quiet", "fmadd64", ops(qnan, pz, pinf), qnan, 0),
		anyMode("inf*1 - inf is invalid", "fmadd64", ops(pinf, one, ninf), qnan, NV),
		anyMode("inf*1 + inf", "fmadd64", ops(pinf, one, pinf), pinf, 0),
		anyMode("1*1 + -inf", "fmadd64", ops(one, one, ninf), ninf, 0),
		anyMode("1*1 + sNaN is invalid", "fmadd64", ops(one, one, snan), qnan, NV),
		anyMode("sNaN*1 + qNaN is invalid", "fmadd64", ops(snan, one, qnan), qnan, NV),
		// (1+2^-52)(1-2^-52) - 1 = -2^-104 exactly; an unfused mul+add gives 0.
		anyMode("single rounding: (1+u)(1-u) - 1 = -2^-104", "fmadd64", ops(oneU, oneD, mone), 0xb970000000000000, 0),
		anyMode("2*3 + 1 = 7 exactly", "fmadd64", ops(two, three, one), 0x401c000000000000, 0),
		perMode("1*1 - 1 = +0, -0 rounding down", "fmadd64", ops(one, one, mone),
			ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		perMode("1*-0 + +0", "fmadd64", ops(one, nz, pz), ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		anyMode("-1*0 + -0 = -0", "fmadd64", ops(mone, pz, nz), nz, 0),
		anyMode("0*5 + 3 = 3", "fmadd64", ops(pz, 0x4014000000000000, three), three, 0),
		anyMode("max*2 - max = max: no intermediate overflow", "fmadd64", ops(maxF, two, maxF|nz), maxF, 0),
		perMode("(1+2^-52)^2 + 0", "fmadd64", ops(oneU, oneU, pz),
			nx(0x3ff0000000000002), nx(0x3ff0000000000002), nx(0x3ff0000000000002), nx(0x3ff0000000000003), nx(0x3ff0000000000002)),
		perMode("tininess after rounding in fma", "fmadd64", ops(0x2000000000000001, 0x1ffffffffffffffe, nz),
			nx(minN), ufnx(maxS), ufnx(maxS), nx(minN), nx(minN)),
		perMode("1*1 + 2^-53: tie", "fmadd64", ops(one, one, p53),
			nx(one), nx(one), nx(one), nx(oneU), nx(oneU)),
		perMode("max*max - 1 overflows", "fmadd64", ops(maxF, maxF, mone),
			ofnx(pinf), ofnx(maxF), ofnx(maxF), ofnx(pinf), ofnx(pinf)),
		// The variants negate inside the single rounding.
		perMode("fnmadd: -(1*1) - (-1) = 0", "fnmadd64", ops(one, one, mone),
			ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		anyMode("fnmadd: -(0*1) - 0 = -0", "fnmadd64", ops(pz, one, pz), nz, 0),
		perMode("fnmsub: -(0*1) + 0", "fnmsub64", ops(pz, one, pz), ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		perMode("fmsub: 0*1 - 0", "fmsub64", ops(pz, one, pz), ex(pz), ex(pz), ex(nz), ex(pz), ex(pz)),
		anyMode("fmsub: 2*3 - 1 = 5", "fmsub64", ops(two, three, one), 0x4014000000000000, 0),
		anyMode("fnmsub: -(2*3) + 1 = -5", "fnmsub64", ops(two, three, one), 0xc014000000000000, 0),
		anyMode("fnmadd: -(2*3) - 1 = -7", "fnmadd64", ops(two, three, one), 0xc01c000000000000, 0),
		anyMode("fnmadd: inf*0 - qNaN still invalid", "fnmadd64", ops(pinf, pz, qnan), qnan, NV),
		anyMode("fmsub: sign flip of a NaN addend does not matter", "fmsub64", ops(one, one, nqnan), qnan, 0),
		perMode("fnmadd: -(1*1) - 2^-53 ties away in RMM", "fnmadd64", ops(one, one, p53),
			nx(mone), nx(mone), nx(oneU|nz), nx(mone), nx(oneU|nz)),
	)
	// --- binary32 arithmetic
	add(
		perMode("f32 1 + 2^-24 tie", "add32", ops(one32, p24),
			nx(one32), nx(one32), nx(one32), nx(oneU32), nx(oneU32)),
		perMode("f32 max + max", "add32", ops(maxF32, maxF32),
			ofnx(pinf32), ofnx(maxF32), ofnx(maxF32), ofnx(pinf32), ofnx(pinf32)),
		perMode("f32 1 - 1", "sub32", ops(one32, one32), ex(pz32), ex(pz32), ex(nz32), ex(pz32), ex(pz32)),
		anyMode("f32 inf - inf", "add32", ops(pinf32, ninf32), qnan32, NV),
		anyMode("f32 sNaN + 0", "add32", ops(snan32, pz32), qnan32, NV),
		anyMode("f32 subnormal sum exact", "add32", ops(maxS32, 1), minN32, 0),
		// 0x20000001 = 2^-63(1+2^-23), 0x1ffffffe = 2^-63(1-2^-23): product
		// 2^-126(1-2^-46).
		perMode("f32 product just below min normal", "mul32", ops(0x20000001, 0x1ffffffe),
			nx(minN32), ufnx(maxS32), ufnx(maxS32), nx(minN32), nx(minN32)),
		perMode("f32 min subnormal * 0.5", "mul32", ops(1, half32),
			ufnx(pz32), ufnx(pz32), ufnx(pz32), ufnx(1), ufnx(1)),
		perMode("f32 max * 2", "mul32", ops(maxF32, two32),
			ofnx(pinf32), ofnx(maxF32), ofnx(maxF32), ofnx(pinf32), ofnx(pinf32)),
		anyMode("f32 0 * -inf", "mul32", ops(pz32, ninf32), qnan32, NV),
		// 1/3 = 0x1.555555|5...p-2 in single: 0x3eaaaaab rounds up (the rest is
		// 0.101... of an ulp, i.e. 2/3 ulp).
		perMode("f32 1/3", "div32", ops(one32, 0x40400000),
			nx(0x3eaaaaab), nx(0x3eaaaaaa), nx(0x3eaaaaaa), nx(0x3eaaaaab), nx(0x3eaaaaab)),
		anyMode("f32 1/0", "div32", ops(one32, pz32), pinf32, DZ),
		anyMode("f32 0/0", "div32", ops(nz32, pz32), qnan32, NV),
		// sqrt(2) = 1.41421356..: 0x3fb504f3 = 1.41421354 and 0x3fb504f4 =
		// 1.41421366; the root is nearer the lower one.
		perMode("f32 sqrt(2)", "sqrt32", ops(two32),
			nx(0x3fb504f3), nx(0x3fb504f3), nx(0x3fb504f3), nx(0x3fb504f4), nx(0x3fb504f3)),
		anyMode("f32 sqrt(-0)", "sqrt32", ops(nz32), nz32, 0),
		anyMode("f32 sqrt(-2)", "sqrt32", ops(0xc0000000), qnan32, NV),
		anyMode("f32 inf*0 + qNaN", "fmadd32", ops(pinf32, pz32, qnan32), qnan32, NV),
		// (1+2^-23) * 2^-24(1-2^-23) + (1+2^-23) = 1 + 2^-23 + 2^-24 - 2^-70:
		// just below the midpoint between 1+2^-23 (odd) and 1+2^-22. In
		// double the sum rounds onto the midpoint, and a second rounding to
		// single would wrongly tie to the even 1+2^-22.
		perMode("f32 fma: double rounding trap", "fmadd32", ops(oneU32, 0x337ffffe, oneU32),
			nx(oneU32), nx(oneU32), nx(oneU32), nx(0x3f800002), nx(oneU32)),
		anyMode("f32 fma single rounding: (1+u)(1-u) - 1", "fmadd32", ops(oneU32, 0x3f7ffffe, 0xbf800000), 0xa8800000, 0),
		perMode("f32 fnmadd -(1*1) + 1", "fnmadd32", ops(one32, one32, 0xbf800000),
			ex(pz32), ex(pz32), ex(nz32), ex(pz32), ex(pz32)),
		anyMode("f32 fnmsub -(2*2) + 1 = -3", "fnmsub32", ops(two32, two32, one32), 0xc0400000, 0),
		anyMode("f32 fmsub 2*2 - 1 = 3", "fmsub32", ops(two32, two32, one32), 0x40400000, 0),
	)
	return cs
}

func convertEdgeCases() []edgeCase {
	var cs []edgeCase
	add := func(c ...[]edgeCase) {
		for _, x := range c {
			cs = append(cs, x...)
		}
	}
	nx := func(r uint64) res { return res{r, NX} }
	nv := func(r uint64) res { return res{r, NV} }
	ofnx := func(r uint64) res { return res{r, OF | NX} }
	ufnx := func(r uint64) res { return res{r, UF | NX} }
	const (
		i32max = 0x7fffffff
		i32min = 0x80000000
		u32max = 0xffffffff
		i64max = 0x7fffffffffffffff
		i64min = 0x8000000000000000
		u64max = 0xffffffffffffffff
	)
	add(
		// 2^31 - 0.5 = 0x41dfffffffe00000: a tie between 2^31-1 (odd) and 2^31.
		perMode("2^31-0.5 to i32", "f64toi32", ops(0x41dfffffffe00000),
			nv(i32max), nx(i32max), nx(i32max), nv(i32max), nv(i32max)),
		anyMode("2^31-1 to i32 exactly", "f64toi32", ops(0x41dfffffffc00000), i32max, 0),
		anyMode("-2^31 to i32 exactly", "f64toi32", ops(0xc1e0000000000000), i32min, 0),
		// -2^31 - 0.5 = 0xc1e0000000100000: tie between -2^31 (even) and -2^31-1.
		perMode("-2^31-0.5 to i32", "f64toi32", ops(0xc1e0000000100000),
			nx(i32min), nx(i32min), nv(i32min), nx(i32min), nv(i32min)),
		anyMode("-2^31-1 to i32: invalid, not inexact", "f64toi32", ops(0xc1e0000000200000), i32min, NV),
		anyMode("2^31 to i32", "f64toi32", ops(0x41e0000000000000), i32max, NV),
		anyMode("qNaN to i32: max", "f64toi32", ops(qnan), i32max, NV),
		anyMode("negative NaN to i32: still max", "f64toi32", ops(nqnan), i32max, NV),
		anyMode("sNaN to i32", "f64toi32", ops(snan), i32max, NV),
		anyMode("+inf to i32", "f64toi32", ops(pinf), i32max, NV),
		anyMode("-inf to i32", "f64toi32", ops(ninf), i32min, NV),
		anyMode("-0 to i32", "f64toi32", ops(nz), 0, 0),
		perMode("min subnormal to i32", "f64toi32", ops(minS), nx(0), nx(0), nx(0), nx(1), nx(0)),
		perMode("0.5 to i32", "f64toi32", ops(half), nx(0), nx(0), nx(0), nx(1), nx(1)),
		perMode("-0.5 to i32", "f64toi32", ops(half|nz), nx(0), nx(0), nx(0xffffffff), nx(0), nx(0xffffffff)),
		perMode("2.5 to i32", "f64toi32", ops(0x4004000000000000), nx(2), nx(2), nx(2), nx(3), nx(3)),
		perMode("-1.5 to i32", "f64toi32", ops(0xbff8000000000000),
			nx(0xfffffffe), nx(0xffffffff), nx(0xfffffffe), nx(0xffffffff), nx(0xfffffffe)),
		// unsigned 32
		perMode("-0.5 to u32: valid unless it rounds to -1", "f64tou32", ops(half|nz),
			nx(0), nx(0), nv(0), nx(0), nv(0)),
		perMode("-0.9 to u32", "f64tou32", ops(0xbfeccccccccccccd),
			nv(0), nx(0), nv(0), nx(0), nv(0)),
		anyMode("-1 to u32", "f64tou32", ops(mone), 0, NV),
		// 2^32 - 0.5 = 0x41effffffff00000: a tie between 2^32-1 (odd) and 2^32.
		perMode("2^32-0.5 to u32", "f64tou32", ops(0x41effffffff00000),
			nv(u32max), nx(u32max), nx(u32max), nv(u32max), nv(u32max)),
		anyMode("2^32-1 to u32", "f64tou32", ops(0x41efffffffe00000), u32max, 0),
		anyMode("2^32 to u32", "f64tou32", ops(0x41f0000000000000), u32max, NV),
		anyMode("NaN to u32", "f64tou32", ops(qnan), u32max, NV),
		anyMode("-inf to u32", "f64tou32", ops(ninf), 0, NV),
		anyMode("+inf to u32", "f64tou32", ops(pinf), u32max, NV),
		anyMode("3e9 to u32", "f64tou32", ops(0x41e65a0bc0000000), 3000000000, 0),
		// 64-bit
		anyMode("2^63 to i64", "f64toi64", ops(0x43e0000000000000), i64max, NV),
		anyMode("-2^63 to i64", "f64toi64", ops(0xc3e0000000000000), i64min, 0),
		anyMode("largest double below 2^63 to i64", "f64toi64", ops(0x43dfffffffffffff), 0x7ffffffffffffc00, 0),
		anyMode("next double below -2^63 to i64", "f64toi64", ops(0xc3e0000000000001), i64min, NV),
		anyMode("NaN to i64", "f64toi64", ops(nqnan), i64max, NV),
		anyMode("-inf to i64", "f64toi64", ops(ninf), i64min, NV),
		perMode("-2.5 to i64", "f64toi64", ops(0xc004000000000000),
			nx(0xfffffffffffffffe), nx(0xfffffffffffffffe), nx(0xfffffffffffffffd), nx(0xfffffffffffffffe), nx(0xfffffffffffffffd)),
		anyMode("2^64 to u64", "f64tou64", ops(0x43f0000000000000), u64max, NV),
		anyMode("largest double below 2^64 to u64", "f64tou64", ops(0x43efffffffffffff), 0xfffffffffffff800, 0),
		anyMode("2^63 to u64", "f64tou64", ops(0x43e0000000000000), 1<<63, 0),
		perMode("-0.9 to u64", "f64tou64", ops(0xbfeccccccccccccd), nv(0), nx(0), nv(0), nx(0), nv(0)),
		anyMode("-1 to u64", "f64tou64", ops(mone), 0, NV),
		anyMode("NaN to u64", "f64tou64", ops(qnan), u64max, NV),
		// single sources
		anyMode("f32 2^31 to i32", "f32toi32", ops(0x4f000000), i32max, NV),
		anyMode("f32 -2^31 to i32", "f32toi32", ops(0xcf000000), i32min, 0),
		anyMode("f32 largest below 2^31 to i32", "f32toi32", ops(0x4effffff), 2147483520, 0),
		anyMode("f32 NaN to i32", "f32toi32", ops(0xffc00000), i32max, NV),
		perMode("f32 -0.5 to u32", "f32tou32", ops(0xbf000000), nx(0), nx(0), nv(0), nx(0), nv(0)),
		anyMode("f32 2^32 to u32", "f32tou32", ops(0x4f800000), u32max, NV),
		anyMode("f32 2^63 to i64", "f32toi64", ops(0x5f000000), i64max, NV),
		anyMode("f32 -2^63 to i64", "f32toi64", ops(0xdf000000), i64min, 0),
		anyMode("f32 2^64 to u64", "f32tou64", ops(0x5f800000), u64max, NV),
		anyMode("f32 -inf to u64", "f32tou64", ops(ninf32), 0, NV),
		perMode("f32 1.5 to u64", "f32tou64", ops(0x3fc00000), nx(2), nx(1), nx(1), nx(2), nx(2)),
	)
	// integer to float
	add(
		perMode("2^53+1 to f64: tie", "i64tof64", ops(1<<53+1),
			nx(0x4340000000000000), nx(0x4340000000000000), nx(0x4340000000000000), nx(0x4340000000000001), nx(0x4340000000000001)),
		perMode("-(2^53+1) to f64", "i64tof64", ops(0xffdfffffffffffff),
			nx(0xc340000000000000), nx(0xc340000000000000), nx(0xc340000000000001), nx(0xc340000000000000), nx(0xc340000000000001)),
		anyMode("2^53 to f64 exactly", "i64tof64", ops(1<<53), 0x4340000000000000, 0),
		anyMode("min int64 to f64", "i64tof64", ops(1<<63), 0xc3e0000000000000, 0),
		perMode("max int64 to f64", "i64tof64", ops(i64max),
			nx(0x43e0000000000000), nx(0x43dfffffffffffff), nx(0x43dfffffffffffff), nx(0x43e0000000000000), nx(0x43e0000000000000)),
		perMode("max uint64 to f64", "u64tof64", ops(u64max),
			nx(0x43f0000000000000), nx(0x43efffffffffffff), nx(0x43efffffffffffff), nx(0x43f0000000000000), nx(0x43f0000000000000)),
		anyMode("2^63 uint to f64", "u64tof64", ops(1<<63), 0x43e0000000000000, 0),
		anyMode("int32 -5 to f64", "i32tof64", ops(uint64(uint32(0xfffffffb))), 0xc014000000000000, 0),
		anyMode("max uint32 to f64", "u32tof64", ops(u32max), 0x41efffffffe00000, 0),
		perMode("2^24+1 to f32: tie", "i32tof32", ops(1<<24+1),
			nx(0x4b800000), nx(0x4b800000), nx(0x4b800000), nx(0x4b800001), nx(0x4b800001)),
		perMode("2^24+3 to f32: tie to the even 2^24+4", "i32tof32", ops(1<<24+3),
			nx(0x4b800002), nx(0x4b800001), nx(0x4b800001), nx(0x4b800002), nx(0x4b800002)),
		anyMode("min int32 to f32", "i32tof32", ops(i32min), 0xcf000000, 0),
		perMode("max int32 to f32", "i32tof32", ops(i32max),
			nx(0x4f000000), nx(0x4effffff), nx(0x4effffff), nx(0x4f000000), nx(0x4f000000)),
		perMode("max uint32 to f32", "u32tof32", ops(u32max),
			nx(0x4f800000), nx(0x4f7fffff), nx(0x4f7fffff), nx(0x4f800000), nx(0x4f800000)),
		anyMode("-1 int64 to f32", "i64tof32", ops(u64max), 0xbf800000, 0),
		perMode("max uint64 to f32", "u64tof32", ops(u64max),
			nx(0x5f800000), nx(0x5f7fffff), nx(0x5f7fffff), nx(0x5f800000), nx(0x5f800000)),
		perMode("-(2^24+1) int64 to f32", "i64tof32", ops(0xfffffffffeffffff),
			nx(0xcb800000), nx(0xcb800000), nx(0xcb800001), nx(0xcb800000), nx(0xcb800001)),
	)
	// float to float
	add(
		anyMode("f32 1 to f64", "f32tof64", ops(one32), one, 0),
		anyMode("f32 min subnormal to f64 = 2^-149", "f32tof64", ops(1), 0x36a0000000000000, 0),
		anyMode("f32 sNaN to f64", "f32tof64", ops(snan32), qnan, NV),
		anyMode("f32 -qNaN to f64", "f32tof64", ops(0xffc00001), qnan, 0),
		anyMode("f32 -inf to f64", "f32tof64", ops(ninf32), ninf, 0),
		anyMode("f32 -0 to f64", "f32tof64", ops(nz32), nz, 0),
		perMode("1+2^-24 to f32: tie", "f64tof32", ops(0x3ff0000010000000),
			nx(one32), nx(one32), nx(one32), nx(oneU32), nx(oneU32)),
		perMode("max f64 to f32 overflows", "f64tof32", ops(maxF),
			ofnx(pinf32), ofnx(maxF32), ofnx(maxF32), ofnx(pinf32), ofnx(pinf32)),
		perMode("-max f64 to f32", "f64tof32", ops(maxF|nz),
			ofnx(ninf32), ofnx(maxF32|nz32), ofnx(ninf32), ofnx(maxF32|nz32), ofnx(ninf32)),
		// 2^128 - 2^103 = MaxFloat32 + half an ulp: the overflow tie.
		perMode("max f32 + half ulp", "f64tof32", ops(0x47efffffff000000),
			ofnx(pinf32), nx(maxF32), nx(maxF32), ofnx(pinf32), ofnx(pinf32)),
		perMode("2^-150 to f32: tie between 0 and min subnormal", "f64tof32", ops(0x3690000000000000),
			ufnx(pz32), ufnx(pz32), ufnx(pz32), ufnx(1), ufnx(1)),
		// 2^-126(1-2^-25) = 0x380fffffff000000: rounding to 24 bits unbounded
		// ties up to 2^-126 in RNE and RMM (not tiny); RTZ/RDN give a tiny
		// result.
		perMode("just below min normal f32: tininess after rounding", "f64tof32", ops(0x380fffffff000000),
			nx(minN32), ufnx(maxS32), ufnx(maxS32), nx(minN32), nx(minN32)),
		anyMode("f64 sNaN to f32", "f64tof32", ops(nsnan), qnan32, NV),
		anyMode("f64 qNaN to f32", "f64tof32", ops(pqnan), qnan32, 0),
		anyMode("f64 -inf to f32", "f64tof32", ops(ninf), ninf32, 0),
		anyMode("f64 -0 to f32", "f64tof32", ops(nz), nz32, 0),
		perMode("f64 min subnormal to f32", "f64tof32", ops(minS), ufnx(pz32), ufnx(pz32), ufnx(pz32), ufnx(1), ufnx(pz32)),
	)
	return cs
}

func compareEdgeCases() []edgeCase {
	var cs []edgeCase
	add := func(desc, op string, a, b, r uint64, fl Flags) {
		cs = append(cs, edgeCase{desc, op, ops(a, b), RNE, res{r, fl}})
	}
	add("qNaN == qNaN is false, quiet", "eq64", qnan, qnan, 0, 0)
	add("sNaN == 1 signals", "eq64", snan, one, 0, NV)
	add("1 == sNaN signals", "eq64", one, nsnan, 0, NV)
	add("+0 == -0", "eq64", pz, nz, 1, 0)
	add("1 == 1", "eq64", one, one, 1, 0)
	add("qNaN < 1 signals", "lt64", qnan, one, 0, NV)
	add("1 <= qNaN signals", "le64", one, qnan, 0, NV)
	add("-0 < +0 is false", "lt64", nz, pz, 0, 0)
	add("-0 <= +0", "le64", nz, pz, 1, 0)
	add("-inf < inf", "lt64", ninf, pinf, 1, 0)
	add("1 < 1 is false", "lt64", one, one, 0, 0)
	add("1 <= 1", "le64", one, one, 1, 0)
	add("-2 < -1", "lt64", 0xc000000000000000, mone, 1, 0)
	add("min subnormal < min normal", "lt64", minS, minN, 1, 0)
	add("f32 sNaN == sNaN signals", "eq32", snan32, snan32, 0, NV)
	add("f32 qNaN == qNaN quiet", "eq32", qnan32, qnan32, 0, 0)
	add("f32 +0 == -0", "eq32", pz32, nz32, 1, 0)
	add("f32 qNaN < 1 signals", "lt32", qnan32, one32, 0, NV)
	add("f32 -1 <= -0", "le32", 0xbf800000, nz32, 1, 0)
	add("f32 2 < 1 is false", "lt32", two32, one32, 0, 0)

	add("min(+0, -0) = -0", "min64", pz, nz, nz, 0)
	add("min(-0, +0) = -0", "min64", nz, pz, nz, 0)
	add("max(-0, +0) = +0", "max64", nz, pz, pz, 0)
	add("max(+0, -0) = +0", "max64", pz, nz, pz, 0)
	add("min(qNaN, 1) = 1 quietly", "min64", qnan, one, one, 0)
	add("max(1, -qNaN) = 1", "max64", one, nqnan, one, 0)
	add("min(sNaN, 1) = 1 with NV", "min64", snan, one, one, NV)
	add("max(1, sNaN) = 1 with NV", "max64", one, snan, one, NV)
	add("min(qNaN, sNaN) = canonical, NV", "min64", qnan, snan, qnan, NV)
	add("max(qNaN with payload, qNaN) = canonical", "max64", pqnan, nqnan, qnan, 0)
	add("min(-inf, 1)", "min64", ninf, one, ninf, 0)
	add("max(3, 2)", "max64", three, two, three, 0)
	add("min(-1, -2) = -2", "min64", mone, 0xc000000000000000, 0xc000000000000000, 0)
	add("max(-1, -2) = -1", "max64", mone, 0xc000000000000000, mone, 0)
	add("min(minS, -0) = -0", "min64", minS, nz, nz, 0)
	add("f32 min(+0, -0)", "min32", pz32, nz32, nz32, 0)
	add("f32 max(-0, +0)", "max32", nz32, pz32, pz32, 0)
	add("f32 min(sNaN, 2)", "min32", snan32, two32, two32, NV)
	add("f32 max(qNaN, qNaN)", "max32", 0xffc00000, qnan32, qnan32, 0)
	add("f32 max(-1, inf)", "max32", 0xbf800000, pinf32, pinf32, 0)

	class := func(desc, op string, a, r uint64) {
		cs = append(cs, edgeCase{desc, op, ops(a), RNE, res{r, 0}})
	}
	class("class -inf", "class64", ninf, 1<<0)
	class("class -1", "class64", mone, 1<<1)
	class("class -max subnormal", "class64", maxS|nz, 1<<2)
	class("class -0", "class64", nz, 1<<3)
	class("class +0", "class64", pz, 1<<4)
	class("class min subnormal", "class64", minS, 1<<5)
	class("class min normal", "class64", minN, 1<<6)
	class("class +inf", "class64", pinf, 1<<7)
	class("class sNaN", "class64", snan, 1<<8)
	class("class negative sNaN", "class64", nsnan, 1<<8)
	class("class qNaN", "class64", qnan, 1<<9)
	class("class negative qNaN", "class64", nqnan, 1<<9)
	class("f32 class -inf", "class32", ninf32, 1<<0)
	class("f32 class -max", "class32", maxF32|nz32, 1<<1)
	class("f32 class -subnormal", "class32", 0x80000001, 1<<2)
	class("f32 class -0", "class32", nz32, 1<<3)
	class("f32 class +0", "class32", pz32, 1<<4)
	class("f32 class +subnormal", "class32", maxS32, 1<<5)
	class("f32 class +normal", "class32", one32, 1<<6)
	class("f32 class +inf", "class32", pinf32, 1<<7)
	class("f32 class sNaN", "class32", 0x7fbfffff, 1<<8)
	class("f32 class qNaN", "class32", 0xffc00000, 1<<9)
	return cs
}

func TestEdgeCases(t *testing.T) {
	for _, group := range [][]edgeCase{arithEdgeCases(), convertEdgeCases(), compareEdgeCases()} {
		for _, c := range group {
			got, fl, err := runOp(c.op, c.in, c.rm)
			if err != nil {
				t.Fatalf("%s: %v", c.desc, err)
			}
			if got != c.want.r || fl != c.want.fl {
				t.Errorf("%s: %s%#x %v = %#x %v, want %#x %v", c.desc, c.op, c.in, c.rm, got, fl, c.want.r, c.want.fl)
			}
		}
	}
}

// TestInvalidModeIsRNE checks that out-of-range rounding modes do not panic
// and behave as RNE.
func TestInvalidModeIsRNE(t *testing.T) {
	for _, rm := range []RoundingMode{5, 6, 7, 255} {
		for _, c := range arithEdgeCases() {
			if c.rm != RNE {
				continue
			}
			got, fl, err := runOp(c.op, c.in, rm)
			if err != nil || got != c.want.r || fl != c.want.fl {
				t.Errorf("%s with rm=%d: got %#x %v, want %#x %v", c.desc, rm, got, fl, c.want.r, c.want.fl)
			}
		}
	}
	if RoundingMode(5).Valid() || !RMM.Valid() {
		t.Error("Valid")
	}
}

func TestStrings(t *testing.T) {
	cases := []struct {
		desc string
		got  string
		want string
	}{
		{"no flags", Flags(0).String(), "-"},
		{"all flags", (NV | DZ | OF | UF | NX).String(), "NV|DZ|OF|UF|NX"},
		{"two flags", (UF | NX).String(), "UF|NX"},
		{"stray bit", Flags(0x21).String(), "NX|?"},
		{"rmm", RMM.String(), "rmm"},
		{"bad mode", RoundingMode(6).String(), "rm?"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.desc, c.got, c.want)
		}
	}
}

// TestCanonicalNaNConstants ties the constants to the host's view.
func TestCanonicalNaNConstants(t *testing.T) {
	if !math.IsNaN(math.Float64frombits(CanonicalNaN64)) || Class64(CanonicalNaN64) != ClassQNaN {
		t.Error("CanonicalNaN64 is not a quiet NaN")
	}
	if Class32(CanonicalNaN32) != ClassQNaN || CanonicalNaN32&0x3fffff != 0 {
		t.Error("CanonicalNaN32 is not the canonical quiet NaN")
	}
}
