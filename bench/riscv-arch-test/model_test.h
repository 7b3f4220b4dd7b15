/* rvsim's target macros for the RISC-V architectural tests
   (riscv-arch-test's model_test.h interface), used by
   bench/riscv-arch-test.sh. rvsim's bare-metal machine (docs/RUNNING.md):
   RAM at 0x80000000, the HTIF mailbox at the tohost symbol, a CLINT at
   0x2000000. The run writes the signature with --signature. */
#ifndef _RVSIM_MODEL_TEST_H
#define _RVSIM_MODEL_TEST_H

#include "common.h"

/* Halt: (0 << 1) | 1 in tohost ends the run with exit status 0. */
#define RVMODEL_HALT                                            \
	li x1, 1;                                               \
1:	la t0, tohost;                                          \
	sd x1, 0(t0);                                           \
	j 1b;

#endif
