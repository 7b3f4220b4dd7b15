/* The reference side of bench/riscv-arch-test.sh (REFMODEL=qemu): the
   target macros for QEMU's virt machine (qemu-system-riscv64 -machine
   virt -bios none), an independent model whose signature is compared
   with rvsim's. At the halt the test prints its signature on the UART
   (a 16550 at 0x10000000), one 32-bit word a line in hex as Spike's
   +signature writes it, and stops QEMU through the SiFive test device
   at 0x100000 (0x5555: pass). */
#ifndef _RVSIM_QEMU_MODEL_TEST_H
#define _RVSIM_QEMU_MODEL_TEST_H

#include "../common.h"

#define RVMODEL_HALT                                            \
	la t0, begin_signature;                                 \
	la t1, end_signature;                                   \
	li t2, 0x10000000;                                      \
2:	bgeu t0, t1, 5f;                                        \
	lwu t3, 0(t0);                                          \
	li t4, 28;                                              \
3:	srl t5, t3, t4;                                         \
	andi t5, t5, 15;                                        \
	addi t5, t5, 48;                                        \
	li t6, 58;                                              \
	blt t5, t6, 4f;                                         \
	addi t5, t5, 39;                                        \
4:	sb t5, 0(t2);                                           \
	addi t4, t4, -4;                                        \
	bgez t4, 3b;                                            \
	li t5, 10;                                              \
	sb t5, 0(t2);                                           \
	addi t0, t0, 4;                                         \
	j 2b;                                                   \
5:	li t0, 0x100000;                                        \
	li t1, 0x5555;                                          \
	sw t1, 0(t0);                                           \
6:	j 6b;

#endif
