// slices: processes run side by side in time. A parent that waits with a
// deadline (a sleep, a poll with a timeout, an alarm) gets its turn back
// at the deadline whatever its child does: it can time out and kill a
// child that computes or sleeps without end (coreutils' timeout, Python's
// subprocess.run(timeout=...)). A child that finishes within the time
// is seen to finish, and the time the parent measures around a child's
// run includes it. Prints one line per stage; every line is the same on
// Linux, where the processes run in parallel.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

// spin computes for about s seconds of the process's own clock.
static void spin(double s) {
	double end = now() + s;
	while (now() < end)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

static void spinForever(void) {
	for (;;)
		sink++;
}

static void sleepFor(double s) {
	struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static const char *how(int st) {
	static char buf[64];
	if (WIFSIGNALED(st))
		snprintf(buf, sizeof buf, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, sizeof buf, "exited with %d", WEXITSTATUS(st));
	return buf;
}

// killAfterSleep: the parent sleeps 50 ms, then kills a child that runs
// body, and reports how the child ended.
static void killAfterSleep(const char *name, void (*body)(void)) {
	pid_t pid = fork();
	if (pid == 0) {
		body();
		_exit(0);
	}
	sleepFor(0.05);
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	printf("%s: %s\n", name, how(st));
}

static void sleepLong(void) { sleepFor(60); }

static volatile sig_atomic_t alarms;
static void onAlarm(int sig) {
	(void)sig;
	alarms++;
}

// pollWaitsFor: a child computes for work seconds, then writes a byte to
// a pipe; the parent polls the pipe with a timeout of limit ms.
static void pollWaitsFor(double work, int limit) {
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		spin(work);
		write(p[1], "x", 1);
		_exit(0);
	}
	close(p[1]);
	struct pollfd fd = {p[0], POLLIN, 0};
	int n = poll(&fd, 1, limit);
	printf("poll %d ms on a child that computes %.0f ms: %d ready\n", limit, work * 1000, n);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[0]);
}

// pollUntil: what Python's Popen.wait(timeout) does: waitpid(WNOHANG)
// and a sleep of at most 50 ms, until the child ends or the time is up.
static int pollUntil(pid_t pid, double limit, int *st) {
	double end = now() + limit, delay = 0.0005;
	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return 1;
		double left = end - now();
		if (left <= 0)
			return 0;
		delay = delay * 2 < left ? delay * 2 : left;
		if (delay > 0.05)
			delay = 0.05;
		sleepFor(delay);
	}
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);

	killAfterSleep("a child that computes forever, killed after 50 ms", spinForever);
	killAfterSleep("a child that sleeps 60 s, killed after 50 ms", sleepLong);

	// An alarm ends the parent's waitpid for a child that computes
	// forever, as coreutils' timeout does.
	struct sigaction sa = {0}; // no SA_RESTART: waitpid ends
	sa.sa_handler = onAlarm;
	sigaction(SIGALRM, &sa, NULL);
	pid_t pid = fork();
	if (pid == 0)
		spinForever();
	ualarm(100000, 0); // 100 ms
	int rc = waitpid(pid, NULL, 0);
	printf("alarm during waitpid: returned %d (%s), alarms %d\n", rc, strerror(errno), (int)alarms);
	kill(pid, SIGTERM);
	int st;
	waitpid(pid, &st, 0);
	printf("the timed-out child: %s\n", how(st));

	pollWaitsFor(0.05, 1000);
	pollWaitsFor(2, 100);

	// Popen.wait(timeout=5) on a child that takes 0.2 s, and
	// Popen.wait(timeout=0.2) on one that takes 5 s.
	pid = fork();
	if (pid == 0) {
		spin(0.2);
		_exit(3);
	}
	int done = pollUntil(pid, 5, &st);
	printf("wait 5 s for a child of 0.2 s: %s, %s\n", done ? "done" : "timed out", done ? how(st) : "-");
	pid = fork();
	if (pid == 0) {
		spin(5);
		_exit(4);
	}
	double t0 = now();
	done = pollUntil(pid, 0.2, &st);
	double waited = now() - t0;
	printf("wait 0.2 s for a child of 5 s: %s after 0.2 s or more: %s, under 1 s: %s\n", done ? "done" : "timed out",
	       waited >= 0.2 ? "yes" : "no", waited < 1 ? "yes" : "no");
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);

	// A parent that spins, with waitpid(WNOHANG) or on shared memory,
	// sees its child move.
	pid = fork();
	if (pid == 0) {
		spin(0.0015);
		_exit(5);
	}
	long polls = 0;
	while (waitpid(pid, &st, WNOHANG) == 0)
		polls++;
	printf("spinning on waitpid(WNOHANG): %s, polled more than once: %s\n", how(st), polls > 1 ? "yes" : "no");
	volatile int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = fork();
	if (pid == 0) {
		spin(0.0015);
		*flag = 42;
		_exit(0);
	}
	while (*flag == 0)
		sink++;
	waitpid(pid, &st, 0);
	printf("spinning on shared memory: saw %d\n", *flag);

	// A parent reads what a grandchild writes while the child between
	// them waits for it; the grandchild computes, ahead of its parent's
	// clock by its first slice.
	int gp[2];
	pipe(gp);
	pid = fork();
	if (pid == 0) {
		close(gp[0]);
		pid_t g = fork();
		if (g == 0) {
			spin(0.003);
			write(gp[1], "grandchild", 10);
			_exit(0);
		}
		close(gp[1]);
		waitpid(g, &st, 0);
		_exit(WEXITSTATUS(st) + 6);
	}
	close(gp[1]);
	char gbuf[16] = {0};
	ssize_t gn = read(gp[0], gbuf, sizeof gbuf - 1);
	waitpid(pid, &st, 0);
	close(gp[0]);
	printf("read %zd bytes from a grandchild (%s) while its parent waited for it; the parent %s\n", gn, gbuf, how(st));

	// The time measured around a child's run includes it.
	t0 = now();
	pid = fork();
	if (pid == 0) {
		sleepFor(0.3);
		spin(0.1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	double took = now() - t0;
	printf("a child of 0.4 s: the parent measured 0.4 s or more: %s, under 2 s: %s\n", took >= 0.4 ? "yes" : "no",
	       took < 2 ? "yes" : "no");
	return 0;
}
