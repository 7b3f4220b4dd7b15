/* A grandchild watches its parent's end, as Python's multiprocessing
 * parent_process().join() does: the parent holds the only write end of
 * a pipe and sleeps 300 s; the watcher polls the read end with a 5 s
 * timeout; the main process kills the parent as soon as the watcher has
 * said it watches. The watcher is the parent's child, or (as with
 * Python's forkserver) the child of a server the parent started, which
 * forks it on request and otherwise waits with no deadline. The watcher
 * must see the end of file at once, not after its timeout: a sleeping
 * process's children, and a waiting server's, must not run ahead of it.
 * The watcher computes a while before it says so, as an interpreter
 * starting up does: a sleeping parent whose child computes is not a
 * quiet sleeper whose wake the main process may skip to. The output
 * must equal the host's. */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/monotonic.h"

static volatile long sink;

static void watch(int sentinel, int report) {
	for (long i = 0; i < 20000000; i++) // starting up
		sink += i;
	write(report, "w", 1);
	double t0 = now();
	struct pollfd p = {.fd = sentinel, .events = POLLIN};
	int r = poll(&p, 1, 5000);
	char c;
	int eof = r == 1 && read(sentinel, &c, 1) == 0;
	char msg = eof && now() - t0 < 1 ? 'y' : 'n';
	write(report, &msg, 1);
	_exit(0);
}

static void parentOf(int report, int viaServer) {
	int sentinel[2], req[2];
	pipe(sentinel), pipe(req);
	if (viaServer) {
		if (fork() == 0) { // the server: forks a watcher per request
			close(sentinel[1]), close(req[1]);
			char c;
			while (read(req[0], &c, 1) == 1)
				if (fork() == 0)
					watch(sentinel[0], report);
			_exit(0);
		}
		write(req[1], "g", 1);
	} else if (fork() == 0) {
		close(sentinel[1]);
		watch(sentinel[0], report);
	}
	close(sentinel[0]);
	struct timespec s = {300, 0};
	nanosleep(&s, NULL);
	_exit(1);
}

static void run(const char *what, int viaServer) {
	int report[2];
	pipe(report);
	pid_t parent = fork();
	if (parent == 0)
		parentOf(report[1], viaServer);
	close(report[1]);
	char c;
	read(report[0], &c, 1);
	printf("%s: it watches: %c", what, c);
	kill(parent, SIGTERM);
	int st;
	waitpid(parent, &st, 0);
	printf(", its parent killed by %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	int n = read(report[0], &c, 1);
	printf(", it saw the parent's end within 1 s: %c (%d)\n", c, n);
	close(report[0]);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	run("a sleeping parent's child", 0);
	run("a child of the sleeping parent's server", 1);
	return 0;
}
