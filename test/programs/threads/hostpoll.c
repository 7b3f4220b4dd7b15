/* A thread waits in ppoll, and another in epoll_wait, on the process's
 * standard input (a host pipe no one writes) and a pipe of its own that
 * the main thread writes after a while: the main thread must go on
 * meanwhile. Before, a wait that included a host descriptor made the
 * whole process wait on the host, and the run hung (Erlang's beam.smp,
 * whose poll thread watches its stdin, never ran its other threads). The
 * output does not depend on the schedule. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

static int p[2], q[2];

static void *poller(void *arg) {
	(void)arg;
	struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = p[0], .events = POLLIN}};
	int n = ppoll(fds, 2, NULL, NULL);
	printf("ppoll: %d ready, stdin %d, pipe %d\n", n, fds[0].revents != 0, fds[1].revents == POLLIN);
	return NULL;
}

static void *epoller(void *arg) {
	(void)arg;
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = 0};
	epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
	ev.data.fd = q[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev);
	struct epoll_event got[2];
	int n = epoll_wait(ep, got, 2, -1);
	printf("epoll: %d ready, the pipe %d\n", n, n == 1 && got[0].data.fd == q[0]);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	pipe(p);
	pipe(q);
	pthread_t a, b;
	pthread_create(&a, NULL, poller, NULL);
	pthread_create(&b, NULL, epoller, NULL);
	volatile long s = 0;
	for (long i = 0; i < 2000000; i++) // the main thread works meanwhile
		s += i;
	usleep(20000);
	write(p[1], "x", 1);
	pthread_join(a, NULL);
	write(q[1], "y", 1);
	pthread_join(b, NULL);
	printf("main: worked %d\n", s == 1999999000000L);
	return 0;
}
