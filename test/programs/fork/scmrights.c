/* Descriptors passed over AF_UNIX sockets (SCM_RIGHTS): stream, datagram
 * and seqpacket socket pairs, a named datagram socket, and from a child
 * process to its parent. Prints what it sees; no descriptor numbers, which
 * differ between hosts. The output must equal the host's and
 * qemu-riscv64's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* sendfds sends len bytes of data with n descriptors (n may be 0). */
static ssize_t sendfds(int s, const void *data, size_t len, const int *fds, int n) {
	char ctl[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = {(void *)data, len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (n > 0) {
		memset(ctl, 0, sizeof ctl);
		m.msg_control = ctl;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	}
	return sendmsg(s, &m, 0);
}

/* recvfds receives into buf with room bytes of control; it stores the
 * descriptors (up to max) in fds and their count in *n, and describes
 * the control message in desc. */
static ssize_t recvfds(int s, char *buf, size_t len, size_t room, int flags, int *fds, int max, int *n, char *desc) {
	union {
		char b[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {buf, len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = room ? ctl.b : NULL, .msg_controllen = room};
	memset(ctl.b, 0xee, sizeof ctl.b);
	ssize_t r = recvmsg(s, &m, flags);
	*n = 0;
	desc[0] = 0;
	if (r < 0)
		return r;
	int k = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		k += sprintf(desc + k, "cmsg level %d type %d len %zu; ", c->cmsg_level, c->cmsg_type, (size_t)c->cmsg_len);
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int cnt = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (int i = 0; i < cnt && *n < max; i++)
				memcpy(&fds[(*n)++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
		}
	}
	sprintf(desc + k, "controllen %zu%s%s", (size_t)m.msg_controllen, m.msg_flags & MSG_CTRUNC ? ", MSG_CTRUNC" : "",
		m.msg_flags & MSG_TRUNC ? ", MSG_TRUNC" : "");
	return r;
}

/* eof reports whether a pipe's read end sees end of file (no writer
 * left) rather than waiting (it is made non-blocking). */
static const char *eof(int rd) {
	fcntl(rd, F_SETFL, O_NONBLOCK);
	char c;
	ssize_t r = read(rd, &c, 1);
	return r == 0 ? "end of file" : r < 0 && errno == EAGAIN ? "still open" : "data";
}

static void stream(int type, const char *name) {
	int sv[2], p[2];
	char buf[64], desc[256];
	int fds[8], n;
	socketpair(AF_UNIX, type, 0, sv);
	pipe(p);
	int f = memfd_create("passed", 0);
	write(f, "from the file", 13);
	int pair[2] = {p[1], f};
	printf("%s: sendmsg with 2 descriptors: %zd\n", name, sendfds(sv[0], "x", 1, pair, 2));
	close(p[1]);
	close(f); /* the passed descriptions stay open in flight */
	ssize_t r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int) * 2), 0, fds, 8, &n, desc);
	printf("  received %zd byte, %d descriptors, new ones: %s; %s\n", r, n, n == 2 && fds[0] != fds[1] ? "yes" : "no", desc);
	write(fds[0], "hello", 5);
	close(fds[0]);
	r = read(p[0], buf, sizeof buf);
	printf("  written through the passed pipe: %.*s; then %s\n", (int)r, buf, eof(p[0]));
	lseek(fds[1], 0, SEEK_SET);
	r = read(fds[1], buf, sizeof buf);
	printf("  read through the passed file: %.*s\n", (int)r, buf);
	close(fds[1]);
	close(p[0]);

	/* Three descriptors, room for two (CMSG_SPACE of one int holds two):
	 * MSG_CTRUNC, the third closed. */
	int a[2], b[2], c[2];
	pipe(a), pipe(b), pipe(c);
	int three[3] = {a[1], b[1], c[1]};
	sendfds(sv[0], "y", 1, three, 3);
	close(a[1]), close(b[1]), close(c[1]);
	r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int)), 0, fds, 8, &n, desc);
	printf("  3 descriptors, CMSG_SPACE(sizeof(int)) of room: %zd byte, %d descriptors; %s\n", r, n, desc);
	printf("  the pipes kept: %s, %s; the third: %s\n", eof(a[0]), eof(b[0]), eof(c[0]));
	for (int i = 0; i < n; i++)
		close(fds[i]);
	printf("  the pipes kept, once closed: %s, %s\n", eof(a[0]), eof(b[0]));
	close(a[0]), close(b[0]), close(c[0]);

	/* No control buffer at all: the descriptor is closed. */
	pipe(a);
	sendfds(sv[0], "z", 1, &a[1], 1);
	close(a[1]);
	r = recvfds(sv[1], buf, sizeof buf, 0, 0, fds, 8, &n, desc);
	printf("  no room: %zd byte, %d descriptors; %s; the pipe: %s\n", r, n, desc, eof(a[0]));
	close(a[0]);

	/* read() of data with descriptors closes them. */
	pipe(a);
	sendfds(sv[0], "w", 1, &a[1], 1);
	close(a[1]);
	r = read(sv[1], buf, sizeof buf);
	printf("  read(): %zd byte; the pipe: %s\n", r, eof(a[0]));
	close(a[0]);

	/* MSG_PEEK gives a copy and leaves them queued; MSG_CMSG_CLOEXEC. */
	pipe(a);
	sendfds(sv[0], "pk", 2, &a[1], 1);
	close(a[1]);
	int peeked[8], np;
	r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int)), MSG_PEEK, peeked, 8, &np, desc);
	printf("  peek: %zd bytes, %d descriptor\n", r, np);
	r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int)), MSG_CMSG_CLOEXEC, fds, 8, &n, desc);
	printf("  then: %zd bytes, %d descriptor, distinct: %s, close-on-exec: %s and %s\n", r, n, n && fds[0] != peeked[0] ? "yes" : "no",
		fcntl(fds[0], F_GETFD) & FD_CLOEXEC ? "yes" : "no", fcntl(peeked[0], F_GETFD) & FD_CLOEXEC ? "yes" : "no");
	close(fds[0]);
	printf("  one copy closed: %s\n", eof(a[0]));
	close(peeked[0]);
	printf("  both closed: %s\n", eof(a[0]));
	close(a[0]);

	/* Errors: a bad descriptor, a control message longer than the buffer. */
	int bad = 1000;
	r = sendfds(sv[0], "e", 1, &bad, 1);
	printf("  a bad descriptor: %zd (%s)\n", r, r < 0 && errno == EBADF ? "EBADF" : strerror(errno));
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {"e", 1};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET, cm->cmsg_type = SCM_RIGHTS, cm->cmsg_len = sizeof ctl + 8;
	r = sendmsg(sv[0], &m, 0);
	printf("  cmsg_len past the buffer: %zd (%s)\n", r, r < 0 && errno == EINVAL ? "EINVAL" : strerror(errno));

	/* Descriptors in flight when the receiving socket closes are released. */
	pipe(a);
	sendfds(sv[0], "q", 1, &a[1], 1);
	close(a[1]);
	close(sv[1]);
	printf("  receiver closed with a descriptor in flight: the pipe: %s\n", eof(a[0]));
	close(a[0]);
	close(sv[0]);
}

/* On a stream, a read stops after the bytes that carry descriptors. */
static void boundaries(void) {
	int sv[2], p[2], fds[8], n;
	char buf[64], desc[256];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	send(sv[0], "ab", 2, 0);
	sendfds(sv[0], "cd", 2, &p[1], 1);
	send(sv[0], "ef", 2, 0);
	sendfds(sv[0], "gh", 2, &p[1], 1);
	sendfds(sv[0], "ij", 2, &p[1], 1);
	for (int i = 0; i < 3; i++) {
		ssize_t r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int) * 2), 0, fds, 8, &n, desc);
		printf("stream read %d: %.*s, %d descriptor%s\n", i + 1, (int)r, buf, n, n == 1 ? "" : "s");
		for (int j = 0; j < n; j++)
			close(fds[j]);
	}
	/* A short read inside the bytes that carry them takes them. */
	sendfds(sv[0], "klmn", 4, &p[1], 1);
	ssize_t r = recvfds(sv[1], buf, 2, CMSG_SPACE(sizeof(int)), 0, fds, 8, &n, desc);
	printf("stream read of 2 of 4 bytes: %.*s, %d descriptor\n", (int)r, buf, n);
	if (n)
		close(fds[0]);
	r = recvfds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int)), 0, fds, 8, &n, desc);
	printf("the rest: %.*s, %d descriptors\n", (int)r, buf, n);
	close(sv[0]), close(sv[1]), close(p[0]), close(p[1]);
}

/* A named datagram socket receives descriptors from an unbound one. */
static void named(void) {
	int rx = socket(AF_UNIX, SOCK_DGRAM, 0), tx = socket(AF_UNIX, SOCK_DGRAM, 0), p[2], fds[8], n;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char buf[64], desc[256];
	memcpy(sa.sun_path, "\0rvsim-scmrights", 16);
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 16;
	bind(rx, (struct sockaddr *)&sa, len);
	connect(tx, (struct sockaddr *)&sa, len);
	pipe(p);
	sendfds(tx, "dgram", 5, &p[1], 1);
	close(p[1]);
	ssize_t r = recvfds(rx, buf, 3, CMSG_SPACE(sizeof(int)), 0, fds, 8, &n, desc);
	printf("named datagram socket: %zd bytes, %d descriptor; %s\n", r, n, desc);
	write(fds[0], "!", 1);
	close(fds[0]);
	r = read(p[0], buf, sizeof buf);
	printf("  written through it: %.*s, then %s\n", (int)r, buf, eof(p[0]));
	close(rx), close(tx), close(p[0]);
}

/* A child opens a pipe and passes its write end to the parent. */
static void fromchild(void) {
	int sv[2], fds[8], n;
	char buf[64], desc[256];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid_t pid = fork();
	if (pid == 0) {
		int p[2];
		pipe(p);
		write(p[1], "made by the child", 17);
		sendfds(sv[1], "r", 1, &p[0], 1);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	ssize_t r = recvfds(sv[0], buf, sizeof buf, CMSG_SPACE(sizeof(int)), 0, fds, 8, &n, desc);
	printf("from a child that has ended: %zd byte, %d descriptor\n", r, n);
	r = read(fds[0], buf, sizeof buf);
	printf("  read through it: %.*s, then %s\n", (int)r, buf, eof(fds[0]));
	close(fds[0]), close(sv[0]), close(sv[1]);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	stream(SOCK_STREAM, "stream");
	stream(SOCK_SEQPACKET, "seqpacket");
	stream(SOCK_DGRAM, "datagram");
	boundaries();
	named();
	fromchild();
	return 0;
}
