// Test environment for the project's ISA tests (written for rvsim, in the
// spirit of riscv-tests).
//
// Each test file is built twice:
//
//   bare-metal (default): M-mode at 0x80000000 (link.ld), results through
//     the HTIF tohost mailbox: pass writes 1, a failed check writes
//     (n<<1)|1 where n is the failing test's number, and an unexpected trap
//     writes ((1<<30 | mcause<<24 | n) << 1) | 1.
//   user mode (-DUSER_MODE): a static Linux program, so that qemu-riscv64
//     can check the expected values independently; pass exits 0, a failure
//     prints "FAIL n" and exits 1. Code that needs M-mode is wrapped in
//     BARE_ONLY(...) or #ifndef USER_MODE.
//
// A test's number is the source line of its macro invocation (__LINE__), so
// a failure names the line to look at.
#ifndef ENV_H
#define ENV_H

#define TESTNUM gp

#define UNEXPECTED_TRAP_BIT (1 << 30)

#ifdef USER_MODE

#define BARE_ONLY(...)

#define RVTEST_CODE_BEGIN                                               \
        .text;                                                          \
        .globl _start;                                                  \
_start:                                                                 \
        li TESTNUM, 0;                                                  \
        fsrmi 0;                                                        \
        fsflags x0;                                                     \
        j test_start;                                                   \
        .balign 4;                                                      \
test_start:

// fail prints "FAIL <n>\n" with write(2) and exits 1.
#define RVTEST_CODE_END                                                 \
pass:                                                                   \
        li a0, 0;                                                       \
        li a7, 93;                                                      \
        ecall;                                                          \
fail:                                                                   \
        la a1, fail_buf + 31;                                           \
        li t0, 10;                                                    \
        sb t0, 0(a1);                                                   \
        mv t1, TESTNUM;                                                 \
        li t2, 10;                                                      \
1:      addi a1, a1, -1;                                                \
        remu t0, t1, t2;                                                \
        addi t0, t0, 48;                                               \
        sb t0, 0(a1);                                                   \
        divu t1, t1, t2;                                                \
        bnez t1, 1b;                                                    \
        addi a1, a1, -5;                                                \
        li t0, 70; sb t0, 0(a1);                                       \
        li t0, 65; sb t0, 1(a1);                                       \
        li t0, 73; sb t0, 2(a1);                                       \
        li t0, 76; sb t0, 3(a1);                                       \
        li t0, 32; sb t0, 4(a1);                                       \
        la a2, fail_buf + 32;                                           \
        sub a2, a2, a1;                                                 \
        li a0, 1;                                                       \
        li a7, 64;                                                      \
        ecall;                                                          \
        li a0, 1;                                                       \
        li a7, 93;                                                      \
        ecall;                                                          \
        .pushsection .bss;                                              \
fail_buf: .skip 32;                                                     \
        .popsection

#else /* bare metal */

#define BARE_ONLY(...) __VA_ARGS__

// A file may define mtvec_handler (a weak symbol) to see traps first; it
// ends with mret or jumps to unexpected_trap.
#define RVTEST_CODE_BEGIN                                               \
        .section .text.init, "ax";                                      \
        .weak mtvec_handler;                                            \
        .globl _start;                                                  \
        .balign 4;                                                      \
_start:                                                                 \
        j reset_vector;                                                 \
        .balign 4;                                                      \
trap_vector:                                                            \
        la t5, mtvec_handler;                                           \
        beqz t5, unexpected_trap;                                       \
        jr t5;                                                          \
unexpected_trap:                                                        \
        csrr t5, mcause;                                                \
        slli t5, t5, 24;                                                \
        li t6, UNEXPECTED_TRAP_BIT;                                     \
        or t5, t5, t6;                                                  \
        or t5, t5, TESTNUM;                                             \
        slli t5, t5, 1;                                                 \
        ori t5, t5, 1;                                                  \
        j write_tohost;                                                 \
reset_vector:                                                           \
        li x1, 0; li x2, 0; li x3, 0; li x4, 0; li x5, 0; li x6, 0;     \
        li x7, 0; li x8, 0; li x9, 0; li x10, 0; li x11, 0; li x12, 0;  \
        li x13, 0; li x14, 0; li x15, 0; li x16, 0; li x17, 0;          \
        li x18, 0; li x19, 0; li x20, 0; li x21, 0; li x22, 0;          \
        li x23, 0; li x24, 0; li x25, 0; li x26, 0; li x27, 0;          \
        li x28, 0; li x29, 0; li x30, 0; li x31, 0;                     \
        la t0, trap_vector;                                             \
        csrw mtvec, t0;                                                 \
        csrwi mstatus, 0;                                               \
        li t0, 1 << 13; /* FS = Initial */                              \
        csrs mstatus, t0;                                               \
        fsrmi 0;                                                        \
        fsflags x0;                                                     \
        la sp, stack_top;                                               \
        j test_start;                                                   \
        .text;                                                          \
        .balign 4;                                                      \
test_start:

#define RVTEST_CODE_END                                                 \
pass:                                                                   \
        li t5, 1;                                                       \
        j write_tohost;                                                 \
fail:                                                                   \
        bnez TESTNUM, 1f;                                               \
        li TESTNUM, 1;                                                  \
1:      slli t5, TESTNUM, 1;                                            \
        ori t5, t5, 1;                                                  \
write_tohost:                                                           \
        fence;                                                          \
        la t6, tohost;                                                  \
        sd t5, 0(t6);                                                   \
        j write_tohost;                                                 \
        .pushsection .tohost, "aw", @progbits;                          \
        .balign 64;                                                     \
        .globl tohost;                                                  \
tohost: .dword 0;                                                       \
        .balign 64;                                                     \
        .globl fromhost;                                                \
fromhost: .dword 0;                                                     \
        .popsection;                                                    \
        .pushsection .bss;                                              \
        .balign 16;                                                     \
        .skip 4096;                                                     \
stack_top:                                                              \
        .popsection

#endif

#define RVTEST_DATA_BEGIN .data; .balign 8;
#define RVTEST_DATA_END

#endif
