// Runs an illegal instruction (at the global label bad_insn, so the test can
// name its pc) after printing one line: rvsim must report
// "illegal instruction 0xfe000033 at pc ..." and exit with 128+SIGILL.
#include <string.h>
#include <unistd.h>

int main(void) {
	const char *msg = "before the illegal instruction\n";
	write(1, msg, strlen(msg));
	__asm__ volatile(".globl bad_insn\nbad_insn: .word 0xfe000033");
	return 0;
}
