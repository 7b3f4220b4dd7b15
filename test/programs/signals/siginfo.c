// siginfo: SA_SIGINFO handlers read si_signo, si_code, si_addr, si_pid and
// si_value and the interrupted context: SEGV_MAPERR and SEGV_ACCERR with
// the faulting address, SI_USER from kill, SI_TKILL from raise, SI_QUEUE
// with a value from sigqueue, integer and FP registers saved in
// uc_mcontext, and a register changed in the frame that the interrupted
// code sees after rt_sigreturn.
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "../include/check.h"

static volatile int got_sig, got_code, got_pid_ok, got_value;
static volatile uintptr_t got_addr, got_pc, got_s2, got_a0;
static volatile uint64_t got_f9;
static volatile uint32_t got_fcsr;
static int skip;    // bytes to skip at the faulting pc (0: do not resume there)
static int poke_s2; // change s2 in the frame

static void handler(int sig, siginfo_t *si, void *ctx) {
	ucontext_t *uc = ctx;
	got_sig = si->si_signo == sig ? sig : -1;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
	got_pid_ok = si->si_pid == getpid();
	got_value = si->si_value.sival_int;
	got_pc = uc->uc_mcontext.__gregs[REG_PC];
	got_s2 = uc->uc_mcontext.__gregs[18];
	got_a0 = uc->uc_mcontext.__gregs[10];
	got_f9 = uc->uc_mcontext.__fpregs.__d.__f[9];
	got_fcsr = uc->uc_mcontext.__fpregs.__d.__fcsr;
	uc->uc_mcontext.__gregs[REG_PC] += skip;
	if (poke_s2)
		uc->uc_mcontext.__gregs[18] = 0x5eed; // s2 as the resumed code sees it
}

extern char load_null[], store_ro[];

int main(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (int s = 1; s < 32; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);

	puts("== SEGV_MAPERR: load from address 24");
	skip = 4;
	poke_s2 = 1;
	uintptr_t s2_after;
	__asm__ volatile(
	    "li s2, 0x1234\n"
	    "li t0, 0x400921fb54442d18\n"
	    "fmv.d.x fs1, t0\n"
	    "csrwi fflags, 0x3\n"
	    "li t1, 24\n"
	    ".globl load_null\nload_null: ld t1, 0(t1)\n"
	    "mv %0, s2\n"
	    : "=r"(s2_after)::"t0", "t1", "s2", "fs1", "memory");
	CHECK(got_sig == SIGSEGV);
	CHECK(got_code == SEGV_MAPERR);
	CHECK(got_addr == 24);
	CHECK(got_pc == (uintptr_t)load_null);
	CHECK(got_s2 == 0x1234);
	CHECK(got_f9 == 0x400921fb54442d18ULL);
	CHECK((got_fcsr & 0x1f) == 0x3);
	CHECK(s2_after == 0x5eed);
	poke_s2 = 0;

	puts("== SEGV_ACCERR: store to a read-only page");
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro != MAP_FAILED);
	__asm__ volatile(".globl store_ro\nstore_ro: sd zero, 8(%0)\n" ::"r"(ro) : "memory");
	CHECK(got_sig == SIGSEGV);
	CHECK(got_code == SEGV_ACCERR);
	CHECK(got_addr == (uintptr_t)ro + 8);
	CHECK(got_pc == (uintptr_t)store_ro);

	puts("== kill: SI_USER");
	skip = 0;
	CHECK(kill(getpid(), SIGUSR1) == 0);
	CHECK(got_sig == SIGUSR1);
	CHECK(got_code == SI_USER);
	CHECK(got_pid_ok);
	CHECK(got_a0 == 0); // kill's result, as the frame saved it

	puts("== raise: SI_TKILL");
	CHECK(raise(SIGUSR2) == 0);
	CHECK(got_sig == SIGUSR2);
	CHECK(got_code == SI_TKILL);
	CHECK(got_pid_ok);

	puts("== sigqueue: SI_QUEUE with a value");
	CHECK(sigqueue(getpid(), SIGHUP, (union sigval){.sival_int = 4242}) == 0);
	CHECK(got_sig == SIGHUP);
	CHECK(got_code == SI_QUEUE);
	CHECK(got_value == 4242);

	puts("== SIGFPE: only when sent (integer division does not trap)");
	got_sig = 0;
	volatile long zero = 0, one = 1;
	CHECK(one / zero == -1);
	CHECK(got_sig == 0);
	CHECK(raise(SIGFPE) == 0);
	CHECK(got_sig == SIGFPE);

	puts("== SIGTRAP: ebreak");
	skip = 4;
	__asm__ volatile(".4byte 0x00100073" ::: "memory"); // a 32-bit ebreak
	CHECK(got_sig == SIGTRAP);
	CHECK(got_code == TRAP_BRKPT);
	CHECK(got_addr == got_pc);
	return failures;
}
