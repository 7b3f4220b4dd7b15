// zicsr and zifencei: the user-level CSRs fflags, frm and fcsr (three
// views of one register: fcsr = frm << 5 | fflags), the CSR instruction
// forms on them, and self-modifying code made visible by fence.i.
#include "macros.h"

// Encodings stored by the self-modifying tests.
#define ADDI_A2_ZERO_42  0x02a00613      // addi a2, zero, 42
#define ADDI_A2_ZERO_7   0x00700613      // addi a2, zero, 7
#define C_LI_A2_5        0x4615          // c.li a2, 5
#define C_ADDI_A2_1      0x0605          // c.addi a2, 1

        .option norvc
RVTEST_CODE_BEGIN

        // ----- fflags / frm / fcsr aliasing -----
        TEST_CASE(x14, 0xff, li x1, 0xff; csrw fcsr, x1; csrr x14, fcsr)
        TEST_CASE(x14, 0x1f, csrr x14, fflags)
        TEST_CASE(x14, 7, csrr x14, frm)
        TEST_CASE(x14, 0xe3, li x1, 3; csrw fflags, x1; csrr x14, fcsr)       // frm kept
        TEST_CASE(x14, 0x23, li x1, 1; csrw frm, x1; csrr x14, fcsr)          // fflags kept
        TEST_CASE(x14, 0xff, li x1, -1; csrw fcsr, x1; csrr x14, fcsr)        // only 8 bits exist
        TEST_CASE(x14, 0x1f, li x1, -1; csrw fflags, x1; csrr x14, fflags)    // only 5 bits
        TEST_CASE(x14, 0x7, li x1, -1; csrw frm, x1; csrr x14, frm)           // only 3 bits
        TEST_CASE(x14, 0xff, csrr x14, fcsr)
        TEST_CASE(x14, 0x1f, fsflags x14, x0)                                 // swap returns the old flags
        TEST_CASE(x14, 0xe0, csrr x14, fcsr)
        TEST_CASE(x14, 7, fsrmi x14, 2)                                       // swap returns the old frm
        TEST_CASE(x14, 0x40, csrr x14, fcsr)
        TEST_CASE(x14, 0x45, csrsi fflags, 5; csrr x14, fcsr)
        TEST_CASE(x14, 0x44, csrci fflags, 1; csrr x14, fcsr)
        TEST_CASE(x14, 0x84, csrrwi x7, frm, 4; csrr x14, fcsr)
        TEST_CASE(x14, 0x04, csrrci x7, frm, 4; csrr x14, fcsr)
        TEST_CASE(x14, 0x1f, li x1, 0x1b; csrrs x7, fflags, x1; csrr x14, fflags)
        TEST_CASE(x14, 0x1e, li x1, 1; csrrc x7, fflags, x1; csrr x14, fflags)
        TEST_CASE(x14, 0x1e, csrrs x14, fflags, x0; csrrc x7, fflags, x0)     // x0: read only
        TEST_CASE(x14, 0x1e, csrrsi x14, fflags, 0; csrrci x7, fflags, 0)
        // fp instructions accrue into fflags (and so into fcsr)
        TEST_CASE(x14, 0x08, fscsr x0; li x1, 0x3f800000; fmv.w.x f1, x1; fmv.w.x f2, x0;
                  fdiv.s f3, f1, f2; csrr x14, fcsr)                          // 1/0: DZ
        TEST_CASE(x14, 0x18, fsub.s f3, f2, f2; fdiv.s f3, f2, f2; csrr x14, fflags) // 0/0: NV, DZ kept
        TEST_CASE(x14, 0x18, fsub.s f3, f1, f1; csrr x14, fflags)             // exact: nothing added
        // frm drives dynamic rounding
        TEST_CASE(x14, 0x3f800001, li x1, 0x3f800000; fmv.w.x f1, x1; li x1, 0x33800000; fmv.w.x f2, x1;
                  li x1, 3 << 5; csrw fcsr, x1; fadd.s f3, f1, f2, dyn; fmv.x.w x14, f3)
        TEST_CASE(x14, 0x3f800000, li x1, 1; csrw frm, x1; fadd.s f3, f1, f2, dyn; fmv.x.w x14, f3)
        TEST_CASE(x14, 0x21, csrr x14, fcsr; fscsr x0)                        // RTZ and NX

        // ----- fence.i: stores to code are seen after fence.i -----
        // Run the patch site once so its old contents are cached, then
        // overwrite it and execute it again.
        TEST_CASE(x12, 42,
                  li s1, 2;
               2: jal smc1;
                  addi s1, s1, -1;
                  beqz s1, 3f;
                  li x7, 1; bne x12, x7, fail;                         // first pass: the original
                  la x1, smc1; li x2, ADDI_A2_ZERO_42; sw x2, 0(x1);
                  fence.i;
                  j 2b;
               3:)
#ifndef USER_MODE
        // the code patches itself (Linux text is not writable)
        TEST_CASE(x12, 7,
                  la x1, 4f; li x2, ADDI_A2_ZERO_7; sw x2, 0(x1); fence.i;
               4: addi x12, x0, 1)
#endif
        // a 32-bit instruction replaced by two compressed ones
        TEST_CASE(x12, 6,
                  li s1, 2;
               2: jal smc2;
                  addi s1, s1, -1;
                  beqz s1, 3f;
                  li x7, 3; bne x12, x7, fail;
                  la x1, smc2; li x2, C_LI_A2_5 | (C_ADDI_A2_1 << 16); sw x2, 0(x1);
                  fence.i;
                  j 2b;
               3:)
        // a patched loop body: count with the old instruction, then with the new
        TEST_CASE(x12, 2 * 42,
                  la x1, smc3; li x2, 0x00100613; sw x2, 0(x1); fence.i;  // addi a2, zero, 1
                  jal smc3; mv s2, x12;
                  la x1, smc3; li x2, ADDI_A2_ZERO_42; sw x2, 0(x1); fence.i;
                  jal smc3; add x12, x12, x12;
                  li x7, 1; bne s2, x7, fail)

        j pass

RVTEST_CODE_END

// Patch sites, in a writable and executable section.
        .section .smc, "awx", @progbits
        .balign 4
smc1:   addi x12, x0, 1
        ret
smc2:   addi x12, x0, 3
        ret
smc3:   addi x12, x0, 0
        ret
