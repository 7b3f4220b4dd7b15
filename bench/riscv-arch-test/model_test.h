/* rvsim's target macros for the RISC-V architectural tests
   (riscv-arch-test's model_test.h interface), used by
   bench/riscv-arch-test.sh. rvsim's bare-metal machine (docs/RUNNING.md):
   RAM at 0x80000000, the HTIF mailbox at the tohost symbol, a CLINT at
   0x2000000 (msip at +0, mtimecmp at +0x4000). The run writes the
   signature with --signature. */
#ifndef _RVSIM_MODEL_TEST_H
#define _RVSIM_MODEL_TEST_H

#define RVMODEL_DATA_SECTION                                    \
	.pushsection .tohost, "aw", @progbits;                  \
	.align 8; .global tohost; tohost: .dword 0;             \
	.align 8; .global fromhost; fromhost: .dword 0;         \
	.popsection;

/* Halt: (0 << 1) | 1 in tohost ends the run with exit status 0. */
#define RVMODEL_HALT                                            \
	li x1, 1;                                               \
1:	la t0, tohost;                                          \
	sd x1, 0(t0);                                           \
	j 1b;

#define RVMODEL_BOOT

#define RVMODEL_DATA_BEGIN                                      \
	RVMODEL_DATA_SECTION                                    \
	.align 4;                                               \
	.global begin_signature; begin_signature:

#define RVMODEL_DATA_END                                        \
	.align 4;                                               \
	.global end_signature; end_signature:

#define RVMODEL_IO_INIT
#define RVMODEL_IO_WRITE_STR(_R, _STR)
#define RVMODEL_IO_CHECK()
#define RVMODEL_IO_ASSERT_GPR_EQ(_S, _R, _I)
#define RVMODEL_IO_ASSERT_SFPR_EQ(_F, _R, _I)
#define RVMODEL_IO_ASSERT_DFPR_EQ(_D, _R, _I)

/* The machine software interrupt: the CLINT's msip. */
#define RVMODEL_SET_MSW_INT                                     \
	li t1, 1;                                               \
	li t2, 0x2000000;                                       \
	sw t1, 0(t2);

#define RVMODEL_CLEAR_MSW_INT                                   \
	li t2, 0x2000000;                                       \
	sw x0, 0(t2);

/* The machine timer interrupt: mtimecmp back to all ones. */
#define RVMODEL_CLEAR_MTIMER_INT                                \
	li t1, -1;                                              \
	li t2, 0x2004000;                                       \
	sd t1, 0(t2);

/* No external interrupt source exists. */
#define RVMODEL_CLEAR_MEXT_INT

#endif
