/* A server child with three children of its own, as Python's forkserver
 * has once it has started a Manager and a pool's workers: a service that
 * polls its socket with 1 s timeouts (a Manager's serve_forever), a worker
 * blocked on a pipe until the end (an idle pool worker), and a notifier
 * that sleeps 1 s and then tells the main process. The main process waits
 * for the notice with a 100 s timeout, then asks the service and times
 * its answer, which must come at once: the service's clock must not have
 * run ahead of the main process's while the idle worker stood still. The
 * output must equal the host's. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/monotonic.h"

static void service(int fd) {
	int rounds = 0;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 1000) == 0) {
			rounds++;
			continue;
		}
		char c;
		if (read(fd, &c, 1) != 1 || c == 'q')
			_exit(0);
		write(fd, "a", 1);
	}
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int sv[2], idle[2], notice[2], req[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(idle), pipe(notice), pipe(req);
	double t0 = now();
	pid_t server = fork();
	if (server == 0) {
		close(sv[0]), close(idle[1]), close(notice[0]), close(req[1]);
		if (fork() == 0)
			service(sv[1]);
		if (fork() == 0) {
			char c;
			_exit(read(idle[0], &c, 1) == 0 ? 0 : 1);
		}
		if (fork() == 0) {
			struct timespec s = {1, 0};
			nanosleep(&s, NULL);
			_exit(write(notice[1], "n", 1) == 1 ? 0 : 1);
		}
		close(sv[1]), close(idle[0]), close(notice[1]);
		char c;
		int ok = 0, st;
		read(req[0], &c, 1); // (no deadline, as the forkserver's select)
		while (wait(&st) > 0)
			ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
		_exit(ok);
	}
	close(sv[1]), close(idle[0]), close(notice[1]), close(req[0]);
	struct pollfd p = {.fd = notice[0], .events = POLLIN};
	int r = poll(&p, 1, 100000);
	double t1 = now();
	printf("notice: poll %d, after %.1f s\n", r, t1 - t0);
	char c = 'x';
	write(sv[0], &c, 1);
	r = read(sv[0], &c, 1);
	double t2 = now();
	printf("service's answer: %d '%c', within 0.1 s: %s\n", r, c, t2 - t1 < 0.1 ? "yes" : "no");
	write(sv[0], "q", 1);
	close(idle[1]);
	write(req[1], "q", 1);
	int st;
	waitpid(server, &st, 0);
	printf("the server saw %d of its 3 children end well\n", WEXITSTATUS(st));
	return 0;
}
