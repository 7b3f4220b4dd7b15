// Checks of traps into M-mode for the privileged tests (rv64mi.S, rv64si.S):
// their mtvec_handler (M_TRAP_HANDLER) records mcause, mepc, mtval and
// mstatus in s2, s3, s4 and s5, clears pending interrupts and resumes in
// M-mode at s6.
#ifndef TRAPS_H
#define TRAPS_H

// EXPECT_TRAP(cause, code...): code must trap with mcause == cause; the
// label 8 must mark the trapping instruction (checked against mepc).
#define EXPECT_TRAP(cause, code...)                                     \
        li TESTNUM, __LINE__;                                           \
        la s6, 9f;                                                      \
        li s2, -1;                                                      \
        code;                                                           \
        j fail;                                                         \
9:      li t0, cause;                                                   \
        bne s2, t0, fail;                                               \
        la t0, 8b;                                                      \
        bne s3, t0, fail

// ...and mtval == tval as well.
#define EXPECT_TRAP_TVAL(cause, tval, code...)                          \
        EXPECT_TRAP(cause, code);                                       \
        li t0, tval;                                                    \
        bne s4, t0, fail

// M_TRAP_HANDLER is mtvec_handler: record the trap, clear mip (a taken
// software interrupt is handled) and resume in M-mode at s6; a trap no
// check expects (s6 = 0) fails the test.
#define M_TRAP_HANDLER                                                  \
mtvec_handler:                                                          \
        beqz s6, unexpected_trap;                                       \
        csrr s2, mcause;                                                \
        csrr s3, mepc;                                                  \
        csrr s4, mtval;                                                 \
        csrr s5, mstatus;                                               \
        csrw mip, x0;                                                   \
        li t5, 0x1800; /* MPP = M */                                    \
        csrs mstatus, t5;                                               \
        csrw mepc, s6;                                                  \
        li s6, 0;                                                       \
        mret

#endif
