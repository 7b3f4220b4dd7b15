// rv64ud: double-precision floating point (D extension), and the
// conversions between single and double. Same conventions as rv64uf.S:
// result bits and exact fflags on every row.
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
        TEST_FP_OP_D(fadd.d, 0, D_3_5, D_2_5, D_ONE)
        TEST_FP_OP_D(fadd.d, 0, D_ZERO, D_ONE, D_NONE)
        TEST_FP_OP_D(fadd.d, 0, D_NZERO, D_ONE, D_NONE, rdn)
        TEST_FP_OP_D(fadd.d, 0, D_NZERO, D_NZERO, D_NZERO)
        TEST_FP_OP_D(fadd.d, 0, 0x0000000000000002, D_SUB1, D_SUB1)
        TEST_FP_OP_D(fadd.d, NV, D_QNAN, D_INF, D_NINF)
        TEST_FP_OP_D(fadd.d, NV, D_QNAN, D_SNAN, D_ONE)
        TEST_FP_OP_D(fadd.d, 0, D_QNAN, D_QNAN_PL, D_ONE)
        TEST_FP_OP_D(fadd.d, 0, D_QNAN, D_ONE, D_NQNAN)
        TEST_FP_OP_D(fadd.d, OF|NX, D_INF, D_MAX, D_MAX)
        TEST_FP_OP_D(fadd.d, OF|NX, D_MAX, D_MAX, D_MAX, rtz)
        TEST_FP_OP_D(fadd.d, OF|NX, D_MAX, D_MAX, D_MAX, rdn)
        TEST_FP_OP_D(fadd.d, OF|NX, D_INF, D_MAX, D_MAX, rup)
        TEST_FP_OP_D(fadd.d, OF|NX, D_INF, D_MAX, D_MAX, rmm)
        TEST_FP_OP_D(fadd.d, OF|NX, D_NMAX, D_NMAX, D_NMAX, rup)
        TEST_FP_OP_D(fadd.d, OF|NX, D_NINF, D_NMAX, D_NMAX, rne)
        TEST_FP_OP_D(fadd.d, NX, D_ONE, D_ONE, D_2P_53, rne)            // tie
        TEST_FP_OP_D(fadd.d, NX, D_ONE, D_ONE, D_2P_53, rtz)
        TEST_FP_OP_D(fadd.d, NX, D_ONE, D_ONE, D_2P_53, rdn)
        TEST_FP_OP_D(fadd.d, NX, D_1P2P_52, D_ONE, D_2P_53, rup)
        TEST_FP_OP_D(fadd.d, NX, D_1P2P_52, D_ONE, D_2P_53, rmm)
        TEST_FP_OP_D(fadd.d, NX, D_NONE, D_NONE, D_N2P_53, rne)
        TEST_FP_OP_D(fadd.d, NX, D_NONE, D_NONE, D_N2P_53, rtz)
        TEST_FP_OP_D(fadd.d, NX, D_N1P2P_52, D_NONE, D_N2P_53, rdn)
        TEST_FP_OP_D(fadd.d, NX, D_NONE, D_NONE, D_N2P_53, rup)
        TEST_FP_OP_D(fadd.d, NX, D_N1P2P_52, D_NONE, D_N2P_53, rmm)
        TEST_FP_OP_D(fadd.d, NX, 0x3ff0000000000002, D_1P2P_52, D_2P_53) // tie to even, upwards
        TEST_FP_OP_D(fsub.d, 0, D_1_5, D_2_5, D_ONE)
        TEST_FP_OP_D(fsub.d, NV, D_QNAN, D_NINF, D_NINF)
        TEST_FP_OP_D(fsub.d, 0, 0x8000000000000001, D_MINN, D_MINN1)    // exact subnormal
        TEST_FP_OP_D(fsub.d, 0, D_NZERO, D_TWO, D_TWO, rdn)

        // ----- fmul -----
        TEST_FP_OP_D(fmul.d, 0, D_2_5, D_2_5, D_ONE)
        TEST_FP_OP_D(fmul.d, 0, D_NFIVE, D_2_5, D_NTWO)
        TEST_FP_OP_D(fmul.d, NV, D_QNAN, D_ZERO, D_NINF)
        TEST_FP_OP_D(fmul.d, OF|NX, D_INF, D_MAX, D_TWO)
        TEST_FP_OP_D(fmul.d, OF|NX, D_MAX, D_MAX, D_TWO, rdn)
        TEST_FP_OP_D(fmul.d, OF|NX, D_NINF, D_MAX, D_NTWO, rdn)
        TEST_FP_OP_D(fmul.d, 0, 0x0008000000000000, D_MINN, D_HALF)
        TEST_FP_OP_D(fmul.d, UF|NX, 0x0008000000000000, D_MINN1, D_HALF) // tie to even
        TEST_FP_OP_D(fmul.d, UF|NX, 0x0008000000000001, D_MINN1, D_HALF, rmm)
        TEST_FP_OP_D(fmul.d, UF|NX, D_ZERO, D_SUB1, D_HALF)
        TEST_FP_OP_D(fmul.d, UF|NX, D_SUB1, D_SUB1, D_HALF, rup)
        TEST_FP_OP_D(fmul.d, UF|NX, D_NZERO, D_NSUB1, D_HALF)
        TEST_FP_OP_D(fmul.d, UF|NX, D_MINN, 0x001fffffffffffff, D_HALF)  // 2^-1022 - 2^-1075: tiny, rounds to MINN

        // ----- fdiv -----
        TEST_FP_OP_D(fdiv.d, 0, D_2_5, D_FIVE, D_TWO)
        TEST_FP_OP_D(fdiv.d, NX, 0x3fd5555555555555, D_ONE, D_THREE)    // 1/3
        TEST_FP_OP_D(fdiv.d, NX, 0x3fd5555555555556, D_ONE, D_THREE, rup)
        TEST_FP_OP_D(fdiv.d, NX, 0x3fd5555555555555, D_ONE, D_THREE, rmm)
        TEST_FP_OP_D(fdiv.d, NX, 0x3fe5555555555555, D_TWO, D_THREE)    // 2/3 rounds down
        TEST_FP_OP_D(fdiv.d, DZ, D_INF, D_ONE, D_ZERO)
        TEST_FP_OP_D(fdiv.d, DZ, D_NINF, D_ONE, D_NZERO)
        TEST_FP_OP_D(fdiv.d, NV, D_QNAN, D_NZERO, D_ZERO)
        TEST_FP_OP_D(fdiv.d, NV, D_QNAN, D_NINF, D_INF)
        TEST_FP_OP_D(fdiv.d, OF|NX, D_INF, D_MAX, D_HALF)
        TEST_FP_OP_D(fdiv.d, UF|NX, D_ZERO, D_SUB1, D_FOUR)

        // ----- fsqrt -----
        TEST_FP_OP1_D(fsqrt.d, 0, D_TWO, D_FOUR)
        TEST_FP_OP1_D(fsqrt.d, NX, 0x3ff6a09e667f3bcd, D_TWO)           // sqrt(2)
        TEST_FP_OP1_D(fsqrt.d, NX, 0x3ff6a09e667f3bcc, D_TWO, rdn)
        TEST_FP_OP1_D(fsqrt.d, NV, D_QNAN, D_NONE)
        TEST_FP_OP1_D(fsqrt.d, NV, D_QNAN, D_NSUB1)
        TEST_FP_OP1_D(fsqrt.d, 0, D_NZERO, D_NZERO)
        TEST_FP_OP1_D(fsqrt.d, 0, D_INF, D_INF)
        TEST_FP_OP1_D(fsqrt.d, NV, D_QNAN, D_SNAN)
        TEST_FP_OP1_D(fsqrt.d, 0, 0x1e60000000000000, D_SUB1)           // sqrt(2^-1074) = 2^-537

        // ----- fmin / fmax -----
        TEST_FP_OP_D(fmin.d, 0, D_ONE, D_ONE, D_TWO)
        TEST_FP_OP_D(fmax.d, 0, D_TWO, D_ONE, D_TWO)
        TEST_FP_OP_D(fmin.d, 0, D_NTWO, D_NTWO, D_NONE)
        TEST_FP_OP_D(fmin.d, 0, D_NZERO, D_ZERO, D_NZERO)
        TEST_FP_OP_D(fmax.d, 0, D_ZERO, D_NZERO, D_ZERO)
        TEST_FP_OP_D(fmin.d, 0, D_ONE, D_QNAN, D_ONE)
        TEST_FP_OP_D(fmax.d, 0, D_ONE, D_ONE, D_NQNAN)
        TEST_FP_OP_D(fmin.d, NV, D_ONE, D_SNAN, D_ONE)
        TEST_FP_OP_D(fmax.d, NV, D_NONE, D_NONE, D_SNAN)
        TEST_FP_OP_D(fmin.d, 0, D_QNAN, D_QNAN_PL, D_QNAN_PL)
        TEST_FP_OP_D(fmax.d, NV, D_QNAN, D_SNAN, D_QNAN)

        // ----- compares -----
        TEST_FP_CMP_D(feq.d, 0, 1, D_ONE, D_ONE)
        TEST_FP_CMP_D(feq.d, 0, 1, D_ZERO, D_NZERO)
        TEST_FP_CMP_D(feq.d, 0, 0, D_QNAN, D_QNAN)
        TEST_FP_CMP_D(feq.d, NV, 0, D_SNAN, D_SNAN)
        TEST_FP_CMP_D(flt.d, 0, 1, D_NONE, D_ONE)
        TEST_FP_CMP_D(flt.d, 0, 0, D_ZERO, D_NZERO)
        TEST_FP_CMP_D(flt.d, NV, 0, D_QNAN, D_ONE)
        TEST_FP_CMP_D(fle.d, 0, 1, D_NZERO, D_ZERO)
        TEST_FP_CMP_D(fle.d, 0, 0, D_ONE, D_NONE)
        TEST_FP_CMP_D(fle.d, NV, 0, D_ONE, D_QNAN)

        // ----- fclass -----
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 0, D_NINF)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 1, D_NMAX)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 2, D_NSUB1)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 3, D_NZERO)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 4, D_ZERO)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 5, 0x000fffffffffffff)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 6, D_ONE)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 7, D_INF)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 8, D_SNAN)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 9, D_QNAN)
        TEST_FP_TOINT_D(fclass.d, 0, 1 << 9, D_NQNAN)

        // ----- sign injection -----
        TEST_FP_OP_D(fsgnj.d, 0, D_NONE, D_ONE, D_NTWO)
        TEST_FP_OP_D(fsgnjn.d, 0, D_ONE, D_ONE, D_NTWO)
        TEST_FP_OP_D(fsgnjn.d, 0, D_NONE, D_ONE, D_TWO)
        TEST_FP_OP_D(fsgnjx.d, 0, D_ONE, D_NONE, D_NTWO)
        TEST_FP_OP_D(fsgnjx.d, 0, D_NONE, D_ONE, D_NTWO)
        TEST_FP_OP_D(fsgnj.d, 0, 0xfff0000000000001, D_SNAN, D_NONE)    // no NV, bits kept

        // ----- fused multiply-add -----
        TEST_FP_OP3_D(fmadd.d, 0, D_FIVE, D_ONE, D_TWO, D_THREE)
        TEST_FP_OP3_D(fmsub.d, 0, D_NONE, D_ONE, D_TWO, D_THREE)
        TEST_FP_OP3_D(fnmsub.d, 0, D_ONE, D_ONE, D_TWO, D_THREE)
        TEST_FP_OP3_D(fnmadd.d, 0, D_NFIVE, D_ONE, D_TWO, D_THREE)
        TEST_FP_OP3_D(fnmadd.d, 0, D_NONE, D_NONE, D_TWO, D_THREE)      // -(-2) - 3
        TEST_FP_OP3_D(fmadd.d, 0, 0x3e50000001000000, 0x3ff0000002000000, 0x3ff0000002000000, D_NONE) // (1+2^-27)^2 - 1 = 2^-26 + 2^-54: fused, exact
        TEST_FP_OP3_D(fmadd.d, NV, D_QNAN, D_ZERO, D_INF, D_QNAN)
        TEST_FP_OP3_D(fmadd.d, NV, D_QNAN, D_INF, D_ONE, D_NINF)
        TEST_FP_OP3_D(fmadd.d, NV, D_QNAN, D_SNAN, D_ONE, D_ONE)
        TEST_FP_OP3_D(fnmadd.d, 0, D_NZERO, D_ZERO, D_ONE, D_ZERO)
        TEST_FP_OP3_D(fnmsub.d, 0, D_ZERO, D_ZERO, D_ONE, D_ZERO)
        TEST_FP_OP3_D(fmadd.d, NX, D_MINN, D_MINN, D_N2P_55, D_MINN)    // 2^-1022(1-2^-55): not tiny after rounding
        TEST_FP_OP3_D(fmadd.d, UF|NX, D_MINN, D_MINN, D_N2P_53, D_MINN) // 2^-1022(1-2^-53): tiny
        TEST_FP_OP3_D(fmsub.d, OF|NX, D_NINF, D_NMAX, D_TWO, D_ONE)

        // ----- conversions to integer -----
        TEST_FP_TOINT_D(fcvt.w.d, NX, 2, D_2_5, rne)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 2, D_2_5, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 2, D_2_5, rdn)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 3, D_2_5, rup)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 3, D_2_5, rmm)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0xfffffffffffffffe, D_N2_5, rne)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0xfffffffffffffffd, D_N2_5, rdn)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0xfffffffffffffffe, D_N2_5, rup)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0xfffffffffffffffd, D_N2_5, rmm)
        TEST_FP_TOINT_D(fcvt.w.d, 0, 0x7fffffff, D_2P31M1, rne)
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0x7fffffff, D_2P31MH, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0x7fffffff, D_2P31MH, rne)         // rounds to 2^31: out of range
        TEST_FP_TOINT_D(fcvt.w.d, NX, 0xffffffff80000000, D_N2P31MH, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0xffffffff80000000, D_N2P31MH, rdn)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0x7fffffff, D_QNAN, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0x7fffffff, D_SNAN, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0x7fffffff, D_INF, rtz)
        TEST_FP_TOINT_D(fcvt.w.d, NV, 0xffffffff80000000, D_NINF, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, 0, 0xffffffffffffffff, D_2P32M1, rtz) // 2^32-1, sign-extended
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0xffffffffffffffff, D_2P32, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0xffffffffffffffff, D_QNAN, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0, D_NONE, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0, D_NINF, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0xffffffffffffffff, D_INF, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NV, 0xffffffffffffffff, D_NQNAN, rtz)
        TEST_FP_TOINT_D(fcvt.wu.d, NX, 0xffffffffffffffff, 0x41efffffffe80000, rtz) // 4294967295.25
        TEST_FP_TOINT_D(fcvt.wu.d, 0, 0xffffffff80000000, D_2P31, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, 0, 0xffffffffffffffff, D_NONE, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, NX, 0xfffffffffffffffe, D_N1_5, rne)
        TEST_FP_TOINT_D(fcvt.l.d, NV, 0x7fffffffffffffff, D_2P63, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, 0, 0x8000000000000000, D_N2P63, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, NV, 0x7fffffffffffffff, D_QNAN, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, NV, 0x8000000000000000, D_NINF, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, NV, 0x7fffffffffffffff, D_INF, rtz)
        TEST_FP_TOINT_D(fcvt.l.d, NV, 0x8000000000000000, 0xc3f0000000000000, rtz) // -2^64
        TEST_FP_TOINT_D(fcvt.l.d, 0, 0x7ffffffffffffc00, 0x43dfffffffffffff, rtz) // largest double below 2^63
        TEST_FP_TOINT_D(fcvt.lu.d, 0, 0xfffffffffffff800, D_2P64M, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NV, 0xffffffffffffffff, D_2P64, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NV, 0xffffffffffffffff, D_QNAN, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NV, 0xffffffffffffffff, D_INF, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NV, 0, D_NINF, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NV, 0, D_NONE, rtz)
        TEST_FP_TOINT_D(fcvt.lu.d, NX, 0, 0xbfe0000000000000, rtz)     // -0.5 -> -0: in range

        // ----- conversions from integer -----
        TEST_FP_FROMINT_D(fcvt.d.w, 0, D_NONE, 0xffffffff)              // low word, signed
        TEST_FP_FROMINT_D(fcvt.d.w, 0, D_N2P31, 0x80000000)
        TEST_FP_FROMINT_D(fcvt.d.w, 0, D_2P31M1, 0x7fffffff)
        TEST_FP_FROMINT_D(fcvt.d.wu, 0, D_2P32M1, 0xffffffff)
        TEST_FP_FROMINT_D(fcvt.d.wu, 0, D_2P32M1, 0xffffffffffffffff)
        TEST_FP_FROMINT_D(fcvt.d.wu, 0, D_2P31, 0x1234567880000000)
        TEST_FP_FROMINT_D(fcvt.d.l, 0, D_N2P63, 0x8000000000000000)
        TEST_FP_FROMINT_D(fcvt.d.l, NX, D_2P63, 0x7fffffffffffffff)
        TEST_FP_FROMINT_D(fcvt.d.l, NX, 0x43dfffffffffffff, 0x7fffffffffffffff, rtz)
        TEST_FP_FROMINT_D(fcvt.d.l, 0, D_NONE, 0xffffffffffffffff)
        TEST_FP_FROMINT_D(fcvt.d.l, NX, 0x4340000000000002, 0x20000000000003) // 2^53+3 -> 2^53+4 (tie to even)
        TEST_FP_FROMINT_D(fcvt.d.l, NX, 0x4340000000000000, 0x20000000000001) // 2^53+1 -> 2^53
        TEST_FP_FROMINT_D(fcvt.d.lu, NX, D_2P64, 0xffffffffffffffff)
        TEST_FP_FROMINT_D(fcvt.d.lu, NX, D_2P64M, 0xffffffffffffffff, rtz)
        TEST_FP_FROMINT_D(fcvt.d.lu, 0, D_2P63, 0x8000000000000000)

        // ----- single <-> double -----
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_ONE, D_ONE)
        TEST_FP_OP1_DS(fcvt.s.d, NX, S_ONE, 0x3ff0000010000000)          // 1 + 2^-24: tie
        TEST_FP_OP1_DS(fcvt.s.d, NX, S_1P2P_23, 0x3ff0000010000000, rup)
        TEST_FP_OP1_DS(fcvt.s.d, OF|NX, S_INF, D_MAX)
        TEST_FP_OP1_DS(fcvt.s.d, OF|NX, S_MAX, D_MAX, rtz)
        TEST_FP_OP1_DS(fcvt.s.d, UF|NX, S_ZERO, D_MINN)
        TEST_FP_OP1_DS(fcvt.s.d, UF|NX, S_SUB1, D_MINN, rup)
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_SUB1, 0x36a0000000000000)          // 2^-149 exactly
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_NZERO, D_NZERO)
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_NINF, D_NINF)
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_QNAN, D_QNAN_PL)                   // canonical NaN
        TEST_FP_OP1_DS(fcvt.s.d, NV, S_QNAN, D_SNAN)
        TEST_FP_OP1_DS(fcvt.s.d, 0, S_QNAN, D_NQNAN)
        TEST_CASE(x14, D_ONE, LOAD_S(f1, S_ONE); fcvt.d.s f3, f1; fmv.x.d x14, f3)
        TEST_CASE(x14, 0x36a0000000000000, LOAD_S(f1, S_SUB1); fcvt.d.s f3, f1; fmv.x.d x14, f3) // subnormal -> normal
        TEST_CASE(x14, D_NINF, LOAD_S(f1, S_NINF); fcvt.d.s f3, f1; fmv.x.d x14, f3)
        TEST_CASE(x14, D_QNAN, LOAD_S(f1, S_QNAN_PL); fcvt.d.s f3, f1; fmv.x.d x14, f3)
        TEST_CASE(x14, NV, LOAD_S(f1, S_SNAN); fsflags x0; fcvt.d.s f3, f1; fmv.x.d x7, f3;
                  li x6, D_QNAN; bne x7, x6, fail; frflags x14)
        TEST_CASE(x14, D_QNAN, LOAD_D(f1, 0x000000003f800000); fcvt.d.s f3, f1; fmv.x.d x14, f3) // bad NaN box
        TEST_CASE(x14, 0, LOAD_D(f1, 0x000000003f800000); fsflags x0; fcvt.d.s f3, f1; frflags x14)

        // ----- dynamic rounding -----
#define TEST_DYN_D(frmval, result, a, b)                                \
        fsrmi frmval;                                                   \
        TEST_FP_OP_D(fadd.d, NX, result, a, b, dyn);                    \
        fsrmi 0
        TEST_DYN_D(0, D_ONE, D_ONE, D_2P_53)
        TEST_DYN_D(1, D_ONE, D_ONE, D_2P_53)
        TEST_DYN_D(2, D_ONE, D_ONE, D_2P_53)
        TEST_DYN_D(3, D_1P2P_52, D_ONE, D_2P_53)
        TEST_DYN_D(4, D_1P2P_52, D_ONE, D_2P_53)
        TEST_DYN_D(2, D_N1P2P_52, D_NONE, D_N2P_53)
        TEST_DYN_D(4, D_N1P2P_52, D_NONE, D_N2P_53)

        // ----- moves, loads, stores -----
        TEST_CASE(x14, 0x0123456789abcdef, li x1, 0x0123456789abcdef; fmv.d.x f1, x1; fmv.x.d x14, f1)
        TEST_CASE(x14, D_SNAN, li x1, D_SNAN; fmv.d.x f1, x1; fmv.x.d x14, f1)   // no quieting
        TEST_CASE(x14, 0xfedcba9876543210, la x1, ddat; fld f1, 0(x1); fmv.x.d x14, f1)
        TEST_CASE(x14, 0xfedcba9876543210, la x1, ddat; fld f1, 0(x1); fsd f1, 8(x1); ld x14, 8(x1))
        TEST_CASE(x14, 0xfedcba9876543210, la x1, ddat; fld f1, 0(x1); fsd f1, 19(x1); fld f2, 19(x1); fmv.x.d x14, f2) // misaligned
        TEST_CASE(x14, 0xfedcba9876543210, la x1, ddat + 16; fld f1, -16(x1); fmv.x.d x14, f1)
        TEST_CASE(x14, 0xffffffff3f800000, la x1, ddat; LOAD_S(f1, S_ONE); fsd f1, 8(x1); ld x14, 8(x1)) // fsd stores the box

        j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .balign 8
ddat:   .dword 0xfedcba9876543210
        .skip 40
RVTEST_DATA_END
