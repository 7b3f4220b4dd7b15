// Check macros for the ISA tests. Every macro is one test: it sets TESTNUM
// to its own source line, runs the code under test and branches to fail if
// a result differs from the hand-computed expectation. Scratch registers:
// x1, x2, x4 (operands), x14 (result), x7 (expected), t0-t2 (x5, x6, x28).
#ifndef MACROS_H
#define MACROS_H

#include "env.h"

#define TEST_CASE_N(n, testreg, correct, ...)                           \
        li TESTNUM, n;                                                  \
        __VA_ARGS__;                                                    \
        li x7, correct;                                                 \
        bne testreg, x7, fail

// TEST_CASE(testreg, correct, code...): run code, expect testreg == correct.
#define TEST_CASE(testreg, correct, ...) TEST_CASE_N(__LINE__, testreg, correct, __VA_ARGS__)

// --- integer ---------------------------------------------------------------

// TEST_RR_OP(inst, result, a, b): inst x14, x1, x2.
#define TEST_RR_OP(inst, result, a, b)                                  \
        TEST_CASE(x14, result, li x1, a; li x2, b; inst x14, x1, x2)

// rd is also rs1 / rs2 / both.
#define TEST_RR_SRC1_EQ_DEST(inst, result, a, b)                        \
        TEST_CASE(x1, result, li x1, a; li x2, b; inst x1, x1, x2)
#define TEST_RR_SRC2_EQ_DEST(inst, result, a, b)                        \
        TEST_CASE(x2, result, li x1, a; li x2, b; inst x2, x1, x2)
#define TEST_RR_SRC12_EQ_DEST(inst, result, a)                          \
        TEST_CASE(x1, result, li x1, a; inst x1, x1, x1)

// Writes to x0 are discarded; the source registers are unchanged.
#define TEST_RR_ZERODEST(inst, a, b)                                    \
        TEST_CASE(x0, 0, li x1, a; li x2, b; inst x0, x1, x2;           \
                  li x7, a; bne x1, x7, fail; li x7, b; bne x2, x7, fail)

// TEST_IMM_OP(inst, result, a, imm): inst x14, x1, imm.
#define TEST_IMM_OP(inst, result, a, imm)                               \
        TEST_CASE(x14, result, li x1, a; inst x14, x1, imm)
#define TEST_IMM_SRC1_EQ_DEST(inst, result, a, imm)                     \
        TEST_CASE(x1, result, li x1, a; inst x1, x1, imm)
#define TEST_IMM_ZERODEST(inst, a, imm)                                 \
        TEST_CASE(x0, 0, li x1, a; inst x0, x1, imm)

// TEST_R_OP(inst, result, a): inst x14, x1 (unary, e.g. clz).
#define TEST_R_OP(inst, result, a)                                      \
        TEST_CASE(x14, result, li x1, a; inst x14, x1)

// TEST_LD_OP(inst, result, offset, base): inst x14, offset(x1) with
// x1 = base.
#define TEST_LD_OP(inst, result, offset, base)                          \
        TEST_CASE(x14, result, la x1, base; inst x14, offset(x1))

// TEST_ST_OP(ld, st, result, offset, base): st result at offset(base), then
// read it back with ld.
#define TEST_ST_OP(ld, st, result, offset, base)                        \
        TEST_CASE(x14, result, la x1, base; li x2, result;              \
                  st x2, offset(x1); ld x14, offset(x1))

// Branches: TAKEN jumps forward, then backward, and must take both;
// NOTTAKEN must fall through both a forward and a backward branch.
#define TEST_BR2_TAKEN(inst, a, b)                                      \
        li TESTNUM, __LINE__;                                           \
        li x1, a;                                                       \
        li x2, b;                                                       \
        inst x1, x2, 2f;                                                \
        j fail;                                                         \
1:      j 3f;                                                           \
2:      inst x1, x2, 1b;                                                \
        j fail;                                                         \
3:

#define TEST_BR2_NOTTAKEN(inst, a, b)                                   \
        li TESTNUM, __LINE__;                                           \
        li x1, a;                                                       \
        li x2, b;                                                       \
        inst x1, x2, 1f;                                                \
        j 2f;                                                           \
1:      j fail;                                                         \
2:      inst x1, x2, 1b;                                                \
3:

// --- floating point ------------------------------------------------------
//
// Operands and results are bit patterns. Single-precision results are
// checked as the whole 64-bit register, so NaN boxing (upper 32 bits all
// ones) is checked on every single-precision result. fflags is cleared
// before the operation and compared after it (NV=0x10 DZ=0x08 OF=0x04
// UF=0x02 NX=0x01).

#define BOX(v) (0xffffffff00000000 | (v))

#define FP_CHECK_FLAGS(flags)                                           \
        fsflags x7, x0;                                                 \
        li x6, flags;                                                   \
        bne x7, x6, fail

#define LOAD_S(freg, v) li x5, v; fmv.w.x freg, x5
#define LOAD_D(freg, v) li x5, v; fmv.d.x freg, x5

// TEST_FP_OP_S(inst, flags, result, a, b, rm): inst f3, f1, f2, rm.
#define TEST_FP_OP_S(inst, flags, result, a, b, rm...)                  \
        li TESTNUM, __LINE__;                                           \
        LOAD_S(f1, a); LOAD_S(f2, b);                                   \
        fsflags x0;                                                     \
        inst f3, f1, f2 , ## rm;                                             \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, BOX(result);                                             \
        bne x14, x7, fail

#define TEST_FP_OP_D(inst, flags, result, a, b, rm...)                  \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a); LOAD_D(f2, b);                                   \
        fsflags x0;                                                     \
        inst f3, f1, f2 , ## rm;                                             \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, result;                                                  \
        bne x14, x7, fail

// One operand (fsqrt).
#define TEST_FP_OP1_S(inst, flags, result, a, rm...)                    \
        li TESTNUM, __LINE__;                                           \
        LOAD_S(f1, a);                                                  \
        fsflags x0;                                                     \
        inst f3, f1 , ## rm;                                                 \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, BOX(result);                                             \
        bne x14, x7, fail

#define TEST_FP_OP1_D(inst, flags, result, a, rm...)                    \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a);                                                  \
        fsflags x0;                                                     \
        inst f3, f1 , ## rm;                                                 \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, result;                                                  \
        bne x14, x7, fail

// Double source, single result (fcvt.s.d).
#define TEST_FP_OP1_DS(inst, flags, result, a, rm...)                   \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a);                                                  \
        fsflags x0;                                                     \
        inst f3, f1 , ## rm;                                            \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, BOX(result);                                             \
        bne x14, x7, fail

// Three operands (fused multiply-add family): inst f4, f1, f2, f3.
#define TEST_FP_OP3_S(inst, flags, result, a, b, c, rm...)              \
        li TESTNUM, __LINE__;                                           \
        LOAD_S(f1, a); LOAD_S(f2, b); LOAD_S(f3, c);                    \
        fsflags x0;                                                     \
        inst f4, f1, f2, f3 , ## rm;                                         \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f4;                                                \
        li x7, BOX(result);                                             \
        bne x14, x7, fail

#define TEST_FP_OP3_D(inst, flags, result, a, b, c, rm...)              \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a); LOAD_D(f2, b); LOAD_D(f3, c);                    \
        fsflags x0;                                                     \
        inst f4, f1, f2, f3 , ## rm;                                         \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f4;                                                \
        li x7, result;                                                  \
        bne x14, x7, fail

// Integer-result operations (feq/flt/fle, fcvt to integer, fclass, fmv.x):
// inst x14, f1[, f2][, rm].
#define TEST_FP_CMP_S(inst, flags, result, a, b)                        \
        li TESTNUM, __LINE__;                                           \
        LOAD_S(f1, a); LOAD_S(f2, b);                                   \
        fsflags x0;                                                     \
        inst x14, f1, f2;                                               \
        FP_CHECK_FLAGS(flags);                                          \
        li x7, result;                                                  \
        bne x14, x7, fail

#define TEST_FP_CMP_D(inst, flags, result, a, b)                        \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a); LOAD_D(f2, b);                                   \
        fsflags x0;                                                     \
        inst x14, f1, f2;                                               \
        FP_CHECK_FLAGS(flags);                                          \
        li x7, result;                                                  \
        bne x14, x7, fail

#define TEST_FP_TOINT_S(inst, flags, result, a, rm...)                  \
        li TESTNUM, __LINE__;                                           \
        LOAD_S(f1, a);                                                  \
        fsflags x0;                                                     \
        inst x14, f1 , ## rm;                                                \
        FP_CHECK_FLAGS(flags);                                          \
        li x7, result;                                                  \
        bne x14, x7, fail

#define TEST_FP_TOINT_D(inst, flags, result, a, rm...)                  \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a);                                                  \
        fsflags x0;                                                     \
        inst x14, f1 , ## rm;                                                \
        FP_CHECK_FLAGS(flags);                                          \
        li x7, result;                                                  \
        bne x14, x7, fail

// Integer source (fcvt from integer): inst f3, x1[, rm].
#define TEST_FP_FROMINT_S(inst, flags, result, a, rm...)                \
        li TESTNUM, __LINE__;                                           \
        li x1, a;                                                       \
        fsflags x0;                                                     \
        inst f3, x1 , ## rm;                                                 \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, BOX(result);                                             \
        bne x14, x7, fail

#define TEST_FP_FROMINT_D(inst, flags, result, a, rm...)                \
        li TESTNUM, __LINE__;                                           \
        li x1, a;                                                       \
        fsflags x0;                                                     \
        inst f3, x1 , ## rm;                                                 \
        FP_CHECK_FLAGS(flags);                                          \
        fmv.x.d x14, f3;                                                \
        li x7, result;                                                  \
        bne x14, x7, fail

// Raw 64-bit register operands (for NaN-boxing tests): f1 and f2 are
// loaded with fmv.d.x, then code runs and must leave result in x14.
#define TEST_FP_RAW(flags, result, a, b, code...)                       \
        li TESTNUM, __LINE__;                                           \
        LOAD_D(f1, a); LOAD_D(f2, b);                                   \
        fsflags x0;                                                     \
        code;                                                           \
        FP_CHECK_FLAGS(flags);                                          \
        li x7, result;                                                  \
        bne x14, x7, fail

#endif
