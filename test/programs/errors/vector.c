// Runs a vector instruction (vadd.vv v1,v2,v3, at the global label
// vec_insn), which rvsim does not implement: the guest dies of SIGILL and
// rvsim's message names the extension (TestCLIGuestFaults).
#include <stdio.h>

int main(void) {
	printf("before the vector instruction\n");
	fflush(stdout);
	__asm__ volatile(".globl vec_insn\nvec_insn: .word 0x022180d7");
	return 0;
}
