/* Loopback sockets between threads: a TCP echo server on 127.0.0.1, ::1
 * and the dual-stack ::, a listener's readiness in poll, UDP ping-pong
 * with source addresses, and the errors Linux's loopback gives (refused,
 * in progress, address in use, reset), and AF_UNIX stream and datagram
 * echoes by abstract names. It prints data and verdicts, never port
 * numbers, so that a host's run (qemu) prints the same. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void check(int ok, const char *what) {
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
}

/* sa makes a loopback (or wildcard) address of family fam, port 0. */
static socklen_t sa(int fam, const char *ip, struct sockaddr_storage *ss) {
	memset(ss, 0, sizeof *ss);
	if (fam == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;
		s->sin_family = AF_INET;
		inet_pton(AF_INET, ip, &s->sin_addr);
		return sizeof *s;
	}
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;
	s->sin6_family = AF_INET6;
	inet_pton(AF_INET6, ip, &s->sin6_addr);
	return sizeof *s;
}

static void setport(struct sockaddr_storage *ss, in_port_t port) {
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = port;
	else
		((struct sockaddr_in6 *)ss)->sin6_port = port;
}

static in_port_t getport(struct sockaddr_storage *ss) {
	if (ss->ss_family == AF_INET)
		return ((struct sockaddr_in *)ss)->sin_port;
	return ((struct sockaddr_in6 *)ss)->sin6_port;
}

/* listener listens on ip (port 0) and returns the socket and its port. */
static int listener(int fam, const char *ip, in_port_t *port) {
	struct sockaddr_storage ss;
	socklen_t len = sa(fam, ip, &ss);
	int l = socket(fam, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(l, (struct sockaddr *)&ss, len) || listen(l, 8))
		perror("bind/listen");
	len = sizeof ss;
	getsockname(l, (struct sockaddr *)&ss, &len);
	*port = getport(&ss);
	return l;
}

/* The echo server: accepts one connection, sends back what it reads
 * in upper case until end of file, then closes. */
static void *echo(void *arg) {
	int l = *(int *)arg;
	int c = accept(l, NULL, NULL);
	char buf[64];
	ssize_t n;
	while ((n = read(c, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] >= 'a' && buf[i] <= 'z')
				buf[i] -= 32;
		write(c, buf, n);
	}
	close(c);
	return NULL;
}

static void tcp_echo(const char *desc, int lfam, const char *lip, int cfam, const char *cip) {
	in_port_t port;
	int l = listener(lfam, lip, &port);
	pthread_t t;
	pthread_create(&t, NULL, echo, &l);
	struct sockaddr_storage ss, me, peer;
	socklen_t len = sa(cfam, cip, &ss);
	setport(&ss, port);
	int c = socket(cfam, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(c, (struct sockaddr *)&ss, len))
		perror("connect");
	socklen_t ml = sizeof me, pl = sizeof peer;
	getsockname(c, (struct sockaddr *)&me, &ml);
	getpeername(c, (struct sockaddr *)&peer, &pl);
	check(me.ss_family == cfam && peer.ss_family == cfam && getport(&peer) == port && getport(&me) != 0,
	      "names of the connected socket");
	const char *msg = "hello over the loopback";
	write(c, msg, strlen(msg));
	shutdown(c, SHUT_WR);
	char buf[64];
	size_t got = 0;
	ssize_t n;
	while ((n = read(c, buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	pthread_join(t, NULL);
	printf("%s: %s (end %zd)\n", desc, buf, n);
	pl = sizeof peer;
	check(getpeername(c, (struct sockaddr *)&peer, &pl) == -1 && errno == ENOTCONN,
	      "both sides shut and closed: getpeername ENOTCONN");
	close(c);
	close(l);
}

/* poll on a listener: nothing, then a connection (from a thread). */
static in_port_t poll_port;
static void *dial(void *arg) {
	(void)arg;
	struct sockaddr_storage ss;
	socklen_t len = sa(AF_INET, "127.0.0.1", &ss);
	setport(&ss, poll_port);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&ss, len);
	write(c, "x", 1);
	close(c);
	return NULL;
}

static void poll_listener(void) {
	int l = listener(AF_INET, "127.0.0.1", &poll_port);
	struct pollfd p = {.fd = l, .events = POLLIN};
	check(poll(&p, 1, 0) == 0, "a listener with nothing to accept is not ready");
	fcntl(l, F_SETFL, O_NONBLOCK);
	check(accept(l, NULL, NULL) == -1 && errno == EAGAIN, "non-blocking accept: EAGAIN");
	pthread_t t;
	pthread_create(&t, NULL, dial, NULL);
	int r = poll(&p, 1, -1);
	check(r == 1 && p.revents == POLLIN, "poll: the listener is readable");
	int c = accept4(l, NULL, NULL, SOCK_NONBLOCK);
	check(c >= 0 && (fcntl(c, F_GETFL) & O_NONBLOCK), "accept4 with SOCK_NONBLOCK");
	pthread_join(t, NULL);
	char ch = 0;
	check(read(c, &ch, 1) == 1 && ch == 'x' && read(c, &ch, 1) == 0, "the data, then end of file");
	close(c);
	close(l);
}

/* UDP: the pinger sends to the ponger, which answers to the source. */
static int ping_fd, pong_fd;
static struct sockaddr_in pong_at;
static void *ponger(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++) {
		char buf[32];
		struct sockaddr_in from;
		socklen_t fl = sizeof from;
		ssize_t n = recvfrom(pong_fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
		buf[n] = 0;
		buf[1] = 'o';
		sendto(pong_fd, buf, n, 0, (struct sockaddr *)&from, fl);
	}
	return NULL;
}

static void udp(void) {
	struct sockaddr_storage ss;
	socklen_t len = sa(AF_INET, "127.0.0.1", &ss);
	pong_fd = socket(AF_INET, SOCK_DGRAM, 0);
	bind(pong_fd, (struct sockaddr *)&ss, len);
	socklen_t pl = sizeof pong_at;
	getsockname(pong_fd, (struct sockaddr *)&pong_at, &pl);
	ping_fd = socket(AF_INET, SOCK_DGRAM, 0); /* unbound: bound at its first send */
	pthread_t t;
	pthread_create(&t, NULL, ponger, NULL);
	for (int i = 0; i < 3; i++) {
		char msg[32], buf[32];
		int n = snprintf(msg, sizeof msg, "ping %d", i);
		sendto(ping_fd, msg, n, 0, (struct sockaddr *)&pong_at, sizeof pong_at);
		struct sockaddr_in from;
		socklen_t fl = sizeof from;
		ssize_t m = recvfrom(ping_fd, buf, sizeof buf - 1, 0, (struct sockaddr *)&from, &fl);
		buf[m < 0 ? 0 : m] = 0;
		printf("udp: %s -> %s\n", msg, buf);
		check(fl == sizeof from && from.sin_port == pong_at.sin_port && from.sin_addr.s_addr == htonl(INADDR_LOOPBACK),
		      "the reply's source");
	}
	pthread_join(t, NULL);
	struct sockaddr_in me;
	socklen_t ml = sizeof me;
	getsockname(ping_fd, (struct sockaddr *)&me, &ml);
	check(me.sin_port != 0 && me.sin_addr.s_addr == 0, "the sender was bound at its first send, to 0.0.0.0");
	/* connect: the default destination. */
	connect(ping_fd, (struct sockaddr *)&pong_at, sizeof pong_at);
	send(ping_fd, "connected", 9, 0);
	char buf[32] = {0};
	struct sockaddr_in from;
	socklen_t fl = sizeof from;
	ssize_t n = recvfrom(pong_fd, buf, sizeof buf - 1, 0, (struct sockaddr *)&from, &fl);
	printf("udp: %s (%zd)\n", buf, n);
	close(ping_fd);
	close(pong_fd);
}

static void errors(void) {
	struct sockaddr_storage ss;
	socklen_t len = sa(AF_INET, "127.0.0.1", &ss);
	in_port_t port;
	int l = listener(AF_INET, "127.0.0.1", &port);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	setport(&ss, port);
	check(bind(s, (struct sockaddr *)&ss, len) == -1 && errno == EADDRINUSE, "bind to a listener's port: EADDRINUSE");
	close(s);

	/* Non-blocking connect: in progress, then writable with no error. */
	int c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	check(connect(c, (struct sockaddr *)&ss, len) == -1 && errno == EINPROGRESS, "non-blocking connect: EINPROGRESS");
	struct pollfd p = {.fd = c, .events = POLLOUT};
	int err = -1;
	socklen_t el = sizeof err;
	check(poll(&p, 1, -1) == 1 && p.revents == POLLOUT, "then writable");
	getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &el);
	check(err == 0, "SO_ERROR 0: connected");
	int a = accept(l, NULL, NULL);
	/* Closed with data unread: the peer is reset. */
	write(c, "unread", 6);
	close(a);
	char ch;
	fcntl(c, F_SETFL, 0);
	check(read(c, &ch, 1) == -1 && errno == ECONNRESET, "closed with data unread: ECONNRESET");
	check(read(c, &ch, 1) == 0, "then end of file");
	close(c);

	/* A connection still queued when the listener closes is reset. */
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&ss, len);
	close(l);
	check(read(c, &ch, 1) == -1 && errno == ECONNRESET, "listener closed: ECONNRESET");
	close(c);

	/* Nothing listens at the port now. */
	c = socket(AF_INET, SOCK_STREAM, 0);
	check(connect(c, (struct sockaddr *)&ss, len) == -1 && errno == ECONNREFUSED, "no listener: ECONNREFUSED");
	close(c);
	c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	check(connect(c, (struct sockaddr *)&ss, len) == -1 && errno == EINPROGRESS, "non-blocking: EINPROGRESS");
	p.fd = c;
	poll(&p, 1, -1);
	getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &el);
	check(err == ECONNREFUSED, "then SO_ERROR ECONNREFUSED");
	close(c);
}

/* AF_UNIX by an abstract name: the same echo server. */
static void unix_abstract(void) {
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	const char name[] = "\0rvsim-loopback-test";
	memcpy(un.sun_path, name, sizeof name - 1);
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + sizeof name - 1;
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&un, len) || listen(l, 4))
		perror("unix bind/listen");
	int dup = socket(AF_UNIX, SOCK_STREAM, 0);
	check(bind(dup, (struct sockaddr *)&un, len) == -1 && errno == EADDRINUSE, "unix: the name is taken: EADDRINUSE");
	close(dup);
	pthread_t t;
	pthread_create(&t, NULL, echo, &l);
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&un, len))
		perror("unix connect");
	struct sockaddr_un peer;
	socklen_t pl = sizeof peer;
	getpeername(c, (struct sockaddr *)&peer, &pl);
	check(pl == len && memcmp(&peer, &un, len) == 0, "unix: getpeername is the listener's name");
	write(c, "abstract", 8);
	shutdown(c, SHUT_WR);
	char buf[32] = {0};
	size_t got = 0;
	ssize_t n;
	while ((n = read(c, buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	pthread_join(t, NULL);
	printf("unix: %s\n", buf);
	close(c);
	close(l);
}

/* AF_UNIX datagrams by abstract names: the reply goes to the sender's. */
static int udg_srv;
static void *udg_echo(void *arg) {
	(void)arg;
	char buf[32];
	struct sockaddr_un from;
	socklen_t fl = sizeof from;
	ssize_t n = recvfrom(udg_srv, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
	if (n > 0)
		sendto(udg_srv, buf, n, 0, (struct sockaddr *)&from, fl);
	return NULL;
}

static socklen_t abstract(struct sockaddr_un *un, const char *name) {
	memset(un, 0, sizeof *un);
	un->sun_family = AF_UNIX;
	strcpy(un->sun_path + 1, name);
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
}

static void unix_dgram(void) {
	struct sockaddr_un srv, cli, from;
	socklen_t sl = abstract(&srv, "rvsim-dgram-srv"), cl = abstract(&cli, "rvsim-dgram-cli");
	udg_srv = socket(AF_UNIX, SOCK_DGRAM, 0);
	int c = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (bind(udg_srv, (struct sockaddr *)&srv, sl) || bind(c, (struct sockaddr *)&cli, cl))
		perror("unix dgram bind");
	pthread_t t;
	pthread_create(&t, NULL, udg_echo, NULL);
	sendto(c, "unix datagram", 13, 0, (struct sockaddr *)&srv, sl);
	char buf[32] = {0};
	socklen_t fl = sizeof from;
	ssize_t n = recvfrom(c, buf, sizeof buf - 1, 0, (struct sockaddr *)&from, &fl);
	pthread_join(t, NULL);
	printf("unix: %s (%zd)\n", buf, n);
	check(fl == sl && memcmp(&from, &srv, sl) == 0, "unix: the reply's source is the server's name");
	close(c);
	close(udg_srv);
}

int main(void) {
	tcp_echo("tcp 127.0.0.1", AF_INET, "127.0.0.1", AF_INET, "127.0.0.1");
	tcp_echo("tcp ::1", AF_INET6, "::1", AF_INET6, "::1");
	tcp_echo("tcp :: from 127.0.0.1", AF_INET6, "::", AF_INET, "127.0.0.1");
	poll_listener();
	udp();
	errors();
	unix_abstract();
	unix_dgram();
	return 0;
}
