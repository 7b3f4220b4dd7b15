/* epoll between threads: the main thread waits in epoll_wait (no
 * timeout) for a pipe and an eventfd that a second thread writes, one
 * message at a time (each acknowledged, so the output does not depend on
 * the schedule); level- and edge-triggered and one-shot items; a timed
 * wait that nothing ends; and the hang-up when the writer closes. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

static int fds[2], efd, ack;

static void *writer(void *arg) {
	(void)arg;
	uint64_t v;
	for (int i = 0; i < 4; i++) {
		char msg[32];
		int n = snprintf(msg, sizeof msg, "message %d", i);
		write(fds[1], msg, n);
		read(ack, &v, sizeof v); /* blocks until the main thread has it */
	}
	v = 7;
	write(efd, &v, sizeof v);
	read(ack, &v, sizeof v);
	close(fds[1]);
	return NULL;
}

static void show(const char *what, int n, struct epoll_event *ev) {
	printf("%s: %d", what, n);
	for (int i = 0; i < n; i++)
		printf(" [%s%s%s data %llu]", ev[i].events & EPOLLIN ? "in" : "",
		       ev[i].events & EPOLLOUT ? " out" : "", ev[i].events & EPOLLHUP ? " hup" : "",
		       (unsigned long long)ev[i].data.u64);
	printf("\n");
}

int main(void) {
	pipe(fds);
	efd = eventfd(0, EFD_NONBLOCK);
	ack = eventfd(0, 0);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 1};
	epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev);
	ev = (struct epoll_event){.events = EPOLLIN | EPOLLET, .data.u64 = 2};
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);

	struct epoll_event out[8];
	int n = epoll_wait(ep, out, 8, 50);
	show("timed wait", n, out);

	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	uint64_t one = 1;
	for (int i = 0; i < 4; i++) {
		n = epoll_wait(ep, out, 8, -1);
		show("wait", n, out);
		char buf[64];
		ssize_t got = read(fds[0], buf, sizeof buf - 1);
		buf[got > 0 ? got : 0] = 0;
		printf("read %zd: %s\n", got, buf);
		if (i == 1) { /* the pipe becomes one-shot */
			ev = (struct epoll_event){.events = EPOLLIN | EPOLLONESHOT, .data.u64 = 3};
			epoll_ctl(ep, EPOLL_CTL_MOD, fds[0], &ev);
		}
		if (i >= 2) { /* re-armed after each report */
			ev = (struct epoll_event){.events = EPOLLIN | EPOLLONESHOT, .data.u64 = 4};
			epoll_ctl(ep, EPOLL_CTL_MOD, fds[0], &ev);
		}
		write(ack, &one, sizeof one);
	}
	n = epoll_wait(ep, out, 8, -1);
	show("eventfd", n, out);
	uint64_t v = 0;
	printf("eventfd read %zd: %llu\n", read(efd, &v, sizeof v), (unsigned long long)v);
	n = epoll_wait(ep, out, 8, 0);
	show("edge consumed", n, out);
	write(ack, &one, sizeof one);
	n = epoll_wait(ep, out, 8, -1);
	show("hang-up", n, out);
	pthread_join(t, NULL);
	close(ep);
	return 0;
}
