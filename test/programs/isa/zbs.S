// zbs: single-bit instructions. The bit index is rs2 (or the immediate)
// modulo 64.
#include "macros.h"

RVTEST_CODE_BEGIN

        TEST_RR_OP(bclr, 0x7fffffffffffffff, 0xffffffffffffffff, 63)
        TEST_RR_OP(bclr, 0xfffffffffffffffe, 0xffffffffffffffff, 64)
        TEST_RR_OP(bclr, 0x10, 0x10, 3)
        TEST_IMM_OP(bclri, 0xfffffffffffffffe, 0xffffffffffffffff, 0)
        TEST_IMM_OP(bclri, 0xfffffffeffffffff, 0xffffffffffffffff, 32)
        TEST_RR_OP(bext, 1, 0x8000000000000000, 63)
        TEST_RR_OP(bext, 0, 0x8000000000000000, 62)
        TEST_RR_OP(bext, 1, 0x1, 0xffffffffffffffc0)                      // index 0
        TEST_IMM_OP(bexti, 1, 0x10, 4)
        TEST_IMM_OP(bexti, 0, 0x10, 3)
        TEST_IMM_OP(bexti, 1, 0x100000000, 32)
        TEST_RR_OP(binv, 0x8000000000000000, 0, 63)
        TEST_RR_OP(binv, 0, 0x20, 5)
        TEST_RR_OP(binv, 0x100000001, 1, 96)                               // index 32
        TEST_IMM_OP(binvi, 0, 1, 0)
        TEST_IMM_OP(binvi, 0x7fffffffffffffff, 0xffffffffffffffff, 63)
        TEST_RR_OP(bset, 0x100000000, 0, 32)
        TEST_RR_OP(bset, 0x10, 0x10, 4)
        TEST_RR_OP(bset, 0x8000000000000001, 1, 127)                       // index 63
        TEST_IMM_OP(bseti, 0x8000000000000000, 0, 63)
        TEST_IMM_OP(bseti, 0xffffffffffffffff, 0xffffffffffffffff, 7)
        TEST_RR_ZERODEST(bset, 1, 2)

        j pass

RVTEST_CODE_END
