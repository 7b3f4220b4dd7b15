/* PR_SET_CHILD_SUBREAPER: a process's orphaned descendants become its
 * children instead of init's, as tini and systemd's service managers
 * rely on: their getppid names it, it is sent SIGCHLD, and wait reaps
 * them, live ones when they end and zombies their parent left unreaped.
 * The flag is not inherited. The output must equal the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static volatile sig_atomic_t chld;

static void onChld(int sig) { chld++; }

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	int v = -1;
	prctl(PR_GET_CHILD_SUBREAPER, &v);
	printf("subreaper at the start: %d\n", v);
	printf("set: %s\n", result(prctl(PR_SET_CHILD_SUBREAPER, 1)));
	prctl(PR_GET_CHILD_SUBREAPER, &v);
	printf("subreaper now: %d\n", v);
	signal(SIGCHLD, onChld);
	int fds[2], go[2];
	if (pipe(fds) != 0 || pipe(go) != 0)
		return 1;
	pid_t top = getpid();
	pid_t a = fork();
	if (a == 0) {
		int inherited = -1;
		prctl(PR_GET_CHILD_SUBREAPER, &inherited);
		pid_t z = fork();
		if (z == 0)
			_exit(9); // a zombie its parent leaves unreaped
		siginfo_t si;
		waitid(P_PID, z, &si, WEXITED | WNOWAIT);
		pid_t b = fork();
		if (b == 0) { // lives on after its parent
			char c;
			read(go[0], &c, 1);
			int r = getppid() == top;
			write(fds[1], &r, sizeof r);
			_exit(5);
		}
		write(fds[1], &z, sizeof z);
		write(fds[1], &b, sizeof b);
		_exit(inherited == 0 ? 3 : 4);
	}
	close(fds[1]);
	int st;
	waitpid(a, &st, 0);
	printf("the middle process ended with %d (3: the flag was not inherited)\n", WEXITSTATUS(st));
	pid_t z, b;
	read(fds[0], &z, sizeof z);
	read(fds[0], &b, sizeof b);
	pid_t got = waitpid(z, &st, 0);
	printf("its zombie is mine to reap: %d, status %d\n", got == z, WEXITSTATUS(st));
	write(go[1], "x", 1);
	int r = 0;
	read(fds[0], &r, sizeof r);
	printf("the orphan's parent is now me: %d\n", r);
	got = waitpid(-1, &st, 0);
	printf("wait reaps the orphan: %d, status %d\n", got == b, WEXITSTATUS(st));
	printf("no child left: %s\n", result(waitpid(-1, &st, 0)));
	printf("SIGCHLD received: %d\n", chld > 0);
	return 0;
}
