// Package softfloat implements IEEE 754 binary32 and binary64 arithmetic with
// exact RISC-V F/D semantics: the five rounding modes (RNE, RTZ, RDN, RUP,
// RMM), accrued exception flags in the fflags bit layout, canonical NaN
// results, tininess detected after rounding, saturating float-to-integer
// conversions and the IEEE 754-2019 minimumNumber/maximumNumber rules of
// fmin/fmax. Values are raw bit patterns (uint32 for single, uint64 for
// double); NaN-boxing of singles in 64-bit registers is the caller's job.
//
// # Fast and slow paths
//
// Every arithmetic operation has two implementations.
//
// The slow path is a conventional soft-float: operands are unpacked into an
// integer significand with its leading one at bit 62 and a biased exponent,
// the operation is done exactly on integers (math/bits.Mul64 and Div64 for
// the 128-bit products and quotients, a 128-bit aligned sum for the fused
// multiply-add) with a sticky bit for everything shifted out, and one
// rounding routine per format (roundPack) applies the rounding mode,
// detects overflow and underflow (tininess after rounding) and packs the
// result. It is correct in every mode and for every operand.
//
// The fast path handles the common case, round-to-nearest-even with finite
// operands and a finite, normal, not-nearly-tiny result, on the host FPU,
// whose arithmetic is already correctly rounded in that mode. Only the
// inexact flag has to be recovered, with error-free transformations:
//
//   - add/sub: by Dekker's lemma s-x is exact when |x| >= |y|, so the sum
//     s = x+y was exact iff s-x == y and s-y == x.
//   - mul, div, sqrt: the residual x*y-z, x-z*y or x-z*z, computed with one
//     math.FMA, is exact when no operand or result is close to the subnormal
//     range, so the operation was exact iff the residual is zero.
//   - fused multiply-add: d = fma(x,y,z); Boldo and Muller's error-free
//     ErrFma (TwoProd of x*y, two TwoSums, one correction term) yields g
//     and a2 with x*y+z = d+g+a2 exactly, so d is exact iff g == -a2.
//   - binary32 operations run in float64: x*y of two singles is exact there,
//     and for + - * / sqrt rounding first to double and then to single gives
//     the correctly rounded single (53 >= 2*24+2). Inexactness: for * / sqrt
//     the single result f times y (or f*f) is exact in float64 and is
//     compared with the operand; for + the result is exact iff the double sum
//     was (tested as above) and float32() did not change it. The single FMA
//     computes the exact product in float64 and adds it in double; the one
//     case where double rounding could go wrong (the double sum lands
//     exactly on a single-precision midpoint while the exact sum does not) is
//     detected and sent to the slow path.
//
// Anything else (other rounding modes, NaN, infinite or zero operands where
// they matter, results that overflow, are subnormal or lie near the
// underflow threshold) falls back to the slow path. Tests check that both
// paths agree bit for bit, flags included, and compare both against golden
// vectors produced by the host x86 FPU (testdata/gen) and against math/big.
//
// Rounding mode values other than RNE..RMM are treated as RNE; the core must
// reject the reserved encodings (5, 6) and resolve DYN (7) before calling.
package softfloat

// Rebuild the golden vectors (needs the host gcc on x86-64 with FMA):
//go:generate sh testdata/gen/gen.sh
