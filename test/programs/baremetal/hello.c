// A bare-metal program that talks to the host through HTIF: console
// characters (device 1, command 1) and the syscall proxy (device 0,
// command 0, payload = the address of magic_mem = {num, a0, a1, ...}).
// It exits with 0 if the proxied write reported every byte written.
#include <stdint.h>

extern volatile uint64_t tohost, fromhost;

static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));

static void htif(uint64_t cmd) {
	while (tohost != 0)
		;
	tohost = cmd;
	while (fromhost == 0)
		;
	fromhost = 0;
}

static void putchar_htif(char c) { htif(1ULL << 56 | 1ULL << 48 | (uint8_t)c); }

static long syscall_proxy(long num, long a0, long a1, long a2) {
	magic_mem[0] = num;
	magic_mem[1] = a0;
	magic_mem[2] = a1;
	magic_mem[3] = a2;
	__sync_synchronize();
	htif((uint64_t)(uintptr_t)magic_mem);
	__sync_synchronize();
	return magic_mem[0];
}

int main(void) {
	static const char a[] = "hello from HTIF putchar\n";
	static const char b[] = "hello from the syscall proxy\n";
	for (const char *p = a; *p; p++)
		putchar_htif(*p);
	long n = syscall_proxy(64, 1, (long)(uintptr_t)b, sizeof b - 1);
	return n == (long)(sizeof b - 1) ? 0 : 1;
}
