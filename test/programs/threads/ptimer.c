/* POSIX timers (timer_create): a periodic signal read with sigwaitinfo,
 * an absolute expiry, SIGEV_NONE, glibc's SIGEV_THREAD (a helper thread
 * that the kernel signals by SIGEV_THREAD_ID, which starts the callback
 * on a thread of its own), and the overrun of a timer whose signal was
 * blocked. The output does not depend on timing: only what Linux
 * guarantees is printed. */
#define _GNU_SOURCE
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static sem_t fired;
static volatile int calls;

static void callback(union sigval v) {
	calls += v.sival_int;
	sem_post(&fired);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);

	/* Periodic, SIGEV_SIGNAL: five signals, each SI_TIMER with our value. */
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_value.sival_int = 42;
	timer_t t;
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0) {
		perror("timer_create");
		return 1;
	}
	struct itimerspec its = {{0, 1000000}, {0, 1000000}};
	timer_settime(t, 0, &its, NULL);
	int ok = 0;
	for (int i = 0; i < 5; i++) {
		siginfo_t si;
		if (sigwaitinfo(&set, &si) == SIGRTMIN && si.si_code == SI_TIMER && si.si_value.sival_int == 42)
			ok++;
	}
	printf("periodic: %d of 5 signals were the timer's\n", ok);

	/* The signal blocked while periods pass: one signal, overruns counted. */
	struct timespec pause = {0, 20000000};
	nanosleep(&pause, NULL);
	siginfo_t si;
	sigwaitinfo(&set, &si);
	printf("overrun after a blocked stretch: %s\n", timer_getoverrun(t) > 0 ? "counted" : "none");
	timer_delete(t);

	/* Absolute expiry on CLOCK_MONOTONIC. */
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	now.tv_nsec += 2000000;
	if (now.tv_nsec >= 1000000000) {
		now.tv_sec++;
		now.tv_nsec -= 1000000000;
	}
	struct itimerspec abs = {{0, 0}, now};
	timer_settime(t, TIMER_ABSTIME, &abs, NULL);
	int sig = sigwaitinfo(&set, &si);
	struct timespec after;
	clock_gettime(CLOCK_MONOTONIC, &after);
	printf("absolute: signal %s, not before its time: %s\n", sig == SIGRTMIN ? "SIGRTMIN" : "other",
	       after.tv_sec > now.tv_sec || (after.tv_sec == now.tv_sec && after.tv_nsec >= now.tv_nsec) ? "yes" : "no");
	struct itimerspec cur;
	timer_gettime(t, &cur);
	printf("one-shot disarmed after it fired: %s\n", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0 ? "yes" : "no");
	timer_delete(t);

	/* SIGEV_NONE: it only counts down. */
	ev.sigev_notify = SIGEV_NONE;
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	struct itimerspec ten = {{0, 0}, {10, 0}};
	timer_settime(t, 0, &ten, NULL);
	timer_gettime(t, &cur);
	printf("SIGEV_NONE counts down: %s\n", cur.it_value.tv_sec < 10 || cur.it_value.tv_nsec < 1000000000 ? "yes" : "no");
	timer_delete(t);

	/* SIGEV_THREAD: three callbacks on threads of glibc's. */
	sem_init(&fired, 0, 0);
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = callback;
	ev.sigev_value.sival_int = 1;
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	timer_settime(t, 0, &its, NULL);
	for (int i = 0; i < 3; i++)
		sem_wait(&fired);
	timer_delete(t);
	printf("SIGEV_THREAD: at least 3 callbacks: %s\n", calls >= 3 ? "yes" : "no");
	return 0;
}
