// ttyjob.c: a terminal's job control, as a shell meets it: a process of a
// background group that reads its controlling terminal gets SIGTTIN and
// stops (EIO when it ignores SIGTTIN); one that writes it with TOSTOP set,
// or changes its settings, gets SIGTTOU and stops (with SIGTTOU ignored
// or blocked it goes ahead); a job moved to the foreground with
// tcsetpgrp and continued reads what is typed. Its output is the host's.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../include/waitstatus.h"

static int master, slave;

static int err(long r) { return r < 0 ? errno : 0; }

// background starts job fn in a process group of its own, in the
// background of the terminal.
static pid_t background(int (*fn)(void)) {
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGTTOU, SIG_DFL); // (the shell's SIG_IGN is inherited)
		_exit(fn());
	}
	setpgid(pid, pid);
	return pid;
}

static int reader(void) {
	char b[16] = {0};
	ssize_t n = read(slave, b, sizeof b - 1);
	return n == 3 && strcmp(b, "hi\n") == 0 ? 3 : 100 + err(n);
}

static int ignoringReader(void) {
	signal(SIGTTIN, SIG_IGN);
	char c;
	return err(read(slave, &c, 1)) == EIO ? 5 : 6;
}

static int writer(void) { return write(slave, "bg\n", 3) == 3 ? 7 : 8; }

static int ignoringWriter(void) {
	signal(SIGTTOU, SIG_IGN);
	return write(slave, "ig\n", 3) == 3 ? 9 : 10;
}

static int setter(void) {
	struct termios t;
	tcgetattr(slave, &t);
	return tcsetattr(slave, TCSANOW, &t) == 0 ? 11 : 12;
}

static int blockingSetter(void) {
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGTTOU);
	sigprocmask(SIG_BLOCK, &s, NULL);
	struct termios t;
	tcgetattr(slave, &t);
	return tcsetattr(slave, TCSANOW, &t) == 0 ? 13 : 14;
}

// drain reads what the master has (what the jobs wrote), as one line.
static void drain(const char *what) {
	char b[64] = {0};
	ssize_t n = read(master, b, sizeof b - 1);
	for (ssize_t i = 0; i < n; i++)
		if (b[i] == '\r' || b[i] == '\n')
			b[i] = ' ';
	printf("%s: the terminal shows \"%s\"\n", what, b);
}

// session is the session leader with the terminal, its own group in the
// foreground, like a shell.
static int session(void) {
	setsid();
	if (openpty(&master, &slave, NULL, NULL, NULL) != 0 || ioctl(slave, TIOCSCTTY, 0) != 0)
		return 1;
	struct termios t;
	tcgetattr(slave, &t);
	t.c_lflag &= ~ECHO;
	tcsetattr(slave, TCSANOW, &t);
	signal(SIGTTOU, SIG_IGN); // as a shell does, to take the terminal back

	int st;
	pid_t job = background(reader);
	waitpid(job, &st, WUNTRACED);
	printf("a background read: %s\n", waitStatus(st));
	tcsetpgrp(slave, job);
	kill(job, SIGCONT);
	write(master, "hi\n", 3);
	waitpid(job, &st, WUNTRACED);
	printf("in the foreground and continued, it read the line: %s\n", waitStatus(st));
	printf("the terminal back: %d\n", tcsetpgrp(slave, getpgrp()));

	job = background(ignoringReader);
	waitpid(job, &st, WUNTRACED);
	printf("a background read ignoring SIGTTIN (5: EIO): %s\n", waitStatus(st));

	job = background(writer);
	waitpid(job, &st, WUNTRACED);
	printf("a background write without TOSTOP: %s\n", waitStatus(st));
	drain("then");
	t.c_lflag |= TOSTOP;
	tcsetattr(slave, TCSANOW, &t);
	job = background(writer);
	waitpid(job, &st, WUNTRACED);
	printf("a background write with TOSTOP: %s\n", waitStatus(st));
	kill(job, SIGKILL);
	waitpid(job, &st, 0);
	job = background(ignoringWriter);
	waitpid(job, &st, WUNTRACED);
	printf("with TOSTOP, ignoring SIGTTOU: %s\n", waitStatus(st));
	drain("then");

	job = background(setter);
	waitpid(job, &st, WUNTRACED);
	printf("a background tcsetattr: %s\n", waitStatus(st));
	kill(job, SIGKILL);
	waitpid(job, &st, 0);
	job = background(blockingSetter);
	waitpid(job, &st, WUNTRACED);
	printf("a background tcsetattr blocking SIGTTOU: %s\n", waitStatus(st));
	return 0;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	pid_t leader = fork();
	if (leader == 0)
		_exit(session());
	int st;
	waitpid(leader, &st, 0);
	printf("the session leader: %s\n", waitStatus(st));
	return 0;
}
