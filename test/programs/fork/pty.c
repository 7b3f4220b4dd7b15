/* Pseudo-terminals: a pair from posix_openpt and from openpty, the line
 * discipline (echo, line editing, end of file, CR and NL mapping, output
 * processing, raw mode), window sizes, flushing, hang-ups, and a child
 * session that takes the slave as its controlling terminal and gets
 * SIGINT from a ^C. Prints what it sees, with control characters
 * escaped; no terminal numbers, which differ between hosts. The output
 * must equal the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* show prints n bytes with control characters escaped. */
static void show(const char *what, const char *b, ssize_t n) {
	printf("%s: ", what);
	if (n < 0) {
		printf("-1 (%s)\n", strerrorname_np(errno));
		return;
	}
	putchar('"');
	for (ssize_t i = 0; i < n; i++) {
		unsigned char c = b[i];
		if (c == '\n')
			printf("\\n");
		else if (c == '\r')
			printf("\\r");
		else if (c == '\b')
			printf("\\b");
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	printf("\" (%zd)\n", n);
}

/* drain reads what fd has now (it is made non-blocking). */
static ssize_t drain(int fd, char *b, size_t len) {
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ssize_t n = read(fd, b, len);
	fcntl(fd, F_SETFL, fl);
	return n;
}

static void say(int m, int s, const char *in, const char *what) {
	char b[256];
	write(m, in, strlen(in));
	show(what, b, drain(s, b, sizeof b));
	show("  echo", b, drain(m, b, sizeof b));
}

static void discipline(void) {
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	printf("posix_openpt: %s, grantpt %d, unlockpt %d\n", m >= 0 ? "ok" : "failed", grantpt(m), unlockpt(m));
	char *name = ptsname(m);
	printf("ptsname under /dev/pts: %s\n", strncmp(name, "/dev/pts/", 9) == 0 ? "yes" : "no");
	int s = open(name, O_RDWR | O_NOCTTY);
	char tn[64];
	ttyname_r(s, tn, sizeof tn);
	struct stat a, b;
	fstat(s, &a);
	stat(name, &b);
	printf("isatty: master %d, slave %d, a pipe %d; ttyname is ptsname: %s; stat and fstat agree: %s; a character device: %s\n", isatty(m),
		isatty(s), isatty(0) && 0, strcmp(tn, name) == 0 ? "yes" : "no", a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_rdev == b.st_rdev ? "yes" : "no",
		S_ISCHR(a.st_mode) ? "yes" : "no");
	struct termios t;
	tcgetattr(s, &t);
	printf("defaults: iflag %#x oflag %#x cflag %#x lflag %#x VINTR %d VERASE %d VKILL %d VEOF %d VMIN %d\n", t.c_iflag, t.c_oflag, t.c_cflag,
		t.c_lflag, t.c_cc[VINTR], t.c_cc[VERASE], t.c_cc[VKILL], t.c_cc[VEOF], t.c_cc[VMIN]);
	printf("speed: %d\n", cfgetospeed(&t) == B38400);

	say(m, s, "hello\r", "a line, CR mapped to NL");
	say(m, s, "abx\x7f" "c\n", "erase");
	say(m, s, "junk\x15ok\n", "kill");
	say(m, s, "one two\x17three\n", "word erase");
	say(m, s, "partial\x04", "end of file after text");
	say(m, s, "\x04", "end of file alone");
	say(m, s, "no newline yet", "an unfinished line");
	say(m, s, "\n", "then its end");
	say(m, s, "tab\tctl\x01\n", "a tab and ^A");
	char buf[256];
	write(m, "two\nlines\n", 10);
	show("one read of two lines", buf, read(s, buf, sizeof buf));
	show("  the next", buf, read(s, buf, sizeof buf));
	show("  echo", buf, drain(m, buf, sizeof buf));
	write(m, "longline\n", 9);
	show("a read of 4 of a line", buf, read(s, buf, 4));
	show("  the rest", buf, read(s, buf, sizeof buf));
	drain(m, buf, sizeof buf);

	write(s, "out\nput\r", 8);
	show("output processing", buf, drain(m, buf, sizeof buf));

	struct termios raw = t;
	cfmakeraw(&raw);
	tcsetattr(s, TCSANOW, &raw);
	say(m, s, "x\ry\n\x03", "raw input");
	write(s, "1\n2", 3);
	show("raw output", buf, drain(m, buf, sizeof buf));
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	tcsetattr(s, TCSANOW, &raw);
	show("raw read with nothing, VMIN 0", buf, read(s, buf, sizeof buf));
	tcsetattr(s, TCSANOW, &t);

	struct termios noecho = t;
	noecho.c_lflag &= ~ECHO;
	noecho.c_lflag |= ECHONL;
	tcsetattr(s, TCSANOW, &noecho);
	say(m, s, "secret\n", "ECHONL without ECHO");
	tcsetattr(s, TCSANOW, &t);

	struct winsize w = {.ws_row = 24, .ws_col = 80}, got;
	ioctl(m, TIOCSWINSZ, &w);
	ioctl(s, TIOCGWINSZ, &got);
	printf("window size set on the master, read on the slave: %dx%d\n", got.ws_col, got.ws_row);

	write(m, "flushed\n", 8);
	printf("tcflush %d, tcdrain %d, tcflow %d, tcsendbreak %d, FIONREAD after the flush: ", tcflush(s, TCIFLUSH), tcdrain(s),
		tcflow(s, TCOON), tcsendbreak(s, 0));
	int n = -1;
	ioctl(s, FIONREAD, &n);
	printf("%d\n", n);
	int r = tcflow(s, 99);
	printf("tcflow(99): %d %s\n", r, strerrorname_np(errno));
	r = tcflush(s, 99);
	printf("tcflush(99): %d %s\n", r, strerrorname_np(errno));
	r = tcgetpgrp(s);
	printf("tcgetpgrp of a terminal that is no one's: %d %s\n", r, strerrorname_np(errno));
	drain(m, buf, sizeof buf);

	/* Output suspended by tcflow. (Not ^S: Linux's line discipline takes
	 * a master's writes later, on a work queue, so a slave's write just
	 * after may go through.) */
	fcntl(s, F_SETFL, O_NONBLOCK);
	tcflow(s, TCOOFF);
	ssize_t w1 = write(s, "x", 1);
	printf("a write with output suspended: %zd %s\n", w1, strerrorname_np(errno));
	tcflow(s, TCOON);
	printf("resumed: %zd\n", write(s, "y", 1));
	show("  the master reads", buf, drain(m, buf, sizeof buf));
	fcntl(s, F_SETFL, 0);

	close(s);
	show("master read, the slave closed", buf, read(m, buf, sizeof buf));
	s = open(name, O_RDWR | O_NOCTTY);
	close(m);
	show("slave read, the master closed", buf, read(s, buf, sizeof buf));
	show("slave write, the master closed", buf, write(s, "x", 1));
	close(s);
	printf("the slave's name after both closed: %s\n", access(name, F_OK) == 0 ? "exists" : strerrorname_np(errno));

	/* A locked slave does not open. */
	m = posix_openpt(O_RDWR | O_NOCTTY);
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	printf("opening a locked slave: %d %s\n", s, strerrorname_np(errno));
	close(m);
}

static volatile sig_atomic_t got;
static void onint(int sig) { got = sig; }

/* A child session whose controlling terminal is the slave. */
static void session(void) {
	int m, s;
	struct winsize w = {.ws_row = 10, .ws_col = 40};
	printf("openpty: %d\n", openpty(&m, &s, NULL, NULL, &w));
	pid_t pid = fork();
	if (pid == 0) {
		close(m);
		setsid();
		printf("child: TIOCSCTTY %d\n", ioctl(s, TIOCSCTTY, 0));
		signal(SIGINT, onint);
		int tty = open("/dev/tty", O_RDWR);
		dprintf(tty, "tcgetpgrp is my group: %s\nready\n", tcgetpgrp(tty) == getpgrp() ? "yes" : "no");
		while (!got)
			pause();
		dprintf(tty, "got signal %d\n", got);
		_exit(0);
	}
	close(s);
	char buf[512];
	size_t have = 0;
	while (!memmem(buf, have, "ready", 5)) {
		ssize_t n = read(m, buf + have, sizeof buf - have);
		if (n <= 0)
			break;
		have += n;
	}
	show("parent reads", buf, have);
	write(m, "\x03", 1);
	have = 0;
	for (;;) {
		ssize_t n = read(m, buf + have, sizeof buf - have);
		if (n <= 0) {
			printf("then: %s\n", n < 0 ? strerrorname_np(errno) : "end of file");
			break;
		}
		have += n;
	}
	show("after ^C", buf, have);
	int st;
	waitpid(pid, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
	close(m);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	discipline();
	session();
	return 0;
}
