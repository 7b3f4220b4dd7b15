// abort_handler: raise() and abort() with a SIGABRT handler installed.
// The handler runs for raise(SIGABRT); abort() runs it too, and a handler
// that leaves with siglongjmp keeps the process alive; when the handler
// returns, abort() restores the default action and dies: exit status 134.
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include "../include/check.h"

static volatile int calls;
static sigjmp_buf env;
static volatile int jump;

static void on_abrt(int sig) {
	calls++;
	if (jump)
		siglongjmp(env, 1);
}

int main(void) {
	CHECK(signal(SIGABRT, on_abrt) != SIG_ERR);
	CHECK(raise(SIGABRT) == 0);
	CHECK(calls == 1);

	jump = 1;
	if (sigsetjmp(env, 1) == 0) {
		abort();
		puts("FAIL abort returned");
	}
	CHECK(calls == 2);

	jump = 0;
	puts("abort with a handler that returns");
	fflush(stdout);
	abort();
	puts("FAIL survived");
	return 1;
}
