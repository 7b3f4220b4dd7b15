/* A daemon's start: a child forks a grandchild and ends at once, and its
 * parent reaps it at once, while the grandchild goes on (as pg_ctl starts
 * PostgreSQL's postmaster, or daemon(3) and `cmd &` in a script that
 * exits); the grandchild's parent is then another process (init), wait
 * does not see it (ECHILD), and what it writes later arrives. Before, the
 * child's end waited for the grandchild's. The output must equal the
 * host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/result.h"

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	int fds[2], go[2];
	if (pipe(fds) != 0 || pipe(go) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		pid_t me = getpid();
		if (fork() == 0) { // the daemon: waits for the word, then reports
			close(fds[0]);
			close(go[1]);
			char b;
			if (read(go[0], &b, 1) != 1)
				_exit(1);
			char msg[64];
			int n = snprintf(msg, sizeof msg, "daemon: my parent changed %d", getppid() != me);
			write(fds[1], msg, n);
			_exit(0);
		}
		_exit(7);
	}
	close(fds[1]);
	close(go[0]);
	int status;
	pid_t got = waitpid(child, &status, 0);
	printf("the child ended before its daemon: %d, status %d\n", got == child, WEXITSTATUS(status));
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	char b[128];
	printf("nothing from the daemon yet: %s\n", result(read(fds[0], b, sizeof b)));
	printf("wait for any other child: %s\n", result(waitpid(-1, &status, WNOHANG)));
	write(go[1], "x", 1);
	fcntl(fds[0], F_SETFL, 0);
	int n = read(fds[0], b, sizeof b - 1);
	b[n > 0 ? n : 0] = 0;
	printf("%s\n", b);
	printf("end of the daemon's pipe: %s\n", result(read(fds[0], b, sizeof b)));

	// daemon(3) in a child: its first process returns 0 to the caller.
	pid_t d = fork();
	if (d == 0) {
		if (daemon(1, 1) != 0)
			_exit(2);
		usleep(20000);
		_exit(0);
	}
	waitpid(d, &status, 0);
	printf("daemon(3)'s caller ended with %d\n", WEXITSTATUS(status));
	return 0;
}
