// Shared by the socket test programs: a connected pair of TCP sockets
// over the loopback, made through a listener that is closed again.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

// tcpPair connects *c to *s, the end the listener accepted.
static void tcpPair(int *c, int *s) {
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 1);
	getsockname(l, (struct sockaddr *)&a, &len);
	*c = socket(AF_INET, SOCK_STREAM, 0);
	connect(*c, (struct sockaddr *)&a, sizeof a);
	*s = accept(l, NULL, NULL);
	close(l);
}
