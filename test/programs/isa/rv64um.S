// rv64um: multiply and divide (M extension), including the W forms and the
// spec's table "Semantics for division by zero and division overflow":
// x/0 = all ones, x%0 = x, MIN/-1 = MIN, MIN%-1 = 0; no trap in any case.
#include "macros.h"

        .option norvc
RVTEST_CODE_BEGIN

        // ----- mul: low 64 bits -----
        TEST_RR_OP(mul, 21, 3, 7)
        TEST_RR_OP(mul, 1, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(mul, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff)
        TEST_RR_OP(mul, 0x0000000200000001, 0x0000000100000001, 0x0000000100000001)
        TEST_RR_OP(mul, 0, 0x8000000000000000, 2)
        TEST_RR_SRC12_EQ_DEST(mul, 169, 13)
        TEST_RR_ZERODEST(mul, 3, 7)

        // ----- mulh: high 64 bits of signed x signed -----
        TEST_RR_OP(mulh, 0, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(mulh, 0xffffffffffffffff, 0xffffffffffffffff, 1)
        TEST_RR_OP(mulh, 0x4000000000000000, 0x8000000000000000, 0x8000000000000000)
        TEST_RR_OP(mulh, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff)
        TEST_RR_OP(mulh, 0, 0x8000000000000000, 0xffffffffffffffff)
        TEST_RR_OP(mulh, 0xffffffffffffffff, 2, 0x8000000000000000)
        TEST_RR_OP(mulh, 0xc000000000000000, 0x8000000000000000, 0x7fffffffffffffff)

        // ----- mulhu: unsigned x unsigned -----
        TEST_RR_OP(mulhu, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(mulhu, 1, 0x8000000000000000, 2)
        TEST_RR_OP(mulhu, 0, 0xffffffffffffffff, 1)
        TEST_RR_OP(mulhu, 0x3fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000)

        // ----- mulhsu: rs1 signed, rs2 unsigned -----
        TEST_RR_OP(mulhsu, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(mulhsu, 0, 1, 0xffffffffffffffff)
        TEST_RR_OP(mulhsu, 0xffffffffffffffff, 0x8000000000000000, 2)
        TEST_RR_OP(mulhsu, 0xfffffffffffffffe, 0xfffffffffffffffe, 0xffffffffffffffff)
        TEST_RR_OP(mulhsu, 0x7ffffffffffffffe, 0x7fffffffffffffff, 0xffffffffffffffff)

        // ----- div / divu: truncating -----
        TEST_RR_OP(div, 3, 20, 6)
        TEST_RR_OP(div, 0xfffffffffffffffd, 0xffffffffffffffec, 6)   // -20/6 = -3
        TEST_RR_OP(div, 0xfffffffffffffffd, 20, 0xfffffffffffffffa)  // 20/-6 = -3
        TEST_RR_OP(div, 3, 0xffffffffffffffec, 0xfffffffffffffffa)   // -20/-6 = 3
        TEST_RR_OP(div, 0xffffffffffffffff, 20, 0)                   // by zero
        TEST_RR_OP(div, 0xffffffffffffffff, 0, 0)
        TEST_RR_OP(div, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff) // overflow
        TEST_RR_OP(divu, 3, 20, 6)
        TEST_RR_OP(divu, 0x2aaaaaaaaaaaaaa7, 0xffffffffffffffec, 6)
        TEST_RR_OP(divu, 0, 20, 0xfffffffffffffffa)
        TEST_RR_OP(divu, 0xffffffffffffffff, 20, 0)                  // by zero
        TEST_RR_OP(divu, 1, 0x8000000000000000, 0x8000000000000000)

        // ----- rem / remu: sign of the dividend -----
        TEST_RR_OP(rem, 2, 20, 6)
        TEST_RR_OP(rem, 0xfffffffffffffffe, 0xffffffffffffffec, 6)   // -20%6 = -2
        TEST_RR_OP(rem, 2, 20, 0xfffffffffffffffa)                   // 20%-6 = 2
        TEST_RR_OP(rem, 0xfffffffffffffffe, 0xffffffffffffffec, 0xfffffffffffffffa)
        TEST_RR_OP(rem, 20, 20, 0)                                   // by zero: dividend
        TEST_RR_OP(rem, 0x8000000000000000, 0x8000000000000000, 0)
        TEST_RR_OP(rem, 0, 0x8000000000000000, 0xffffffffffffffff)   // overflow
        TEST_RR_OP(remu, 2, 20, 6)
        TEST_RR_OP(remu, 2, 0xffffffffffffffec, 6)
        TEST_RR_OP(remu, 20, 20, 0xfffffffffffffffa)
        TEST_RR_OP(remu, 0xffffffffffffffec, 0xffffffffffffffec, 0)  // by zero
        TEST_RR_ZERODEST(div, 20, 0)

        // ----- W forms: low 32 bits of the operands, sign-extended result -----
        TEST_RR_OP(mulw, 0xfffffffffffffffe, 0x7fffffff, 2)
        TEST_RR_OP(mulw, 15, 0x100000003, 0x100000005)
        TEST_RR_OP(mulw, 0xffffffff80000000, 0x10000, 0x8000)
        TEST_RR_OP(divw, 3, 20, 6)
        TEST_RR_OP(divw, 0xfffffffffffffffd, 0xffffffec, 6)          // -20/6 on 32 bits
        TEST_RR_OP(divw, 3, 0x100000014, 6)                          // upper bits ignored
        TEST_RR_OP(divw, 0xffffffffffffffff, 20, 0)                  // by zero
        TEST_RR_OP(divw, 0xffffffffffffffff, 20, 0x100000000)        // low word of rs2 is zero
        TEST_RR_OP(divw, 0xffffffff80000000, 0x80000000, 0xffffffff) // overflow
        TEST_RR_OP(divuw, 0x2aaaaaa7, 0xffffffec, 6)
        TEST_RR_OP(divuw, 0xffffffffffffffff, 20, 0)                 // by zero: 32 ones, sign-extended
        TEST_RR_OP(divuw, 0xffffffff80000000, 0x80000000, 1)         // result sign-extends
        TEST_RR_OP(divuw, 0xffffffff80000000, 0xffffffff80000000, 1)
        TEST_RR_OP(remw, 0xfffffffffffffffe, 0xffffffec, 6)
        TEST_RR_OP(remw, 2, 20, 0xfffffffa)
        TEST_RR_OP(remw, 0, 0x80000000, 0xffffffff)                  // overflow
        TEST_RR_OP(remw, 0xffffffff9abcdef0, 0x123456789abcdef0, 0)  // by zero: sext(low word)
        TEST_RR_OP(remuw, 2, 0xffffffec, 6)
        TEST_RR_OP(remuw, 0xffffffff9abcdef0, 0x123456789abcdef0, 0) // by zero: sext(low word)
        TEST_RR_OP(remuw, 0xffffffff80000000, 0x80000000, 0x80000001)
        TEST_RR_ZERODEST(divw, 20, 0)

        j pass

RVTEST_CODE_END
