// rv64ua: atomics (A extension). LR/SC success and failure, every AMO in
// .w and .d form (a .w AMO returns the old word sign-extended and uses only
// the low 32 bits of rs2), and misaligned LR/SC/AMO, which trap here with
// load-address-misaligned (4, LR) or store/AMO-address-misaligned (6, SC and
// AMOs) and mtval = the address, leaving memory and rd unchanged.
#include "macros.h"

// TEST_AMO(inst, width-load, init, src, old, new): memory at amo_dat holds
// init; inst must return old and leave new (read back with the load).
#define TEST_AMO_W(inst, init, src, old, new)                           \
        TEST_CASE(x14, new, la x1, amo_dat; li x2, init; sw x2, 0(x1);  \
                  li x2, src; inst x4, x2, (x1);                        \
                  li x7, old; bne x4, x7, fail; lw x14, 0(x1))
#define TEST_AMO_D(inst, init, src, old, new)                           \
        TEST_CASE(x14, new, la x1, amo_dat; li x2, init; sd x2, 0(x1);  \
                  li x2, src; inst x4, x2, (x1);                        \
                  li x7, old; bne x4, x7, fail; ld x14, 0(x1))

        .option norvc
RVTEST_CODE_BEGIN

        // ----- lr / sc -----
        TEST_CASE(x14, 0, la x1, amo_dat; li x2, 0x11; sd x2, 0(x1);
                  lr.w x4, (x1); li x2, 0x22; sc.w x14, x2, (x1))      // success: rd = 0
        TEST_CASE(x14, 0x22, la x1, amo_dat; lw x14, 0(x1))             // ... and stored
        TEST_CASE(x14, 1, la x1, amo_dat; li x2, 0x33; sc.w x14, x2, (x1))  // no reservation: rd != 0
        TEST_CASE(x14, 0x22, la x1, amo_dat; lw x14, 0(x1))             // ... and nothing stored
        TEST_CASE(x14, 1, la x1, amo_dat; lr.w x4, (x1); li x2, 0x44;
                  sc.w x5, x2, (x1); sc.w x14, x2, (x1))                // sc releases the reservation
        TEST_CASE(x14, 1, la x1, amo_dat; lr.w x4, (x1); li x2, 0x55;
                  addi x1, x1, 8; sc.w x14, x2, (x1))                   // other address: fails
        TEST_CASE(x14, 0, la x1, amo_dat; lw x14, 8(x1))                // ... and stores nothing
        TEST_CASE(x14, 0xffffffff80000000, la x1, amo_dat; li x2, 0x80000000; sw x2, 0(x1);
                  lr.w x14, (x1))                                       // lr.w sign-extends
        TEST_CASE(x14, 0, la x1, amo_dat; li x2, 0x8000000000000001; sd x2, 0(x1);
                  lr.d x4, (x1); li x7, 0x8000000000000001; bne x4, x7, fail;
                  li x2, 0x1234; sc.d x14, x2, (x1))
        TEST_CASE(x14, 0x1234, la x1, amo_dat; ld x14, 0(x1))
        TEST_CASE(x14, 1, la x1, amo_dat; li x2, 0x5678; sc.d x14, x2, (x1))

        // ----- AMO .w -----
        TEST_AMO_W(amoswap.w, 0x80000000, 0xfffffffffffff800, 0xffffffff80000000, 0xfffffffffffff800)
        TEST_AMO_W(amoswap.w, 0x7fffffff, 0x1234567800000001, 0x7fffffff, 1)  // low word of rs2 only
        TEST_AMO_W(amoadd.w, 0x80000000, 0xfffffffffffff800, 0xffffffff80000000, 0x7ffff800)
        TEST_AMO_W(amoadd.w, 0x7fffffff, 1, 0x7fffffff, 0xffffffff80000000)
        TEST_AMO_W(amoxor.w, 0x80000000, 0xc0000001, 0xffffffff80000000, 0x40000001)
        TEST_AMO_W(amoand.w, 0x8000ffff, 0xfffff800, 0xffffffff8000ffff, 0xffffffff8000f800)
        TEST_AMO_W(amoor.w, 0x80000000, 1, 0xffffffff80000000, 0xffffffff80000001)
        TEST_AMO_W(amomin.w, 1, 0xffffffff, 1, 0xffffffffffffffff)             // -1 < 1 as 32-bit
        TEST_AMO_W(amomin.w, 0x80000000, 0x7fffffff, 0xffffffff80000000, 0xffffffff80000000)
        TEST_AMO_W(amomax.w, 1, 0xffffffff, 1, 1)
        TEST_AMO_W(amomax.w, 0x80000000, 0x100000000, 0xffffffff80000000, 0)   // rs2's low word is 0
        TEST_AMO_W(amominu.w, 1, 0xffffffff, 1, 1)
        TEST_AMO_W(amominu.w, 0xffffffff, 0x100000002, 0xffffffffffffffff, 2)
        TEST_AMO_W(amomaxu.w, 1, 0xffffffff, 1, 0xffffffffffffffff)
        TEST_AMO_W(amomaxu.w, 0x80000000, 0x7fffffff, 0xffffffff80000000, 0xffffffff80000000)
        // a .w AMO leaves the neighbouring word alone
        TEST_CASE(x14, 0xaaaaaaaa00000003, la x1, amo_dat; li x2, 0xaaaaaaaa00000001; sd x2, 0(x1);
                  li x2, 2; amoadd.w x4, x2, (x1); ld x14, 0(x1))
        TEST_CASE(x14, 0x00000005bbbbbbbb, la x1, amo_dat; li x2, 0x00000004bbbbbbbb; sd x2, 0(x1);
                  li x2, 1; addi x4, x1, 4; amoadd.w x4, x2, (x4); ld x14, 0(x1))
        TEST_CASE(x14, 0x7, la x1, amo_dat; li x2, 5; sw x2, 0(x1); li x2, 2;
                  amoadd.w x0, x2, (x1); lw x14, 0(x1))                  // rd = x0: still performed
        TEST_CASE(x14, 9, la x1, amo_dat; li x2, 9; sw x2, 0(x1);
                  amoswap.w x2, x2, (x1); lw x14, 0(x1))                 // rd == rs2

        // ----- AMO .d -----
        TEST_AMO_D(amoswap.d, 0x8000000000000000, 0xfffffffffffff800, 0x8000000000000000, 0xfffffffffffff800)
        TEST_AMO_D(amoadd.d, 0x8000000000000000, 0xfffffffffffff800, 0x8000000000000000, 0x7ffffffffffff800)
        TEST_AMO_D(amoadd.d, 0xffffffff, 1, 0xffffffff, 0x100000000)
        TEST_AMO_D(amoxor.d, 0x8000000000000000, 0xc000000000000001, 0x8000000000000000, 0x4000000000000001)
        TEST_AMO_D(amoand.d, 0xffffffff00000000, 0x0000ffffffff0000, 0xffffffff00000000, 0x0000ffff00000000)
        TEST_AMO_D(amoor.d, 0x8000000000000000, 1, 0x8000000000000000, 0x8000000000000001)
        TEST_AMO_D(amomin.d, 1, 0xffffffffffffffff, 1, 0xffffffffffffffff)
        TEST_AMO_D(amomin.d, 0xffffffff, 0x100000000, 0xffffffff, 0xffffffff)  // 64-bit compare
        TEST_AMO_D(amomax.d, 1, 0xffffffffffffffff, 1, 1)
        TEST_AMO_D(amomax.d, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_AMO_D(amominu.d, 1, 0xffffffffffffffff, 1, 1)
        TEST_AMO_D(amomaxu.d, 1, 0xffffffffffffffff, 1, 0xffffffffffffffff)
        TEST_AMO_D(amomaxu.d, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000, 0x8000000000000000)
        // aq/rl bits are accepted and change nothing on one hart
        TEST_AMO_D(amoadd.d.aqrl, 40, 2, 40, 42)
        TEST_AMO_W(amoor.w.aq, 0x10, 0x01, 0x10, 0x11)
        TEST_CASE(x14, 0, la x1, amo_dat; lr.d.aq x4, (x1); sc.d.rl x14, x4, (x1))

#ifndef USER_MODE
        // ----- misaligned: a trap with the address in mtval; nothing changes -----
        // The handler below checks mcause == x18 (s2) and mtval == x19 (s3), then skips
        // the instruction. x4 must be unchanged afterwards.
#define TEST_MISALIGNED(cause, off, inst...)                            \
        TEST_CASE(x14, 0x0123456789abcdef, la x1, amo_dat;              \
                  li x2, 0x0123456789abcdef; sd x2, 0(x1); sd x2, 8(x1);\
                  li x4, 0x5a5a; li x18, cause; addi x19, x1, off;      \
                  addi x1, x1, off; inst; addi x1, x1, -(off);          \
                  li x7, 0x5a5a; bne x4, x7, fail;                      \
                  bnez x18, fail; /* the trap happened */               \
                  ld x14, 0(x1); ld x7, 8(x1); bne x7, x14, fail)
        TEST_MISALIGNED(4, 2, lr.w x4, (x1))
        TEST_MISALIGNED(4, 4, lr.d x4, (x1))
        TEST_MISALIGNED(6, 1, sc.w x4, x2, (x1))
        TEST_MISALIGNED(6, 12, sc.d x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amoswap.w x4, x2, (x1))
        TEST_MISALIGNED(6, 1, amoadd.w x4, x2, (x1))
        TEST_MISALIGNED(6, 3, amoxor.w x4, x2, (x1))
        TEST_MISALIGNED(6, 6, amoand.w x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amoor.w x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amomin.w x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amomax.w x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amominu.w x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amomaxu.w x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amoswap.d x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amoadd.d x4, x2, (x1))
        TEST_MISALIGNED(6, 1, amoxor.d x4, x2, (x1))
        TEST_MISALIGNED(6, 2, amoand.d x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amoor.d x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amomin.d x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amomax.d x4, x2, (x1))
        TEST_MISALIGNED(6, 4, amominu.d x4, x2, (x1))
        TEST_MISALIGNED(6, 7, amomaxu.d x4, x2, (x1))
#endif

        j pass

#ifndef USER_MODE
mtvec_handler:
        beqz x18, unexpected_trap       // no trap expected
        csrr t5, mcause
        bne t5, x18, unexpected_trap
        csrr t5, mtval
        bne t5, x19, fail
        li x18, 0
        csrr t5, mepc
        addi t5, t5, 4
        csrw mepc, t5
        mret
#endif

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .balign 16
amo_dat: .skip 32
RVTEST_DATA_END
