// tcpurg: TCP urgent data over the loopback (send and recv with MSG_OOB),
// without and with SO_OOBINLINE: the mark at the last byte of the
// urgent send, reads that stop at it, the urgent byte taken out of the
// stream or left in it, recv(MSG_OOB) (peek, once, EINVAL), POLLPRI,
// SIOCATMARK and SIGURG to the F_SETOWN owner. Before, MSG_OOB was
// EOPNOTSUPP (Python's ftplib abort()).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../include/result.h"
#include "../include/tcppair.h"

static volatile sig_atomic_t urgs;
static void onUrg(int s) { (void)s; urgs++; }

static void state(const char *what, int s) {
	struct pollfd p = {.fd = s, .events = POLLIN | POLLPRI};
	poll(&p, 1, 0);
	int mark = -1;
	ioctl(s, SIOCATMARK, &mark);
	printf("%s: revents%s%s, at mark %d\n", what, p.revents & POLLIN ? " IN" : "", p.revents & POLLPRI ? " PRI" : "", mark);
}
static void rd(const char *what, int s, int n, int flags) {
	char b[32] = {0};
	long r = recv(s, b, n, flags | MSG_DONTWAIT);
	printf("%s: %s \"%s\"\n", what, result(r), r > 0 ? b : "");
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGURG, onUrg);
	for (int inl = 0; inl < 2; inl++) {
		int c, s;
		tcpPair(&c, &s);
		printf("-- SO_OOBINLINE %d\n", inl);
		setsockopt(s, SOL_SOCKET, SO_OOBINLINE, &inl, sizeof inl);
		fcntl(s, F_SETOWN, getpid());
		state("fresh", s);
		rd("recv OOB with none", s, 1, MSG_OOB);
		printf("send abc: %s\n", result(send(c, "abc", 3, 0)));
		printf("send XY OOB: %s\n", result(send(c, "XY", 2, MSG_OOB)));
		printf("send def: %s\n", result(send(c, "def", 3, 0)));
		usleep(10000);
		printf("SIGURGs: %d\n", urgs);
		state("after", s);
		rd("recv 10", s, 10, 0);
		state("then", s);
		rd("recv OOB peek", s, 1, MSG_OOB | MSG_PEEK);
		rd("recv OOB", s, 1, MSG_OOB);
		rd("recv OOB again", s, 1, MSG_OOB);
		rd("recv 10", s, 10, 0);
		state("then", s);
		rd("recv 10", s, 10, 0);
		state("end", s);
		close(c), close(s);
	}
	return 0;
}
