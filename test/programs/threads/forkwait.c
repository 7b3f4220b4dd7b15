/* A thread forks while the main thread waits: the main thread blocks
 * reading a pipe, then another thread forks a child that writes to the
 * pipe at once and ends, all within its first turn; the main thread must
 * read what the child wrote. Then the same with the main thread in poll.
 * Before, the main thread was never woken and the run ended in a
 * deadlock. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int fds[2];
static pid_t pid;

static void *forker(void *arg) {
	(void)arg;
	usleep(10000); // the main thread waits by then
	if ((pid = fork()) == 0) {
		write(fds[1], "OK", 2);
		_exit(0);
	}
	return NULL;
}

static void run(const char *what, int usePoll) {
	pipe(fds);
	pthread_t t;
	pthread_create(&t, NULL, forker, NULL);
	if (usePoll) {
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		int n = poll(&p, 1, -1);
		printf("%s: poll %d, revents%s%s\n", what, n, p.revents & POLLIN ? " POLLIN" : "",
		       p.revents & POLLHUP ? " POLLHUP" : "");
	}
	char b[3] = {0};
	ssize_t n = read(fds[0], b, 2);
	printf("%s: read %zd \"%s\"\n", what, n, b);
	pthread_join(t, NULL);
	int st;
	waitpid(pid, &st, 0);
	printf("%s: the child exited %d\n", what, WEXITSTATUS(st));
	close(fds[0]), close(fds[1]);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	run("read", 0);
	run("poll", 1);
	return 0;
}
