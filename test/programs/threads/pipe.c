/* A pipe and an eventfd between threads: the reader blocks until the
 * writer (another thread) writes, and sees end-of-file when it closes. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

static int fds[2], efd;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++) {
		char msg[32];
		int n = snprintf(msg, sizeof msg, "message %d\n", i);
		write(fds[1], msg, n);
		usleep(1000);
	}
	close(fds[1]);
	uint64_t v = 42;
	write(efd, &v, sizeof v);
	return NULL;
}

int main(void) {
	pthread_t t;
	pipe(fds);
	efd = eventfd(0, 0);
	pthread_create(&t, NULL, writer, NULL);
	char buf[256];
	size_t got = 0;
	ssize_t n;
	while ((n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	printf("read %zd at the end, %zu bytes:\n%s", n, got, buf);
	uint64_t v = 0;
	n = read(efd, &v, sizeof v);
	printf("eventfd read %zd: %llu\n", n, (unsigned long long)v);
	pthread_join(t, NULL);
	return 0;
}
