// Stores to an unmapped address (0x10) at the global label segv_store:
// rvsim must report the address and pc and exit with 128+SIGSEGV.
#include <string.h>
#include <unistd.h>

int main(void) {
	const char *msg = "before the bad store\n";
	write(1, msg, strlen(msg));
	long v = 42, addr = 0x10;
	__asm__ volatile(".globl segv_store\nsegv_store: sd %0, 0(%1)" ::"r"(v), "r"(addr) : "memory");
	return 0;
}
