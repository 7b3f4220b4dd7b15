// Faults that rvsim and --difftest must report as Linux (and qemu-user)
// does, after printing one line:
//   jump   jump to the unmapped address 0x12340000      SIGSEGV, 139
//   csr    csrr mstatus (machine mode only) at bad_csr    SIGILL, 132
//   wfi    wfi in user mode at bad_wfi                    SIGILL, 132
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
	const char *msg = "before the fault\n";
	write(1, msg, strlen(msg));
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "jump") == 0) {
		void (*f)(void) = (void (*)(void))0x12340000;
		f();
	} else if (strcmp(argv[1], "csr") == 0) {
		long v;
		__asm__ volatile(".globl bad_csr\nbad_csr: csrr %0, mstatus" : "=r"(v));
		return (int)v;
	} else if (strcmp(argv[1], "wfi") == 0) {
		__asm__ volatile(".globl bad_wfi\nbad_wfi: wfi");
	}
	return 0;
}
