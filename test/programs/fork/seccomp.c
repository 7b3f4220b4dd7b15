// seccomp.c: seccomp's strict mode and BPF filters, each case in a child
// of its own (a filter cannot be taken back, and some kill): the checks of
// seccomp(2) and prctl(PR_SET_SECCOMP), every action (errno, trap with its
// siginfo, kill of the process and of one thread, trace without a tracer,
// log, allow), precedence between filters, a filter of arithmetic, jumps
// and scratch memory, filters on arguments, inheritance through fork,
// threads (TSYNC) and execve, /proc/self/status, and the calls the vDSO
// serves. Its output is the host's (Linux 6.18, x86-64, as root): nothing
// printed depends on the architecture. Written by hand.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__riscv)
#define ARCH AUDIT_ARCH_RISCV64
#elif defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#endif

#define NR offsetof(struct seccomp_data, nr)
#define ARCHOFF offsetof(struct seccomp_data, arch)
#define ARG0 offsetof(struct seccomp_data, args[0])
#define STMT(c, k) BPF_STMT(c, k)
#define JUMP(c, k, t, f) BPF_JUMP(c, k, t, f)

static long sc(unsigned op, unsigned flags, void *args) { return syscall(SYS_seccomp, op, flags, args); }

static void show(const char *what, long r) {
	if (r < 0)
		printf("%s: -1 (%s)\n", what, strerrorname_np(errno));
	else
		printf("%s: %ld\n", what, r);
}

// install puts a filter of n instructions in place.
static long install(struct sock_filter *f, unsigned short n, unsigned flags) {
	struct sock_fprog p = {n, f};
	return sc(SECCOMP_SET_MODE_FILTER, flags, &p);
}

// one_call: the call nr gets action, every other call is allowed.
static long one_call(int nr, unsigned action, unsigned flags) {
	struct sock_filter f[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
	    STMT(BPF_RET | BPF_K, action),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	return install(f, 4, flags);
}

static void status_line(void) {
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "Seccomp", 7))
			printf("  %s", line);
	fclose(f);
}

// child runs fn in a child process and reports how it ended.
static void child(const char *name, void (*fn)(void)) {
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		struct rlimit no_core = {0, 0};
		setrlimit(RLIMIT_CORE, &no_core);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		fn();
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(p, &st, 0);
	if (WIFSIGNALED(st))
		printf("%s: killed by %s\n", name, sigabbrev_np(WTERMSIG(st)));
	else
		printf("%s: exit %d\n", name, WEXITSTATUS(st));
}

static void errno_action(void) {
	show("  getppid before", getppid() > 0);
	one_call(SYS_getppid, SECCOMP_RET_ERRNO | ENOMSG, 0);
	show("  getppid with ERRNO|ENOMSG", syscall(SYS_getppid));
	one_call(SYS_getuid, SECCOMP_RET_ERRNO | 5000, 0);
	errno = 0;
	long r = syscall(SYS_getuid);
	printf("  getuid with ERRNO|5000: %ld errno %d\n", r, errno);
	show("  prctl(PR_GET_SECCOMP)", prctl(PR_GET_SECCOMP));
	status_line();
}

static volatile siginfo_t trapped;
static void on_sigsys(int sig, siginfo_t *si, void *uc) {
	(void)sig;
	(void)uc;
	trapped = *si;
}

static void trap_action(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	one_call(SYS_getppid, SECCOMP_RET_TRAP | 7, 0);
	syscall(SYS_getppid);
	printf("  SIGSYS: signo %s code %d errno %d syscall is getppid %d arch %d call_addr set %d\n",
	       sigabbrev_np(trapped.si_signo), trapped.si_code, trapped.si_errno, trapped.si_syscall == SYS_getppid,
	       trapped.si_arch == ARCH, trapped.si_call_addr != NULL);
	printf("  after the handler\n");
}

static void trap_blocked(void) {
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGSYS);
	sigprocmask(SIG_BLOCK, &s, NULL);
	one_call(SYS_getppid, SECCOMP_RET_TRAP, 0);
	syscall(SYS_getppid);
	printf("  not reached\n");
}

static void kill_process(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL); // a handler does not save it
	one_call(SYS_getppid, SECCOMP_RET_KILL_PROCESS, 0);
	syscall(SYS_getppid);
	printf("  not reached\n");
}

static void kill_thread_alone(void) {
	one_call(SYS_getppid, SECCOMP_RET_KILL_THREAD, 0);
	syscall(SYS_getppid);
	printf("  not reached\n");
}

static void *thread_getppid(void *arg) {
	(void)arg;
	syscall(SYS_getppid);
	printf("  the thread survived\n");
	return NULL;
}

static void kill_thread_of_two(void) {
	one_call(SYS_getppid, SECCOMP_RET_KILL_THREAD, 0);
	pthread_t t;
	pthread_create(&t, NULL, thread_getppid, NULL);
	sleep(1); // the thread is gone; join would wait for a tid it never clears
	printf("  the main thread goes on\n");
	fflush(stdout);
	syscall(SYS_exit_group, 3);
}

static void trace_log_allow(void) {
	one_call(SYS_getppid, SECCOMP_RET_TRACE, 0);
	show("  getppid with TRACE, no tracer", syscall(SYS_getppid));
	one_call(SYS_getuid, SECCOMP_RET_LOG, 0);
	show("  getuid with LOG", syscall(SYS_getuid));
	one_call(SYS_getgid, SECCOMP_RET_ALLOW, 0);
	show("  getgid with ALLOW", syscall(SYS_getgid));
}

static void precedence(void) {
	one_call(SYS_getppid, SECCOMP_RET_ERRNO | 3, 0);
	one_call(SYS_getppid, SECCOMP_RET_ERRNO | 4, 0);
	show("  two ERRNO filters (the newest's data)", syscall(SYS_getppid));
	one_call(SYS_getuid, SECCOMP_RET_TRAP, 0);
	one_call(SYS_getuid, SECCOMP_RET_ERRNO | 4, 0);
	struct sigaction sa = {0};
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	trapped.si_signo = 0;
	syscall(SYS_getuid);
	printf("  TRAP before a newer ERRNO: %s\n", trapped.si_signo == SIGSYS ? "trapped" : "not trapped");
	status_line();
}

// arithmetic: ERRNO of ((arg0*3 + 5) << 2 >> 1) ^ 0x10, through the scratch
// words, X and every jump kind, so the result is the interpreter's.
static void arithmetic(void) {
	struct sock_filter f[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 1, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
	    STMT(BPF_ST, 3),
	    STMT(BPF_LDX | BPF_IMM, 3),
	    STMT(BPF_ALU | BPF_MUL | BPF_X, 0),
	    STMT(BPF_ALU | BPF_ADD | BPF_K, 5),
	    STMT(BPF_ALU | BPF_LSH | BPF_K, 2),
	    STMT(BPF_LDX | BPF_IMM, 1),
	    STMT(BPF_ALU | BPF_RSH | BPF_X, 0),
	    STMT(BPF_ALU | BPF_XOR | BPF_K, 0x10),
	    STMT(BPF_MISC | BPF_TAX, 0),
	    STMT(BPF_LD | BPF_MEM, 3),
	    JUMP(BPF_JMP | BPF_JGT | BPF_K, 100, 6, 0),  // arg0 > 100: ERRNO|1
	    JUMP(BPF_JMP | BPF_JGE | BPF_K, 100, 6, 0),  // arg0 == 100: ERRNO|2
	    JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x40, 6, 0), // bit 6: ERRNO of the negated length
	    STMT(BPF_MISC | BPF_TXA, 0),
	    STMT(BPF_ALU | BPF_AND | BPF_K, 0xfff),
	    STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
	    STMT(BPF_RET | BPF_A, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 2),
	    STMT(BPF_LD | BPF_W | BPF_LEN, 0),
	    STMT(BPF_ALU | BPF_NEG, 0),
	    STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
	    STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
	    STMT(BPF_RET | BPF_A, 0),
	};
	show("  install", install(f, sizeof f / sizeof f[0], 0));
	long args[] = {0, 7, 17, 64, 100, 1000};
	for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++) {
		errno = 0;
		syscall(SYS_getppid, args[i]);
		printf("  getppid(%ld): errno %d\n", args[i], errno);
	}
}

static void div_by_zero(void) {
	struct sock_filter f[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 1, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    STMT(BPF_LDX | BPF_IMM, 0),
	    STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	show("  install", install(f, 6, 0));
	syscall(SYS_getppid);
	printf("  not reached\n");
}

static void arguments(void) {
	// write to fd 2 is EBADF; to fd 1 it goes through.
	struct sock_filter f[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
	    STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EBADF),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	show("  install", install(f, 6, 0));
	fflush(stdout);
	show("  write(2)", write(2, "x\n", 2));
	show("  write(1)", write(1, "  out\n", 6));
	struct sock_filter a[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, ARCHOFF),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	show("  the architecture's filter", install(a, 4, 0));
	show("  getppid under it", getppid() > 0);
}

static void inherited(void) {
	one_call(SYS_getppid, SECCOMP_RET_ERRNO | EDOM, 0);
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		show("  in a child of the filtered process", syscall(SYS_getppid));
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	fflush(stdout);
	execl("/proc/self/exe", "seccomp", "after-exec", (char *)NULL);
	printf("  execl failed\n");
}

static void after_exec(void) {
	show("  after execve: getppid", syscall(SYS_getppid));
	show("  after execve: prctl(PR_GET_SECCOMP)", prctl(PR_GET_SECCOMP));
}

static volatile int go_on, thread_errno;
static void *later_getppid(void *arg) {
	(void)arg;
	while (!go_on)
		usleep(1000);
	errno = 0;
	syscall(SYS_getppid);
	thread_errno = errno;
	return NULL;
}

static void threads(void) {
	pthread_t t;
	pthread_create(&t, NULL, later_getppid, NULL);
	one_call(SYS_getppid, SECCOMP_RET_ERRNO | EXDEV, 0);
	go_on = 1;
	pthread_join(t, NULL);
	printf("  a thread started before the filter: errno %d\n", thread_errno);
	go_on = 0;
	pthread_create(&t, NULL, later_getppid, NULL);
	show("  TSYNC", one_call(SYS_getuid, SECCOMP_RET_ERRNO | EXDEV, SECCOMP_FILTER_FLAG_TSYNC));
	go_on = 1;
	pthread_join(t, NULL);
	printf("  a thread synchronized by TSYNC: errno %d\n", thread_errno);
}

static void strict_mode(void) {
	show("  prctl(PR_SET_SECCOMP, strict)", prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT));
	write(1, "  write works\n", 14);
	syscall(SYS_getppid);
	write(1, "  not reached\n", 14);
}

static void strict_exit(void) {
	fflush(stdout);
	sc(SECCOMP_SET_MODE_STRICT, 0, NULL);
	syscall(SYS_exit, 5);
}

static void unprivileged(void) {
	prctl(PR_SET_NO_NEW_PRIVS, 0, 0, 0, 0); // (cannot be unset: stays 1)
	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
		printf("  setresuid failed\n");
	show("  no_new_privs", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	show("  install as an unprivileged user with no_new_privs", one_call(SYS_getppid, SECCOMP_RET_ALLOW, 0));
}

static void unprivileged_without_nnp(void) {
	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
		printf("  setresuid failed\n");
	show("  install as an unprivileged user without no_new_privs", one_call(SYS_getppid, SECCOMP_RET_ALLOW, 0));
}

static void vdso_calls(void) {
	// Kill every call but the few this needs: clock_gettime is the vDSO's.
	struct sock_filter f[] = {
	    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 2, 0),
	    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 1, 0),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	fflush(stdout);
	install(f, 5, 0);
	struct timespec ts;
	int r = clock_gettime(CLOCK_MONOTONIC, &ts);
	char msg[] = "  clock_gettime under a filter that kills it: 0\n";
	msg[sizeof msg - 3] = '0' - r;
	write(1, msg, sizeof msg - 1);
	syscall(SYS_exit_group, 0);
}

int main(int argc, char **argv) {
	if (argc > 1 && !strcmp(argv[1], "after-exec")) {
		after_exec();
		return 0;
	}
	show("prctl(PR_GET_SECCOMP)", prctl(PR_GET_SECCOMP));
	status_line();
	unsigned actions[] = {SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD, SECCOMP_RET_TRAP, SECCOMP_RET_ERRNO,
	                      SECCOMP_RET_TRACE, SECCOMP_RET_LOG, SECCOMP_RET_ALLOW, 0x12345678};
	for (unsigned i = 0; i < sizeof actions / sizeof actions[0]; i++) {
		char what[64];
		snprintf(what, sizeof what, "GET_ACTION_AVAIL %#x", actions[i]);
		show(what, sc(SECCOMP_GET_ACTION_AVAIL, 0, &actions[i]));
	}
	struct seccomp_notif_sizes sizes;
	show("GET_NOTIF_SIZES", sc(SECCOMP_GET_NOTIF_SIZES, 0, &sizes));
	printf("  sizes %u %u %u\n", sizes.seccomp_notif, sizes.seccomp_notif_resp, sizes.seccomp_data);
	show("unknown op", sc(7, 0, NULL));
	show("strict mode with flags", sc(SECCOMP_SET_MODE_STRICT, 1, NULL));
	show("strict mode with args", sc(SECCOMP_SET_MODE_STRICT, 0, (void *)8));
	show("GET_ACTION_AVAIL with flags", sc(SECCOMP_GET_ACTION_AVAIL, 1, &actions[0]));
	show("GET_ACTION_AVAIL, bad pointer", sc(SECCOMP_GET_ACTION_AVAIL, 0, (void *)8));

	// Programs the checks refuse (as root: no no_new_privs needed).
	struct sock_filter ret = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	show("unknown flag", install(&ret, 1, 1u << 6));
	show("TSYNC with NEW_LISTENER", install(&ret, 1, SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_NEW_LISTENER));
	show("bad program pointer", sc(SECCOMP_SET_MODE_FILTER, 0, (void *)8));
	show("length 0", install(&ret, 0, 0));
	show("length 4097", install(&ret, 4097, 0));
	struct sock_fprog badp = {1, (struct sock_filter *)8};
	show("bad instructions pointer", sc(SECCOMP_SET_MODE_FILTER, 0, &badp));
	struct sock_filter bad[][3] = {
	    {STMT(BPF_LD | BPF_H | BPF_ABS, 0), ret, ret},             // a half-word load
	    {STMT(BPF_LD | BPF_W | BPF_ABS, 2), ret, ret},             // unaligned
	    {STMT(BPF_LD | BPF_W | BPF_ABS, 64), ret, ret},            // past seccomp_data
	    {STMT(BPF_LD | BPF_W | BPF_IND, 0), ret, ret},             // an indirect load
	    {STMT(BPF_ALU | BPF_DIV | BPF_K, 0), ret, ret},            // a constant divisor of 0
	    {STMT(BPF_ALU | BPF_MOD | BPF_K, 3), ret, ret},            // modulo: not for seccomp
	    {STMT(BPF_ALU | BPF_LSH | BPF_K, 32), ret, ret},           // a shift of 32
	    {STMT(BPF_LD | BPF_MEM, 0), ret, ret},                     // a word never stored
	    {STMT(BPF_ST, 16), ret, ret},                              // scratch word 16
	    {JUMP(BPF_JMP | BPF_JA, 2, 0, 0), ret, ret},               // past the end
	    {JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0), ret, ret},      // past the end
	    {ret, ret, STMT(BPF_LD | BPF_IMM, 0)},                     // no return at the end
	    {STMT(0xffff, 0), ret, ret},                               // no such code
	    {JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), STMT(BPF_ST, 0), STMT(BPF_LD | BPF_MEM, 0)}, // stored on one path only
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char what[32];
		snprintf(what, sizeof what, "bad program %u", i);
		show(what, install(bad[i], 3, 0));
	}
	struct sock_filter good[] = {JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), STMT(BPF_ST, 0), STMT(BPF_LD | BPF_IMM, 0),
	                             STMT(BPF_ST, 0), STMT(BPF_LD | BPF_MEM, 0), ret};
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		show("stored on every path (installed in a child)", install(good, 6, 0));
		_exit(0);
	}
	waitpid(p, NULL, 0);
	show("still unfiltered here", prctl(PR_GET_SECCOMP));

	child("errno", errno_action);
	child("trap", trap_action);
	child("trap while SIGSYS is blocked", trap_blocked);
	child("kill process", kill_process);
	child("kill thread, the only one", kill_thread_alone);
	child("kill thread, one of two", kill_thread_of_two);
	child("trace, log, allow", trace_log_allow);
	child("precedence", precedence);
	child("arithmetic", arithmetic);
	child("division by zero", div_by_zero);
	child("arguments", arguments);
	child("inherited", inherited);
	child("threads", threads);
	child("strict mode", strict_mode);
	child("strict mode, exit", strict_exit);
	child("unprivileged with no_new_privs", unprivileged);
	fflush(stdout);
	p = fork();
	if (p == 0) {
		unprivileged_without_nnp();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	child("vDSO", vdso_calls);
	return 0;
}
