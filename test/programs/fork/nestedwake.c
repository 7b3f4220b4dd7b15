/* A signal to a grandchild that waits in epoll on a signalfd, with a
 * timeout, while its parent waits in epoll too (as a PostgreSQL client's
 * query wakes a backend through its latch's SIGURG while the postmaster
 * waits): the grandchild must wake at once, not at its timeout. Before,
 * the waiting parent, whose child kept making progress, never handed the
 * turn back to its own parent while it had a deadline, so the sender ran
 * only after the grandchild had timed out (10 s of the run's clock per
 * wake, and pgbench's latency 8 s). Also with the grandchild's parent
 * gone (an orphan) and as a direct child. The output must equal the
 * host's. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

// waiter waits for SIGURG three times in epoll on a signalfd (10 s
// timeouts), reporting each wait's result on out.
static void waiter(int pidOut, int out, sigset_t *m) {
	int sfd = signalfd(-1, m, 0);
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = sfd};
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	pid_t me = getpid();
	write(pidOut, &me, sizeof me);
	for (int i = 0; i < 3; i++) {
		struct epoll_event got;
		int n = epoll_wait(ep, &got, 1, 10000);
		struct signalfd_siginfo si;
		if (n > 0)
			read(sfd, &si, sizeof si);
		write(out, &n, sizeof n);
	}
	_exit(0);
}

static void run(int mode) {
	static const char *names[] = {"a child", "an orphaned grandchild", "a grandchild whose parent waits"};
	int pp[2], rp[2];
	if (pipe(pp) != 0 || pipe(rp) != 0)
		exit(1);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGURG);
	pid_t a = fork();
	if (a == 0) {
		if (mode > 0 && fork() != 0) {
			if (mode == 1)
				_exit(0);
			int ep = epoll_create1(0); // the waiting parent
			for (;;) {
				struct epoll_event e;
				epoll_wait(ep, &e, 1, 60000);
			}
		}
		waiter(pp[1], rp[1], &m);
	}
	if (mode == 1)
		waitpid(a, NULL, 0);
	pid_t c;
	read(pp[0], &c, sizeof c);
	int woke = 0, fast = 0;
	for (int i = 0; i < 3; i++) {
		double t0 = now();
		kill(c, SIGURG);
		int n;
		read(rp[0], &n, sizeof n);
		woke += n == 1;
		fast += now() - t0 < 1;
	}
	printf("%s: woken by the signal %d of 3 times, within 1 s %d\n", names[mode], woke, fast);
	if (mode == 2) {
		kill(a, SIGKILL);
		waitpid(a, NULL, 0);
	} else if (mode == 0) {
		waitpid(a, NULL, 0);
	}
	close(pp[0]), close(pp[1]), close(rp[0]), close(rp[1]);
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGURG);
	sigprocmask(SIG_BLOCK, &m, NULL);
	for (int mode = 0; mode < 3; mode++)
		run(mode);
	return 0;
}
