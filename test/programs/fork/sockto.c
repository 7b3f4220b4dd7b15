// sockto.c: SO_RCVTIMEO and SO_SNDTIMEO: a receive, an accept and a send
// that wait longer than the socket's timeout return EAGAIN (a send what
// it moved), on the process's clock; a reply that comes in time is
// read; a thread times out while another runs; getsockopt gives the
// timeout back; a bad one is EDOM and a negative one times out at once.
// Its output is the host's.
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/result.h"
#include "../include/monotonic.h"

static int timeout(int s, int name, long sec, long usec) {
	struct timeval tv = {.tv_sec = sec, .tv_usec = usec};
	return setsockopt(s, SOL_SOCKET, name, &tv, sizeof tv);
}

// waited says whether elapsed lies within [lo, lo + 0.5) seconds.
static int waited(double elapsed, double lo) { return elapsed >= lo && elapsed < lo + 0.5; }

static int threadSock;
static double threadElapsed;
static long threadResult;
static int threadErr;
static void *receiver(void *arg) {
	(void)arg;
	char c;
	double t0 = now();
	threadResult = recv(threadSock, &c, 1, 0);
	threadErr = errno;
	threadElapsed = now() - t0;
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	printf("SO_RCVTIMEO 0.3 s: %s\n", result(timeout(sv[0], SO_RCVTIMEO, 0, 300000)));
	struct timeval tv;
	socklen_t len = sizeof tv;
	getsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, &len);
	printf("getsockopt: %ld.%06ld, length %u\n", (long)tv.tv_sec, (long)tv.tv_usec, len);
	char c;
	double t0 = now();
	long r = recv(sv[0], &c, 1, 0);
	printf("recv on nothing: %s, after 0.3 s %d\n", result(r), waited(now() - t0, 0.3));
	printf("tv_usec 1000000: %s\n", result(timeout(sv[0], SO_RCVTIMEO, 0, 1000000)));
	printf("a short optlen: %s\n", result(setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, 8)));
	printf("tv_sec -1: %s\n", result(timeout(sv[0], SO_RCVTIMEO, -1, 0)));
	t0 = now();
	r = read(sv[0], &c, 1);
	printf("read with it: %s, at once %d\n", result(r), now() - t0 < 0.1);
	getsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, &len);
	printf("getsockopt: %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
	timeout(sv[0], SO_RCVTIMEO, 0, 0);

	pid_t child = fork(); // a reply in time, from another process
	if (child == 0) {
		usleep(100000);
		write(sv[1], "r", 1);
		_exit(0);
	}
	timeout(sv[0], SO_RCVTIMEO, 2, 0);
	t0 = now();
	r = recv(sv[0], &c, 1, 0);
	printf("a reply after 0.1 s with a 2 s timeout: %s, in time %d\n", result(r), waited(now() - t0, 0.1));
	waitpid(child, NULL, 0);

	printf("SO_SNDTIMEO 0.2 s: %s\n", result(timeout(sv[1], SO_SNDTIMEO, 0, 200000)));
	static char big[1 << 20];
	t0 = now();
	r = send(sv[1], big, sizeof big, 0);
	printf("a send larger than the buffer: moved part %d, after 0.2 s %d\n", r > 0 && r < (long)sizeof big,
	       waited(now() - t0, 0.2));
	t0 = now();
	r = send(sv[1], big, 1, 0);
	printf("then a send to the full buffer: %s, after 0.2 s %d\n", result(r), waited(now() - t0, 0.2));

	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 1);
	timeout(l, SO_RCVTIMEO, 0, 250000);
	t0 = now();
	r = accept(l, NULL, NULL);
	printf("tcp accept with nobody: %s, after 0.25 s %d\n", result(r), waited(now() - t0, 0.25));

	int u = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un ua = {.sun_family = AF_UNIX};
	strcpy(ua.sun_path + 1, "sockto");
	bind(u, (struct sockaddr *)&ua, sizeof ua);
	listen(u, 1);
	timeout(u, SO_RCVTIMEO, 0, 250000);
	t0 = now();
	r = accept(u, NULL, NULL);
	printf("unix accept with nobody: %s, after 0.25 s %d\n", result(r), waited(now() - t0, 0.25));

	int tp[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, tp) != 0)
		return 1;
	threadSock = tp[0];
	timeout(tp[0], SO_RCVTIMEO, 0, 300000);
	pthread_t t;
	pthread_create(&t, NULL, receiver, NULL);
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 1000000; i++) // the main thread runs meanwhile
		x += i;
	pthread_join(t, NULL);
	printf("a thread's recv while another runs: %ld (%s), after 0.3 s %d\n", threadResult,
	       threadResult < 0 ? strerrorname_np(threadErr) : "", waited(threadElapsed, 0.3));
	return 0;
}
