/* The target macros rvsim's and the reference's model_test.h share
   (bench/riscv-arch-test.sh): the HTIF mailbox section, the signature's
   bounds, no I/O, and the interrupts of a SiFive CLINT at 0x2000000
   (rvsim's bare-metal machine and QEMU's virt machine both have one). */
#ifndef _RVSIM_ARCH_TEST_COMMON_H
#define _RVSIM_ARCH_TEST_COMMON_H

#define RVMODEL_DATA_SECTION                                    \
	.pushsection .tohost, "aw", @progbits;                  \
	.align 8; .global tohost; tohost: .dword 0;             \
	.align 8; .global fromhost; fromhost: .dword 0;         \
	.popsection;

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
