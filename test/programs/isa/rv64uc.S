// rv64uc: the compressed (C) instructions of RV64C, each written as its
// c.* mnemonic so the assembler must emit the 16-bit form. (c.jal is
// RV32-only; its encoding is c.addiw on RV64. c.ebreak is in rv64mi.)
// Operands follow the RVC register limits (x8-x15 = s0, s1, a0-a5 for the
// CIW/CL/CS/CA/CB formats).
#include "macros.h"

        .option rvc
RVTEST_CODE_BEGIN
        // sp points into cbuf for the stack-relative forms.
        mv s11, sp
        la sp, cbuf + 512

        // ----- constants and register-immediate -----
        TEST_CASE(a0, 31, c.li a0, 31)
        TEST_CASE(a0, 0xffffffffffffffe0, c.li a0, -32)
        TEST_CASE(a0, 0x1f000, c.lui a0, 0x1f)
        TEST_CASE(a0, 0xfffffffffffe0000, c.lui a0, 0xfffe0)
        TEST_CASE(s1, 0xfffffffffffff000, c.lui s1, 0xfffff)
        TEST_CASE(a0, 42, li a0, 10; c.addi a0, 31; c.addi a0, 1)
        TEST_CASE(a0, 0xffffffffffffffe0, li a0, 0; c.addi a0, -32)
        TEST_CASE(a0, 0, c.nop; li a0, 0)
        TEST_CASE(a0, 0xffffffff80000000, li a0, 0x7fffffff; c.addiw a0, 1)
        TEST_CASE(a0, 0xffffffffffffffff, li a0, 0xffffffff; c.addiw a0, 0)      // sext.w
        TEST_CASE(a0, 0x7fffffe0, li a0, 0x180000000; c.addiw a0, -32)
        TEST_CASE(a0, 0x8000000000000000, li a0, 1; c.slli a0, 63)
        TEST_CASE(a0, 0x500000000, li a0, 5; c.slli a0, 32)
        TEST_CASE(a5, 0x10, li a5, 1; c.slli a5, 4)
        TEST_CASE(a0, 1, li a0, 0x8000000000000000; c.srli a0, 63)
        TEST_CASE(a0, 0xffffffff, li a0, 0xffffffffffffffff; c.srli a0, 32)
        TEST_CASE(a0, 0xc000000000000000, li a0, 0x8000000000000000; c.srai a0, 1)
        TEST_CASE(a0, 0xffffffffffffffff, li a0, 0x8000000000000000; c.srai a0, 63)
        TEST_CASE(a0, 0xfe, li a0, 0xff; c.andi a0, -2)
        TEST_CASE(a0, 31, li a0, -1; c.andi a0, 31)
        TEST_CASE(a0, 0xffffffffffffffe0, li a0, -1; c.andi a0, -32)

        // ----- register-register -----
        TEST_CASE(a0, 0xfffffffffffffffe, li a0, 5; li a1, 7; c.sub a0, a1)
        TEST_CASE(a0, 0xf00ff00f, li a0, 0xff00ff00; li a1, 0x0f0f0f0f; c.xor a0, a1)
        TEST_CASE(a0, 0xff0fff0f, li a0, 0xff00ff00; li a1, 0x0f0f0f0f; c.or a0, a1)
        TEST_CASE(a0, 0x0f000f00, li a0, 0xff00ff00; li a1, 0x0f0f0f0f; c.and a0, a1)
        TEST_CASE(a0, 0x7fffffff, li a0, 0x80000000; li a1, 1; c.subw a0, a1)
        TEST_CASE(a0, 0xffffffffffffffff, li a0, 0x100000000; li a1, 1; c.subw a0, a1)
        TEST_CASE(a0, 0xffffffff80000000, li a0, 0x7fffffff; li a1, 1; c.addw a0, a1)
        TEST_CASE(a0, 3, li a0, 0x100000001; li a1, 0x200000002; c.addw a0, a1)
        TEST_CASE(s0, 0x1234, li s1, 0x1234; c.mv s0, s1)
        TEST_CASE(t6, 0x1234, li a1, 0x1234; c.mv t6, a1)                 // any register
        TEST_CASE(t6, 0x1235, li t6, 1; li t5, 0x1234; c.add t6, t5)
        TEST_CASE(a0, 0, li a0, 0xffffffffffffffff; li a1, 1; c.add a0, a1)

        // ----- stack pointer -----
        TEST_CASE(a0, 0, mv a1, sp; c.addi16sp sp, -512; c.addi16sp sp, 496; c.addi16sp sp, 16; sub a0, sp, a1)
        TEST_CASE(a0, 0xfffffffffffffe00, mv a1, sp; c.addi16sp sp, -512; sub a0, sp, a1; addi sp, sp, 512)
        TEST_CASE(a0, 1020, c.addi4spn a0, sp, 1020; sub a0, a0, sp)
        TEST_CASE(a5, 4, c.addi4spn a5, sp, 4; sub a5, a5, sp)

        // ----- loads and stores, register-based -----
        TEST_CASE(a0, 0xffffffff80000000, la a1, cdat; c.lw a0, 0(a1))          // sign-extends
        TEST_CASE(a0, 0x7fffffff, la a1, cdat; c.lw a0, 4(a1))
        TEST_CASE(a0, 0x7fffffff80000000, la a1, cdat; c.ld a0, 0(a1))
        TEST_CASE(a0, 0x1122334455667788, la a1, cdat; c.ld a0, 248(a1))        // largest offset
        TEST_CASE(a0, 0xffffffffd5667788, la a1, cdat; c.lw a0, 124(a1))          // largest offset
        TEST_CASE(a2, 0xffffffffdeadbeef, la a1, cdat; li a0, 0x12345678deadbeef; c.sw a0, 16(a1); lw a2, 16(a1); lw a3, 20(a1); bnez a3, fail)
        TEST_CASE(a2, 0x12345678deadbeef, la a1, cdat; li a0, 0x12345678deadbeef; c.sd a0, 24(a1); ld a2, 24(a1))
        TEST_CASE(a2, 0x7fffffff80000000, la a1, cdat; c.fld fa0, 0(a1); fmv.x.d a2, fa0)
        TEST_CASE(a2, 0x7fffffff80000000, la a1, cdat; c.fld fs1, 0(a1); c.fsd fs1, 32(a1); ld a2, 32(a1))
        TEST_CASE(a2, 0x1122334455667788, la a1, cdat; c.fld fa5, 248(a1); c.fsd fa5, 40(a1); ld a2, 40(a1))

        // ----- loads and stores, sp-based -----
        TEST_CASE(a0, 0xffffffffcafef00d, li a1, 0xcafef00d; c.swsp a1, 252(sp); c.lwsp a0, 252(sp))
        TEST_CASE(a0, 0x0123456789abcdef, li a1, 0x0123456789abcdef; c.sdsp a1, 504(sp); c.ldsp a0, 504(sp))
        TEST_CASE(t5, 0x0123456789abcdef, li t6, 0x0123456789abcdef; c.sdsp t6, 0(sp); c.ldsp t5, 0(sp))
        TEST_CASE(a0, 0x3ff8000000000000, li a1, 0x3ff8000000000000; fmv.d.x ft11, a1;
                  c.fsdsp ft11, 8(sp); c.fldsp ft10, 8(sp); fmv.x.d a0, ft10)
        TEST_CASE(a0, 0x3ff8000000000000, c.ldsp a0, 8(sp))
        TEST_CASE(a0, 0xffffffffffffffff, li a1, -1; c.swsp a1, 16(sp); c.lwsp a0, 16(sp))

        // ----- control transfer -----
        TEST_CASE(a0, 1, li a0, 0; c.j 2f; j fail; 2: li a0, 1)
        TEST_CASE(a0, 2, li a0, 0; j 3f; 2: c.j 4f; 3: c.j 2b; j fail; 4: li a0, 2)   // backward and forward
        TEST_CASE(a0, 0, li a0, 0; c.beqz a0, 2f; j fail; 2:)
        TEST_CASE(a0, 5, li a0, 5; c.beqz a0, 2f; j 3f; 2: j fail; 3:)               // not taken
        TEST_CASE(a0, 5, li a0, 5; c.bnez a0, 2f; j fail; 2:)
        TEST_CASE(a0, 0, li a0, 0; c.bnez a0, 2f; j 3f; 2: j fail; 3:)
        TEST_CASE(a0, 0, li a0, 0; j 3f; 2: j 4f; 3: c.beqz a0, 2b; j fail; 4:)       // backward taken
        TEST_CASE(a0, 7, li a0, 7; j 3f; 2: j fail; 3: c.beqz a0, 2b)                 // backward not taken
        TEST_CASE(s0, 0x100000000, li s0, 0x100000000; c.beqz s0, 2f; j 3f; 2: j fail; 3:) // all 64 bits
        TEST_CASE(a0, 9, lla t0, 2f; li a0, 0; c.jr t0; j fail; 2: li a0, 9)
        TEST_CASE(a0, 0, lla t0, 3f; lla a1, 2f; c.jalr t0; 2: j fail; 3: sub a0, ra, a1)  // ra = pc + 2
        TEST_CASE(a0, 0, lla a1, 3f; lla a2, 2f; c.jalr a1; 2: j fail; 3: sub a0, ra, a2)  // rs1 other than t0

        // ----- HINTs (rd = x0) execute as no-ops -----
        TEST_CASE(a0, 0x55, li a0, 0x55;
                  .hword 0x0005;        /* c.addi x0, 1 */
                  .hword 0x4015;        /* c.li x0, 5 */
                  .hword 0x6005;        /* c.lui x0, 1 */
                  .hword 0x802a;        /* c.mv x0, a0 */
                  .hword 0x902a;        /* c.add x0, a0 */
                  .hword 0x0006)        /* c.slli x0, 1 */

        // ----- a 32-bit instruction across a page boundary -----
        TEST_CASE(a0, 0x1234, jal straddle)

        mv sp, s11
        j pass

        // straddle's first instruction (4 bytes) starts 2 bytes before a
        // page boundary.
        .balign 4096
        .skip 4094
straddle:
        .option push
        .option norvc
        lui a0, 0x1
        .option pop
        addi a0, a0, 0x234
        ret

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .balign 8
cdat:   .dword 0x7fffffff80000000
        .skip 116
        .word 0xd5667788                // at cdat + 124
        .skip 120
        .dword 0x1122334455667788
        .balign 8
cbuf:   .skip 1024
RVTEST_DATA_END
