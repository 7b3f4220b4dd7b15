// timers: a child process's interval timer ends its waits, as in the
// parent: pause(), sigsuspend(), poll() with nothing to watch and
// waitpid() for a grandchild that waits for a signal, each
// ended by SIGALRM from setitimer while the parent waits for the child
// (the two processes waited for each other before, and the child was
// killed). Prints one line per stage.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static void onAlarm(int sig) { (void)sig; alarms++; }

static void arm(long us) {
	struct itimerval it = {{0, 0}, {0, us}}; // once
	setitimer(ITIMER_REAL, &it, NULL);
}

static void stage(const char *name, int which) {
	pid_t pid = fork();
	if (pid == 0) {
		struct sigaction sa = {0}; // no SA_RESTART (signal() would set it): waitpid ends
		sa.sa_handler = onAlarm;
		sigaction(SIGALRM, &sa, NULL);
		if (which != 3)
			arm(1000);
		int rc = 0;
		switch (which) {
		case 0:
			rc = pause();
			break;
		case 1: {
			sigset_t none;
			sigemptyset(&none);
			rc = sigsuspend(&none);
			break;
		}
		case 2:
			rc = poll(NULL, 0, -1);
			break;
		case 3: { // its own child waits for a signal that does not come
			pid_t g = fork();
			if (g == 0) {
				signal(SIGALRM, SIG_DFL);
				pause();
				_exit(9);
			}
			arm(100000); // after the fork, which may take longer than 1 ms
			rc = waitpid(g, NULL, 0);
			int e = errno;
			kill(g, SIGKILL);
			int st;
			waitpid(g, &st, 0);
			printf("%s: the grandchild killed by %d\n", name, WTERMSIG(st));
			errno = e;
			break;
		}
		}
		printf("%s: returned %d (%s), alarms %d\n", name, rc, strerror(errno), (int)alarms);
		_exit(alarms == 1 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("%s: child exited %d\n", name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	stage("pause", 0);
	stage("sigsuspend", 1);
	stage("poll", 2);
	stage("waitpid", 3);
	return 0;
}
