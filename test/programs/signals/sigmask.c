// sigmask: blocking. A blocked signal stays pending (sigpending) and is
// delivered when sigprocmask unblocks it, before sigprocmask returns; a
// handler runs with its sa_mask and its own signal blocked (unless
// SA_NODEFER), and the mask is restored by rt_sigreturn; SA_RESETHAND;
// sigsuspend; sigwait and sigtimedwait; SIG_IGN discards.
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "../include/check.h"

static volatile int count1, count2, depth, maxdepth, order[8], norder;
static volatile int usr2_blocked_in_handler;

static void on_usr1(int sig) {
	count1++;
	order[norder++] = sig;
	depth++;
	if (depth > maxdepth)
		maxdepth = depth;
	if (count1 == 1)
		raise(SIGUSR1); // blocked while this runs, unless SA_NODEFER
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	usr2_blocked_in_handler = sigismember(&cur, SIGUSR2);
	depth--;
}

static void on_usr2(int sig) {
	count2++;
	order[norder++] = sig;
}

int main(void) {
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	struct sigaction sb = {0};
	sb.sa_handler = on_usr2;
	CHECK(sigaction(SIGUSR2, &sb, NULL) == 0);

	puts("== blocked signals stay pending");
	sigset_t set, old, pend;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	CHECK(sigprocmask(SIG_BLOCK, &set, &old) == 0);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(count1 == 0);
	CHECK(sigpending(&pend) == 0 && sigismember(&pend, SIGUSR1));
	CHECK(sigprocmask(SIG_SETMASK, &old, NULL) == 0);
	CHECK(count1 == 2); // delivered on unblocking, then the raise from inside it
	CHECK(maxdepth == 1); // the handler's own signal was deferred
	CHECK(usr2_blocked_in_handler == 1);
	CHECK(sigpending(&pend) == 0 && !sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_BLOCK, NULL, &set);
	CHECK(!sigismember(&set, SIGUSR1) && !sigismember(&set, SIGUSR2)); // restored by rt_sigreturn

	puts("== SA_NODEFER nests");
	count1 = depth = maxdepth = 0;
	sa.sa_flags = SA_NODEFER;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(count1 == 2);
	CHECK(maxdepth == 2);

	puts("== order: both pending, lowest number first");
	norder = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR2);
	count1 = 1; // no re-raise this time
	raise(SIGUSR1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	CHECK(norder == 2);
	CHECK(order[0] == SIGUSR1 && order[1] == SIGUSR2); // SIGUSR1's sa_mask holds SIGUSR2 back

	puts("== SA_RESETHAND");
	sa.sa_flags = SA_RESETHAND;
	count1 = 5;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(count1 == 6);
	struct sigaction cur;
	CHECK(sigaction(SIGUSR1, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL);

	puts("== SIG_IGN discards, even a pending one");
	signal(SIGUSR1, SIG_IGN);
	CHECK(raise(SIGUSR1) == 0);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGUSR2, SIG_DFL);
	raise(SIGUSR2);
	CHECK(sigpending(&pend) == 0 && sigismember(&pend, SIGUSR2));
	signal(SIGUSR2, SIG_IGN);
	CHECK(sigpending(&pend) == 0 && !sigismember(&pend, SIGUSR2));
	sigprocmask(SIG_SETMASK, &old, NULL);

	puts("== sigsuspend: waits with another mask");
	count2 = 0;
	sigaction(SIGUSR2, &sb, NULL);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR2);
	CHECK(count2 == 0);
	sigset_t waitmask;
	sigemptyset(&waitmask);
	errno = 0;
	CHECK(sigsuspend(&waitmask) == -1 && errno == EINTR);
	CHECK(count2 == 1);
	sigprocmask(SIG_BLOCK, NULL, &cur.sa_mask);
	CHECK(sigismember(&cur.sa_mask, SIGUSR2)); // the old mask is back

	puts("== sigwait, sigtimedwait");
	raise(SIGUSR2);
	sigset_t w;
	sigemptyset(&w);
	sigaddset(&w, SIGUSR2);
	int sig = 0;
	CHECK(sigwait(&w, &sig) == 0 && sig == SIGUSR2);
	CHECK(count2 == 1); // taken, not handled
	struct timespec ts = {0, 1000000};
	errno = 0;
	CHECK(sigtimedwait(&w, NULL, &ts) == -1 && errno == EAGAIN);
	siginfo_t si;
	raise(SIGUSR2);
	// The kernel says SI_TKILL; glibc's sigtimedwait reports it as SI_USER.
	CHECK(sigtimedwait(&w, &si, &ts) == SIGUSR2 && si.si_code == SI_USER);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failures;
}
