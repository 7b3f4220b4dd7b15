// sockto.c: SO_RCVTIMEO and SO_SNDTIMEO: a receive, an accept and a send
// that wait longer than the socket's timeout return EAGAIN (a send what
// it moved), on the process's clock; a reply that comes in time is
// read; a thread times out while another runs, and while another does
// I/O (which wakes the waiting thread without data for it); a signal
// ends a wait with a timeout with EINTR even with SA_RESTART
// (sock_intr_errno); getsockopt gives the timeout back; a bad one is
// EDOM and a negative one times out at once.
// Its output is the host's.
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
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

static void onAlarm(int sig) { (void)sig; }

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

	int p[2];
	pipe(p);
	pthread_create(&t, NULL, receiver, NULL);
	for (int i = 0; i < 20; i++) { // I/O of the main thread, every 50 ms for 1 s
		usleep(50000);
		write(p[1], "x", 1);
		read(p[0], &c, 1);
	}
	pthread_join(t, NULL);
	printf("a thread's recv while another does I/O: %ld (%s), after 0.3 s %d\n", threadResult,
	       threadResult < 0 ? strerrorname_np(threadErr) : "", waited(threadElapsed, 0.3));

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	struct sigaction sa = {.sa_handler = onAlarm, .sa_flags = SA_RESTART};
	sigaction(SIGALRM, &sa, NULL);
	timeout(sv[0], SO_RCVTIMEO, 2, 0);
	struct itimerval it = {.it_value = {0, 300000}};
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = now();
	r = recv(sv[0], &c, 1, 0);
	printf("a SA_RESTART signal after 0.3 s in a recv with a 2 s timeout: %s, after 0.3 s %d\n", result(r),
	       waited(now() - t0, 0.3));
	timeout(sv[0], SO_RCVTIMEO, 0, 0);
	if ((child = fork()) == 0) {
		usleep(600000);
		write(sv[1], "r", 1);
		_exit(0);
	}
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = now();
	r = recv(sv[0], &c, 1, 0);
	printf("and without a timeout: %s (restarted), after 0.6 s %d\n", result(r), waited(now() - t0, 0.6));
	waitpid(child, NULL, 0);
	return 0;
}
