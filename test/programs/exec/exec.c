/* execve and execveat, stage by stage (argv[1] names the stage):
 *   start   the error cases (ENOENT, EACCES, ENOEXEC, ELOOP, EFAULT, a #!
 *           line naming no interpreter or one too long); then, with a
 *           second thread blocked, a descriptor with and one without
 *           close-on-exec, SIGUSR1 ignored, a handler for SIGUSR2 and
 *           SIGTERM blocked, it execs itself as "kept";
 *   kept    checks what survives an exec and what does not, writes a #!
 *           script naming this program, and execs the script;
 *   script  (through the script) prints its argv, then fexecve's itself;
 *   fexec   prints AT_EXECFN and execs target (argv[2]), which exits 42.
 * Run from a writable working directory. The output does not depend on
 * where the program lies (paths are printed relative to it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;
static const char *self;

/* A mapping of the first image, far from where either image maps. */
#define OLD_MAP ((void *)0x3000000000)

static void handler(int sig) { (void)sig; }

static void *blocked(void *arg) {
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void expect(const char *what, int ret, int err) {
	int e = errno;
	if (ret != -1 || e != err)
		printf("FAIL %s: ret %d errno %s, want %s\n", what, ret, strerrorname_np(e), strerrorname_np(err));
	else
		printf("%s: %s\n", what, strerrorname_np(err));
}

static void writefile(const char *name, const char *text, mode_t mode) {
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		printf("FAIL writing %s\n", name);
		exit(1);
	}
	close(fd);
	chmod(name, mode);
}

static const char *disposition(int sig) {
	struct sigaction sa;
	sigaction(sig, NULL, &sa);
	if (sa.sa_handler == SIG_IGN)
		return "ignored";
	if (sa.sa_handler == SIG_DFL)
		return "default";
	return "caught";
}

// threads is the process's thread count from /proc/self/status, -2 when
// /proc/self/stat's num_threads (its 20th field) says otherwise.
static int threads(void) {
	FILE *f = fopen("/proc/self/status", "r");
	char line[512];
	int n = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	f = fopen("/proc/self/stat", "r");
	if (f && fgets(line, sizeof line, f)) {
		char *p = strrchr(line, ')'); // fields 3 on follow the name
		int field = 2;
		for (; p && field < 20; field++)
			p = strchr(p + 1, ' ');
		if (!p || atoi(p + 1) != n)
			n = -2;
	}
	if (f)
		fclose(f);
	return n;
}

static void start(const char *target) {
	char *args[] = {"exec", "kept", (char *)target, NULL};
	char *env[] = {"STAGE=kept", NULL};
	expect("missing file", execve("./no-such-program", args, env), ENOENT);
	writefile("plain.txt", "not a program\n", 0644);
	expect("no execute permission", execve("./plain.txt", args, env), EACCES);
	writefile("garbage", "this is not an ELF file\n", 0755);
	expect("not an executable format", execve("./garbage", args, env), ENOEXEC);
	expect("a directory", execve(".", args, env), EACCES);
	writefile("bad-interp", "#!/no/such/interpreter -x\n", 0755);
	expect("a script's missing interpreter", execve("./bad-interp", args, env), ENOENT);
	char longline[400] = "#!/";
	memset(longline + 3, 'a', 300);
	strcpy(longline + 303, "\n");
	writefile("long-interp", longline, 0755);
	expect("an interpreter name past 256 bytes", execve("./long-interp", args, env), ENOEXEC);
	writefile("loop", "#!./loop\n", 0755);
	expect("a script that names itself", execve("./loop", args, env), ELOOP);
	symlink(self, "link");
	expect("AT_SYMLINK_NOFOLLOW on a link", syscall(SYS_execveat, AT_FDCWD, "link", args, env, AT_SYMLINK_NOFOLLOW), ELOOP);
	expect("a bad argv", syscall(SYS_execve, self, 8L, env), EFAULT);
	expect("a bad path", syscall(SYS_execve, 8L, args, env), EFAULT);
	static char big[140000];
	memset(big, 'x', sizeof big - 1);
	char *bigargs[] = {"exec", big, NULL};
	expect("an argument past 128 KiB", execve(self, bigargs, env), E2BIG);
	expect("bad execveat flags", syscall(SYS_execveat, AT_FDCWD, self, args, env, 0x4), EINVAL);
	printf("still running after the failed calls\n");

	pthread_t t;
	pthread_create(&t, NULL, blocked, NULL);
	printf("threads before: %d\n", threads());
	int keep = dup(1);
	dup2(keep, 10);
	close(keep);
	int drop = open("plain.txt", O_RDONLY | O_CLOEXEC);
	dup2(drop, 11);
	fcntl(11, F_SETFD, FD_CLOEXEC);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, handler);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	char *old = mmap(OLD_MAP, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (old != OLD_MAP)
		printf("FAIL mmap at %p\n", OLD_MAP);
	old[0] = 1;
	char pid[32];
	snprintf(pid, sizeof pid, "%d", getpid());
	setenv("STAGE", "kept", 1);
	char *kargs[] = {"exec", "kept", (char *)target, pid, NULL};
	fflush(stdout);
	execve(self, kargs, environ);
	printf("FAIL execve: %s\n", strerror(errno));
}

static void kept(char **argv) {
	printf("kept: argv[0] = %s, STAGE = %s\n", argv[0], getenv("STAGE"));
	printf("same pid: %s\n", atoi(argv[3]) == getpid() ? "yes" : "no");
	printf("tid = pid: %s\n", gettid() == getpid() ? "yes" : "no");
	printf("threads after: %d\n", threads());
	unsigned char vec[1];
	printf("the old image's mapping gone: %s\n", mincore(OLD_MAP, 4096, vec) < 0 && errno == ENOMEM ? "yes" : "no");
	printf("fd 10 open: %s\n", fcntl(10, F_GETFD) >= 0 ? "yes" : "no");
	printf("fd 11 closed: %s\n", fcntl(11, F_GETFD) < 0 && errno == EBADF ? "yes" : "no");
	fflush(stdout);
	dprintf(10, "written through fd 10\n");
	printf("SIGUSR1 %s, SIGUSR2 %s\n", disposition(SIGUSR1), disposition(SIGUSR2));
	sigset_t set;
	sigprocmask(SIG_BLOCK, NULL, &set);
	printf("SIGTERM blocked: %s\n", sigismember(&set, SIGTERM) ? "yes" : "no");
	char comm[16] = "";
	prctl(PR_GET_NAME, comm);
	printf("comm = %s\n", comm);
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	printf("/proc/self/exe is the program: %s\n", strcmp(exe, self) == 0 ? "yes" : exe);
	printf("AT_EXECFN is the path given: %s\n", strcmp((char *)getauxval(AT_EXECFN), self) == 0 ? "yes" : (char *)getauxval(AT_EXECFN));
	char script[4200];
	snprintf(script, sizeof script, "#!%s script\n", self);
	writefile("run-me", script, 0755);
	char *args[] = {"ignored", "one", "two words", argv[2], NULL};
	fflush(stdout);
	execve("./run-me", args, environ);
	printf("FAIL execve of a script: %s\n", strerror(errno));
}

static void script(int argc, char **argv) {
	printf("script: argc = %d\n", argc);
	printf("argv[0] is the interpreter: %s\n", strcmp(argv[0], self) == 0 ? "yes" : argv[0]);
	for (int i = 1; i < argc - 1; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	int fd = open(self, O_RDONLY);
	char *args[] = {"exec", "fexec", argv[argc - 1], NULL};
	setenv("STAGE", "fexec", 1);
	fflush(stdout);
	fexecve(fd, args, environ);
	printf("FAIL fexecve: %s\n", strerror(errno));
}

static void fexec(char **argv) {
	printf("fexec: AT_EXECFN = %s\n", (char *)getauxval(AT_EXECFN));
	char *args[] = {"target", "a", "b", NULL};
	fflush(stdout);
	execve(argv[2], args, environ);
	printf("FAIL execve of the target: %s\n", strerror(errno));
}

int main(int argc, char **argv) {
	static char path[4096];
	const char *e = getenv("EXEC_SELF");
	if (!e) {
		printf("FAIL: EXEC_SELF is not set\n");
		return 1;
	}
	snprintf(path, sizeof path, "%s", e);
	self = path;
	if (argc >= 3 && strcmp(argv[1], "start") == 0)
		start(argv[2]);
	else if (argc >= 4 && strcmp(argv[1], "kept") == 0)
		kept(argv);
	else if (argc >= 3 && strcmp(argv[1], "script") == 0)
		script(argc, argv);
	else if (argc >= 3 && strcmp(argv[1], "fexec") == 0)
		fexec(argv);
	else
		printf("FAIL: unknown stage\n");
	return 1;
}
