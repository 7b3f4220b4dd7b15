// vecsock: readv and writev on sockets move one message per call, as
// sock_read_iter and sock_write_iter pass the whole iovec to the
// protocol: a writev on a datagram socket sends one datagram of every
// buffer, and a readv takes one datagram, scattered over the buffers
// (its tail dropped when they are too small). On a stream socket the
// buffers' bytes go in order as one write. A readv of a pipe returns what
// is there, as one read would, without waiting to fill its later buffers.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *what, ssize_t n, const char *a, const char *b) {
	printf("%s: %zd \"%s\" \"%s\"\n", what, n, a, b);
}

// pair runs the cases on two connected sockets of one type.
static void pair(const char *name, int s0, int s1) {
	char x[] = "abc", y[] = "defgh";
	struct iovec out[2] = {{x, 3}, {y, 5}};
	char a[16], b[16];
	printf("%s writev: %zd\n", name, writev(s0, out, 2));
	char one[] = "12";
	printf("%s write: %zd\n", name, write(s0, one, 2));
	memset(a, 0, sizeof a), memset(b, 0, sizeof b);
	struct iovec in[2] = {{a, 2}, {b, 16}};
	ssize_t n = readv(s1, in, 2);
	show(name, n, a, b);
	memset(a, 0, sizeof a), memset(b, 0, sizeof b);
	n = readv(s1, in, 2);
	show(name, n, a, b);
	// a datagram longer than the buffers: its tail is dropped
	char big[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	printf("%s write long: %zd\n", name, write(s0, big, sizeof big - 1));
	memset(a, 0, sizeof a), memset(b, 0, sizeof b);
	struct iovec small[2] = {{a, 4}, {b, 4}};
	n = readv(s1, small, 2);
	show(name, n, a, b);
	memset(a, 0, sizeof a), memset(b, 0, sizeof b);
	struct iovec zero[2] = {{a, 0}, {b, 3}};
	printf("%s write more: %zd\n", name, write(s0, "XYZW", 4));
	n = readv(s1, zero, 2);
	show(name, n, a, b);
	close(s0), close(s1);
}

static void unixpair(int type, const char *name) {
	int sv[2];
	if (socketpair(AF_UNIX, type, 0, sv) != 0) {
		perror("socketpair");
		return;
	}
	pair(name, sv[0], sv[1]);
}

static void udp(void) {
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof sa;
	if (bind(r, (struct sockaddr *)&sa, sizeof sa) != 0 || getsockname(r, (struct sockaddr *)&sa, &len) != 0 ||
	    connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
		perror("udp");
		return;
	}
	pair("udp", s, r);
}

static void tcp(void) {
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof sa;
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 1) != 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) != 0 || connect(c, (struct sockaddr *)&sa, sizeof sa) != 0) {
		perror("tcp");
		return;
	}
	int a = accept(l, 0, 0);
	close(l);
	char x[] = "abc", y[] = "defgh", buf[16] = {0};
	struct iovec out[2] = {{x, 3}, {y, 5}};
	printf("tcp writev: %zd\n", writev(c, out, 2));
	ssize_t n = 0;
	while (n < 8) {
		ssize_t m = read(a, buf + n, sizeof buf - 1 - n);
		if (m <= 0)
			break;
		n += m;
	}
	printf("tcp read: %zd \"%s\"\n", n, buf);
	close(a), close(c);
}

static void pipeReadv(void) {
	int p[2];
	if (pipe(p) != 0) {
		perror("pipe");
		return;
	}
	pid_t c = fork();
	if (c == 0) {
		write(p[1], "abc", 3);
		usleep(300000);
		write(p[1], "defgh", 5);
		_exit(0);
	}
	close(p[1]);
	struct pollfd pf = {.fd = p[0], .events = POLLIN};
	poll(&pf, 1, -1);
	char a[16] = {0}, b[16] = {0};
	struct iovec in[2] = {{a, 3}, {b, 5}};
	ssize_t n = readv(p[0], in, 2);
	show("pipe readv", n, a, b);
	memset(a, 0, sizeof a);
	n = readv(p[0], in, 2);
	show("pipe readv", n, a, b);
	waitpid(c, 0, 0);
	close(p[0]);
}

int main(void) {
	setvbuf(stdout, 0, _IONBF, 0);
	unixpair(SOCK_DGRAM, "unix dgram");
	unixpair(SOCK_SEQPACKET, "unix seqpacket");
	udp();
	tcp();
	pipeReadv();
	return 0;
}
