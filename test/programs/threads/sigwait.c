/* sigwait between threads: a thread waits in sigwait for signals every
 * thread blocks; the main thread sends one to it (pthread_kill), then one
 * to the process (kill), which only the waiting thread can take; a
 * sigtimedwait whose timeout passes fails with EAGAIN. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static sigset_t set;

static void *waiter(void *arg) {
	(void)arg;
	for (int i = 0; i < 2; i++) {
		int sig = 0;
		int r = sigwait(&set, &sig);
		printf("sigwait %d: %s\n", r, sig == SIGUSR1 ? "SIGUSR1" : sig == SIGUSR2 ? "SIGUSR2" : "other");
		fflush(stdout);
	}
	struct timespec ts = {0, 20 * 1000 * 1000};
	siginfo_t info;
	int r = sigtimedwait(&set, &info, &ts);
	printf("sigtimedwait %d errno %s\n", r, r < 0 && errno == EAGAIN ? "EAGAIN" : "other");
	return NULL;
}

int main(void) {
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	usleep(5000);
	pthread_kill(t, SIGUSR1);
	usleep(5000);
	kill(getpid(), SIGUSR2);
	pthread_join(t, NULL);
	sigset_t pending;
	sigpending(&pending);
	printf("pending after: %d %d\n", sigismember(&pending, SIGUSR1), sigismember(&pending, SIGUSR2));
	return 0;
}
