// zba: address generation (add.uw, shNadd, shNadd.uw, slli.uw). The .uw
// forms zero-extend the low 32 bits of rs1 before shifting.
#include "macros.h"

RVTEST_CODE_BEGIN

        TEST_RR_OP(add.uw, 0x80000001, 0xffffffff80000000, 1)
        TEST_RR_OP(add.uw, 0x1ffffffff, 0xffffffffffffffff, 0x100000000)
        TEST_RR_OP(add.uw, 0xfffffffe, 0xffffffff, 0xffffffffffffffff)
        TEST_RR_OP(sh1add, 10, 3, 4)
        TEST_RR_OP(sh1add, 0x0000000000000002, 0x8000000000000001, 0)    // bit 63 shifted out
        TEST_RR_OP(sh2add, 16, 3, 4)
        TEST_RR_OP(sh2add, 0xfffffffffffffffc, 0xffffffffffffffff, 0)
        TEST_RR_OP(sh3add, 28, 3, 4)
        TEST_RR_OP(sh3add, 0, 0x2000000000000000, 0)
        TEST_RR_OP(sh1add.uw, 10, 0xffffffff00000003, 4)
        TEST_RR_OP(sh1add.uw, 0x1fffffffe, 0xffffffffffffffff, 0)
        TEST_RR_OP(sh2add.uw, 0x200000005, 0x0000000180000000, 5)
        TEST_RR_OP(sh3add.uw, 0x400000007, 0x0000000180000000, 7)
        TEST_RR_OP(sh3add.uw, 0x7fffffff8, 0xffffffffffffffff, 0)
        TEST_IMM_OP(slli.uw, 0x800000010, 0xffffffff80000001, 4)
        TEST_IMM_OP(slli.uw, 0x0000010000000000, 0xffffffff80000001, 40)  // bit 31 shifted out
        TEST_IMM_OP(slli.uw, 0xffffffff, 0xffffffffffffffff, 0)           // zext.w
        TEST_IMM_OP(slli.uw, 0x8000000000000000, 0x80000001, 63)
        TEST_RR_ZERODEST(sh1add, 1, 2)
        TEST_CASE(x14, 0xffffffff, li x14, -1; zext.w x14, x14)

        j pass

RVTEST_CODE_END
