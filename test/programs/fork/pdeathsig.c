/* prctl: PR_SET_PDEATHSIG (a process gets the signal when its parent
 * ends; a forked child does not inherit it), PR_SET_NO_NEW_PRIVS,
 * PR_SET_TIMERSLACK and PR_SET_KEEPCAPS with their getters (keepcaps goes
 * at an exec, no_new_privs stays), as
 * PostgreSQL's postmaster children ask for a parent-death signal (rvsim
 * answered EINVAL). The output must equal the host's. */
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

static int out;

static void onUsr1(int sig) {
	const char msg[] = "the grandchild got SIGUSR1 when its parent ended";
	write(out, msg, sizeof msg - 1);
	_exit(0);
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1) { // exec'd by the first run below
		printf("after exec: keepcaps %d, no_new_privs %d\n", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0),
		       prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
		return 0;
	}
	int sig = -1;
	prctl(PR_GET_PDEATHSIG, &sig);
	printf("pdeathsig at the start: %d\n", sig);
	printf("a bad signal: %s\n", result(prctl(PR_SET_PDEATHSIG, 99)));
	printf("no_new_privs: %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	printf("set it to 2: %s\n", result(prctl(PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0)));
	printf("set it: %s\n", result(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)));
	printf("no_new_privs now: %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	printf("timer slack: %d\n", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
	prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0);
	printf("after setting 1000: %d\n", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
	prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0);
	printf("after setting 0: %d\n", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
	printf("keepcaps: %d\n", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
	printf("set it to 2: %s\n", result(prctl(PR_SET_KEEPCAPS, 2, 0, 0, 0)));
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	printf("keepcaps now: %d\n", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));

	int fds[2], ready[2];
	if (pipe(fds) != 0 || pipe(ready) != 0)
		return 1;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	pid_t mid = fork();
	if (mid == 0) {
		int inherited = -1;
		prctl(PR_GET_PDEATHSIG, &inherited);
		int nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
		pid_t c = fork();
		if (c == 0) {
			out = fds[1];
			signal(SIGUSR1, onUsr1);
			prctl(PR_SET_PDEATHSIG, SIGUSR1);
			char msg[64];
			int n = snprintf(msg, sizeof msg, "%d %d", inherited, nnp);
			write(ready[1], msg, n);
			for (;;)
				pause();
		}
		char b[64];
		int n = read(ready[0], b, sizeof b - 1);
		b[n > 0 ? n : 0] = 0;
		_exit(n > 0 ? inherited * 10 + nnp : 99); // the grandchild is ready: its parent ends
	}
	close(fds[1]);
	close(ready[1]);
	int status;
	waitpid(mid, &status, 0);
	char b[128];
	int n = read(fds[0], b, sizeof b - 1);
	b[n > 0 ? n : 0] = 0;
	printf("the middle process: pdeathsig inherited %d, no_new_privs %d; %s\n", WEXITSTATUS(status) / 10,
	       WEXITSTATUS(status) % 10, b);
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	printf("exec: %s\n", strerror(errno));
	return 1;
}
