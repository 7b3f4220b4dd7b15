// schedattr.c: sched_setattr and sched_getattr. The struct's sizes (0
// taken as the first version's, too small or with non-zero bytes past
// the kernel's struct: E2BIG and the kernel's size written back), the
// argument checks, the nice value and real-time priority through both
// calls and the older ones, the KEEP_POLICY and KEEP_PARAMS flags,
// reset-on-fork (a child's policy and nice value), SCHED_DEADLINE's
// parameter checks, its parameters read back, a deadline task's fork
// (EAGAIN) and thread, the utilization clamps (a kernel without
// CONFIG_UCLAMP_TASK: EOPNOTSUPP), and the unprivileged rules after
// setuid. Its output is the host's (Linux 6.18, x86-64, as root).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
	uint8_t extra[8]; // past the kernel's struct
};

static long setattr(pid_t pid, struct attr *a, unsigned flags) {
	return syscall(SYS_sched_setattr, pid, a, flags);
}
static long getattr(pid_t pid, struct attr *a, unsigned size, unsigned flags) {
	return syscall(SYS_sched_getattr, pid, a, size, flags);
}

static void show(const char *what, long r) { printf("%s: %s\n", what, result(r)); }

static uint64_t base_slice; // a fair task's slice (the host's depends on its CPUs)

static void showattr(const char *what, pid_t pid) {
	struct attr a;
	memset(&a, 0xee, sizeof a);
	long r = getattr(pid, &a, 56, 0);
	if (r < 0) {
		show(what, r);
		return;
	}
	char rt[32];
	if (a.runtime == base_slice && base_slice != 0)
		snprintf(rt, sizeof rt, "base");
	else
		snprintf(rt, sizeof rt, "%llu", (unsigned long long)a.runtime);
	printf("%s: size %u policy %u flags %#llx nice %d prio %u rt %s dl %llu period %llu util %u %u; "
	       "getscheduler %#x, getpriority %d\n",
	       what, a.size, a.policy, (unsigned long long)a.flags, a.nice, a.priority, rt,
	       (unsigned long long)a.deadline, (unsigned long long)a.period, a.util_min, a.util_max,
	       (unsigned)sched_getscheduler(pid), getpriority(PRIO_PROCESS, pid));
}

static struct attr make(uint32_t policy, uint64_t flags, int32_t nice, uint32_t prio) {
	struct attr a;
	memset(&a, 0, sizeof a);
	a.size = 48;
	a.policy = policy;
	a.flags = flags;
	a.nice = nice;
	a.priority = prio;
	return a;
}

static void *thread_main(void *arg) {
	(void)arg;
	showattr("  in the deadline task's thread", 0);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	struct attr a;
	if (getattr(0, &a, 56, 0) == 0)
		base_slice = a.runtime;
	printf("base slice between 0.7 and 2.8 ms: %d\n", base_slice >= 700000 && base_slice <= 2800000);
	showattr("initial", 0);

	// getattr's checks.
	show("getattr NULL", getattr(0, NULL, 56, 0));
	show("getattr pid -1", getattr(-1, &a, 56, 0));
	show("getattr size 47", getattr(0, &a, 47, 0));
	show("getattr size 4097", getattr(0, &a, 4097, 0));
	show("getattr flags 1", getattr(0, &a, 56, 1));
	show("getattr pid 99999", getattr(99999, &a, 56, 0));
	memset(&a, 0xee, sizeof a);
	show("getattr size 48", getattr(0, &a, 48, 0));
	printf("  size %u, util_min untouched %d\n", a.size, a.util_min == 0xeeeeeeee);
	memset(&a, 0xee, sizeof a);
	show("getattr size 64", getattr(0, &a, 64, 0));
	printf("  size %u, extra untouched %d\n", a.size, a.extra[0] == 0xee);

	// setattr's sizes and checks.
	a = make(SCHED_OTHER, 0, 3, 0);
	a.size = 0;
	show("setattr size 0 (VER0), nice 3", setattr(0, &a, 0));
	showattr("  after", 0);
	a = make(SCHED_OTHER, 0, 0, 0);
	a.size = 47;
	show("setattr size 47", setattr(0, &a, 0));
	printf("  size written back: %u\n", a.size);
	a = make(SCHED_OTHER, 0, 0, 0);
	a.size = 64;
	a.extra[3] = 1;
	show("setattr size 64, non-zero tail", setattr(0, &a, 0));
	printf("  size written back: %u\n", a.size);
	a = make(SCHED_OTHER, 0, 4, 0);
	a.size = 64;
	show("setattr size 64, zero tail, nice 4", setattr(0, &a, 0));
	show("setattr NULL", setattr(0, NULL, 0));
	a = make(SCHED_OTHER, 0, 0, 0);
	show("setattr flags arg 1", setattr(0, &a, 1));
	show("setattr pid -1", setattr(-1, &a, 0));
	show("setattr pid 99999", setattr(99999, &a, 0));
	a = make(7, 0, 0, 0);
	show("setattr policy 7", setattr(0, &a, 0));
	a = make(-1, 0, 0, 0);
	show("setattr policy -1", setattr(0, &a, 0));
	a = make(SCHED_OTHER, 0x80, 0, 0);
	show("setattr sched_flags 0x80", setattr(0, &a, 0));
	a = make(SCHED_OTHER, 0, 0, 5);
	show("setattr OTHER prio 5", setattr(0, &a, 0));
	a = make(SCHED_FIFO, 0, 0, 0);
	show("setattr FIFO prio 0", setattr(0, &a, 0));
	a = make(SCHED_FIFO, 0, 0, 100);
	show("setattr FIFO prio 100", setattr(0, &a, 0));
	a = make(SCHED_OTHER, 0, -40, 0);
	show("setattr nice -40 (clamped)", setattr(0, &a, 0));
	showattr("  after", 0);
	a = make(SCHED_BATCH, 0, 19, 0);
	show("setattr BATCH nice 19", setattr(0, &a, 0));
	showattr("  after", 0);

	// A fair task's own slice: clamped, inherited, kept by
	// sched_setscheduler, dropped by a runtime of 0.
	a = make(SCHED_OTHER, 0, 0, 0);
	a.runtime = 5000000;
	show("setattr OTHER runtime 5 ms", setattr(0, &a, 0));
	showattr("  after", 0);
	pid_t pid = fork();
	if (pid == 0) {
		showattr("  child", 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	a.runtime = 50;
	show("setattr runtime 50 ns", setattr(0, &a, 0));
	showattr("  after", 0);
	a.runtime = 500000000;
	show("setattr runtime 500 ms", setattr(0, &a, 0));
	showattr("  after", 0);
	show("sched_setscheduler BATCH", sched_setscheduler(0, SCHED_BATCH, &(struct sched_param){0}));
	showattr("  after", 0);
	a = make(SCHED_OTHER, 0x10, 0, 0);
	show("setattr OTHER with KEEP_PARAMS", setattr(0, &a, 0));
	showattr("  after", 0);
	a = make(SCHED_FIFO, 0x10, 0, 0);
	show("setattr FIFO with KEEP_PARAMS", setattr(0, &a, 0));
	a = make(SCHED_OTHER, 0, 0, 0);
	show("setattr OTHER runtime 0", setattr(0, &a, 0));
	showattr("  after", 0);

	// The utilization clamps.
	a = make(SCHED_OTHER, 0x20, 0, 0);
	show("setattr UTIL_CLAMP_MIN, size 48", setattr(0, &a, 0));
	a.size = 56;
	a.util_min = 100;
	show("setattr UTIL_CLAMP_MIN, size 56", setattr(0, &a, 0));

	// Real-time, the flags that keep, reset-on-fork.
	a = make(SCHED_FIFO, 0, 0, 10);
	show("setattr FIFO 10", setattr(0, &a, 0));
	showattr("  after", 0);
	a = make(SCHED_RR, 0x08, 0, 20);
	show("setattr KEEP_POLICY, prio 20", setattr(0, &a, 0));
	showattr("  after", 0);
	a = make(SCHED_OTHER, 0x01 | 0x08 | 0x10, 0, 0);
	show("setattr RESET_ON_FORK | KEEP_POLICY | KEEP_PARAMS", setattr(0, &a, 0));
	showattr("  after", 0);
	struct sched_param sp = {.sched_priority = 30};
	show("sched_setparam 30", sched_setparam(0, &sp));
	showattr("  after", 0);
	a = make(SCHED_OTHER, 0x01 | 0x08 | 0x10, 0, 0);
	show("setattr RESET_ON_FORK | KEEP_PARAMS", setattr(0, &a, 0));
	a = make(SCHED_OTHER, 0x01 | 0x10, 0, 0);
	show("setattr OTHER, RESET_ON_FORK | KEEP_PARAMS", setattr(0, &a, 0));
	showattr("  after", 0);
	show("sched_setscheduler FIFO|RESET_ON_FORK 30", sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp));
	showattr("  after", 0);
	pid = fork();
	if (pid == 0) {
		showattr("  child of the reset-on-fork task", 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	a = make(SCHED_OTHER, 0x01, -5, 0);
	show("setattr OTHER nice -5, RESET_ON_FORK", setattr(0, &a, 0));
	showattr("  after", 0);
	pid = fork();
	if (pid == 0) {
		showattr("  child (nice back to 0)", 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	a = make(SCHED_OTHER, 0, 0, 0);
	show("setattr OTHER nice 0, no reset", setattr(0, &a, 0));

	// SCHED_DEADLINE.
	struct attr d = make(SCHED_DEADLINE, 0, 0, 0);
	d.runtime = 512, d.deadline = 1000000, d.period = 1000000;
	show("deadline runtime 512", setattr(0, &d, 0));
	d.runtime = 2000000, d.deadline = 1000000, d.period = 1000000;
	show("deadline runtime > deadline", setattr(0, &d, 0));
	d.runtime = 10000, d.deadline = 30000, d.period = 20000;
	show("deadline period < deadline", setattr(0, &d, 0));
	d.runtime = 10000, d.deadline = 50000, d.period = 0;
	show("deadline period 0, deadline 50us", setattr(0, &d, 0));
	d.runtime = 10000, d.deadline = 0, d.period = 0;
	show("deadline deadline 0", setattr(0, &d, 0));
	d.runtime = 10000000, d.deadline = 30000000, d.period = 5000000000ULL;
	show("deadline period 5s", setattr(0, &d, 0));
	d.runtime = 10000000, d.deadline = 30000000, d.period = 100000000;
	d.priority = 1;
	show("deadline prio 1", setattr(0, &d, 0));
	d.priority = 0;
	show("sched_setscheduler DEADLINE", sched_setscheduler(0, SCHED_DEADLINE, &(struct sched_param){0}));
	show("deadline 10ms/30ms/100ms", setattr(0, &d, 0));
	showattr("  after", 0);
	show("  sched_getparam", sched_getparam(0, &sp));
	printf("  priority %d\n", sp.sched_priority);
	pid = fork();
	if (pid == 0)
		_exit(0);
	show("  fork", pid < 0 ? -1 : 0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	pthread_t th;
	errno = pthread_create(&th, NULL, thread_main, NULL);
	show("  pthread_create", errno ? -1 : 0);
	d.flags = 0x01;
	show("deadline with RESET_ON_FORK", setattr(0, &d, 0));
	pid = fork();
	if (pid == 0) {
		showattr("  child of the deadline task", 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	errno = pthread_create(&th, NULL, thread_main, NULL);
	show("  pthread_create", errno ? -1 : 0);
	if (errno == 0)
		pthread_join(th, NULL);
	a = make(SCHED_OTHER, 0, 0, 0);
	show("back to OTHER", setattr(0, &a, 0));
	showattr("  after", 0);

	// Another process's nice value (PRIO_PROCESS by its pid): the
	// parent raises and lowers its child's, which reads it back.
	int go[2];
	pipe(go);
	pid = fork();
	if (pid == 0) {
		char c;
		read(go[0], &c, 1);
		printf("  the child reads its nice value: %d\n", getpriority(PRIO_PROCESS, 0));
		_exit(0);
	}
	show("setpriority of the child, 7", setpriority(PRIO_PROCESS, pid, 7));
	printf("  getpriority of the child: %d\n", getpriority(PRIO_PROCESS, pid));
	show("setpriority of the child, 3 (lower: privileged)", setpriority(PRIO_PROCESS, pid, 3));
	write(go[1], "", 1);
	waitpid(pid, NULL, 0);
	show("setpriority of a reaped child", setpriority(PRIO_PROCESS, pid, 3));

	// Without privilege.
	pid = fork();
	if (pid == 0) {
		if (setuid(65534) != 0)
			perror("setuid");
		printf("unprivileged getpriority of the parent: %d\n", getpriority(PRIO_PROCESS, getppid()));
		show("unprivileged setpriority of the parent, 1", setpriority(PRIO_PROCESS, getppid(), 1));
		a = make(SCHED_OTHER, 0, 5, 0);
		show("unprivileged nice 5", setattr(0, &a, 0));
		a = make(SCHED_OTHER, 0, 2, 0);
		show("unprivileged nice 2", setattr(0, &a, 0));
		a = make(SCHED_FIFO, 0, 0, 1);
		show("unprivileged FIFO 1", setattr(0, &a, 0));
		show("unprivileged setscheduler FIFO", sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){1}));
		show("unprivileged setpriority 1", setpriority(PRIO_PROCESS, 0, 1));
		a = make(SCHED_IDLE, 0, 5, 0);
		show("unprivileged IDLE", setattr(0, &a, 0));
		a = make(SCHED_OTHER, 0, 5, 0);
		show("unprivileged IDLE -> OTHER", setattr(0, &a, 0));
		d.flags = 0;
		show("unprivileged deadline", setattr(0, &d, 0));
		a = make(SCHED_IDLE, 0x01, 5, 0);
		show("unprivileged IDLE with RESET_ON_FORK", setattr(0, &a, 0));
		a = make(SCHED_IDLE, 0, 5, 0);
		show("unprivileged reset flag cleared", setattr(0, &a, 0));
		showattr("  after", 0);
		a = make(SCHED_OTHER, 0, 0, 0);
		show("unprivileged, another user's process (the parent's)", setattr(getppid(), &a, 0));
		show("unprivileged setscheduler, the parent's", sched_setscheduler(getppid(), SCHED_OTHER, &(struct sched_param){0}));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	return 0;
}
