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

#include "../include/result.h"
#include "../include/tcppair.h"


int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int round = 0; round < 3; round++) {
		int withData = round != 1, askErr = round < 2;
		int c, s;
		tcpPair(&c, &s);
		struct linger lg = {1, 0};
		printf("SO_LINGER 0: %s\n", result(setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg)));
		if (withData)
			printf("send: %s\n", result(send(c, "DELETE", 6, 0)));
		usleep(10000);
		printf("close: %s\n", result(close(c)));
		usleep(10000);
		struct sockaddr_in p;
		socklen_t len = sizeof p;
		printf("getpeername after the reset: %s\n", result(getpeername(s, (struct sockaddr *)&p, &len)));
		if (askErr) {
			int err = 0;
			len = sizeof err;
			getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
			printf("SO_ERROR: %s\n", err ? strerrorname_np(err) : "0");
		}
		char b[16] = {0};
		printf("recv 1: %s", result(recv(s, b, 1, 0)));
		printf(" \"%s\"\n", b);
		memset(b, 0, sizeof b);
		printf("recv 16: %s", result(recv(s, b, 16, 0)));
		printf(" \"%s\"\n", b);
		printf("recv again: %s\n", result(recv(s, b, 16, 0)));
		printf("send: %s\n", result(send(s, "x", 1, MSG_NOSIGNAL)));
		close(s);
	}

	int c, s;
	tcpPair(&c, &s);
	close(s);
	usleep(10000);
	for (int i = 0; i < 3; i++)
		printf("an empty send to a closed peer: %s\n", result(send(c, "", 0, MSG_NOSIGNAL)));
	printf("a send of a byte: %s\n", result(send(c, "x", 1, MSG_NOSIGNAL)));
	usleep(10000);
	printf("then: %s\n", result(send(c, "x", 1, MSG_NOSIGNAL)));
	close(c);
	return 0;
}
