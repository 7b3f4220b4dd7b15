/* timerfd and signalfd, alone and between threads: the main thread waits
 * in epoll_wait (no timeout) on a timerfd and a signalfd while a second
 * thread sends signals and arms the timer, one step at a time (each
 * acknowledged, so the output does not depend on the schedule or on real
 * time: expiry counts are printed only where they are exact, one-shot
 * timers, or as "at least one"). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timerfd.h>

static int tfd, sfd, ack, done;
static pthread_t mainThread;

static void arm(int fd, long ms, long intervalMs) {
	struct itimerspec its = {
		.it_interval = {intervalMs / 1000, intervalMs % 1000 * 1000000},
		.it_value = {ms / 1000, ms % 1000 * 1000000},
	};
	if (timerfd_settime(fd, 0, &its, NULL) != 0)
		printf("FAIL timerfd_settime: %s\n", strerror(errno));
}

static void waitAck(void) {
	uint64_t v;
	read(ack, &v, sizeof v);
}

static void *helper(void *arg) {
	(void)arg;
	kill(getpid(), SIGUSR1); /* every thread blocks it */
	waitAck();
	pthread_kill(mainThread, SIGUSR2);
	waitAck();
	arm(tfd, 30, 0);
	waitAck();

	/* A blocking read of a periodic timer of its own. */
	int own = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	arm(own, 10, 10);
	uint64_t n = 0;
	ssize_t got = read(own, &n, sizeof n);
	close(own);
	/* A blocking read of a signalfd for SIGUSR1, which main sends. */
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	int mine = signalfd(-1, &m, 0);
	uint64_t one = 1;
	write(done, &one, sizeof one);
	struct signalfd_siginfo si;
	ssize_t sgot = read(mine, &si, sizeof si);
	close(mine);
	uint64_t res[3] = {got == 8 && n >= 1, sgot == sizeof si, si.ssi_signo};
	write(done, &one, sizeof one);
	return (void *)(uintptr_t)(res[0] | res[1] << 1 | res[2] << 2);
}

static const char *codeName(int code) {
	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_TKILL: return "SI_TKILL";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_KERNEL: return "SI_KERNEL";
	}
	return "?";
}

static void readSignal(int fd, const char *what) {
	struct signalfd_siginfo si[2];
	ssize_t n = read(fd, si, sizeof si);
	if (n < 0) {
		printf("%s: read: %s\n", what, strerror(errno));
		return;
	}
	printf("%s: %zd bytes, signal %u, %s, from us %d", what, n, si[0].ssi_signo, codeName(si[0].ssi_code),
	       si[0].ssi_pid == (uint32_t)getpid());
	if (si[0].ssi_code == SI_QUEUE)
		printf(", value %d", si[0].ssi_int);
	printf("\n");
}

static void show(const char *what, int n, struct epoll_event *ev) {
	printf("%s: %d", what, n);
	for (int i = 0; i < n; i++)
		printf(" [%s data %llu]", ev[i].events & EPOLLIN ? "in" : "?", (unsigned long long)ev[i].data.u64);
	printf("\n");
}

int main(void) {
	mainThread = pthread_self();
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGALRM);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	/* timerfd alone. */
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	uint64_t n = 0;
	printf("disarmed read: %zd %s\n", read(tfd, &n, sizeof n), strerror(errno));
	printf("short read: %zd %s\n", read(tfd, &n, 4), strerror(errno));
	printf("bad clock: %d %s\n", timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0), strerror(errno));
	struct stat st;
	fstat(tfd, &st);
	char link[64] = "", path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", tfd);
	readlink(path, link, sizeof link - 1);
	printf("fstat: type bits %o, %s\n", st.st_mode & S_IFMT, link);
	int blocking = timerfd_create(CLOCK_MONOTONIC, 0);
	arm(blocking, 20, 0);
	printf("one-shot read: %zd %llu\n", read(blocking, &n, sizeof n), (unsigned long long)n);
	struct itimerspec its = {{3, 0}, {10, 0}}, old;
	timerfd_settime(blocking, 0, &its, NULL);
	memset(&its, 0, sizeof its);
	timerfd_settime(blocking, 0, &its, &old);
	printf("old setting: interval %lds, value in (0,10s]: %d\n", (long)old.it_interval.tv_sec,
	       old.it_value.tv_sec * 1000000000L + old.it_value.tv_nsec > 0 && old.it_value.tv_sec <= 10);
	arm(blocking, 15, 0);
	struct pollfd pfd = {.fd = blocking, .events = POLLIN};
	int r = poll(&pfd, 1, 5000);
	printf("poll: %d revents %#x\n", r, pfd.revents);
	printf("read after poll: %zd %llu\n", read(blocking, &n, sizeof n), (unsigned long long)n);
	struct timespec abs;
	clock_gettime(CLOCK_MONOTONIC, &abs);
	its = (struct itimerspec){.it_value = abs};
	timerfd_settime(blocking, TFD_TIMER_ABSTIME, &its, NULL);
	printf("absolute, past: %zd %llu\n", read(blocking, &n, sizeof n), (unsigned long long)n);
	int rt = timerfd_create(CLOCK_REALTIME, 0);
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec += 5000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	its = (struct itimerspec){.it_value = abs};
	timerfd_settime(rt, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL);
	printf("realtime, absolute: %zd %llu\n", read(rt, &n, sizeof n), (unsigned long long)n);
	close(rt);
	arm(blocking, 0, 0);
	timerfd_gettime(blocking, &old);
	printf("disarmed: %ld %ld\n", (long)old.it_value.tv_sec, old.it_value.tv_nsec);
	close(blocking);

	/* signalfd alone. */
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	readSignal(sfd, "nothing pending");
	raise(SIGUSR2);
	kill(getpid(), SIGUSR1);
	readSignal(sfd, "two pending, the first");
	readSignal(sfd, "then");
	union sigval sv = {.sival_int = 42};
	sigqueue(getpid(), SIGUSR1, sv);
	readSignal(sfd, "queued");
	struct itimerval it = {.it_value = {0, 10000}};
	setitimer(ITIMER_REAL, &it, NULL);
	pfd = (struct pollfd){.fd = sfd, .events = POLLIN};
	r = poll(&pfd, 1, -1);
	printf("poll for SIGALRM: %d revents %#x\n", r, pfd.revents);
	readSignal(sfd, "alarm");

	/* Between threads. */
	ack = eventfd(0, 0);
	done = eventfd(0, 0);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u64 = 1};
	epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
	ev = (struct epoll_event){.events = EPOLLIN, .data.u64 = 2};
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	struct epoll_event out[8];
	pthread_t t;
	pthread_create(&t, NULL, helper, NULL);
	uint64_t one = 1;
	int k = epoll_wait(ep, out, 8, -1);
	show("kill", k, out);
	readSignal(sfd, "kill");
	write(ack, &one, sizeof one);
	k = epoll_wait(ep, out, 8, -1);
	show("pthread_kill", k, out);
	readSignal(sfd, "pthread_kill");
	write(ack, &one, sizeof one);
	k = epoll_wait(ep, out, 8, -1);
	show("timer", k, out);
	printf("timer read: %zd %llu\n", read(tfd, &n, sizeof n), (unsigned long long)n);
	k = epoll_wait(ep, out, 8, 0);
	show("edge consumed", k, out);
	write(ack, &one, sizeof one);

	uint64_t v;
	read(done, &v, sizeof v); /* the helper has its signalfd */
	pthread_kill(t, SIGUSR1);
	read(done, &v, sizeof v);
	void *res;
	pthread_join(t, &res);
	uintptr_t rv = (uintptr_t)res;
	printf("helper: timer read %d, signalfd read %d, signal %lu\n", (int)(rv & 1), (int)(rv >> 1 & 1),
	       (unsigned long)(rv >> 2));
	close(ep);
	return 0;
}
