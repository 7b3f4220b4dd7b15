/* poll and select between threads: the main thread waits (no timeout,
 * and with one that a write ends early) for a pipe and an eventfd that a
 * second thread writes, each message acknowledged so the output does not
 * depend on the schedule. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/select.h>

static int fds[2], efd, ack;

static void *writer(void *arg) {
	(void)arg;
	uint64_t v;
	for (int i = 0; i < 3; i++) {
		write(fds[1], "x", 1);
		read(ack, &v, sizeof v);
	}
	v = 5;
	write(efd, &v, sizeof v);
	read(ack, &v, sizeof v);
	close(fds[1]);
	return NULL;
}

int main(void) {
	pipe(fds);
	efd = eventfd(0, 0);
	ack = eventfd(0, 0);
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	uint64_t one = 1, v;
	char c;
	struct pollfd p[2] = {{.fd = fds[0], .events = POLLIN}, {.fd = efd, .events = POLLIN}};
	int n = poll(p, 2, -1);
	printf("poll: %d revents %#x %#x\n", n, p[0].revents, p[1].revents);
	printf("read %zd\n", read(fds[0], &c, 1));
	write(ack, &one, sizeof one);

	fd_set rs;
	FD_ZERO(&rs);
	FD_SET(fds[0], &rs);
	FD_SET(efd, &rs);
	struct timeval tv = {.tv_sec = 100};
	n = select((fds[0] > efd ? fds[0] : efd) + 1, &rs, NULL, NULL, &tv);
	/* The time left depends on the schedule (none may pass here): only
	 * its range is printed. */
	printf("select: %d pipe %d eventfd %d, time left at most 100 s: %d\n", n, FD_ISSET(fds[0], &rs),
	       FD_ISSET(efd, &rs), tv.tv_sec < 100 || (tv.tv_sec == 100 && tv.tv_usec == 0));
	printf("read %zd\n", read(fds[0], &c, 1));
	write(ack, &one, sizeof one);

	struct timespec ts = {.tv_sec = 100};
	n = ppoll(p, 2, &ts, NULL);
	printf("ppoll: %d revents %#x %#x\n", n, p[0].revents, p[1].revents);
	printf("read %zd\n", read(fds[0], &c, 1));
	write(ack, &one, sizeof one);

	n = poll(p, 2, -1);
	printf("poll: %d revents %#x %#x\n", n, p[0].revents, p[1].revents);
	printf("eventfd read %zd\n", read(efd, &v, sizeof v));
	write(ack, &one, sizeof one);
	p[1].fd = -1;
	n = poll(p, 2, -1);
	printf("hang-up: %d revents %#x\n", n, p[0].revents);
	pthread_join(t, NULL);
	return 0;
}
