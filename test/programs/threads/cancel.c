/* Cancellation, pthread_exit, per-thread signal masks and tgkill, with
 * output that does not depend on the schedule. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static int fails;
#define CHECK(c) do { if (c) printf("ok   %s\n", #c); else { printf("FAIL %s\n", #c); fails++; } } while (0)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int cleaned, started;

static void cleanup(void *arg) { cleaned += (int)(intptr_t)arg; }

static void *waits_on_cond(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	pthread_cleanup_push((void (*)(void *))pthread_mutex_unlock, &mu);
	pthread_cleanup_push(cleanup, (void *)1);
	started = 1;
	for (;;)
		pthread_cond_wait(&cv, &mu);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

static void *sleeps(void *arg) {
	(void)arg;
	pthread_cleanup_push(cleanup, (void *)10);
	for (;;)
		pause();
	pthread_cleanup_pop(0);
	return NULL;
}

static void *exits(void *arg) {
	(void)arg;
	pthread_exit((void *)(intptr_t)42);
	return NULL;
}

/* signals */
static volatile pid_t handled_by;
static volatile int handled;
static void on_usr1(int sig) {
	(void)sig;
	handled_by = (pid_t)syscall(SYS_gettid);
	handled++;
}
static volatile pid_t worker_tid;
static volatile int stop_worker;
static void *unblocked_worker(void *arg) {
	(void)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	worker_tid = (pid_t)syscall(SYS_gettid);
	while (!stop_worker)
		usleep(1000);
	return NULL;
}

int main(void) {
	pthread_t a, b, c, w;
	void *ret;

	pthread_create(&a, NULL, waits_on_cond, NULL);
	while (!started)
		usleep(1000);
	CHECK(pthread_cancel(a) == 0);
	CHECK(pthread_join(a, &ret) == 0);
	CHECK(ret == PTHREAD_CANCELED);
	CHECK(cleaned == 1);
	CHECK(pthread_mutex_trylock(&mu) == 0); /* the cleanup handler unlocked it */
	pthread_mutex_unlock(&mu);

	pthread_create(&b, NULL, sleeps, NULL);
	usleep(10000);
	CHECK(pthread_cancel(b) == 0);
	CHECK(pthread_join(b, &ret) == 0);
	CHECK(ret == PTHREAD_CANCELED);
	CHECK(cleaned == 11);

	pthread_create(&c, NULL, exits, NULL);
	CHECK(pthread_join(c, &ret) == 0);
	CHECK((intptr_t)ret == 42);

	/* The main thread blocks SIGUSR1; a process-directed SIGUSR1 goes to
	 * the thread that does not block it. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_create(&w, NULL, unblocked_worker, NULL);
	while (!worker_tid)
		usleep(1000);
	kill(getpid(), SIGUSR1);
	while (!handled)
		usleep(1000);
	CHECK(handled_by == worker_tid);
	/* tgkill aims at one thread. */
	syscall(SYS_tgkill, getpid(), worker_tid, SIGUSR1);
	while (handled < 2)
		usleep(1000);
	CHECK(handled_by == worker_tid);
	/* Blocked in main: it stays pending there until unblocked. */
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR1);
	usleep(10000);
	CHECK(handled == 2);
	sigset_t p;
	sigpending(&p);
	CHECK(sigismember(&p, SIGUSR1));
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	CHECK(handled == 3);
	CHECK(handled_by == (pid_t)syscall(SYS_gettid));
	stop_worker = 1;
	CHECK(pthread_join(w, NULL) == 0);
	CHECK(syscall(SYS_tgkill, getpid(), 999999, SIGUSR1) == -1 && errno == ESRCH);

	printf("%d failures\n", fails);
	return fails;
}
