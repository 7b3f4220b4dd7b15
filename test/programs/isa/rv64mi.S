// rv64mi: machine mode (privileged architecture) on this hart, which has
// M, S and U modes (S-mode and interrupts: rv64si.S) and no interrupt
// sources. Traps are caught by the handler at the end of the file
// (M_TRAP_HANDLER, traps.h), which records mcause/mepc/mtval/mstatus in
// s2/s3/s4/s5 and resumes in M-mode at the address in s6. Bare metal only.
#include "macros.h"
#include "traps.h"

#define MSTATUS_MIE  0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP  0x1800
#define MSTATUS_FS   0x6000

// ENTER_USER: continue in U-mode at label 7 (forward).
#define ENTER_USER                                                      \
        li t0, MSTATUS_MPP;                                             \
        csrc mstatus, t0;                                               \
        la t0, 7f;                                                      \
        csrw mepc, t0;                                                  \
        mret

        .option rvc
RVTEST_CODE_BEGIN
        // Let U-mode reach all memory, as a hart with PMP needs
        // (pmpaddr0 = all ones, pmpcfg0 = NAPOT, RWX).
        li t0, -1
        csrw pmpaddr0, t0
        li t0, 0x1f
        csrw pmpcfg0, t0

        // ----- identification -----
        TEST_CASE(x14, 0x800000000014112f, csrr x14, misa)             // RV64 I M A F D C B S U
        TEST_CASE(x14, 0, csrr x14, mhartid)
        TEST_CASE(x14, 0, csrr x14, mvendorid)
        TEST_CASE(x14, 0, csrr x14, marchid)
        TEST_CASE(x14, 0, csrr x14, mimpid)
        TEST_CASE(x14, 0x800000000014112f, li x14, 0; csrw misa, x14; csrr x14, misa) // WARL: fixed

        // ----- the trigger module with no trigger (debug spec, Sdtrig) -----
        TEST_CASE(x14, 0, li x1, 3; csrw tselect, x1; csrr x14, tselect)   // WARL: only 0
        TEST_CASE(x14, 0, li x1, 0x2000000000000044; csrw tdata1, x1; csrr x14, tdata1) // type 0: none
        TEST_CASE(x14, 0, li x1, 0x80000000; csrw tdata2, x1; csrr x14, tdata2)
        TEST_CASE(x14, 1, csrr x14, tinfo)                                  // no trigger here

        // ----- read/write round trips -----
        TEST_CASE(x14, 0x0123456789abcdef, li x1, 0x0123456789abcdef; csrw mscratch, x1; csrr x14, mscratch)
        TEST_CASE(x14, 0x0123456789abcdef, li x1, 5; csrrw x14, mscratch, x1; csrr x7, mscratch; li x6, 5; bne x7, x6, fail)
        TEST_CASE(x14, 0xf5, li x1, 0xf0; csrrs x7, mscratch, x1; li x6, 5; bne x7, x6, fail; csrr x14, mscratch)
        TEST_CASE(x14, 0xa5, li x1, 0x50; csrrc x7, mscratch, x1; csrr x14, mscratch)
        TEST_CASE(x14, 0xbf, csrrsi x7, mscratch, 0x1a; csrr x14, mscratch)
        TEST_CASE(x14, 0xa0, csrrci x7, mscratch, 0x1f; csrr x14, mscratch)
        TEST_CASE(x14, 0x1f, csrrwi x7, mscratch, 0x1f; csrr x14, mscratch)
        TEST_CASE(x14, 0x1f, li x14, 0x1f; csrrw x14, mscratch, x14)      // rd == rs1: old value read
        TEST_CASE(x14, 0x1f, csrrs x14, mscratch, x0; csrrc x7, mscratch, x0; csrr x14, mscratch) // x0: no write
        TEST_CASE(x14, 0x8000000000001232, li x1, 0x8000000000001233; csrw mepc, x1; csrr x14, mepc) // bit 0 reads 0
        TEST_CASE(x14, 0xfedcba9876543210, li x1, 0xfedcba9876543210; csrw mtval, x1; csrr x14, mtval)
        TEST_CASE(x14, 0x8000000000000007, li x1, 0x8000000000000007; csrw mcause, x1; csrr x14, mcause)

        // ----- read-only CSRs: csrrs/csrrc with x0 (or uimm 0) do not write -----
        TEST_CASE(x14, 0, csrrs x14, mhartid, x0)
        TEST_CASE(x14, 0, csrrc x14, mhartid, x0)
        TEST_CASE(x14, 0, csrrsi x14, mhartid, 0)
        TEST_CASE(x14, 0, csrrci x14, mvendorid, 0)
        EXPECT_TRAP_TVAL(2, 0xf1429073, 8: csrw mhartid, t0)              // csrrw always writes
        EXPECT_TRAP_TVAL(2, 0xf1405073, 8: csrwi mhartid, 0)
        EXPECT_TRAP_TVAL(2, 0xc0001073, 8: csrw cycle, x0)
        EXPECT_TRAP(2, li t1, 1; 8: csrs mhartid, t1)
        EXPECT_TRAP(2, 8: csrrsi t1, marchid, 1)

        // ----- unimplemented CSRs are illegal -----
        EXPECT_TRAP_TVAL(2, 0x600022f3, 8: csrr t0, 0x600)                // hstatus: no hypervisor
        EXPECT_TRAP_TVAL(2, 0x7b0022f3, 8: csrr t0, dcsr)                 // debug mode only
        EXPECT_TRAP_TVAL(2, 0xfff022f3, 8: csrr t0, 0xfff)

        // ----- ecall, ebreak, illegal instructions -----
        EXPECT_TRAP_TVAL(11, 0, 8: ecall)                                 // from M
        TEST_CASE(x14, 0x1800, li x7, MSTATUS_MPP; and x14, s5, x7)       // MPP = M at the trap
        EXPECT_TRAP(3, 8: ebreak)
        TEST_CASE(x14, 0, beqz s4, 1f; la x7, 8b; bne s4, x7, fail; 1: li x14, 0) // mtval: 0 or the pc
        EXPECT_TRAP(3, 8: c.ebreak)
        EXPECT_TRAP_TVAL(2, 0xfe000033, 8: .word 0xfe000033)              // mtval = the instruction bits
        EXPECT_TRAP_TVAL(2, 0x4002, 8: .hword 0x4002)                     // c.lwsp x0: reserved
        EXPECT_TRAP(2, 8: .hword 0x0000)                                  // all zeros: illegal
        EXPECT_TRAP_TVAL(2, 0x6501, 8: .hword 0x6501)                     // c.lui a0, 0: reserved
        EXPECT_TRAP_TVAL(2, 0x6101, 8: .hword 0x6101)                     // c.addi16sp sp, 0: reserved
        EXPECT_TRAP_TVAL(2, 0x8002, 8: .hword 0x8002)                     // c.jr x0: reserved
        EXPECT_TRAP_TVAL(2, 0x6002, 8: .hword 0x6002)                     // c.ldsp x0: reserved
        EXPECT_TRAP_TVAL(2, 0x2005, 8: .hword 0x2005)                     // c.addiw x0: reserved
        EXPECT_TRAP_TVAL(2, 0x0205151b, 8: .word 0x0205151b)              // slliw with shamt[5] = 1
        EXPECT_TRAP_TVAL(2, 0x0205551b, 8: .word 0x0205551b)              // srliw with shamt[5] = 1
        EXPECT_TRAP_TVAL(2, 0x00005053, 8: .word 0x00005053)              // fadd.s with rm = 5 (reserved)
        EXPECT_TRAP_TVAL(2, 0x00006053, 8: .word 0x00006053)              // rm = 6
        EXPECT_TRAP_TVAL(2, 0x00007053, fsrmi 5; 8: fadd.s f0, f0, f0, dyn)  // dyn with frm = 5
        TEST_CASE(x14, 5, frrm x14; fsrmi 0)                              // frm itself holds 5
        EXPECT_TRAP_TVAL(2, 0x00007053, fsrmi 7; 8: fadd.s f0, f0, f0, dyn)  // dyn with frm = 7
        TEST_CASE(x14, 0, fsrmi 0; fsflags x0; fadd.s f0, f0, f0, dyn; frflags x14) // legal again
        EXPECT_TRAP_TVAL(2, 0x30200073, ENTER_USER; 7: 8: mret)           // mret from U
        TEST_CASE(x14, 0, wfi; li x14, 0)                                 // wfi in M: a nop here

        // ----- access faults (no memory at 0x1000) -----
        EXPECT_TRAP_TVAL(5, 0x1000, li t1, 0x1000; 8: ld t2, 0(t1))
        EXPECT_TRAP_TVAL(5, 0x1004, li t1, 0x1000; 8: lw t2, 4(t1))
        EXPECT_TRAP_TVAL(7, 0x1008, li t1, 0x1000; 8: sd t2, 8(t1))
        EXPECT_TRAP_TVAL(7, 0x1000, li t1, 0x1000; 8: amoadd.d t2, t2, (t1))
        EXPECT_TRAP_TVAL(5, 0x1000, li t1, 0x1000; 8: lr.d t2, (t1))
        // instruction access fault: mepc = mtval = the target
        TEST_CASE(x14, 0, li TESTNUM, __LINE__; la s6, 2f; li t1, 0x1000; jalr t1; j fail;
                  2: li t0, 1; bne s2, t0, fail; li t0, 0x1000; bne s3, t0, fail; bne s4, t0, fail; li x14, 0)

        // ----- mret to U-mode and back with ecall -----
        EXPECT_TRAP_TVAL(8, 0, ENTER_USER; 7: 8: ecall)                   // ecall from U: 8
        TEST_CASE(x14, 0, li x7, MSTATUS_MPP; and x14, s5, x7)            // MPP = U at the trap
        EXPECT_TRAP_TVAL(2, 0x340022f3, ENTER_USER; 7: 8: csrr t0, mscratch) // U cannot reach M CSRs
        EXPECT_TRAP_TVAL(2, 0x300022f3, ENTER_USER; 7: 8: csrr t0, mstatus)
        EXPECT_TRAP_TVAL(2, 0xf14022f3, ENTER_USER; 7: 8: csrr t0, mhartid)
        // U-mode counters need mcounteren and scounteren (S-mode exists)
        EXPECT_TRAP_TVAL(2, 0xc00022f3, csrwi mcounteren, 0; csrwi scounteren, 7; ENTER_USER; 7: 8: csrr t0, cycle)
        EXPECT_TRAP_TVAL(2, 0xc02022f3, csrwi mcounteren, 3; ENTER_USER; 7: 8: csrr t0, instret)
        EXPECT_TRAP_TVAL(2, 0xc00022f3, csrwi mcounteren, 7; csrwi scounteren, 6; ENTER_USER; 7: 8: csrr t0, cycle)
        EXPECT_TRAP(8, csrwi mcounteren, 7; csrwi scounteren, 7; ENTER_USER; 7: csrr t0, cycle; csrr t0, time; csrr t0, instret; 8: ecall)
        TEST_CASE(x14, 7, csrr x14, mcounteren; csrwi mcounteren, 0; csrwi scounteren, 0)
        // U-mode FP works and fflags is a user CSR
        EXPECT_TRAP(8, fmv.w.x f0, x0; ENTER_USER; 7: fsflags x0; fdiv.s f1, f0, f0; frflags t1; 8: ecall)
        TEST_CASE(t1, 0x10, nop)                                          // 0/0: NV

        // ----- mstatus.MIE / MPIE / MPP through a trap and mret -----
        TEST_CASE(x14, 0, csrci mstatus, MSTATUS_MIE; csrr x14, mstatus; andi x14, x14, MSTATUS_MIE)
        EXPECT_TRAP(11, csrsi mstatus, MSTATUS_MIE; 8: ecall)
        TEST_CASE(x14, MSTATUS_MPIE | MSTATUS_MPP, li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and x14, s5, x7) // at the trap: MIE 0, MPIE 1, MPP M
        TEST_CASE(x14, MSTATUS_MIE | MSTATUS_MPIE, csrr x14, mstatus; li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and x14, x14, x7) // after mret: MIE 1, MPIE 1, MPP U
        EXPECT_TRAP(11, csrci mstatus, MSTATUS_MIE; 8: ecall)
        TEST_CASE(x14, MSTATUS_MPP, li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and x14, s5, x7) // MIE 0, MPIE 0
        TEST_CASE(x14, MSTATUS_MPIE, csrr x14, mstatus; li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and x14, x14, x7)
        // mret itself: MIE <- MPIE, MPIE <- 1, MPP <- U, and the privilege from MPP
        TEST_CASE(x14, MSTATUS_MIE | MSTATUS_MPIE,
                  li t0, MSTATUS_MPIE | MSTATUS_MPP; csrs mstatus, t0; csrci mstatus, MSTATUS_MIE;
                  la t0, 1f; csrw mepc, t0; mret; j fail;
                  1: csrr x14, mstatus; li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP; and x14, x14, x7)
        TEST_CASE(x14, 0, csrci mstatus, MSTATUS_MIE; li x14, 0)
        // MPP is WARL: S (1) holds, 2 is reserved and leaves it as it was
        TEST_CASE(x14, 1, li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, 0x800; csrs mstatus, t0;
                  csrr x14, mstatus; srli x14, x14, 11; andi x14, x14, 3)
        TEST_CASE(x14, 1, csrr t0, mstatus; li t1, MSTATUS_MPP; not t1, t1; and t0, t0, t1; li t1, 0x1000; or t0, t0, t1;
                  csrw mstatus, t0; csrr x14, mstatus; srli x14, x14, 11; andi x14, x14, 3)
        TEST_CASE(x14, 0, li t0, MSTATUS_MPP; csrc mstatus, t0; csrr x14, mstatus; srli x14, x14, 11; andi x14, x14, 3)
        TEST_CASE(x14, 0x200000000, csrr x14, mstatus; li x7, 3 << 32; and x14, x14, x7) // UXL = 64

        // ----- mstatus.FS -----
        TEST_CASE(x14, 0x6000, fadd.s f1, f1, f1; csrr x14, mstatus; li x7, MSTATUS_FS; and x14, x14, x7) // FP write: Dirty
        TEST_CASE(x14, 1, csrr x14, mstatus; srli x14, x14, 63)           // SD
        EXPECT_TRAP(2, li t0, MSTATUS_FS; csrc mstatus, t0; 8: fadd.s f1, f1, f1)  // FS = Off: FP is illegal
        EXPECT_TRAP(2, 8: csrr t1, fflags)
        EXPECT_TRAP(2, 8: fmv.x.d t1, f1)
        EXPECT_TRAP(2, la t1, tdat; 8: fld f1, 0(t1))
        EXPECT_TRAP(2, 8: c.fldsp f1, 0(sp))
        TEST_CASE(x14, 0, csrr x14, mstatus; srli x14, x14, 63)           // SD clear with FS off
        TEST_CASE(x14, 0, li t0, 0x2000; csrs mstatus, t0; fsflags x0; fadd.s f1, f1, f1; frflags x14) // on again

        // ----- counters -----
        TEST_CASE(x14, 3, csrr x1, minstret; nop; nop; csrr x14, minstret; sub x14, x14, x1)
        TEST_CASE(x14, 1, csrr x1, minstret; csrr x14, instret; sub x14, x14, x1)      // instret mirrors minstret
        TEST_CASE(x14, 100, li x1, 100; csrw minstret, x1; csrr x14, minstret)         // the write wins over the increment
        TEST_CASE(x14, 102, li x1, 100; csrw minstret, x1; nop; csrr x14, minstret; addi x14, x14, 1)
        TEST_CASE(x14, 1, csrr x1, mcycle; nop; csrr x2, mcycle; sltu x14, x1, x2)     // counts up
        TEST_CASE(x14, 1, li x1, 1000000; csrw mcycle, x1; csrr x2, mcycle; sub x2, x2, x1; sltiu x14, x2, 16)
        TEST_CASE(x14, 1, csrr x1, mcycle; csrr x2, cycle; sub x2, x2, x1; sltiu x14, x2, 16)
        TEST_CASE(x14, 1, csrr x1, time; csrr x2, time; sltu x14, x2, x1; xori x14, x14, 1) // never goes back

        // ----- mtvec modes: exceptions use the base in vectored mode too -----
        TEST_CASE(x14, 1, la t0, trap_vector; ori t0, t0, 1; csrw mtvec, t0; csrr x14, mtvec; andi x14, x14, 3)
        EXPECT_TRAP(11, 8: ecall)
        TEST_CASE(x14, 0, la t0, trap_vector; ori t0, t0, 2; csrw mtvec, t0; csrr x14, mtvec; andi x14, x14, 2) // mode 2: reserved
        TEST_CASE(x14, 0, la t0, trap_vector; csrw mtvec, t0; li x14, 0)

        j pass

        M_TRAP_HANDLER

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .dword 0
RVTEST_DATA_END
