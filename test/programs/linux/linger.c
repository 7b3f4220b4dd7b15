// linger: a TCP socket closed with SO_LINGER on and a linger time of 0
// aborts its connection (tcp_close's disconnect, a reset): the peer is no
// longer connected (getpeername ENOTCONN), SO_ERROR is ECONNRESET, the
// bytes queued before the reset stay readable, then ECONNRESET (unless
// SO_ERROR took it) and end of file, and a send is EPIPE. Python's ssl
// relies on it (wrap_socket on a reset connection with data queued).
// Before, such a close was an orderly one (end of file only). Then an
// orderly close: sends of 0 bytes to the closed peer move nothing, so no
// reset comes back (EPIPE only after a send of a byte); before, the
// first empty send drew the reset (Python's ssl unwrap, whose last
// sendall is often of no bytes, got BrokenPipeError).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *res(long r) {
	static char b[64];
	if (r < 0)
		snprintf(b, sizeof b, "-1 (%s)", strerrorname_np(errno));
	else
		snprintf(b, sizeof b, "%ld", r);
	return b;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int round = 0; round < 3; round++) {
		int withData = round != 1, askErr = round < 2;
		int l = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		socklen_t len = sizeof a;
		bind(l, (struct sockaddr *)&a, sizeof a);
		listen(l, 1);
		getsockname(l, (struct sockaddr *)&a, &len);
		int c = socket(AF_INET, SOCK_STREAM, 0);
		connect(c, (struct sockaddr *)&a, sizeof a);
		int s = accept(l, NULL, NULL);
		struct linger lg = {1, 0};
		printf("SO_LINGER 0: %s\n", res(setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg)));
		if (withData)
			printf("send: %s\n", res(send(c, "DELETE", 6, 0)));
		usleep(10000);
		printf("close: %s\n", res(close(c)));
		usleep(10000);
		struct sockaddr_in p;
		len = sizeof p;
		printf("getpeername after the reset: %s\n", res(getpeername(s, (struct sockaddr *)&p, &len)));
		if (askErr) {
			int err = 0;
			len = sizeof err;
			getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
			printf("SO_ERROR: %s\n", err ? strerrorname_np(err) : "0");
		}
		char b[16] = {0};
		printf("recv 1: %s", res(recv(s, b, 1, 0)));
		printf(" \"%s\"\n", b);
		memset(b, 0, sizeof b);
		printf("recv 16: %s", res(recv(s, b, 16, 0)));
		printf(" \"%s\"\n", b);
		printf("recv again: %s\n", res(recv(s, b, 16, 0)));
		printf("send: %s\n", res(send(s, "x", 1, MSG_NOSIGNAL)));
		close(s), close(l);
	}

	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 1);
	getsockname(l, (struct sockaddr *)&a, &len);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&a, sizeof a);
	int s = accept(l, NULL, NULL);
	close(s);
	usleep(10000);
	for (int i = 0; i < 3; i++)
		printf("an empty send to a closed peer: %s\n", res(send(c, "", 0, MSG_NOSIGNAL)));
	printf("a send of a byte: %s\n", res(send(c, "x", 1, MSG_NOSIGNAL)));
	usleep(10000);
	printf("then: %s\n", res(send(c, "x", 1, MSG_NOSIGNAL)));
	close(c), close(l);
	return 0;
}
