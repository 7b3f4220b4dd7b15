// bigio: large writes between processes. A blocking write to a pipe or a
// stream socket takes all its bytes, however many times the reader must
// drain the buffer meanwhile; and a parent that polls its child's three
// pipes, as Python's communicate() does, feeds the child's input while
// it drains its output (the child writes all of its error output before
// it reads the rest of its input). Prints one line per stage.
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (1 << 18)
static char buf[BIG + 1];
static char rb[65536], pat[65536];

// check reports whether the n bytes at rb are not all c.
static int check(ssize_t n, char c) {
	if (n <= 0)
		return 0;
	memset(pat, c, n);
	return memcmp(rb, pat, n) != 0;
}

// drain reads fd to its end and returns how many bytes came, all of them c.
static size_t drain(int fd, char c, int *bad) {
	size_t got = 0;
	ssize_t n;
	while ((n = read(fd, rb, sizeof rb)) > 0) {
		*bad |= check(n, c);
		got += n;
	}
	return got;
}

// oneWrite: a child writes BIG bytes with one write() to fds[1]; the
// parent reads fds[0] to the end.
static void oneWrite(const char *what, int fds[2]) {
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		memset(buf, 'w', BIG);
		ssize_t n = write(fds[1], buf, BIG);
		_exit(n == BIG ? 0 : 1);
	}
	close(fds[1]);
	int bad = 0, st;
	size_t got = drain(fds[0], 'w', &bad);
	waitpid(pid, &st, 0);
	close(fds[0]);
	printf("one write of %d bytes to a %s: read %zu, %s, the write returned all: %s\n", BIG, what, got,
	       bad ? "corrupt" : "intact", WEXITSTATUS(st) == 0 ? "yes" : "no");
}

// take reads what is ready on fd, all of it c, into the count *got; at
// the end it clears *open.
static void take(int fd, char c, int *open, size_t *got, int *bad) {
	ssize_t k = read(fd, rb, sizeof rb);
	*bad |= check(k, c);
	if (k <= 0)
		*open = 0;
	else
		*got += k;
}

// communicate: the child reads 47 bytes of its input and echoes them,
// writes N bytes of error output, then echoes the rest of its input.
static void communicate(void) {
	enum { N = BIG / 2 + 1 };
	int in[2], out[2], err[2];
	pipe(in);
	pipe(out);
	pipe(err);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		for (int fd = 3; fd < 9; fd++)
			close(fd);
		size_t got = 0;
		while (got < 47) {
			ssize_t n = read(0, buf + got, 47 - got);
			if (n <= 0)
				_exit(2);
			got += n;
		}
		write(1, buf, got);
		memset(buf, 'x', N);
		if (write(2, buf, N) != N)
			_exit(3);
		ssize_t n;
		while ((n = read(0, buf, 65536)) > 0)
			if (write(1, buf, n) != n)
				_exit(4);
		_exit(0);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	memset(buf, 'a', N);
	size_t sent = 0, gotOut = 0, gotErr = 0;
	int inOpen = 1, outOpen = 1, errOpen = 1, bad = 0, failed = 0;
	while (outOpen || errOpen) {
		struct pollfd fds[3];
		int n = 0, iin = -1, iout = -1, ierr = -1;
		if (inOpen) {
			iin = n;
			fds[n++] = (struct pollfd){in[1], POLLOUT, 0};
		}
		if (outOpen) {
			iout = n;
			fds[n++] = (struct pollfd){out[0], POLLIN, 0};
		}
		if (errOpen) {
			ierr = n;
			fds[n++] = (struct pollfd){err[0], POLLIN, 0};
		}
		if (poll(fds, n, -1) < 0) {
			failed = 1;
			break;
		}
		if (iin >= 0 && fds[iin].revents) { // a chunk of PIPE_BUF, as Python's
			size_t chunk = N - sent < 4096 ? N - sent : 4096;
			ssize_t w = write(in[1], buf + sent, chunk);
			if (w > 0)
				sent += w;
			if (sent == N || w < 0) {
				close(in[1]);
				inOpen = 0;
			}
		}
		if (iout >= 0 && fds[iout].revents)
			take(out[0], 'a', &outOpen, &gotOut, &bad);
		if (ierr >= 0 && fds[ierr].revents)
			take(err[0], 'x', &errOpen, &gotErr, &bad);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("communicate %d bytes: sent %zu, output %zu, error output %zu, %s, poll failed: %s, child %d\n", N, sent,
	       gotOut, gotErr, bad ? "corrupt" : "intact", failed ? "yes" : "no", WEXITSTATUS(st));
}

int main(void) {
	int fds[2];
	pipe(fds);
	oneWrite("pipe", fds);
	socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	oneWrite("stream socket pair", fds);
	communicate();
	return 0;
}
