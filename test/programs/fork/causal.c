// causal.c: what a process reads was written before it reads it, on the
// reader's clock too: a child computes for a while, then sends its
// CLOCK_MONOTONIC reading through a pipe, a socket pair, a TCP connection
// and a pseudo-terminal; its parent, which waited for it, reads the time
// and checks its own clock is past it. Its output is the host's.
#define _GNU_SOURCE
#include <netinet/in.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long long now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// send computes for a while, then writes the time to w.
static void sendLater(int w) {
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 20000000; i++)
		x += i;
	long long t = now();
	write(w, &t, sizeof t);
}

static void check(const char *what, int r, int w) {
	long long start = now();
	pid_t child = fork();
	if (child == 0) {
		sendLater(w);
		_exit(0);
	}
	long long sent = 0;
	ssize_t n = read(r, &sent, sizeof sent);
	long long got = now();
	printf("%s: read %zd bytes, the reader's clock past the write %d, the write after the start %d\n", what, n,
	       got >= sent, sent > start);
	waitpid(child, NULL, 0);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int p[2];
	if (pipe(p) != 0)
		return 1;
	check("pipe", p[0], p[1]);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	check("socket pair", sv[0], sv[1]);

	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof a;
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 1);
	getsockname(l, (struct sockaddr *)&a, &alen);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&a, sizeof a);
	int s = accept(l, NULL, NULL);
	check("tcp", s, c);

	int m, sl;
	struct termios raw;
	if (openpty(&m, &sl, NULL, NULL, NULL) != 0)
		return 1;
	tcgetattr(sl, &raw);
	cfmakeraw(&raw);
	tcsetattr(sl, TCSANOW, &raw);
	check("pseudo-terminal", m, sl);
	return 0;
}
