/* A thread waits for a child in waitpid or waitid while the process's
 * main thread goes on (as asyncio's child watcher thread does beside its
 * event loop): the main thread kills a child that sleeps for an hour, and
 * spins until the thread has reaped a child that computes, then ends.
 * The output must equal the host's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/monotonic.h"

static pid_t child;
static atomic_int reaped;
static int status;
static int use_waitid;

static void *watch(void *arg) {
	(void)arg;
	if (use_waitid) {
		siginfo_t si;
		waitid(P_PID, child, &si, WEXITED);
		status = si.si_code == CLD_KILLED ? si.si_status : 1000 + si.si_status;
	} else {
		waitpid(child, &status, 0);
	}
	atomic_store(&reaped, 1);
	return NULL;
}

static void describe(const char *what) {
	if (use_waitid)
		printf("%s: %s %d\n", what, status >= 1000 ? "exited with" : "killed by signal", status % 1000);
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf("%s: exited with %d\n", what, WEXITSTATUS(status));
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	for (use_waitid = 0; use_waitid < 2; use_waitid++) {
		const char *call = use_waitid ? "waitid" : "waitpid";
		double t0 = now();
		child = fork();
		if (child == 0) {
			sleep(3600);
			_exit(1);
		}
		atomic_store(&reaped, 0);
		pthread_t th;
		pthread_create(&th, NULL, watch, NULL);
		usleep(20000);
		printf("%s in a thread, the main thread goes on: reaped before the kill: %s\n", call, atomic_load(&reaped) ? "yes" : "no");
		kill(child, SIGKILL);
		pthread_join(th, NULL);
		describe("  the sleeper");
		printf("  within a second: %s\n", now() - t0 < 1 ? "yes" : "no");

		child = fork();
		if (child == 0) {
			volatile unsigned long x = 0;
			for (unsigned long i = 0; i < 300000; i++)
				x += i;
			_exit((int)(x & 0x3f));
		}
		atomic_store(&reaped, 0);
		pthread_create(&th, NULL, watch, NULL);
		unsigned long spins = 0;
		while (!atomic_load(&reaped))
			spins++;
		pthread_join(th, NULL);
		describe("  a child that computes, reaped while the main thread spins");
	}
	return 0;
}
