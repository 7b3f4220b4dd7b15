// pollin MODE TIMEOUT_MS: waits for standard input to become readable
// with poll, select, ppoll or pselect (MODE) and a timeout (-1: none),
// then prints what the call returned; on a timeout also the time the
// wait took on CLOCK_MONOTONIC in tenths of a second; when ready, the
// first line read.
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: pollin poll|select|ppoll|pselect TIMEOUT_MS\n");
		return 2;
	}
	const char *mode = argv[1];
	int ms = atoi(argv[2]);
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	struct pollfd p = {0, POLLIN, 0};
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(0, &rd);
	long long t0 = now_ms();
	int n;
	if (strcmp(mode, "poll") == 0)
		n = poll(&p, 1, ms);
	else if (strcmp(mode, "ppoll") == 0)
		n = ppoll(&p, 1, ms < 0 ? NULL : &ts, NULL);
	else if (strcmp(mode, "select") == 0)
		n = select(1, &rd, NULL, NULL, ms < 0 ? NULL : &tv);
	else if (strcmp(mode, "pselect") == 0)
		n = pselect(1, &rd, NULL, NULL, ms < 0 ? NULL : &ts, NULL);
	else
		return 2;
	long long dt = now_ms() - t0;
	if (strstr(mode, "poll"))
		printf("%s returns %d revents %#x\n", mode, n, p.revents);
	else
		printf("%s returns %d ready %d\n", mode, n, FD_ISSET(0, &rd) ? 1 : 0);
	if (n == 0) {
		printf("waited %lld tenths\n", dt / 100);
		return 0;
	}
	char line[100];
	if (fgets(line, sizeof line, stdin))
		printf("read %s", line);
	return 0;
}
