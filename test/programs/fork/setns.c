/* setns(2) on a pidfd, for the namespaces every kernel rvsim answers as
 * has (mount and cgroup): the parent, in a mount namespace of its own
 * made private, joins a child's namespace made shared and sees its
 * propagation; joining moves the working directory and root to the
 * namespace's root (also out of a chroot); and the refusals: a
 * descriptor that is not a pidfd, no flags, a thread sharing the root, a
 * reaped child, an unprivileged caller. Run as root; the output must
 * equal the host's. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static int pidfd(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

// propagation is "shared" or "private": the optional fields of the
// mountinfo line of "/".
static const char *propagation(void) {
	static char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	const char *what = "no line for /";
	while (f && fgets(line, sizeof line, f)) {
		char point[1024];
		if (sscanf(line, "%*d %*d %*s %*s %1023s", point) == 1 && strcmp(point, "/") == 0) {
			char *dash = strstr(line, " - ");
			if (dash)
				*dash = 0;
			what = strstr(line, "shared:") ? "shared" : strstr(line, "master:") ? "slave" : "private";
		}
	}
	if (f)
		fclose(f);
	return what;
}

static void cwd(const char *what) {
	char b[4096];
	const char *s = getcwd(b, sizeof b);
	printf("%s: %s\n", what, !s ? result(-1) : strcmp(b, "/") == 0 ? "/" : "a directory below /");
}

static void *sleeper(void *arg) {
	(void)arg;
	pause();
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	// Everything below happens in mount namespaces of the test's own.
	printf("unshare(CLONE_NEWNS): %s\n", result(unshare(CLONE_NEWNS)));
	printf("make / private: %s, now %s\n", result(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)), propagation());

	int ready[2], done[2];
	pipe(ready), pipe(done);
	pid_t child = fork();
	if (child == 0) {
		char c;
		unshare(CLONE_NEWNS);
		mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL);
		write(ready[1], "x", 1);
		read(done[0], &c, 1);
		_exit(0);
	}
	char c;
	read(ready[0], &c, 1);
	int fd = pidfd(child);

	int p[2];
	pipe(p);
	printf("setns on a pipe: %s\n", result(setns(p[0], CLONE_NEWNS)));
	printf("setns on a closed descriptor: %s\n", result(setns(100, CLONE_NEWNS)));
	printf("setns with no flags: %s\n", result(setns(fd, 0)));
	printf("setns with an unknown flag: %s\n", result(setns(fd, CLONE_NEWNS | CLONE_VM)));

	pthread_t t;
	pthread_create(&t, NULL, sleeper, NULL);
	printf("a thread shares the root: %s\n", result(setns(fd, CLONE_NEWNS)));
	if (fork() == 0) {
		setuid(65534);
		printf("as nobody: %s\n", result(setns(fd, CLONE_NEWNS)));
		_exit(0);
	}
	wait(NULL);
	if (fork() == 0) {
		// one thread; in a chroot below a working directory of its own
		mkdir("setns-jail", 0755);
		chdir("setns-jail");
		chroot(".");
		cwd("in a chroot, getcwd");
		printf("setns(pidfd, CLONE_NEWCGROUP): %s\n", result(setns(fd, CLONE_NEWCGROUP)));
		printf("setns(pidfd, CLONE_NEWNS): %s\n", result(setns(fd, CLONE_NEWNS)));
		printf("  the child's propagation: %s\n", propagation());
		cwd("  getcwd");
		struct stat st;
		printf("  out of the chroot: %s\n", stat("/proc/self/mountinfo", &st) == 0 && stat("/bin", &st) == 0 ? "yes" : "no");
		_exit(0);
	}
	wait(NULL);
	printf("the parent's own, still: %s\n", propagation());
	rmdir("setns-jail");

	write(done[1], "x", 1);
	waitpid(child, NULL, 0);
	printf("setns on a reaped child: %s\n", result(setns(fd, CLONE_NEWNS)));
	return 0;
}
