// rv64uf: single-precision floating point (F extension). Each row checks the
// result bits (the whole register, so NaN boxing too) and the exact fflags.
// Expected values follow IEEE 754-2008 as the ISA manual's F chapter
// specialises it: NaN results are the canonical NaN 0x7fc00000, tininess is
// detected after rounding, fcvt to integer saturates with NV only, fmin/fmax
// follow minimumNumber/maximumNumber with -0 < +0.
#include "macros.h"
#include "fp_consts.h"

#define NV 0x10
#define DZ 0x08
#define OF 0x04
#define UF 0x02
#define NX 0x01

        .option norvc
RVTEST_CODE_BEGIN

        // ----- fadd / fsub -----
        TEST_FP_OP_S(fadd.s, 0, S_3_5, S_2_5, S_ONE)
        TEST_FP_OP_S(fadd.s, 0, S_ZERO, S_ONE, S_NONE)
        TEST_FP_OP_S(fadd.s, 0, S_NZERO, S_NZERO, S_NZERO)
        TEST_FP_OP_S(fadd.s, 0, S_ZERO, S_ZERO, S_NZERO)
        TEST_FP_OP_S(fadd.s, 0, S_NZERO, S_ZERO, S_NZERO, rdn)          // x + -x = -0 when rounding down
        TEST_FP_OP_S(fadd.s, 0, 0x00000002, S_SUB1, S_SUB1)             // subnormal + subnormal, exact
        TEST_FP_OP_S(fadd.s, NV, S_QNAN, S_INF, S_NINF)                 // inf - inf
        TEST_FP_OP_S(fadd.s, 0, S_INF, S_INF, S_ONE)
        TEST_FP_OP_S(fadd.s, NV, S_QNAN, S_SNAN, S_ONE)                 // sNaN operand: NV, canonical NaN
        TEST_FP_OP_S(fadd.s, 0, S_QNAN, S_QNAN_PL, S_ONE)               // payload not propagated
        TEST_FP_OP_S(fadd.s, 0, S_QNAN, S_ONE, S_NQNAN)
        TEST_FP_OP_S(fadd.s, OF|NX, S_INF, S_MAX, S_MAX)                // overflow
        TEST_FP_OP_S(fadd.s, OF|NX, S_MAX, S_MAX, S_MAX, rtz)
        TEST_FP_OP_S(fadd.s, OF|NX, S_MAX, S_MAX, S_MAX, rdn)
        TEST_FP_OP_S(fadd.s, OF|NX, S_INF, S_MAX, S_MAX, rup)
        TEST_FP_OP_S(fadd.s, OF|NX, S_INF, S_MAX, S_MAX, rmm)
        TEST_FP_OP_S(fadd.s, OF|NX, S_NMAX, S_NMAX, S_NMAX, rup)
        TEST_FP_OP_S(fadd.s, OF|NX, S_NINF, S_NMAX, S_NMAX, rdn)
        // every static rounding mode on a tie (1 + 2^-24 is halfway between
        // 1 and 1 + 2^-23) and on its negative
        TEST_FP_OP_S(fadd.s, NX, S_ONE, S_ONE, S_2P_24, rne)
        TEST_FP_OP_S(fadd.s, NX, S_ONE, S_ONE, S_2P_24, rtz)
        TEST_FP_OP_S(fadd.s, NX, S_ONE, S_ONE, S_2P_24, rdn)
        TEST_FP_OP_S(fadd.s, NX, S_1P2P_23, S_ONE, S_2P_24, rup)
        TEST_FP_OP_S(fadd.s, NX, S_1P2P_23, S_ONE, S_2P_24, rmm)
        TEST_FP_OP_S(fadd.s, NX, S_NONE, S_NONE, S_N2P_24, rne)
        TEST_FP_OP_S(fadd.s, NX, S_NONE, S_NONE, S_N2P_24, rtz)
        TEST_FP_OP_S(fadd.s, NX, S_N1P2P_23, S_NONE, S_N2P_24, rdn)
        TEST_FP_OP_S(fadd.s, NX, S_NONE, S_NONE, S_N2P_24, rup)
        TEST_FP_OP_S(fadd.s, NX, S_N1P2P_23, S_NONE, S_N2P_24, rmm)
        // RNE tie to even upwards: (1 + 2^-23) + 2^-24 -> 1 + 2^-22
        TEST_FP_OP_S(fadd.s, NX, 0x3f800002, S_1P2P_23, S_2P_24)
        TEST_FP_OP_S(fsub.s, 0, S_1_5, S_2_5, S_ONE)
        TEST_FP_OP_S(fsub.s, 0, S_ZERO, S_ONE, S_ONE)
        TEST_FP_OP_S(fsub.s, 0, S_NZERO, S_ONE, S_ONE, rdn)
        TEST_FP_OP_S(fsub.s, NV, S_QNAN, S_INF, S_INF)
        TEST_FP_OP_S(fsub.s, 0, 0x80000001, S_MINN, S_MINN1)            // exact subnormal: no UF
        TEST_FP_OP_S(fsub.s, NX, S_N1P2P_23, S_NONE, S_2P_24, rdn)

        // ----- fmul -----
        TEST_FP_OP_S(fmul.s, 0, S_2_5, S_2_5, S_ONE)
        TEST_FP_OP_S(fmul.s, 0, S_NFIVE, S_2_5, S_NTWO)
        TEST_FP_OP_S(fmul.s, 0, S_NZERO, S_ZERO, S_NONE)
        TEST_FP_OP_S(fmul.s, NV, S_QNAN, S_INF, S_ZERO)
        TEST_FP_OP_S(fmul.s, OF|NX, S_INF, S_MAX, S_TWO)
        TEST_FP_OP_S(fmul.s, OF|NX, S_MAX, S_MAX, S_TWO, rtz)
        TEST_FP_OP_S(fmul.s, OF|NX, S_NMAX, S_MAX, S_NTWO, rtz)
        TEST_FP_OP_S(fmul.s, 0, 0x00400000, S_MINN, S_HALF)             // exact subnormal result
        TEST_FP_OP_S(fmul.s, UF|NX, 0x00400000, S_MINN1, S_HALF)        // tie, rounds to even: underflow
        TEST_FP_OP_S(fmul.s, UF|NX, 0x00400001, S_MINN1, S_HALF, rup)
        TEST_FP_OP_S(fmul.s, UF|NX, S_ZERO, S_SUB1, S_HALF)             // 2^-150 rounds to 0 (tie to even)
        TEST_FP_OP_S(fmul.s, UF|NX, S_SUB1, S_SUB1, S_HALF, rup)
        TEST_FP_OP_S(fmul.s, UF|NX, S_NZERO, S_NSUB1, S_HALF, rtz)
        TEST_FP_OP_S(fmul.s, NV, S_QNAN, S_SNAN, S_QNAN)

        // ----- fdiv -----
        TEST_FP_OP_S(fdiv.s, 0, S_2_5, S_FIVE, S_TWO)
        TEST_FP_OP_S(fdiv.s, NX, 0x3eaaaaab, S_ONE, S_THREE)            // 1/3
        TEST_FP_OP_S(fdiv.s, NX, 0x3eaaaaaa, S_ONE, S_THREE, rtz)
        TEST_FP_OP_S(fdiv.s, NX, 0x3eaaaaaa, S_ONE, S_THREE, rdn)
        TEST_FP_OP_S(fdiv.s, NX, 0x3eaaaaab, S_ONE, S_THREE, rup)
        TEST_FP_OP_S(fdiv.s, NX, 0xbeaaaaab, S_NONE, S_THREE, rdn)
        TEST_FP_OP_S(fdiv.s, DZ, S_INF, S_ONE, S_ZERO)                  // divide by zero
        TEST_FP_OP_S(fdiv.s, DZ, S_NINF, S_NONE, S_ZERO)
        TEST_FP_OP_S(fdiv.s, DZ, S_NINF, S_ONE, S_NZERO)
        TEST_FP_OP_S(fdiv.s, NV, S_QNAN, S_ZERO, S_ZERO)                // 0/0 is invalid, not DZ
        TEST_FP_OP_S(fdiv.s, NV, S_QNAN, S_INF, S_INF)
        TEST_FP_OP_S(fdiv.s, 0, S_ZERO, S_ONE, S_INF)
        TEST_FP_OP_S(fdiv.s, 0, S_INF, S_INF, S_ZERO)                   // inf/0: exact, no DZ
        TEST_FP_OP_S(fdiv.s, 0, S_QNAN, S_QNAN, S_ZERO)

        // ----- fsqrt -----
        TEST_FP_OP1_S(fsqrt.s, 0, S_TWO, S_FOUR)
        TEST_FP_OP1_S(fsqrt.s, NX, 0x3fb504f3, S_TWO)                   // sqrt(2)
        TEST_FP_OP1_S(fsqrt.s, NX, 0x3fb504f4, S_TWO, rup)
        TEST_FP_OP1_S(fsqrt.s, NV, S_QNAN, S_NONE)                      // negative: invalid
        TEST_FP_OP1_S(fsqrt.s, NV, S_QNAN, S_NINF)
        TEST_FP_OP1_S(fsqrt.s, 0, S_NZERO, S_NZERO)                     // sqrt(-0) = -0
        TEST_FP_OP1_S(fsqrt.s, 0, S_INF, S_INF)
        TEST_FP_OP1_S(fsqrt.s, 0, S_QNAN, S_QNAN_PL)
        TEST_FP_OP1_S(fsqrt.s, NV, S_QNAN, S_SNAN)
        TEST_FP_OP1_S(fsqrt.s, 0, 0x20000000, 0x00800000)               // sqrt(2^-126) = 2^-63

        // ----- fmin / fmax -----
        TEST_FP_OP_S(fmin.s, 0, S_ONE, S_ONE, S_TWO)
        TEST_FP_OP_S(fmin.s, 0, S_NTWO, S_ONE, S_NTWO)
        TEST_FP_OP_S(fmax.s, 0, S_TWO, S_ONE, S_TWO)
        TEST_FP_OP_S(fmax.s, 0, S_ONE, S_ONE, S_NTWO)
        TEST_FP_OP_S(fmin.s, 0, S_NZERO, S_NZERO, S_ZERO)               // -0 < +0
        TEST_FP_OP_S(fmin.s, 0, S_NZERO, S_ZERO, S_NZERO)
        TEST_FP_OP_S(fmax.s, 0, S_ZERO, S_NZERO, S_ZERO)
        TEST_FP_OP_S(fmax.s, 0, S_ZERO, S_ZERO, S_NZERO)
        TEST_FP_OP_S(fmin.s, 0, S_ONE, S_QNAN, S_ONE)                   // one quiet NaN: the number
        TEST_FP_OP_S(fmin.s, 0, S_ONE, S_ONE, S_QNAN_PL)
        TEST_FP_OP_S(fmax.s, 0, S_NONE, S_NQNAN, S_NONE)
        TEST_FP_OP_S(fmin.s, NV, S_ONE, S_SNAN, S_ONE)                  // signaling NaN: the number, NV
        TEST_FP_OP_S(fmax.s, NV, S_ONE, S_ONE, S_SNAN)
        TEST_FP_OP_S(fmin.s, 0, S_QNAN, S_QNAN_PL, S_NQNAN)             // both NaN: canonical NaN
        TEST_FP_OP_S(fmax.s, NV, S_QNAN, S_SNAN, S_SNAN)
        TEST_FP_OP_S(fmin.s, 0, S_NINF, S_NINF, S_MAX)
        TEST_FP_OP_S(fmax.s, 0, S_INF, S_NINF, S_INF)

        // ----- feq / flt / fle: feq is quiet, flt/fle signal on any NaN -----
        TEST_FP_CMP_S(feq.s, 0, 1, S_ONE, S_ONE)
        TEST_FP_CMP_S(feq.s, 0, 0, S_ONE, S_TWO)
        TEST_FP_CMP_S(feq.s, 0, 1, S_NZERO, S_ZERO)
        TEST_FP_CMP_S(feq.s, 0, 0, S_QNAN, S_ONE)
        TEST_FP_CMP_S(feq.s, 0, 0, S_QNAN, S_QNAN)
        TEST_FP_CMP_S(feq.s, NV, 0, S_SNAN, S_ONE)
        TEST_FP_CMP_S(feq.s, NV, 0, S_ONE, S_SNAN)
        TEST_FP_CMP_S(flt.s, 0, 1, S_NTWO, S_ONE)
        TEST_FP_CMP_S(flt.s, 0, 0, S_ONE, S_ONE)
        TEST_FP_CMP_S(flt.s, 0, 0, S_NZERO, S_ZERO)
        TEST_FP_CMP_S(flt.s, 0, 1, S_NINF, S_NMAX)
        TEST_FP_CMP_S(flt.s, NV, 0, S_QNAN, S_ONE)
        TEST_FP_CMP_S(flt.s, NV, 0, S_ONE, S_SNAN)
        TEST_FP_CMP_S(fle.s, 0, 1, S_ONE, S_ONE)
        TEST_FP_CMP_S(fle.s, 0, 1, S_NZERO, S_ZERO)
        TEST_FP_CMP_S(fle.s, 0, 0, S_TWO, S_ONE)
        TEST_FP_CMP_S(fle.s, NV, 0, S_QNAN, S_QNAN)
        TEST_FP_CMP_S(fle.s, NV, 0, S_SNAN, S_ONE)

        // ----- fclass: all ten classes -----
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 0, S_NINF)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 1, S_NONE)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 2, S_NSUB1)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 3, S_NZERO)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 4, S_ZERO)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 5, 0x007fffff)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 6, S_MINN)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 7, S_INF)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 8, S_SNAN)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 8, 0xffbfffff)                // negative sNaN
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 9, S_QNAN)
        TEST_FP_TOINT_S(fclass.s, 0, 1 << 9, S_NQNAN)

        // ----- fsgnj family (no flags, even for NaN) -----
        TEST_FP_OP_S(fsgnj.s, 0, S_NONE, S_ONE, S_NTWO)
        TEST_FP_OP_S(fsgnj.s, 0, S_ONE, S_NONE, S_TWO)
        TEST_FP_OP_S(fsgnjn.s, 0, S_ONE, S_ONE, S_NTWO)
        TEST_FP_OP_S(fsgnjn.s, 0, S_NONE, S_ONE, S_TWO)
        TEST_FP_OP_S(fsgnjx.s, 0, S_ONE, S_NONE, S_NTWO)
        TEST_FP_OP_S(fsgnjx.s, 0, S_NONE, S_NONE, S_TWO)
        TEST_FP_OP_S(fsgnjx.s, 0, S_NONE, S_ONE, S_NTWO)
        TEST_FP_OP_S(fsgnj.s, 0, 0xff800001, S_SNAN, S_NONE)            // sNaN bits kept, no NV
        TEST_FP_OP_S(fsgnjn.s, 0, S_NZERO, S_ZERO, S_ZERO)              // fneg
        TEST_FP_OP_S(fsgnjx.s, 0, S_ONE, S_NONE, S_NONE)                // fabs

        // ----- fused multiply-add, with signs, single rounding -----
        TEST_FP_OP3_S(fmadd.s, 0, S_FIVE, S_ONE, S_TWO, S_THREE)        //  1*2 + 3
        TEST_FP_OP3_S(fmsub.s, 0, S_NONE, S_ONE, S_TWO, S_THREE)        //  1*2 - 3
        TEST_FP_OP3_S(fnmsub.s, 0, S_ONE, S_ONE, S_TWO, S_THREE)        // -1*2 + 3
        TEST_FP_OP3_S(fnmadd.s, 0, S_NFIVE, S_ONE, S_TWO, S_THREE)      // -1*2 - 3
        TEST_FP_OP3_S(fmadd.s, 0, S_ONE, S_NONE, S_TWO, S_THREE)        // -1*2 + 3
        TEST_FP_OP3_S(fnmadd.s, 0, S_NONE, S_NONE, S_TWO, S_THREE)      // -(-2) - 3
        TEST_FP_OP3_S(fmsub.s, 0, S_FIVE, S_ONE, S_TWO, 0xc0400000)     // 2 - (-3)
        TEST_FP_OP3_S(fnmsub.s, 0, S_ONE, S_NONE, S_NTWO, S_THREE)      // -(-1*-2) + 3
        TEST_FP_OP3_S(fmadd.s, 0, 0x3a000400, 0x3f800800, 0x3f800800, S_NONE) // (1+2^-12)^2 - 1: fused, exact
        TEST_FP_OP3_S(fmadd.s, NV, S_QNAN, S_INF, S_ZERO, S_QNAN)       // inf*0 + qNaN still signals
        TEST_FP_OP3_S(fmadd.s, NV, S_QNAN, S_INF, S_ONE, S_NINF)        // inf - inf
        TEST_FP_OP3_S(fmadd.s, 0, S_QNAN, S_QNAN, S_ONE, S_ONE)
        TEST_FP_OP3_S(fmadd.s, NV, S_QNAN, S_ONE, S_ONE, S_SNAN)
        TEST_FP_OP3_S(fmadd.s, 0, S_ZERO, S_ZERO, S_ONE, S_NZERO)       // +0 + -0 = +0
        TEST_FP_OP3_S(fnmadd.s, 0, S_NZERO, S_ZERO, S_ONE, S_ZERO)      // -(+0) - (+0) = -0
        TEST_FP_OP3_S(fnmsub.s, 0, S_ZERO, S_ZERO, S_ONE, S_ZERO)       // -(+0) + (+0) = +0
        TEST_FP_OP3_S(fmsub.s, 0, S_NZERO, S_ZERO, S_ONE, S_ZERO, rdn)  // +0 - +0 rounding down = -0
        TEST_FP_OP3_S(fmadd.s, UF|NX, S_MINN, S_MINN, S_N2P_24, S_MINN) // 2^-126(1-2^-24): tiny, rounds to MINN
        TEST_FP_OP3_S(fmadd.s, NX, S_MINN, S_MINN, S_N2P_26, S_MINN)    // 2^-126(1-2^-26): not tiny after rounding
        TEST_FP_OP3_S(fmadd.s, OF|NX, S_INF, S_MAX, S_TWO, S_NONE)

        // ----- conversions to integer: rounding, saturation, NV -----
        TEST_FP_TOINT_S(fcvt.w.s, 0, 0xfffffffffffffffe, S_NTWO)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 2, S_1_5)                          // default rm: dyn, frm = rne
        TEST_FP_TOINT_S(fcvt.w.s, NX, 2, S_2_5, rne)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 2, S_2_5, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 2, S_2_5, rdn)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 3, S_2_5, rup)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 3, S_2_5, rmm)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffe, S_N2_5, rne)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffe, S_N2_5, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffd, S_N2_5, rdn)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffe, S_N2_5, rup)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffd, S_N2_5, rmm)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 1, S_1_9, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 0xfffffffffffffffe, S_N1_1, rdn)
        TEST_FP_TOINT_S(fcvt.w.s, NX, 2, S_1_1, rup)
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0x7fffffff, S_QNAN, rtz)           // NaN -> max
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0x7fffffff, S_NQNAN, rtz)          // any NaN, whatever the sign
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0x7fffffff, S_INF, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0xffffffff80000000, S_NINF, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0x7fffffff, S_3E9, rtz)            // out of range: NV, not NX
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0xffffffff80000000, S_N3E9, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, NV, 0x7fffffff, S_2P31, rtz)
        TEST_FP_TOINT_S(fcvt.w.s, 0, 0xffffffff80000000, S_N2P31, rtz)   // exactly INT32_MIN
        TEST_FP_TOINT_S(fcvt.wu.s, 0, 3, S_THREE, rtz)
        TEST_FP_TOINT_S(fcvt.wu.s, 0, 0xffffffffb2d05e00, S_3E9, rtz)    // result sign-extends
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0xffffffffffffffff, S_QNAN, rtz)  // NaN -> 2^32-1, sign-extended
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0xffffffffffffffff, S_INF, rtz)
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0xffffffffffffffff, S_2P32, rtz)
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0, S_NINF, rtz)
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0, S_NONE, rtz)
        TEST_FP_TOINT_S(fcvt.wu.s, NX, 0, S_NHALF, rtz)                  // rounds to -0: in range
        TEST_FP_TOINT_S(fcvt.wu.s, NV, 0, S_N0_7, rne)                   // rounds to -1: out of range
        TEST_FP_TOINT_S(fcvt.wu.s, 0, 0, S_NZERO, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, 0, 0xffffffffffffffff, S_NONE, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, 0, 0x80000000, S_2P31, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, NX, 3, S_2_5, rmm)
        TEST_FP_TOINT_S(fcvt.l.s, NV, 0x7fffffffffffffff, S_QNAN, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, NV, 0x7fffffffffffffff, S_INF, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, NV, 0x8000000000000000, S_NINF, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, NV, 0x7fffffffffffffff, S_2P63, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, 0, 0x8000000000000000, S_N2P63, rtz)
        TEST_FP_TOINT_S(fcvt.l.s, NV, 0x8000000000000000, 0xdf800000, rtz)   // -2^64
        TEST_FP_TOINT_S(fcvt.lu.s, 0, 0x100000000, S_2P32, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, 0, 0x8000000000000000, S_2P63, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0xffffffffffffffff, S_QNAN, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0xffffffffffffffff, S_2P64, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0xffffffffffffffff, S_INF, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0xffffffffffffffff, S_SNAN, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0, S_NONE, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NV, 0, S_NINF, rtz)
        TEST_FP_TOINT_S(fcvt.lu.s, NX, 0, S_NHALF, rtz)

        // ----- conversions from integer -----
        TEST_FP_FROMINT_S(fcvt.s.w, 0, S_NONE, 0xffffffffffffffff)
        TEST_FP_FROMINT_S(fcvt.s.w, 0, S_TWO, 0x1234567800000002)       // low word only
        TEST_FP_FROMINT_S(fcvt.s.w, NX, S_2P31, 0x7fffffff)
        TEST_FP_FROMINT_S(fcvt.s.w, NX, 0x4effffff, 0x7fffffff, rtz)
        TEST_FP_FROMINT_S(fcvt.s.w, 0, S_N2P31, 0x80000000)
        TEST_FP_FROMINT_S(fcvt.s.w, 0, S_ZERO, 0)
        TEST_FP_FROMINT_S(fcvt.s.wu, NX, S_2P32, 0xffffffff)
        TEST_FP_FROMINT_S(fcvt.s.wu, NX, S_2P32, 0xffffffffffffffff)     // low word only
        TEST_FP_FROMINT_S(fcvt.s.wu, NX, 0x4f7fffff, 0xffffffff, rdn)
        TEST_FP_FROMINT_S(fcvt.s.wu, 0, S_2P31, 0x80000000)
        TEST_FP_FROMINT_S(fcvt.s.l, 0, S_N2P63, 0x8000000000000000)
        TEST_FP_FROMINT_S(fcvt.s.l, NX, S_2P63, 0x7fffffffffffffff)
        TEST_FP_FROMINT_S(fcvt.s.l, 0, S_NONE, 0xffffffffffffffff)
        TEST_FP_FROMINT_S(fcvt.s.l, NX, 0x4b800002, 0x1000003, rne)      // 2^24+3 -> 2^24+4 (even)
        TEST_FP_FROMINT_S(fcvt.s.l, NX, 0x4b800001, 0x1000001, rup)
        TEST_FP_FROMINT_S(fcvt.s.l, NX, 0x4b800000, 0x1000001, rne)      // tie to even: 2^24
        TEST_FP_FROMINT_S(fcvt.s.lu, NX, S_2P64, 0xffffffffffffffff)
        TEST_FP_FROMINT_S(fcvt.s.lu, 0, S_2P63, 0x8000000000000000)

        // ----- dynamic rounding through frm -----
#define TEST_DYN_S(frmval, result, a, b)                                \
        fsrmi frmval;                                                   \
        TEST_FP_OP_S(fadd.s, NX, result, a, b, dyn);                    \
        fsrmi 0
        TEST_DYN_S(0, S_ONE, S_ONE, S_2P_24)
        TEST_DYN_S(1, S_ONE, S_ONE, S_2P_24)
        TEST_DYN_S(2, S_ONE, S_ONE, S_2P_24)
        TEST_DYN_S(3, S_1P2P_23, S_ONE, S_2P_24)
        TEST_DYN_S(4, S_1P2P_23, S_ONE, S_2P_24)
        TEST_DYN_S(2, S_N1P2P_23, S_NONE, S_N2P_24)
        TEST_DYN_S(3, S_NONE, S_NONE, S_N2P_24)
        TEST_CASE(x14, NX, fsrmi 1; LOAD_S(f1, S_2_5); fsflags x0; fcvt.w.s x7, f1, dyn;
                  li x6, 2; bne x7, x6, fail; fsrmi 0; frflags x14)
        TEST_CASE(x14, 3, fsrmi 3; LOAD_S(f1, S_2_5); fcvt.w.s x14, f1; fsrmi 0) // the default rm is dyn

        // ----- moves, loads, stores, NaN boxing -----
        TEST_CASE(x14, 0xffffffffbf800000, LOAD_S(f1, S_NONE); fmv.x.w x14, f1)     // sign-extends
        TEST_CASE(x14, 0x3f800000, LOAD_S(f1, S_ONE); fmv.x.w x14, f1)
        TEST_CASE(x14, BOX(S_ONE), li x1, 0xabcdef013f800000; fmv.w.x f1, x1; fmv.x.d x14, f1) // boxes
        TEST_CASE(x14, BOX(0x7f800001), li x1, 0x7f800001; fmv.w.x f1, x1; fmv.x.d x14, f1)     // sNaN bits kept
        TEST_CASE(x14, BOX(0x89abcdef), la x1, fdat; flw f1, 0(x1); fmv.x.d x14, f1)           // flw boxes
        TEST_CASE(x14, 0xffffffff89abcdef, la x1, fdat; flw f1, 0(x1); fmv.x.w x14, f1)
        TEST_CASE(x14, 0x7654321089abcdef, la x1, fdat; flw f1, 0(x1); fsw f1, 8(x1); ld x14, 8(x1)) // fsw: 4 bytes
        TEST_CASE(x14, 0xffffffffbf800000, la x1, fdat; LOAD_S(f1, S_NONE); fsw f1, -4(x1); lw x14, -4(x1))
        TEST_CASE(x14, 0x00013f80, la x1, fdat; li x2, 0x13f800000; sd x2, 16(x1); flw f1, 18(x1); fmv.x.w x14, f1) // misaligned flw
        // A value that is not properly NaN-boxed reads as the canonical NaN.
        TEST_FP_RAW(0, BOX(S_QNAN), 0x000000003f800000, BOX(S_ONE), fadd.s f3, f1, f2; fmv.x.d x14, f3)
        TEST_FP_RAW(0, BOX(S_QNAN), 0xfffffffe3f800000, BOX(S_ONE), fadd.s f3, f1, f2; fmv.x.d x14, f3)
        TEST_FP_RAW(0, 1 << 9, 0x000000003f800000, 0, fclass.s x14, f1)
        TEST_FP_RAW(0, BOX(S_NQNAN), 0x000000003f800000, BOX(S_NONE), fsgnj.s f3, f1, f2; fmv.x.d x14, f3)
        TEST_FP_RAW(0, BOX(S_ONE), 0x00000000bf800000, BOX(S_ONE), fsgnjx.s f3, f2, f1; fmv.x.d x14, f3) // bad rs2 is +qNaN
        TEST_FP_RAW(0, 0, 0x000000003f800000, 0x000000003f800000, feq.s x14, f1, f2)
        TEST_FP_RAW(NV, 0, 0x000000003f800000, BOX(S_TWO), flt.s x14, f1, f2)
        TEST_FP_RAW(0, BOX(S_TWO), 0x000000003f800000, BOX(S_TWO), fmin.s f3, f1, f2; fmv.x.d x14, f3)
        TEST_FP_RAW(NV, 0x7fffffff, 0x000000003f800000, 0, fcvt.w.s x14, f1, rtz)
        TEST_FP_RAW(0, 0x3f800000, 0x000000003f800000, 0, fmv.x.w x14, f1)    // moves ignore boxing
        TEST_FP_RAW(0, 0x3f800000, 0x000000003f800000, 0, la x1, fdat + 24; fsw f1, 0(x1); lwu x14, 0(x1))

        j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .balign 8
        .word 0
fdat:   .word 0x89abcdef, 0
        .dword 0x7654321000000000
        .skip 32
RVTEST_DATA_END
