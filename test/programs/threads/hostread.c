/* A thread reads the process's standard input, a host pipe that the test
 * writes only after the main thread has printed its line: the main
 * thread must run meanwhile. Before, a blocking read of a host
 * descriptor made the whole process wait in the host's read, and the run
 * hung. The reader then reads with readv until end of file. The output
 * does not depend on the schedule. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static void *reader(void *arg) {
	(void)arg;
	char buf[64];
	ssize_t n = read(0, buf, sizeof buf);
	printf("read: %zd %.*s", n, (int)(n > 0 ? n : 0), buf);
	char a[3], b[61];
	struct iovec iov[2] = {{a, sizeof a}, {b, sizeof b}};
	size_t total = 0;
	for (;;) {
		n = readv(0, iov, 2);
		if (n <= 0)
			break;
		total += n;
	}
	printf("readv: %zu bytes, then %zd\n", total, n);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_t r;
	pthread_create(&r, NULL, reader, NULL);
	volatile long s = 0;
	for (long i = 0; i < 2000000; i++) // the main thread works meanwhile
		s += i;
	printf("main: worked %d\n", s == 1999999000000L);
	pthread_join(r, NULL);
	printf("main: joined\n");
	return 0;
}
