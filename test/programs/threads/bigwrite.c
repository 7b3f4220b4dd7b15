/* A blocking write larger than a pipe or a socket's buffer, in a process
 * of several threads: it takes every byte, waiting for the reader thread
 * (write(2) on a blocking pipe or stream returns short only at a signal).
 * Then a write that a SIGALRM handler interrupts after the pipe filled
 * returns the part it wrote, not EINTR, and the handler runs. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { BIG = 1 << 20 };

static long drain(int fd) {
	static char b[4096];
	long total = 0;
	ssize_t n;
	while ((n = read(fd, b, sizeof b)) > 0)
		total += n;
	return total;
}

static void *reader(void *arg) {
	long *fd = arg;
	fd[1] = drain((int)fd[0]);
	return NULL;
}

static void whole(const char *what, int rd, int wr) {
	char *buf = malloc(BIG);
	memset(buf, 'x', BIG);
	long arg[2] = {rd, 0};
	pthread_t t;
	pthread_create(&t, NULL, reader, arg);
	ssize_t n = write(wr, buf, BIG);
	close(wr);
	pthread_join(t, NULL);
	printf("%s: write %zd of %d, the reader got %ld\n", what, n, BIG, arg[1]);
	close(rd);
	free(buf);
}

static volatile sig_atomic_t alarmed;
static void onAlarm(int sig) { (void)sig; alarmed = 1; }

static int done[2]; // the reader thread lives on until the write has ended

static void *readOne(void *arg) {
	char c;
	read(*(int *)arg, &c, 1);
	read(done[0], &c, 1);
	return NULL;
}

static void interrupted(void) {
	int p[2];
	pipe(p), pipe(done);
	struct sigaction sa = {.sa_handler = onAlarm}; // no SA_RESTART
	sigaction(SIGALRM, &sa, NULL);
	sigset_t alrm;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL); // the reader thread blocks it
	pthread_t t;
	pthread_create(&t, NULL, readOne, &p[0]);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
	char *buf = malloc(4 * BIG);
	memset(buf, 'y', 4 * BIG);
	alarm(1);
	ssize_t n = write(p[1], buf, 4 * BIG);
	int e = errno;
	close(done[1]);
	pthread_join(t, NULL);
	printf("interrupted write: a part (%s), errno %s, the handler ran: %s\n",
	       n > 0 && n < 4 * BIG ? "yes" : "no", n < 0 ? strerror(e) : "unset", alarmed ? "yes" : "no");
	close(p[0]), close(p[1]), close(done[0]);
	free(buf);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int p[2], s[2];
	pipe(p);
	whole("pipe", p[0], p[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	whole("stream socket", s[0], s[1]);
	interrupted();
	return 0;
}
