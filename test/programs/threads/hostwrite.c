/* A thread writes 256 KB to the process's standard output, a host pipe
 * that the test reads only after the main thread has printed its line
 * on standard error: the main thread must run while the writer waits
 * for room. Before, a write to a full host pipe made the whole process
 * wait in the host's write, and the run hung. The output does not
 * depend on the schedule. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char chunk[4096];

static void *writer(void *arg) {
	(void)arg;
	long total = 0;
	for (int i = 0; i < 64; i++) {
		ssize_t n = write(1, chunk, sizeof chunk);
		if (n > 0)
			total += n;
	}
	dprintf(2, "writer: %ld bytes\n", total);
	return NULL;
}

int main(void) {
	memset(chunk, 'x', sizeof chunk);
	pthread_t w;
	pthread_create(&w, NULL, writer, NULL);
	volatile long s = 0;
	for (long i = 0; i < 2000000; i++) // the main thread works meanwhile
		s += i;
	dprintf(2, "main: worked %d\n", s == 1999999000000L);
	pthread_join(w, NULL);
	dprintf(2, "main: joined\n");
	return 0;
}
