// xsock.c: sockets between processes: a TCP listener in a child that
// bound it after the fork and a client in its parent, and the reverse; UDP
// datagrams with their senders' addresses; AF_UNIX stream sockets by a
// path and by an abstract name, bound in one process and connected from
// another; an AF_UNIX datagram socket receiving from another process; a
// port bound in one process is in use in another until that one ends;
// a socket file made at the path of an unlinked one whose socket is still
// bound is another file (asyncio compares inodes before it unlinks).
// Its output is the host's (no port numbers are printed).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static void reap(const char *what, pid_t pid) {
	int st;
	waitpid(pid, &st, 0);
	printf("%s: exited %d\n", what, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static struct sockaddr_in loopback(unsigned short port) {
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static unsigned short portOf(int s) {
	struct sockaddr_in a;
	socklen_t n = sizeof a;
	getsockname(s, (struct sockaddr *)&a, &n);
	return ntohs(a.sin_port);
}

// listenAnnounced listens on a free loopback port and writes the port
// number to descriptor w.
static int listenAnnounced(int w) {
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = loopback(0);
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 4);
	unsigned short port = portOf(l);
	write(w, &port, sizeof port);
	return l;
}

// tcp: a child listens (bound after the fork) and echoes in capitals.
static void tcp(void) {
	int p[2];
	if (pipe(p) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		int l = listenAnnounced(p[1]);
		int c = accept(l, NULL, NULL);
		char b[64];
		ssize_t n = recv(c, b, sizeof b, 0);
		for (ssize_t i = 0; i < n; i++)
			b[i] = b[i] >= 'a' && b[i] <= 'z' ? b[i] - 32 : b[i];
		send(c, b, n, 0);
		close(c);
		_exit(0);
	}
	unsigned short port;
	read(p[0], &port, sizeof port);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = loopback(port);
	printf("tcp connect to a child's listener: %s\n", result(connect(s, (struct sockaddr *)&a, sizeof a)));
	send(s, "hello", 5, 0);
	char b[64] = {0};
	ssize_t n = recv(s, b, sizeof b - 1, MSG_WAITALL);
	printf("tcp echo: %s (%zd bytes); then end of file %d\n", b, n, recv(s, b, sizeof b, 0) == 0);
	close(s);
	reap("tcp server", child);

	int l = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_addr = in6addr_loopback};
	bind(l, (struct sockaddr *)&a6, sizeof a6);
	listen(l, 4);
	socklen_t len = sizeof a6;
	getsockname(l, (struct sockaddr *)&a6, &len);
	child = fork();
	if (child == 0) {
		close(l);
		int c = socket(AF_INET6, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a6, sizeof a6) != 0)
			_exit(1);
		send(c, "from the child", 14, 0);
		close(c);
		_exit(0);
	}
	int c = accept(l, NULL, NULL);
	memset(b, 0, sizeof b);
	n = recv(c, b, sizeof b - 1, MSG_WAITALL);
	printf("tcp6 accepted from a child: %s\n", b);
	close(c), close(l);
	reap("tcp6 client", child);
	close(p[0]), close(p[1]);
}

static void udp(void) {
	int r = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = loopback(0);
	bind(r, (struct sockaddr *)&a, sizeof a);
	unsigned short port = portOf(r);
	pid_t child = fork();
	if (child == 0) {
		int s = socket(AF_INET, SOCK_DGRAM, 0);
		struct sockaddr_in to = loopback(port);
		sendto(s, "datagram", 8, 0, (struct sockaddr *)&to, sizeof to);
		char b[16];
		ssize_t n = recv(s, b, sizeof b, 0); // the reply, to its ephemeral port
		_exit(n == 5 && memcmp(b, "reply", 5) == 0 ? 0 : 1);
	}
	char b[16] = {0};
	struct sockaddr_in from;
	socklen_t fl = sizeof from;
	ssize_t n = recvfrom(r, b, sizeof b - 1, 0, (struct sockaddr *)&from, &fl);
	printf("udp from a child: %s (%zd), from the loopback %d\n", b, n, from.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	sendto(r, "reply", 5, 0, (struct sockaddr *)&from, fl);
	reap("udp sender", child);
	close(r);
}

static void unixStream(const char *what, struct sockaddr_un *a, socklen_t alen) {
	int p[2];
	if (pipe(p) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		int l = socket(AF_UNIX, SOCK_STREAM, 0);
		if (bind(l, (struct sockaddr *)a, alen) != 0 || listen(l, 1) != 0)
			_exit(1);
		write(p[1], "r", 1);
		int c = accept(l, NULL, NULL);
		send(c, what, strlen(what), 0);
		close(c), close(l);
		if (a->sun_path[0])
			unlink(a->sun_path);
		_exit(0);
	}
	char ch;
	read(p[0], &ch, 1);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	printf("unix %s: connect %s", what, result(connect(s, (struct sockaddr *)a, alen)));
	char b[64] = {0};
	recv(s, b, sizeof b - 1, MSG_WAITALL);
	printf(", got \"%s\"\n", b);
	close(s);
	reap("unix server", child);
	close(p[0]), close(p[1]);
}

static void unixDgram(void) {
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "xsock-dgram-%d", getpid()); // in the working directory
	unlink(a.sun_path);
	int r = socket(AF_UNIX, SOCK_DGRAM, 0);
	bind(r, (struct sockaddr *)&a, sizeof a);
	pid_t child = fork();
	if (child == 0) {
		int s = socket(AF_UNIX, SOCK_DGRAM, 0);
		_exit(sendto(s, "unix datagram", 13, 0, (struct sockaddr *)&a, sizeof a) == 13 ? 0 : 1);
	}
	char b[32] = {0};
	ssize_t n = recv(r, b, sizeof b - 1, 0);
	printf("unix datagram from a child: %s (%zd)\n", b, n);
	reap("unix datagram sender", child);
	close(r);
	unlink(a.sun_path);
}

// bulk: a blocking sendmsg of two large buffers on a stream sends every
// byte, waiting for the reader in another process (tcp_sendmsg,
// unix_stream_sendmsg).
static void bulk(int domain) {
	int l = -1, sv[2];
	struct sockaddr_in a = loopback(0);
	if (domain == AF_INET) {
		l = socket(AF_INET, SOCK_STREAM, 0);
		bind(l, (struct sockaddr *)&a, sizeof a);
		listen(l, 1);
		a = loopback(portOf(l));
	} else if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
		exit(1);
	}
	pid_t child = fork();
	if (child == 0) {
		int s = sv[0];
		if (domain == AF_INET) {
			s = socket(AF_INET, SOCK_STREAM, 0);
			connect(s, (struct sockaddr *)&a, sizeof a);
		}
		static char x[300000], y[300000];
		struct iovec v[3] = {{x, sizeof x}, {NULL, 0}, {y, sizeof y}};
		struct msghdr m = {.msg_iov = v, .msg_iovlen = 3};
		ssize_t n = sendmsg(s, &m, 0);
		_exit(n == 600000 ? 0 : 1);
	}
	int s = sv[1];
	if (domain == AF_INET)
		s = accept(l, NULL, NULL);
	else
		close(sv[0]);
	char b[4096];
	long total = 0;
	ssize_t n;
	while ((n = read(s, b, sizeof b)) > 0)
		total += n;
	printf("%s: a 600000-byte sendmsg read whole: %ld\n", domain == AF_INET ? "tcp" : "unix stream", total);
	reap("the sender", child);
	close(s);
	if (l >= 0)
		close(l);
}

// inUse: a port a child holds is in use in its parent until it ends.
static void inUse(void) {
	int p[2], q[2];
	if (pipe(p) != 0 || pipe(q) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		listenAnnounced(p[1]);
		char c;
		read(q[0], &c, 1);
		_exit(0);
	}
	unsigned short port;
	read(p[0], &port, sizeof port);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = loopback(port);
	printf("bind to a child's port: %s\n", result(bind(s, (struct sockaddr *)&a, sizeof a)));
	write(q[1], "x", 1);
	reap("the port's holder", child);
	close(s);
	s = socket(AF_INET, SOCK_STREAM, 0);
	printf("bind after it ended: %s\n", result(bind(s, (struct sockaddr *)&a, sizeof a)));
	close(s);
	close(p[0]), close(p[1]), close(q[0]), close(q[1]);
}

// replaced: the first socket still holds its unlinked file, so the
// second bind at the path makes a file of another inode, and a connect
// to the path reaches the second socket, also once the first is closed.
static void replaced(void) {
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "xsock-replaced-%d", getpid());
	unlink(a.sun_path);
	int first = socket(AF_UNIX, SOCK_STREAM, 0), second = socket(AF_UNIX, SOCK_STREAM, 0);
	struct stat s1, s2;
	bind(first, (struct sockaddr *)&a, sizeof a);
	listen(first, 1);
	stat(a.sun_path, &s1);
	unlink(a.sun_path);
	printf("bind at an unlinked socket's path: %s", result(bind(second, (struct sockaddr *)&a, sizeof a)));
	listen(second, 1);
	stat(a.sun_path, &s2);
	printf(", another inode: %s\n", s1.st_ino != s2.st_ino ? "yes" : "no");
	close(first);
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	printf("connect after the first closed: %s", result(connect(c, (struct sockaddr *)&a, sizeof a)));
	int got = accept4(second, NULL, NULL, SOCK_NONBLOCK);
	printf(", the second accepts: %s\n", got >= 0 ? "yes" : "no");
	close(got), close(c), close(second);
	unlink(a.sun_path);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	tcp();
	udp();
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "xsock-%d", getpid());
	unlink(a.sun_path);
	unixStream("by a path", &a, sizeof a);
	struct sockaddr_un abs = {.sun_family = AF_UNIX};
	int n = snprintf(abs.sun_path + 1, sizeof abs.sun_path - 1, "xsock-%d", getpid());
	unixStream("by an abstract name", &abs, offsetof(struct sockaddr_un, sun_path) + 1 + n);
	unixDgram();
	bulk(AF_INET);
	bulk(AF_UNIX);
	inUse();
	replaced();
	return 0;
}
