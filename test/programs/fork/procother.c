// procother.c: another process's /proc/PID directory, as ps, pgrep and
// psutil read it: the listing of /proc, stat, status, cmdline, environ,
// comm, the exe link, the fd and task directories, of a child that waits,
// one that computes, one that has run another program, a zombie, and a
// reaped child. Its output is the host's (only what does not depend on
// the machine is printed).
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

// slurp reads a whole file; its length, or -1 with errno.
static long slurp(const char *path, char *buf, size_t size) {
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long n = 0, r;
	while ((r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return n;
}

static char *procPath(pid_t pid, const char *file) {
	static char p[128];
	snprintf(p, sizeof p, "/proc/%d/%s", pid, file);
	return p;
}

// listed reports whether directory dir has an entry name.
static int listed(const char *dir, const char *name) {
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while ((e = readdir(d)) != NULL)
		found |= strcmp(e->d_name, name) == 0;
	closedir(d);
	return found;
}

// statField is the state letter and fields ppid and pgrp of /proc/PID/stat.
static void statFields(pid_t pid, char *state, int *ppid, int *pgrp, char *comm) {
	char b[4096];
	*state = '?', *ppid = *pgrp = -1, comm[0] = 0;
	if (slurp(procPath(pid, "stat"), b, sizeof b) < 0)
		return;
	char *open = strchr(b, '('), *close = strrchr(b, ')');
	if (!open || !close)
		return;
	snprintf(comm, 32, "%.*s", (int)(close - open - 1), open + 1);
	sscanf(close + 2, "%c %d %d", state, ppid, pgrp);
}

// statusLine is the value of /proc/PID/status's line key (in one of
// eight buffers, so that a printf may take several).
static const char *statusLine(pid_t pid, const char *key) {
	static char b[8192], vs[8][128];
	static int next;
	char *v = vs[next++ % 8];
	if (slurp(procPath(pid, "status"), b, sizeof b) < 0)
		return strerrorname_np(errno);
	size_t n = strlen(key);
	for (char *l = b; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, n) == 0 && l[n] == ':') {
			char *s = l + n + 1;
			while (*s == '\t' || *s == ' ')
				s++;
			snprintf(v, 128, "%.*s", (int)strcspn(s, "\n"), s);
			return v;
		}
	}
	return "(none)";
}

// settle waits until process pid has gone to sleep (at most a second).
static void settle(pid_t pid) {
	char state, comm[32];
	int ppid, pgrp;
	for (int i = 0; i < 1000; i++) {
		statFields(pid, &state, &ppid, &pgrp, comm);
		if (state != 'R')
			return;
		usleep(1000);
	}
}

static void describe(const char *who, pid_t pid) {
	char state, comm[32];
	int ppid, pgrp;
	char pidName[16];
	snprintf(pidName, sizeof pidName, "%d", pid);
	statFields(pid, &state, &ppid, &pgrp, comm);
	printf("%s: listed in /proc %d, stat: comm (%s) state %c, ppid is us %d, our group %d\n", who,
	       listed("/proc", pidName), comm, state, ppid == getpid(), pgrp == getpgrp());
	printf("%s: status: Name %s, State %s, PPid is us %d, Tgid is its pid %d, Threads %s\n", who,
	       statusLine(pid, "Name"), statusLine(pid, "State"), atoi(statusLine(pid, "PPid")) == getpid(),
	       atoi(statusLine(pid, "Tgid")) == pid, statusLine(pid, "Threads"));
	char b[4096];
	long n = slurp(procPath(pid, "cmdline"), b, sizeof b);
	printf("%s: cmdline:", who);
	int args = 0;
	for (long i = 0; i < n; args++) { // every argument but the program's path
		if (i > 0)
			printf(" %s", b + i);
		i += strlen(b + i) + 1;
	}
	printf(" (%d arguments%s)\n", args, n < 0 ? ", error" : "");
	n = slurp(procPath(pid, "comm"), b, sizeof b);
	printf("%s: comm %.*s\n", who, (int)strcspn(b, "\n"), n < 0 ? strerrorname_np(errno) : b);
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 3 && strcmp(argv[1], "exec-child") == 0) { // a program run by a child: says so, then waits
		write(atoi(argv[2]), "e", 1);
		char c;
		read(atoi(argv[3]), &c, 1);
		return 0;
	}
	int go[2], ready[2];
	if (pipe(go) != 0 || pipe(ready) != 0)
		return 1;

	pid_t waiter = fork();
	if (waiter == 0) {
		char c;
		read(go[0], &c, 1);
		_exit(0);
	}
	settle(waiter);
	describe("waiting child", waiter);
	char self[256], other[256];
	ssize_t sn = readlink("/proc/self/exe", self, sizeof self - 1);
	ssize_t on = readlink(procPath(waiter, "exe"), other, sizeof other - 1);
	printf("waiting child: exe is ours %d\n", sn > 0 && sn == on && memcmp(self, other, sn) == 0);
	char fdName[16], waiterName[16], fdDir[128], taskDir[128];
	snprintf(fdName, sizeof fdName, "%d", go[0]);
	snprintf(waiterName, sizeof waiterName, "%d", waiter);
	snprintf(fdDir, sizeof fdDir, "%s", procPath(waiter, "fd"));
	snprintf(taskDir, sizeof taskDir, "%s", procPath(waiter, "task"));
	printf("waiting child: fd lists the pipe %d, task lists it %d\n", listed(fdDir, fdName), listed(taskDir, waiterName));
	char fdPath[64];
	snprintf(fdPath, sizeof fdPath, "fd/%d", go[0]);
	sn = readlink(procPath(getpid(), fdPath), self, sizeof self - 1); // (procPath's buffer is used at once)
	on = readlink(procPath(waiter, fdPath), other, sizeof other - 1);
	printf("waiting child: the pipe's link is ours %d\n", sn > 0 && sn == on && memcmp(self, other, sn) == 0);
	char env1[8192], env2[8192];
	long e1 = slurp("/proc/self/environ", env1, sizeof env1), e2 = slurp(procPath(waiter, "environ"), env2, sizeof env2);
	printf("waiting child: environ is ours %d\n", e1 >= 0 && e1 == e2 && memcmp(env1, env2, e1) == 0);

	pid_t spinner = fork();
	if (spinner == 0) {
		for (volatile unsigned long i = 0;; i++)
			;
	}
	for (int i = 0; i < 3; i++) // let it run
		sched_yield();
	describe("computing child", spinner);

	pid_t runner = fork();
	if (runner == 0) {
		char w[16], r[16];
		snprintf(w, sizeof w, "%d", ready[1]);
		snprintf(r, sizeof r, "%d", go[0]);
		execl("/proc/self/exe", argv[0], "exec-child", w, r, (char *)NULL);
		_exit(127);
	}
	char c;
	read(ready[0], &c, 1); // it has run the program
	settle(runner);
	describe("child that ran a program", runner);

	write(go[1], "xx", 2); // the waiter and the program end
	siginfo_t si;
	waitid(P_PID, waiter, &si, WEXITED | WNOWAIT);
	describe("zombie", waiter);
	printf("zombie: exe %s\n", readlink(procPath(waiter, "exe"), other, sizeof other) < 0 ? strerrorname_np(errno) : "a link");
	waitpid(waiter, NULL, 0);
	long r = slurp(procPath(waiter, "stat"), env1, sizeof env1);
	printf("reaped: stat %s, listed %d\n", r < 0 ? strerrorname_np(errno) : "opened", listed("/proc", waiterName));
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	waitpid(runner, NULL, 0);
	pid_t asker = fork();
	if (asker == 0) { // a child's view: itself running, its parent waiting for it
		char state, comm[32];
		int ppid, pgrp;
		statFields(getpid(), &state, &ppid, &pgrp, comm);
		char own = state;
		settle(getppid());
		statFields(getppid(), &state, &ppid, &pgrp, comm);
		printf("a child sees itself %c, its waiting parent %c (%s)\n", own, state, statusLine(getppid(), "State"));
		_exit(0);
	}
	waitpid(asker, NULL, 0);
	printf("our own: ");
	describe("self", getpid());
	return 0;
}
