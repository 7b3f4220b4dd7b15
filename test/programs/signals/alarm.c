// alarm: SIGALRM from alarm() and setitimer(ITIMER_REAL), SIGVTALRM and
// SIGPROF from the CPU-time timers, sleeps and pause() interrupted by a
// handler, getitimer, and finally an alarm with the default action: exit
// status 142. Only timing-independent facts are printed.
//
// Usage: alarm [fast]   ("fast" uses shorter periodic timers, for runs
// under --difftest)
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "../include/check.h"

static volatile sig_atomic_t alarms, vtalarms, profs;

static void on_alrm(int sig) { alarms++; }
static void on_vtalrm(int sig) { vtalarms++; }
static void on_prof(int sig) { profs++; }

static void handle(int sig, void (*h)(int)) {
	struct sigaction sa = {0};
	sa.sa_handler = h; // no SA_RESTART
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv) {
	long period_us = argc > 1 && strcmp(argv[1], "fast") == 0 ? 50 : 1000;
	handle(SIGALRM, on_alrm);
	handle(SIGVTALRM, on_vtalrm);
	handle(SIGPROF, on_prof);

	puts("== alarm and pause");
	CHECK(alarm(1) == 0);
	errno = 0;
	CHECK(pause() == -1 && errno == EINTR);
	CHECK(alarms == 1);
	CHECK(alarm(5) == 0);
	CHECK(alarm(0) == 5); // about 5 seconds were left
	CHECK(alarm(0) == 0);

	puts("== sleep interrupted");
	alarms = 0;
	alarm(1);
	unsigned left = sleep(3);
	CHECK(alarms == 1);
	CHECK(left >= 1 && left <= 2); // about 2 s were left

	puts("== nanosleep interrupted: the time left");
	struct itimerval it = {{0, 0}, {0, 50000}}; // 50 ms, once
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	struct timespec req = {1, 0}, rem = {0, 0};
	errno = 0;
	CHECK(nanosleep(&req, &rem) == -1 && errno == EINTR);
	CHECK(alarms == 2);
	CHECK(rem.tv_sec == 0 && rem.tv_nsec > 900000000 && rem.tv_nsec < 960000000); // about 0.95 s

	puts("== periodic ITIMER_REAL, busy loop");
	alarms = 0;
	struct itimerval per = {{0, period_us}, {0, period_us}};
	CHECK(setitimer(ITIMER_REAL, &per, NULL) == 0);
	struct itimerval got;
	CHECK(getitimer(ITIMER_REAL, &got) == 0);
	CHECK(got.it_interval.tv_sec == 0 && got.it_interval.tv_usec == period_us);
	CHECK(got.it_value.tv_sec == 0 && got.it_value.tv_usec > 0 && got.it_value.tv_usec <= period_us);
	while (alarms < 4)
		;
	struct itimerval off = {{0, 0}, {0, 0}}, was;
	CHECK(setitimer(ITIMER_REAL, &off, &was) == 0);
	CHECK(was.it_interval.tv_usec == period_us);
	CHECK(alarms >= 4);
	CHECK(getitimer(ITIMER_REAL, &got) == 0 && got.it_value.tv_sec == 0 && got.it_value.tv_usec == 0);

	puts("== ITIMER_VIRTUAL and ITIMER_PROF count CPU time");
	struct itimerval once = {{0, 0}, {0, period_us}};
	CHECK(setitimer(ITIMER_VIRTUAL, &once, NULL) == 0);
	while (!vtalarms)
		;
	CHECK(vtalarms == 1);
	CHECK(setitimer(ITIMER_PROF, &once, NULL) == 0);
	while (!profs)
		;
	CHECK(profs == 1);
	errno = 0;
	CHECK(setitimer(3, &once, NULL) == -1 && errno == EINVAL);
	struct itimerval bad = {{0, 0}, {0, 1000000}};
	errno = 0;
	CHECK(setitimer(ITIMER_REAL, &bad, NULL) == -1 && errno == EINVAL);

	puts("== the default action of SIGALRM");
	signal(SIGALRM, SIG_DFL);
	alarm(1);
	pause();
	puts("FAIL survived");
	return 1;
}
