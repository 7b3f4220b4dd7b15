// rv64si: supervisor mode on the bare-metal hart (privileged architecture):
// S-mode without address translation (satp holds only Bare), trap
// delegation (medeleg, mideleg), sstatus/sie/sip as views of the M-mode
// registers, sret, TSR, and software interrupts taken when a CSR write or an
// xRET enables them. Traps that reach M-mode are caught by mtvec_handler,
// which records mcause/mepc/mtval/mstatus in s2/s3/s4/s5, clears mip and
// resumes in M-mode at s6; traps delegated to S-mode by s_handler, which
// records scause/sepc/stval/sstatus in s7/s8/s9/s10, clears sip.SSIP and
// goes back to M-mode with ecall. Bare metal only.
#include "macros.h"
#include "traps.h"

#define SSTATUS_SIE  0x2
#define MSTATUS_MIE  0x8
#define SSTATUS_SPIE 0x20
#define MSTATUS_MPIE 0x80
#define SSTATUS_SPP  0x100
#define MSTATUS_MPP  0x1800
#define MSTATUS_SUM  (1 << 18)
#define MSTATUS_MXR  (1 << 19)
#define MSTATUS_TVM  (1 << 20)
#define MSTATUS_TSR  (1 << 22)
#define SSIP         0x2
#define INT_SSI      ((1 << 63) | 1)


// EXPECT_STRAP(cause, code...): code must trap to S-mode with scause ==
// cause at the label 8 (sepc), whose handler then comes back with ecall.
#define EXPECT_STRAP(cause, code...)                                    \
        li TESTNUM, __LINE__;                                           \
        la s6, 9f;                                                      \
        li s2, -1;                                                      \
        li s7, -1;                                                      \
        code;                                                           \
        j fail;                                                         \
9:      li t0, 9;                                                       \
        bne s2, t0, fail;                                               \
        li t0, cause;                                                   \
        bne s7, t0, fail;                                               \
        la t0, 8b;                                                      \
        bne s8, t0, fail

// ENTER(mode): continue in mode (0 U, 1 S) at label 7 (forward).
#define ENTER(mode)                                                     \
        li t0, MSTATUS_MPP;                                             \
        csrc mstatus, t0;                                               \
        li t0, (mode) << 11;                                            \
        csrs mstatus, t0;                                               \
        la t0, 7f;                                                      \
        csrw mepc, t0;                                                  \
        mret

        .option norvc
RVTEST_CODE_BEGIN
        li t0, -1
        csrw pmpaddr0, t0
        la t0, s_handler
        csrw stvec, t0

        // ----- S exists; its CSRs and what it may not reach -----
        TEST_CASE(x14, 1, csrr x14, misa; srli x14, x14, 18; andi x14, x14, 1)
        EXPECT_TRAP_TVAL(9, 0, ENTER(1); 7: 8: ecall)                       // ecall from S: 9
        TEST_CASE(x14, 0x800, li x7, MSTATUS_MPP; and x14, s5, x7)          // MPP = S at the trap
        EXPECT_TRAP(9, li t1, 0x55; ENTER(1); 7: csrw sscratch, t1; csrr t2, sscratch; 8: ecall)
        TEST_CASE(t2, 0x55, nop)
        EXPECT_TRAP_TVAL(2, 0x340022f3, ENTER(1); 7: 8: csrr t0, mscratch)  // S cannot reach M CSRs
        EXPECT_TRAP_TVAL(2, 0x100022f3, ENTER(0); 7: 8: csrr t0, sstatus)   // nor U S CSRs
        TEST_CASE(x14, 0xb3ff, li t0, -1; csrw medeleg, t0; csrr x14, medeleg; csrw medeleg, x0) // not ecall from M
        TEST_CASE(x14, 0x222, li t0, -1; csrw mideleg, t0; csrr x14, mideleg; csrw mideleg, x0)  // S interrupts only

        // ----- address translation: Bare only -----
        TEST_CASE(x14, 0, li t0, (8 << 60) | 0x1234; csrw satp, t0; csrr x14, satp) // Sv39 is not kept
        TEST_CASE(x14, 0, li t0, MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TVM; csrs mstatus, t0; csrr x14, mstatus; and x14, x14, t0)
        EXPECT_TRAP_TVAL(2, 0x12000073, 8: sfence.vma)                       // illegal without translation
        EXPECT_TRAP(2, ENTER(1); 7: 8: sfence.vma)
        EXPECT_TRAP(9, ENTER(1); 7: csrr t0, satp; 8: ecall)                 // satp is S-mode's

        // ----- sstatus is a view of mstatus -----
        TEST_CASE(x14, SSTATUS_SIE, csrsi mstatus, MSTATUS_MIE | SSTATUS_SIE; csrr x14, sstatus; andi x14, x14, MSTATUS_MIE | SSTATUS_SIE)
        TEST_CASE(x14, 0, csrci mstatus, MSTATUS_MIE | SSTATUS_SIE; csrsi sstatus, MSTATUS_MIE; csrr x14, mstatus; andi x14, x14, MSTATUS_MIE)
        TEST_CASE(x14, 0x200000000, csrr x14, sstatus; li x7, 3 << 32; and x14, x14, x7) // UXL = 64
        TEST_CASE(x14, 0x800, li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, 0x800; csrs mstatus, t0;
                  csrw sstatus, x0; csrr x14, mstatus; li x7, MSTATUS_MPP; and x14, x14, x7) // sstatus leaves MPP

        // ----- delegation -----
        EXPECT_STRAP(8, li t0, 1 << 8; csrw medeleg, t0; ENTER(0); 7: 8: ecall) // ecall from U to S
        TEST_CASE(x14, 0, andi x14, s10, SSTATUS_SPP)                       // SPP = U
        EXPECT_STRAP(2, li t0, 1 << 2; csrs medeleg, t0; ENTER(0); 7: 8: csrr t0, sstatus)
        TEST_CASE(s9, 0x100022f3, nop)                                      // stval: the instruction
        EXPECT_STRAP(3, li t0, 1 << 3; csrs medeleg, t0; ENTER(1); 7: 8: ebreak) // from S to S too
        TEST_CASE(x14, SSTATUS_SPP, andi x14, s10, SSTATUS_SPP)            // SPP = S
        TEST_CASE(x14, SSTATUS_SPIE, csrsi mstatus, SSTATUS_SIE;
                  EXPECT_STRAP(3, ENTER(1); 7: 8: ebreak); andi x14, s10, SSTATUS_SPIE | SSTATUS_SIE) // SPIE = SIE, SIE = 0
        EXPECT_TRAP(3, 8: ebreak)                                           // never from M
        EXPECT_TRAP(9, ENTER(1); 7: 8: ecall)                               // nor what medeleg does not name
        TEST_CASE(x14, 0, csrw medeleg, x0; csrci mstatus, SSTATUS_SIE; li x14, 0)

        // ----- sret -----
        EXPECT_TRAP(9, li t0, SSTATUS_SPP | SSTATUS_SPIE; csrs mstatus, t0; csrci sstatus, SSTATUS_SIE;
                    la t0, 7f; csrw sepc, t0; sret; 7: csrr t2, sstatus; 8: ecall) // from M to S
        TEST_CASE(x14, SSTATUS_SIE | SSTATUS_SPIE, andi x14, t2, SSTATUS_SIE | SSTATUS_SPIE | SSTATUS_SPP)
        TEST_CASE(x14, 0, csrci sstatus, SSTATUS_SIE; li x14, 0)
        EXPECT_TRAP(8, li t0, SSTATUS_SPP; csrs mstatus, t0; ENTER(1); 7: li t0, SSTATUS_SPP; csrc sstatus, t0;
                    la t0, 6f; csrw sepc, t0; sret; 6: 8: ecall)          // from S to U
        EXPECT_TRAP_TVAL(2, 0x10200073, ENTER(0); 7: 8: sret)                // illegal in U
        EXPECT_TRAP(2, li t0, MSTATUS_TSR; csrs mstatus, t0; ENTER(1); 7: 8: sret) // TSR
        TEST_CASE(x14, 0, li t0, MSTATUS_TSR; csrc mstatus, t0; li x14, 0)

        // ----- sie and sip are views through mideleg -----
        TEST_CASE(x14, 0x222, li t0, 0x222; csrw mideleg, t0; li t0, 0xaaa; csrw mie, t0; csrr x14, sie)
        TEST_CASE(x14, 0x888, csrw sie, x0; csrr x14, mie)
        TEST_CASE(x14, 0x2, csrw mip, x0; li t0, 0x222; csrs sip, t0; csrr x14, mip) // sip: SSIP only
        TEST_CASE(x14, 0, csrw mie, x0; csrw mip, x0; csrw mideleg, x0; li x14, 0)

        // ----- counters from S and U -----
        EXPECT_TRAP_TVAL(2, 0xc00022f3, csrwi mcounteren, 0; csrwi scounteren, 7; ENTER(1); 7: 8: csrr t0, cycle)
        EXPECT_TRAP(9, csrwi mcounteren, 7; csrwi scounteren, 0; ENTER(1); 7: csrr t0, cycle; csrr t0, instret; 8: ecall)
        EXPECT_TRAP_TVAL(2, 0xc02022f3, ENTER(0); 7: 8: csrr t0, instret)  // U needs scounteren too
        TEST_CASE(x14, 0, csrwi mcounteren, 0; li x14, 0)

        // ----- software interrupts -----
        // (An mret from a trap taken below M-mode restores MIE = 1: the
        // tests clear it before they make an interrupt pending.)
        // M-level (not delegated): pending, then taken when MIE enables it, before the next instruction.
        TEST_CASE(x14, 0, csrci mstatus, MSTATUS_MIE; csrsi mie, SSIP; csrsi mip, SSIP; li x14, 0) // MIE = 0: pending only
        EXPECT_TRAP(INT_SSI, csrsi mstatus, MSTATUS_MIE; 8: nop)
        TEST_CASE(x14, 0, csrr x14, mip)                                    // the handler cleared it
        // vectored mtvec: an interrupt goes to base + 4 * code
        TEST_CASE(x14, 1, csrci mstatus, MSTATUS_MIE; li s11, 0; la t0, vectors; ori t0, t0, 1; csrw mtvec, t0; csrsi mip, SSIP;
                  EXPECT_TRAP(INT_SSI, csrsi mstatus, MSTATUS_MIE; 8: nop); mv x14, s11)
        TEST_CASE(x14, 0, la t0, trap_vector; csrw mtvec, t0; csrw mie, x0; csrci mstatus, MSTATUS_MIE | SSTATUS_SIE; li x14, 0)
        // delegated: S-mode's, taken in S when SIE enables it...
        EXPECT_STRAP(INT_SSI, li t0, SSIP; csrw mideleg, t0; csrw mie, t0; csrw mip, t0;
                     ENTER(1); 7: csrsi sstatus, SSTATUS_SIE; 8: nop)
        // ...in U-mode whatever SIE, as soon as mret gets there...
        EXPECT_STRAP(INT_SSI, csrci mstatus, SSTATUS_SIE; csrsi mip, SSIP; ENTER(0); 7: 8: nop)
        // ...and never in M-mode
        TEST_CASE(x14, SSIP, csrsi mip, SSIP; csrsi mstatus, MSTATUS_MIE | SSTATUS_SIE; nop; csrr x14, mip;
                  csrci mstatus, MSTATUS_MIE | SSTATUS_SIE)
        // wfi with an interrupt pending but masked goes on
        TEST_CASE(x14, 0, wfi; csrw mip, x0; csrw mie, x0; csrw mideleg, x0; li x14, 0)

        j pass

        M_TRAP_HANDLER

// The S-mode trap handler: record the trap, clear SSIP and go back to M-mode.
        .balign 4
s_handler:
        csrr s7, scause
        csrr s8, sepc
        csrr s9, stval
        csrr s10, sstatus
        csrci sip, SSIP
        ecall

// Vectored M-mode traps: exceptions at the base, interrupt n at 4n.
        .balign 64
vectors:
        j mtvec_handler
        j ssi_vector
ssi_vector:
        li s11, 1
        j mtvec_handler

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .dword 0
RVTEST_DATA_END
