// creds: the set*id calls and what reports the ids (getres*id,
// getgroups, /proc/self/status, a child's SIGCHLD si_uid), as root and,
// after setreuid, unprivileged; each line is a call and its result.
// Run as root, as the tests do, the sequence drops to uid 1000; run
// unprivileged, the privileged calls fail with EPERM.
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/wait.h>
#include <unistd.h>

static void result(const char *what, int rc) {
	printf("%s: %s\n", what, rc == 0 ? "ok" : strerror(errno));
}

static void ids(void) {
	uid_t r, e, s;
	gid_t rg, eg, sg;
	getresuid(&r, &e, &s);
	getresgid(&rg, &eg, &sg);
	gid_t list[8];
	int n = getgroups(8, list);
	printf("  uids %u %u %u, gids %u %u %u, fsuid %d, %d groups:", r, e, s, rg, eg, sg, setfsuid(-1), n);
	for (int i = 0; i < n; i++)
		printf(" %u", list[i]);
	printf("\n");
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4) || !strncmp(line, "Groups:", 7))
			printf("  %s", line);
	if (f)
		fclose(f);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int root = geteuid() == 0;
	printf("root: %d\n", root);
	gid_t groups[] = {5, 6, 7};
	result("setgroups 5 6 7", setgroups(3, groups));
	printf("getgroups(0): %d\n", getgroups(0, NULL));
	gid_t small[1];
	result("getgroups into one slot", getgroups(1, small) < 0 && root ? -1 : 0);
	result("setresgid 100 101 102", setresgid(100, 101, 102));
	result("setregid -1 100", setregid(-1, 100));
	printf("setfsgid 3 returns %d, then %d\n", setfsgid(3), setfsgid(-1));
	result("setresuid -1 -1 -1", setresuid(-1, -1, -1));
	ids();
	result("setreuid 1000 1001", setreuid(1000, 1001));
	ids();
	result("setuid 0", setuid(0));
	result("setuid 1000", setuid(1000));
	result("setresuid -1 1001 -1", setresuid(-1, 1001, -1));
	result("setresuid 0 -1 -1", setresuid(0, -1, -1));
	result("setgroups", setgroups(0, NULL));
	result("setgid 0", setgid(0));
	printf("setfsuid 0 returns %d, then %d\n", setfsuid(0), setfsuid(-1));
	ids();
	pid_t pid = fork();
	if (pid == 0) {
		ids();
		_exit(3);
	}
	siginfo_t si;
	waitid(P_PID, pid, &si, WEXITED);
	printf("child's exit: status %d, si_uid %u\n", si.si_status, si.si_uid);
	return 0;
}
