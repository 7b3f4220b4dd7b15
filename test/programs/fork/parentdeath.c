/* A grandchild watches its parent's end, as Python's multiprocessing
 * parent_process().join() does: the parent holds the only write end of
 * a pipe and sleeps 300 s; the grandchild polls the read end with a 5 s
 * timeout; the main process kills the parent as soon as the grandchild
 * has said it watches. The grandchild must see the end of file at once,
 * not after its timeout: a child's own children must not run ahead of
 * it while it sleeps. The output must equal the host's. */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/monotonic.h"

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int report[2];
	pipe(report);
	pid_t parent = fork();
	if (parent == 0) {
		int sentinel[2];
		pipe(sentinel);
		if (fork() == 0) {
			close(sentinel[1]);
			write(report[1], "w", 1);
			double t0 = now();
			struct pollfd p = {.fd = sentinel[0], .events = POLLIN};
			int r = poll(&p, 1, 5000);
			char c;
			int eof = r == 1 && read(sentinel[0], &c, 1) == 0;
			char msg = eof && now() - t0 < 1 ? 'y' : 'n';
			write(report[1], &msg, 1);
			_exit(0);
		}
		close(sentinel[0]);
		struct timespec s = {300, 0};
		nanosleep(&s, NULL);
		_exit(1);
	}
	close(report[1]);
	char c;
	read(report[0], &c, 1);
	printf("the grandchild watches: %c\n", c);
	kill(parent, SIGTERM);
	int st;
	waitpid(parent, &st, 0);
	printf("its parent: killed by %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	int n = read(report[0], &c, 1);
	printf("the grandchild saw its parent's end within 1 s: %c (%d)\n", c, n);
	return 0;
}
