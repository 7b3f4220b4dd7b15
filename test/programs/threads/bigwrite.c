/* A blocking write larger than a pipe or a socket's buffer, in a process
 * of several threads: it takes every byte, in order, waiting for the
 * reader thread (write(2) on a blocking pipe or stream returns short only
 * at a signal); so do writev and sendmsg of several buffers, whose later
 * buffers wait too.
 * Then a write that a SIGALRM handler interrupts after the pipe filled
 * returns the part it wrote, not EINTR, and the handler runs. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

enum { BIG = 1 << 20 };

// drain reads to the end; fd[1] gets the count, fd[2] a hash of the
// bytes in order, taken 8 at a time (a byte skipped or written twice
// changes it; words, not bytes, keep the run short under --difftest).
static void drain(long *fd) {
	static uint64_t w[512];
	unsigned char *b = (unsigned char *)w;
	long total = 0;
	uint64_t h = 5381;
	size_t have = 0; // bytes in b, hashed once b is full
	ssize_t n;
	while ((n = read((int)fd[0], b + have, sizeof w - have)) > 0) {
		total += n;
		have += (size_t)n;
		if (have < sizeof w)
			continue;
		for (size_t i = 0; i < 512; i++)
			h = h * 33 + w[i];
		have = 0;
	}
	for (size_t i = 0; i < have; i++) // a tail shorter than b
		h = h * 33 + b[i];
	fd[1] = total, fd[2] = (long)h;
}

static void *reader(void *arg) {
	drain(arg);
	return NULL;
}

enum how { WRITE, WRITEV, SENDMSG };

static void whole(const char *what, enum how how, int rd, int wr) {
	uint64_t *words = malloc(BIG);
	char *buf = (char *)words;
	for (uint64_t i = 0; i < BIG / 8; i++)
		words[i] = i * 0x9e3779b97f4a7c15u;
	uint64_t want = 5381;
	for (int i = 0; i < BIG / 8; i++)
		want = want * 33 + words[i];
	long arg[3] = {rd, 0, 0};
	pthread_t t;
	pthread_create(&t, NULL, reader, arg);
	// three buffers: a quarter, a half, a quarter
	struct iovec iov[3] = {{buf, BIG / 4}, {buf + BIG / 4, BIG / 2}, {buf + 3 * (BIG / 4), BIG / 4}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 3};
	ssize_t n = how == WRITE ? write(wr, buf, BIG) : how == WRITEV ? writev(wr, iov, 3) : sendmsg(wr, &m, 0);
	close(wr);
	pthread_join(t, NULL);
	printf("%s: %zd of %d, the reader got %ld, in order: %s\n", what, n, BIG, arg[1],
	       (uint64_t)arg[2] == want ? "yes" : "no");
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
	whole("pipe write", WRITE, p[0], p[1]);
	pipe(p);
	whole("pipe writev", WRITEV, p[0], p[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	whole("stream socket write", WRITE, s[0], s[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	whole("stream socket writev", WRITEV, s[0], s[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	whole("stream socket sendmsg", SENDMSG, s[0], s[1]);
	interrupted();
	return 0;
}
