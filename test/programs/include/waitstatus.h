// Shared by the process test programs (fork/): a wait status as a
// phrase that reads the same on every kernel.
#include <stdio.h>
#include <sys/wait.h>

// waitStatus describes wait status st: "exited N", "killed by N",
// "stopped by N", "continued" or its hex value.
static const char *waitStatus(int st) {
	static char b[64];
	if (WIFEXITED(st))
		snprintf(b, sizeof b, "exited %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(b, sizeof b, "killed by %d", WTERMSIG(st));
	else if (WIFSTOPPED(st))
		snprintf(b, sizeof b, "stopped by %d", WSTOPSIG(st));
	else if (WIFCONTINUED(st))
		snprintf(b, sizeof b, "continued");
	else
		snprintf(b, sizeof b, "%#x", st);
	return b;
}
