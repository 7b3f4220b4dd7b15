// sigill: catches SIGILL from an illegal instruction, from a read of a
// machine-mode CSR and from wfi (privileged in user mode), and resumes after each by advancing the pc saved in
// the signal frame (uc_mcontext), which rt_sigreturn must restore. Then
// an illegal instruction with the default action: exit status 132.
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include "../include/check.h"

extern char bad_insn[], bad_csr[], bad_wfi[];
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

int main(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = on_ill;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGILL, &sa, NULL) == 0);

	__asm__ volatile(".globl bad_insn\nbad_insn: .4byte 0\n" ::: "memory");
	CHECK(caught == SIGILL);
	CHECK(code == ILL_ILLOPC);
	CHECK(addr == (uintptr_t)bad_insn);
	CHECK(pc == (uintptr_t)bad_insn);

	caught = 0;
	long v = 7;
	__asm__ volatile(".globl bad_csr\nbad_csr: csrr %0, mstatus\n" : "+r"(v)::"memory");
	CHECK(caught == SIGILL);
	CHECK(addr == (uintptr_t)bad_csr);
	CHECK(v == 7); // the instruction did not complete

	caught = 0;
	__asm__ volatile(".globl bad_wfi\nbad_wfi: wfi\n" ::: "memory");
	CHECK(caught == SIGILL && code == ILL_ILLOPC);
	CHECK(addr == (uintptr_t)bad_wfi);

	signal(SIGILL, SIG_DFL);
	puts("illegal instruction with the default action");
	fflush(stdout);
	__asm__ volatile(".4byte 0");
	puts("FAIL survived");
	return 1;
}
