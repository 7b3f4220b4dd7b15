// segv_jmp: catches SIGSEGV and leaves the handler with siglongjmp, three
// times (the signal mask is restored each time), then overflows the stack
// and catches that on an alternate signal stack, and finally faults with
// the default action restored: exit status 139.
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "../include/check.h"

static sigjmp_buf env;
static volatile sig_atomic_t hits;
static volatile uintptr_t handler_sp;

static void on_segv(int sig) {
	int local;
	handler_sp = (uintptr_t)&local;
	hits++;
	siglongjmp(env, sig);
}

static int recurse(volatile char *p) {
	volatile char buf[1024];
	buf[0] = *p;
	return recurse(buf) + buf[0];
}

int main(void) {
	struct sigaction sa = {0};
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	for (int i = 0; i < 3; i++) {
		int r = sigsetjmp(env, 1);
		if (r == 0) {
			volatile int *p = (volatile int *)(uintptr_t)(16 + 4096 * i);
			*p = 1;
			puts("FAIL the store did not fault");
			return 1;
		}
		printf("round %d: caught signal %d\n", i, r);
		sigset_t cur;
		sigprocmask(SIG_BLOCK, NULL, &cur);
		CHECK(!sigismember(&cur, SIGSEGV));
	}
	CHECK(hits == 3);

	// Stack overflow: the handler needs another stack.
	static char altstack[65536];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
	CHECK(sigaltstack(&ss, NULL) == 0);
	sa.sa_flags = SA_ONSTACK;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	if (sigsetjmp(env, 1) == 0) {
		char c = 1;
		recurse(&c);
		puts("FAIL the recursion ended");
	}
	CHECK(hits == 4);
	CHECK(handler_sp >= (uintptr_t)altstack && handler_sp < (uintptr_t)altstack + sizeof altstack);

	// The default action again: the process dies of SIGSEGV.
	signal(SIGSEGV, SIG_DFL);
	puts("faulting with the default action");
	fflush(stdout);
	*(volatile int *)(uintptr_t)8 = 0;
	puts("FAIL survived");
	return failures;
}
