// zbb: basic bit manipulation. Counts of an all-zero input are the width
// (64, or 32 for the W forms); W forms look at the low 32 bits only.
#include "macros.h"

RVTEST_CODE_BEGIN

        TEST_RR_OP(andn, 0xf000, 0xff00, 0x0ff0)
        TEST_RR_OP(andn, 0x0, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(orn, 0xffff, 0x0, 0xffffffffffff0000)
        TEST_RR_OP(orn, 0xffffffffffffffff, 0x0, 0x0)
        TEST_RR_OP(xnor, 0xfffffffffffffff0, 0xf0, 0xff)
        TEST_RR_OP(xnor, 0xffffffffffffffff, 0x1234, 0x1234)

        TEST_R_OP(clz, 64, 0)
        TEST_R_OP(clz, 63, 1)
        TEST_R_OP(clz, 0, 0x8000000000000000)
        TEST_R_OP(clz, 31, 0x100000000)
        TEST_R_OP(clzw, 32, 0)
        TEST_R_OP(clzw, 32, 0xffffffff00000000)
        TEST_R_OP(clzw, 31, 0xffffffff00000001)
        TEST_R_OP(clzw, 0, 0x80000000)
        TEST_R_OP(ctz, 64, 0)
        TEST_R_OP(ctz, 63, 0x8000000000000000)
        TEST_R_OP(ctz, 0, 0xffffffffffffffff)
        TEST_R_OP(ctz, 4, 0x30)
        TEST_R_OP(ctzw, 32, 0)
        TEST_R_OP(ctzw, 32, 0x100000000)
        TEST_R_OP(ctzw, 31, 0x80000000)
        TEST_R_OP(cpop, 64, 0xffffffffffffffff)
        TEST_R_OP(cpop, 8, 0x5555)
        TEST_R_OP(cpop, 0, 0)
        TEST_R_OP(cpopw, 2, 0xffffffff00000003)
        TEST_R_OP(cpopw, 32, 0xffffffff)

        TEST_RR_OP(max, 1, 0xffffffffffffffff, 1)
        TEST_RR_OP(max, 0x7fffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_RR_OP(maxu, 0xffffffffffffffff, 0xffffffffffffffff, 1)
        TEST_RR_OP(maxu, 0x8000000000000000, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_RR_OP(min, 0xffffffffffffffff, 0xffffffffffffffff, 1)
        TEST_RR_OP(min, 0x8000000000000000, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_RR_OP(minu, 1, 0xffffffffffffffff, 1)
        TEST_RR_OP(minu, 5, 5, 5)

        TEST_R_OP(sext.b, 0xffffffffffffff80, 0x80)
        TEST_R_OP(sext.b, 0x7f, 0xffffffffffffff7f)
        TEST_R_OP(sext.h, 0xffffffffffff8000, 0x8000)
        TEST_R_OP(sext.h, 0x7fff, 0x12347fff)
        TEST_R_OP(zext.h, 0x8000, 0xffffffffffff8000)
        TEST_R_OP(zext.h, 0xffff, 0xffffffffffffffff)

        TEST_RR_OP(rol, 3, 0x8000000000000001, 1)
        TEST_RR_OP(rol, 3, 0x8000000000000001, 65)                         // amount mod 64
        TEST_RR_OP(rol, 0x2345678123456781, 0x1234567812345678, 4)
        TEST_RR_OP(ror, 0x8000000000000000, 1, 1)
        TEST_RR_OP(ror, 0x8123456781234567, 0x1234567812345678, 4)
        TEST_RR_OP(ror, 0x1234567812345678, 0x1234567812345678, 64)
        TEST_IMM_OP(rori, 0x1000000000000000, 1, 4)
        TEST_IMM_OP(rori, 2, 1, 63)
        TEST_RR_OP(rolw, 3, 0x80000001, 1)
        TEST_RR_OP(rolw, 0xffffffff80000000, 0x40000000, 1)                // result sign-extends
        TEST_RR_OP(rolw, 3, 0xffffffff80000001, 33)                        // amount mod 32
        TEST_RR_OP(rorw, 0xffffffff80000000, 1, 1)
        TEST_RR_OP(rorw, 0x40000000, 0x80000000, 1)
        TEST_IMM_OP(roriw, 1, 0x10, 4)
        TEST_IMM_OP(roriw, 0xffffffff80000000, 0x1, 1)
        TEST_IMM_OP(roriw, 0x00000001, 0xabcdef0000000010, 4)               // upper bits ignored

        TEST_R_OP(orc.b, 0xff0000000000ff00, 0x0100000000008000)
        TEST_R_OP(orc.b, 0, 0)
        TEST_R_OP(orc.b, 0xffffffffffffffff, 0x0101010101010101)
        TEST_R_OP(rev8, 0x0807060504030201, 0x0102030405060708)
        TEST_R_OP(rev8, 0xff, 0xff00000000000000)
        TEST_RR_ZERODEST(max, 1, 2)

        j pass

RVTEST_CODE_END
