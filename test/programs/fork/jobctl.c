// jobctl.c: job control's stop and continue (SIGSTOP, SIGTSTP, SIGCONT):
// a stopped child does not run, not even its other threads; its parent
// learns of the stop and the continuation through wait4's WUNTRACED and
// WCONTINUED, waitid's WSTOPPED and WCONTINUED (WNOWAIT too) and SIGCHLD
// (CLD_STOPPED, CLD_CONTINUED; none with SA_NOCLDSTOP); /proc shows it
// as T; SIGCONT discards pending stop signals; a handled SIGTSTP does not
// stop; SIGTSTP to an orphaned process group is discarded, SIGSTOP is not;
// SIGKILL ends a stopped child; a child may stop itself. Its output is
// the host's.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/waitstatus.h"

static volatile unsigned long *counters; // shared with the children: one per thread

static volatile int chldCount, chldCode, chldStatus;
static void onChld(int sig, siginfo_t *si, void *ctx) {
	(void)sig, (void)ctx;
	chldCount++;
	chldCode = si->si_code;
	chldStatus = si->si_status;
}

static const char *codeName(int c) {
	switch (c) {
	case CLD_EXITED:
		return "CLD_EXITED";
	case CLD_KILLED:
		return "CLD_KILLED";
	case CLD_STOPPED:
		return "CLD_STOPPED";
	case CLD_CONTINUED:
		return "CLD_CONTINUED";
	}
	return "other";
}

static char procState(pid_t pid) {
	char path[64], b[512];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return '?';
	size_t n = fread(b, 1, sizeof b - 1, f);
	fclose(f);
	b[n] = 0;
	char *p = strrchr(b, ')');
	return p ? p[2] : '?';
}

static void *spin(void *arg) {
	int i = (int)(long)arg;
	for (;;)
		counters[i]++;
	return NULL;
}

// moves reports whether counter i changes within a second.
static int moves(int i) {
	unsigned long c = counters[i];
	for (int t = 0; t < 1000; t++) {
		usleep(1000);
		if (counters[i] != c)
			return 1;
	}
	return 0;
}

// still reports whether counter i stays as it is for 50 ms.
static int still(int i) {
	unsigned long c = counters[i];
	usleep(50000);
	return counters[i] == c;
}

static void stopContinue(void) {
	pid_t child = fork();
	if (child == 0) {
		pthread_t t;
		pthread_create(&t, NULL, spin, (void *)1L);
		spin((void *)0L);
	}
	printf("running: main thread %d, second thread %d\n", moves(0), moves(1));
	chldCount = 0;
	kill(child, SIGSTOP);
	int st;
	pid_t r = waitpid(child, &st, WUNTRACED);
	printf("SIGSTOP: waitpid %d, %s; SIGCHLD %d %s status %d; /proc state %c\n", r == child, waitStatus(st), chldCount,
	       codeName(chldCode), chldStatus, procState(child));
	printf("stopped: main thread still %d, second thread still %d\n", still(0), still(1));
	printf("WUNTRACED|WNOHANG again: %d\n", waitpid(child, &st, WUNTRACED | WNOHANG));
	chldCount = 0;
	kill(child, SIGCONT);
	r = waitpid(child, &st, WCONTINUED);
	printf("SIGCONT: waitpid %d, %s\n", r == child, waitStatus(st));
	printf("continued: main thread %d, second thread %d, /proc state %c\n", moves(0), moves(1), procState(child));
	printf("SIGCHLD %d %s status %d\n", chldCount, codeName(chldCode), chldStatus); // (the child sends it when it runs)

	kill(child, SIGTSTP);
	siginfo_t si;
	memset(&si, 0, sizeof si);
	r = waitid(P_PID, child, &si, WSTOPPED | WNOWAIT);
	printf("SIGTSTP: waitid WNOWAIT %ld, %s status %d\n", (long)r, codeName(si.si_code), si.si_status);
	memset(&si, 0, sizeof si);
	r = waitid(P_PID, child, &si, WSTOPPED);
	printf("again: waitid %ld, %s status %d, pid %d\n", (long)r, codeName(si.si_code), si.si_status, si.si_pid == child);
	memset(&si, 0, sizeof si);
	r = waitid(P_PID, child, &si, WSTOPPED | WNOHANG);
	printf("consumed: waitid %ld, si_pid %d\n", (long)r, si.si_pid);
	kill(child, SIGKILL);
	r = waitpid(child, &st, 0);
	printf("SIGKILL to the stopped child: %s\n", waitStatus(st));
}

static void noCldStop(void) {
	struct sigaction sa = {.sa_sigaction = onChld, .sa_flags = SA_SIGINFO | SA_RESTART | SA_NOCLDSTOP};
	sigaction(SIGCHLD, &sa, NULL);
	pid_t child = fork();
	if (child == 0)
		spin((void *)0L);
	chldCount = 0;
	kill(child, SIGSTOP);
	int st;
	waitpid(child, &st, WUNTRACED);
	kill(child, SIGCONT);
	waitpid(child, &st, WCONTINUED);
	printf("SA_NOCLDSTOP: %d SIGCHLD for a stop and a continuation, last %s\n", chldCount, waitStatus(st));
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
}

static volatile int tstps;
static void onTstp(int sig) { (void)sig, tstps++; }

static void handled(void) {
	int p[2];
	if (pipe(p) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		signal(SIGTSTP, onTstp);
		write(p[1], "r", 1);
		while (tstps == 0)
			usleep(1000);
		_exit(40 + tstps);
	}
	char c;
	read(p[0], &c, 1);
	kill(child, SIGTSTP);
	int st;
	waitpid(child, &st, WUNTRACED);
	printf("a handled SIGTSTP: %s\n", waitStatus(st));
	close(p[0]), close(p[1]);
}

// discarded: SIGCONT discards a pending (blocked) stop signal.
static void discarded(void) {
	int ready[2], go[2];
	if (pipe(ready) != 0 || pipe(go) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, SIGTSTP);
		sigprocmask(SIG_BLOCK, &s, NULL);
		write(ready[1], "r", 1);
		char c;
		read(go[0], &c, 1);
		sigpending(&s);
		int pending = sigismember(&s, SIGTSTP);
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		_exit(pending ? 1 : 2);
	}
	char c;
	read(ready[0], &c, 1);
	kill(child, SIGTSTP);
	kill(child, SIGCONT);
	write(go[1], "g", 1);
	int st;
	waitpid(child, &st, WUNTRACED);
	printf("SIGTSTP then SIGCONT while blocked: %s (2: the stop was discarded)\n", waitStatus(st));

	child = fork();
	if (child == 0) {
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, SIGTSTP);
		sigprocmask(SIG_BLOCK, &s, NULL);
		write(ready[1], "r", 1);
		char c;
		read(go[0], &c, 1);
		sigprocmask(SIG_UNBLOCK, &s, NULL); // it stops here
		_exit(3);
	}
	read(ready[0], &c, 1);
	kill(child, SIGTSTP);
	write(go[1], "g", 1);
	waitpid(child, &st, WUNTRACED);
	printf("SIGTSTP taken when unblocked: %s\n", waitStatus(st));
	kill(child, SIGCONT);
	waitpid(child, &st, 0);
	printf("then: %s\n", waitStatus(st));
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

static void orphaned(void) {
	int ready[2];
	if (pipe(ready) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		setsid(); // its group has no parent in another group of its session: orphaned
		write(ready[1], "r", 1);
		spin((void *)0L);
	}
	char c;
	read(ready[0], &c, 1);
	kill(child, SIGTSTP);
	int st;
	pid_t r = waitpid(child, &st, WUNTRACED | WNOHANG);
	printf("SIGTSTP to an orphaned group: stopped %d, still running %d\n", r == child, moves(0));
	kill(child, SIGSTOP);
	waitpid(child, &st, WUNTRACED);
	printf("SIGSTOP to it: %s\n", waitStatus(st));
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	close(ready[0]), close(ready[1]);
}

static void selfStop(void) {
	pid_t child = fork();
	if (child == 0) {
		raise(SIGSTOP);
		_exit(9);
	}
	int st;
	waitpid(child, &st, WUNTRACED);
	printf("raise(SIGSTOP): %s\n", waitStatus(st));
	kill(child, SIGCONT);
	waitpid(child, &st, 0);
	printf("continued, then: %s\n", waitStatus(st));
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && strcmp(argv[1], "stuck") == 0) { // the run's only process stops: nothing can continue it
		raise(SIGSTOP);
		puts("continued");
		return 0;
	}
	counters = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa = {.sa_sigaction = onChld, .sa_flags = SA_SIGINFO | SA_RESTART};
	sigaction(SIGCHLD, &sa, NULL);
	stopContinue();
	noCldStop();
	handled();
	discarded();
	orphaned();
	selfStop();
	return 0;
}
