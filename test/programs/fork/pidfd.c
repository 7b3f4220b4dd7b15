// pidfd.c: process file descriptors (pidfd_open, pidfd_send_signal,
// pidfd_getfd, CLONE_PIDFD of clone and clone3, waitid's P_PIDFD, and a
// pidfd's readiness in poll and epoll, from its parent and from a
// sibling). Its output is the same on Linux 6.1 and later (the host's
// build is the reference): only what those kernels agree on is printed.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct clone_args_v0 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

static int pidfd_open(pid_t pid, unsigned flags) { return syscall(SYS_pidfd_open, pid, flags); }
static int pidfd_send_signal(int fd, int sig, siginfo_t *info, unsigned flags) {
	return syscall(SYS_pidfd_send_signal, fd, sig, info, flags);
}
static int pidfd_getfd(int fd, int target, unsigned flags) { return syscall(SYS_pidfd_getfd, fd, target, flags); }

// res prints a call's result: its value, "fd" for a new descriptor, or
// the error's name.
static const char *res(long r, int isfd) {
	static char b[64];
	if (r < 0)
		snprintf(b, sizeof b, "-1 (%s)", strerrorname_np(errno));
	else if (isfd)
		snprintf(b, sizeof b, "fd");
	else
		snprintf(b, sizeof b, "%ld", r);
	return b;
}

static void waited(const char *what, int pfd) {
	siginfo_t si;
	memset(&si, 0, sizeof si);
	long r = waitid(P_PIDFD, pfd, &si, WEXITED);
	printf("%s: waitid %s, code %s, status %d\n", what, res(r, 0),
	       si.si_code == CLD_EXITED ? "CLD_EXITED" : si.si_code == CLD_KILLED ? "CLD_KILLED" : "other", si.si_status);
}

static int revents(int fd, int timeout) {
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int n = poll(&p, 1, timeout);
	return n < 0 ? -1 : p.revents;
}

static volatile int usr1, usr1Code, usr1Value;
static void onUsr1(int sig, siginfo_t *si, void *ctx) {
	(void)sig, (void)ctx;
	usr1++;
	usr1Code = si->si_code;
	usr1Value = si->si_value.sival_int;
}

static void self(void) {
	printf("pidfd_open(-1): %s\n", res(pidfd_open(-1, 0), 1));
	printf("pidfd_open(0): %s\n", res(pidfd_open(0, 0), 1));
	printf("pidfd_open with flags 1: %s\n", res(pidfd_open(getpid(), 1), 1));
	int fd = pidfd_open(getpid(), 0);
	printf("pidfd_open(self): %s, cloexec %d, access mode rdwr %d\n", res(fd, 1),
	       fcntl(fd, F_GETFD) & FD_CLOEXEC, (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	printf("self alive: revents %#x\n", revents(fd, 0));
	siginfo_t si;
	printf("waitid on self: %s\n", res(waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG), 0));
	printf("signal 0: %s\n", res(pidfd_send_signal(fd, 0, NULL, 0), 0));
	printf("flags 8: %s\n", res(pidfd_send_signal(fd, 0, NULL, 8), 0));
	printf("signal 65: %s\n", res(pidfd_send_signal(fd, 65, NULL, 0), 0));
	int p[2];
	if (pipe(p) != 0)
		exit(1);
	printf("not a pidfd: %s\n", res(pidfd_send_signal(p[0], 0, NULL, 0), 0));
	printf("waitid on a pipe: %s\n", res(waitid(P_PIDFD, p[0], &si, WEXITED), 0));
	printf("waitid on -1: %s\n", res(waitid(P_PIDFD, -1, &si, WEXITED), 0));
	close(p[0]), close(p[1]);
	char c;
	printf("read: %s\n", res(read(fd, &c, 1), 0));
	printf("write: %s\n", res(write(fd, "x", 1), 0));

	struct sigaction sa = {.sa_sigaction = onUsr1, .sa_flags = SA_SIGINFO};
	sigaction(SIGUSR1, &sa, NULL);
	long r = pidfd_send_signal(fd, SIGUSR1, NULL, 0);
	printf("SIGUSR1 to self: %s, handled %d, code SI_USER %d\n", res(r, 0), usr1, usr1Code == SI_USER);
	memset(&si, 0, sizeof si);
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 42;
	r = pidfd_send_signal(fd, SIGUSR1, &si, 0);
	printf("SIGUSR1 with SI_QUEUE: %s, handled %d, code SI_QUEUE %d, value %d\n", res(r, 0), usr1,
	       usr1Code == SI_QUEUE, usr1Value);
	si.si_signo = SIGUSR2;
	printf("si_signo not the signal: %s\n", res(pidfd_send_signal(fd, SIGUSR1, &si, 0), 0));
	printf("bad siginfo pointer: %s\n", res(pidfd_send_signal(fd, SIGUSR1, (siginfo_t *)8, 0), 0));
	char dir[32];
	snprintf(dir, sizeof dir, "/proc/%d", getpid());
	int pd = open(dir, O_DIRECTORY | O_RDONLY);
	r = pidfd_send_signal(pd, SIGUSR1, NULL, 0); // a /proc/PID directory names its process too
	printf("SIGUSR1 through /proc/PID: %s, handled %d\n", res(r, 0), usr1);
	printf("waitid on /proc/PID: %s\n", res(waitid(P_PIDFD, pd, &si, WEXITED | WNOHANG), 0));
	printf("pidfd_getfd on /proc/PID: %s\n", res(pidfd_getfd(pd, 0, 0), 1));
	close(pd);
	pd = open("/proc", O_DIRECTORY | O_RDONLY);
	printf("signal through /proc: %s\n", res(pidfd_send_signal(pd, SIGUSR1, NULL, 0), 0));
	close(pd);
	close(fd);
}

static int threadGo[2];
static volatile pid_t threadTid;
static void *threadMain(void *arg) {
	(void)arg;
	threadTid = gettid();
	char c;
	read(threadGo[0], &c, 1);
	return NULL;
}

// thread: a thread other than the leader has no pidfd of its own.
static void thread(void) {
	pthread_t t;
	if (pipe(threadGo) != 0 || pthread_create(&t, NULL, threadMain, NULL) != 0)
		exit(1);
	while (threadTid == 0)
		sched_yield();
	// Linux 6.1 answers EINVAL (pidfd_create), 6.18 ENOENT.
	printf("pidfd_open(a thread) fails: %d\n", pidfd_open(threadTid, 0) < 0);
	write(threadGo[1], "x", 1);
	pthread_join(t, NULL);
	close(threadGo[0]), close(threadGo[1]);
}

// lifecycle follows one child from a pidfd_open to its reaping.
static void lifecycle(void) {
	int go[2];
	if (pipe(go) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		char c;
		read(go[0], &c, 1);
		_exit(5);
	}
	int fd = pidfd_open(child, PIDFD_NONBLOCK);
	printf("pidfd_open(child, PIDFD_NONBLOCK): %s, nonblock %d\n", res(fd, 1), (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0);
	printf("child alive: revents %#x\n", revents(fd, 0));
	siginfo_t si;
	printf("waitid, nonblocking pidfd: %s\n", res(waitid(P_PIDFD, fd, &si, WEXITED), 0));
	memset(&si, 0, sizeof si);
	printf("waitid WNOHANG: %s, si_pid %d\n", res(waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG), 0), si.si_pid);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 7};
	printf("epoll_ctl: %s\n", res(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0));
	printf("epoll_wait before: %s\n", res(epoll_wait(ep, &ev, 1, 0), 0));
	write(go[1], "x", 1);
	printf("child ended: revents %#x\n", revents(fd, 10000));
	memset(&ev, 0, sizeof ev);
	int n = epoll_wait(ep, &ev, 1, 0);
	printf("epoll_wait after: %d, events %#x, data %u\n", n, ev.events, ev.data.u32);
	printf("signal to the zombie: %s\n", res(pidfd_send_signal(fd, SIGTERM, NULL, 0), 0));
	int fd2 = pidfd_open(child, 0);
	printf("pidfd_open(zombie): %s\n", res(fd2, 1));
	close(fd2);
	int flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	memset(&si, 0, sizeof si);
	long r = waitid(P_PIDFD, fd, &si, WEXITED);
	printf("waitid: %s, si_pid is the child %d, CLD_EXITED %d, status %d\n", res(r, 0), si.si_pid == child,
	       si.si_code == CLD_EXITED, si.si_status);
	printf("reaped: revents %#x\n", revents(fd, 0));
	n = epoll_wait(ep, &ev, 1, 0);
	printf("epoll_wait reaped: %d, events %#x\n", n, ev.events);
	printf("signal after the reaping: %s\n", res(pidfd_send_signal(fd, 0, NULL, 0), 0));
	printf("waitid again: %s\n", res(waitid(P_PIDFD, fd, &si, WEXITED), 0));
	printf("pidfd_open(reaped): %s\n", res(pidfd_open(child, 0), 1));
	close(ep), close(fd), close(go[0]), close(go[1]);
}

static void killed(void) {
	pid_t child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	int fd = pidfd_open(child, 0);
	printf("SIGKILL: %s\n", res(pidfd_send_signal(fd, SIGKILL, NULL, 0), 0));
	waited("killed", fd);
	close(fd);

	child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	fd = pidfd_open(child, 0);
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = SIGTERM;
	si.si_code = SI_USER; // a code of 0 or more, or SI_TKILL, only to oneself
	printf("SI_USER to another process: %s\n", res(pidfd_send_signal(fd, SIGTERM, &si, 0), 0));
	si.si_code = SI_TKILL;
	printf("SI_TKILL to another process: %s\n", res(pidfd_send_signal(fd, SIGTERM, &si, 0), 0));
	si.si_code = -60;
	printf("si_code -60 to another process: %s\n", res(pidfd_send_signal(fd, SIGTERM, &si, 0), 0));
	waited("terminated", fd);
	close(fd);
}

static void cloned(void) {
	int fd = -1;
	struct clone_args_v0 args = {.flags = CLONE_PIDFD, .pidfd = (uintptr_t)&fd, .exit_signal = SIGCHLD};
	long r = syscall(SYS_clone3, &args, sizeof args);
	if (r == 0) // the number is written after the child's copy of memory
		_exit(fd == -1 ? 3 : 30);
	printf("clone3 CLONE_PIDFD: %s, pidfd %s, cloexec %d\n", r > 0 ? "child" : res(r, 0), res(fd, 1),
	       fcntl(fd, F_GETFD) & FD_CLOEXEC);
	waited("clone3's child", fd);
	close(fd);

	fd = -1;
	r = syscall(SYS_clone, CLONE_PIDFD | SIGCHLD, 0, &fd, 0, 0);
	if (r == 0) // the parent's pidfd is not open in the child
		_exit(fcntl(fd, F_GETFD) == -1 && errno == EBADF ? 4 : 40);
	printf("clone CLONE_PIDFD: %s, pidfd %s\n", r > 0 ? "child" : res(r, 0), res(fd, 1));
	waited("clone's child", fd);
	close(fd);

	int tid = 0;
	r = syscall(SYS_clone, CLONE_PIDFD | CLONE_PARENT_SETTID | SIGCHLD, 0, &tid, 0, 0);
	if (r == 0)
		_exit(0);
	printf("clone CLONE_PIDFD|CLONE_PARENT_SETTID: %s\n", res(r, 0));
	args.pidfd = 8; // not writable
	r = syscall(SYS_clone3, &args, sizeof args);
	if (r == 0)
		_exit(0);
	printf("clone3 with a bad pidfd pointer: %s\n", res(r, 0));
	printf("no child left: %s\n", res(wait(NULL), 0));
}

// getfd takes a descriptor of a child's, one the child opened after the
// fork.
static void getfd(void) {
	int ask[2], tell[2];
	if (pipe(ask) != 0 || pipe(tell) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		int q[2];
		if (pipe(q) != 0)
			_exit(1);
		write(q[1], "hello", 5);
		write(tell[1], &q[0], sizeof q[0]);
		char c;
		read(ask[0], &c, 1);
		_exit(0);
	}
	int fd = pidfd_open(child, 0), target;
	read(tell[0], &target, sizeof target);
	int got = pidfd_getfd(fd, target, 0);
	char b[8] = {0};
	printf("pidfd_getfd: %s, cloexec %d, reads %s\n", res(got, 1), fcntl(got, F_GETFD) & FD_CLOEXEC,
	       read(got, b, 5) == 5 ? b : "nothing");
	printf("pidfd_getfd of a closed descriptor: %s\n", res(pidfd_getfd(fd, 200, 0), 1));
	printf("pidfd_getfd with flags 1: %s\n", res(pidfd_getfd(fd, target, 1), 1));
	printf("pidfd_getfd of a pipe: %s\n", res(pidfd_getfd(ask[0], 0, 0), 1));
	write(ask[1], "x", 1);
	waited("getfd's child", fd);
	printf("pidfd_getfd after the end: %s\n", res(pidfd_getfd(fd, 0, 0), 1));
	close(fd), close(got);
	close(ask[0]), close(ask[1]), close(tell[0]), close(tell[1]);
}

// sibling: a second child polls the first's pidfd, which it inherited,
// until the first ends.
static void sibling(void) {
	int go[2];
	if (pipe(go) != 0)
		exit(1);
	pid_t a = fork();
	if (a == 0) {
		char c;
		read(go[0], &c, 1);
		_exit(6);
	}
	int fd = pidfd_open(a, 0);
	pid_t b = fork();
	if (b == 0) {
		siginfo_t si;
		printf("sibling: waitid on its sibling %s\n", res(waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG), 0));
		printf("sibling: before the release, revents %#x\n", revents(fd, 0));
		write(go[1], "x", 1);
		printf("sibling: after, revents %#x\n", revents(fd, 10000));
		fflush(stdout);
		_exit(0);
	}
	int bfd = pidfd_open(b, 0);
	waited("the sibling", bfd);
	waited("the first child", fd);
	close(fd), close(bfd), close(go[0]), close(go[1]);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	self();
	thread();
	lifecycle();
	killed();
	cloned();
	getfd();
	sibling();
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	printf("pidfd_open(a reaped child): %s\n", res(pidfd_open(c, 0), 1));
	return 0;
}
