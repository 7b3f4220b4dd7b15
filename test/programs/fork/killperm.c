// killperm.c: who may signal whom (check_kill_permission). A child that
// gave up root may not signal its root parent (kill and pidfd_send_signal,
// signal 0 included) but may send it SIGCONT, being in its session; it
// may signal a sibling of its own uid; a group with a member it may
// signal takes the signal, one with none refuses it; kill(-1) ignores the
// refusals. Root without CAP_KILL may signal only processes whose real or
// saved uid is its own. Only signal 0, SIGCONT and SIGUSR1 to the
// program's own processes are sent. Its output is the host's (Linux 6.18,
// x86-64, as root).
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static void show(const char *what, long r) { printf("%s: %s\n", what, result(r)); }

static volatile sig_atomic_t got;
static void on_usr1(int sig) { got = sig; }

static void drop_kill(void) {
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	syscall(SYS_capget, &h, d);
	d[0].effective &= ~(1u << CAP_KILL);
	show("capset without CAP_KILL", syscall(SYS_capset, &h, d));
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGUSR1, on_usr1);
	pid_t parent = getpid();
	int ready[2], done[2];
	pipe(ready);
	pipe(done);
	// A sibling of uid 1000 that waits until told to go.
	pid_t sib = fork();
	if (sib == 0) {
		setresuid(1000, 1000, 1000);
		signal(SIGUSR1, on_usr1);
		char c;
		write(ready[1], "s", 1);
		read(done[0], &c, 1);
		printf("sibling got SIGUSR1: %d\n", got == SIGUSR1);
		_exit(0);
	}
	char c;
	read(ready[0], &c, 1);

	pid_t child = fork();
	if (child == 0) {
		show("setresuid(1000, 1000, 1000)", setresuid(1000, 1000, 1000));
		show("kill(parent, 0)", kill(parent, 0));
		show("kill(parent, SIGUSR1)", kill(parent, SIGUSR1));
		show("kill(parent, SIGCONT) (same session)", kill(parent, SIGCONT));
		int pfd = syscall(SYS_pidfd_open, parent, 0);
		show("pidfd_send_signal(parent, 0)", syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0));
		show("kill(sibling, SIGUSR1)", kill(sib, SIGUSR1));
		show("kill(-1, 0) (refusals ignored)", kill(-1, 0));
		show("kill(0, 0) (its group, itself in it)", kill(0, 0));
		show("setpgid(0, 0)", setpgid(0, 0));
		show("kill(-parent's group, 0)", kill(-getpgid(parent), 0));
		_exit(0);
	}
	waitpid(child, NULL, 0);
	printf("parent got SIGUSR1: %d\n", got == SIGUSR1);

	pid_t root2 = fork();
	if (root2 == 0) {
		drop_kill();
		show("root without CAP_KILL: kill(sibling of uid 1000, 0)", kill(sib, 0));
		show("root without CAP_KILL: kill(sibling, SIGCONT) (same session)", kill(sib, SIGCONT));
		show("root without CAP_KILL: kill(parent, 0)", kill(parent, 0));
		_exit(0);
	}
	waitpid(root2, NULL, 0);
	write(done[1], "d", 1);
	waitpid(sib, NULL, 0);
	return 0;
}
