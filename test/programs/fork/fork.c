/* fork, vfork and posix_spawn, and the wait for a child's end. rvsim's
 * processes take turns at fixed points, so the output's order is fixed;
 * each line says what Linux guarantees whatever the order.
 * With argv[1] = "turns" it runs processes that wait for each other. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static int global = 1;
static volatile int chld;

static void on_chld(int sig) { (void)sig; chld++; }

static void report(const char *what, pid_t pid, int status) {
	if (pid < 0)
		printf("%s: wait failed: %s\n", what, strerror(errno));
	else if (WIFEXITED(status))
		printf("%s: exited with %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
}

/* drain reads fd to its end of file and returns the bytes read. */
static long drain(int fd) {
	char buf[4096];
	long total = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += n;
	return total;
}

/* fill writes n bytes to fd and returns how many it wrote. */
static size_t fill(int fd, size_t n) {
	static char buf[300000];
	memset(buf, 'z', sizeof buf);
	size_t done = 0;
	while (done < n && done < sizeof buf) {
		ssize_t w = write(fd, buf + done, n - done);
		if (w <= 0)
			break;
		done += w;
	}
	return done;
}

/* Processes that wait for each other: rvsim's processes take turns at
 * their waits (syscalls/fork.go). */
static int turns(void) {
	signal(SIGPIPE, SIG_IGN);
	int p[2], st;

	/* A child that reads what its parent writes after the fork. */
	pipe(p);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		ssize_t n = read(p[0], &c, 1);
		_exit(n == 1 && c == 'x' ? 0 : 1);
	}
	close(p[0]);
	write(p[1], "x", 1);
	close(p[1]);
	report("a child reading what its parent writes later", waitpid(pid, &st, 0), st);

	/* A parent feeding its child more than a pipe holds. */
	pipe(p);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		close(p[1]);
		printf("child read %ld bytes, then end of file\n", drain(p[0]));
		fflush(stdout);
		_exit(0);
	}
	close(p[0]);
	size_t done = fill(p[1], 300000);
	close(p[1]);
	printf("parent wrote %zu bytes\n", done);
	fflush(stdout);
	report("the reader", waitpid(pid, &st, 0), st);

	/* A child and its parent waiting for each other: Linux would hang. */
	pipe(p);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		char c;
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	close(p[0]);
	report("a child and its parent waiting for each other", waitpid(pid, &st, 0), st);
	close(p[1]);

	/* An orphan: its parent ends first; it reads to the end of file. */
	pipe(p);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		close(p[1]);
		printf("orphan read %ld bytes, after its parent ended\n", drain(p[0]));
		fflush(stdout);
		_exit(0);
	}
	close(p[0]);
	write(p[1], "0123456789", 10);
	printf("parent ends without waiting\n");
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1 && strcmp(argv[1], "spawned") == 0) {
		printf("spawned: argv[2] = %s, ppid is the spawner: %s\n", argv[2], atoi(argv[3]) == getppid() ? "yes" : "no");
		return 3;
	}
	if (argc > 1 && strcmp(argv[1], "turns") == 0)
		return turns();
	pid_t self = getpid();
	int st;
	errno = 0;
	printf("no children: wait %d (%s)\n", wait(&st), strerrorname_np(errno));
	signal(SIGCHLD, on_chld);

	/* fork: a copy of memory, its own pid, the parent's pid as ppid. */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		global = 2;
		printf("child: own pid %s, ppid is the parent %s\n", getpid() != self ? "yes" : "no", getppid() == self ? "yes" : "no");
		fflush(stdout);
		_exit(7);
	}
	printf("parent: fork returned the child's pid %s, global still %d\n", pid > 0 && pid != self ? "yes" : "no", global);
	printf("kill(child, 0) before the wait: %d\n", kill(pid, 0));
	report("fork", waitpid(pid, &st, 0), st);
	errno = 0;
	printf("kill(child, 0) after the wait: %d (%s)\n", kill(pid, 0), strerrorname_np(errno));
	printf("SIGCHLD handled: %d\n", chld);

	/* A child killed by a signal. */
	fflush(stdout);
	if ((pid = fork()) == 0)
		abort();
	report("abort", waitpid(-1, &st, 0), st);

	/* A child writes more than a pipe holds; the parent reads it all. */
	int p[2];
	pipe(p);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		close(p[0]);
		_exit(fill(p[1], 200000) == 200000 ? 0 : 1);
	}
	close(p[1]);
	printf("read %ld bytes from the child, then end of file\n", drain(p[0]));
	close(p[0]);
	report("writer", waitpid(pid, &st, 0), st);

	/* A grandchild: the child waits for its own child. */
	fflush(stdout);
	if ((pid = fork()) == 0) {
		pid_t g = fork();
		if (g == 0)
			_exit(11);
		int gs;
		waitpid(g, &gs, 0);
		_exit(WEXITSTATUS(gs) + 1);
	}
	report("grandchild's status plus one", waitpid(pid, &st, 0), st);

	/* vfork and exec: the child runs the program again as "spawned". */
	char ppid[16];
	snprintf(ppid, sizeof ppid, "%d", self);
	char *args[] = {argv[0], "spawned", "vfork", ppid, NULL};
	fflush(stdout);
	if ((pid = vfork()) == 0) {
		execve("/proc/self/exe", args, environ);
		_exit(127);
	}
	report("vfork and exec", waitpid(pid, &st, 0), st);

	/* posix_spawn, with waitid. */
	args[2] = "posix_spawn";
	fflush(stdout);
	int e = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
	siginfo_t si;
	memset(&si, 0, sizeof si);
	int w = waitid(P_PID, pid, &si, WEXITED);
	printf("posix_spawn: %d, waitid: %d, si_pid is the child %s, code %s, status %d\n", e, w,
	       si.si_pid == pid ? "yes" : "no", si.si_code == CLD_EXITED ? "CLD_EXITED" : "other", si.si_status);

	/* posix_spawn of a file that is not there: ENOENT (glibc's child
	   reports it through the memory it shares with its parent). */
	fflush(stdout);
	e = posix_spawn(&pid, "/no/such/program", NULL, NULL, args, environ);
	if (e == 0)
		report("posix_spawn of a missing program", waitpid(pid, &st, 0), st);
	else
		printf("posix_spawn of a missing program: %s\n", strerrorname_np(e));
	printf("SIGCHLD handled: %d\n", chld);
	errno = 0;
	printf("all reaped: wait %d (%s)\n", wait(&st), strerrorname_np(errno));
	return 0;
}
