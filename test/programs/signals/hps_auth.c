// hps_auth: the HPS trigger instructions hps.on (custom-0 0x0000100b) and
// hps.off (0x0000200b) in application code, for the authorisation check
// of hps-phase-aware-remote-profiling.md §4 ("Only authorized agents …
// may execute this instruction"). test/hps_auth_test.go runs it under an
// HPS ACF.
//
//   hps_auth          (unauthorised) each is an illegal instruction: the
//                     SIGILL handler sees ILL_ILLOPC at its pc and skips
//                     it; then hps.on with the default action: status 132.
//   hps_auth on N     (authorised) N sampling windows, hps.on … hps.off;
//                     exits 0.
//
// Without an HPS engine (and under qemu-riscv64) both are illegal, as on
// hardware without HPS.
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "../include/check.h"

extern char hps_on_insn[], hps_off_insn[];
static volatile int caught, code;
static volatile uintptr_t addr, pc;

static void on_ill(int sig, siginfo_t *si, void *ctx) {
	ucontext_t *uc = ctx;
	caught = sig;
	code = si->si_code;
	addr = (uintptr_t)si->si_addr;
	pc = uc->uc_mcontext.__gregs[REG_PC];
	uc->uc_mcontext.__gregs[REG_PC] += 4; // skip the 4-byte instruction
}

static volatile long sink;

int main(int argc, char **argv) {
	if (argc == 3 && strcmp(argv[1], "on") == 0) {
		int n = atoi(argv[2]);
		for (int i = 0; i < n; i++) {
			__asm__ volatile(".4byte 0x0000100b" ::: "memory"); // hps.on
			for (int j = 0; j < 100; j++)
				sink += j;
			__asm__ volatile(".4byte 0x0000200b" ::: "memory"); // hps.off
		}
		printf("ok   %d windows\n", n);
		return failures;
	}

	struct sigaction sa = {0};
	sa.sa_sigaction = on_ill;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGILL, &sa, NULL) == 0);

	__asm__ volatile(".globl hps_on_insn\nhps_on_insn: .4byte 0x0000100b" ::: "memory");
	CHECK(caught == SIGILL);
	CHECK(code == ILL_ILLOPC);
	CHECK(addr == (uintptr_t)hps_on_insn);
	CHECK(pc == (uintptr_t)hps_on_insn);

	caught = 0;
	__asm__ volatile(".globl hps_off_insn\nhps_off_insn: .4byte 0x0000200b" ::: "memory");
	CHECK(caught == SIGILL && code == ILL_ILLOPC);
	CHECK(addr == (uintptr_t)hps_off_insn && pc == (uintptr_t)hps_off_insn);

	signal(SIGILL, SIG_DFL);
	puts("hps.on with the default action");
	fflush(stdout);
	__asm__ volatile(".4byte 0x0000100b");
	puts("FAIL survived");
	return 1;
}
