// syscalls: exercises the Linux system calls rvsim's syscalls package
// implements and prints results that do not depend on the host (no pids,
// times, inode numbers or user ids), so that its output under rvsim must
// equal its output under qemu-riscv64 (syscalls.expected).
//
// Usage: syscalls            run the checks, exit 0
//        syscalls abort      print one line, then abort() (status 134, "Aborted")
//        syscalls exit N     exit with status N
//
// It works in a scratch directory "sc_tmp" below the current directory,
// which must be writable, and removes it at the end.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "../include/check.h"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void files(void) {
	puts("== files");
	CHECK(mkdir("sc_tmp", 0755) == 0);
	ERR(mkdir("sc_tmp", 0755), EEXIST);
	CHECK(chdir("sc_tmp") == 0);
	char cwd[4096];
	CHECK(getcwd(cwd, sizeof cwd) != NULL && cwd[0] == '/' && strstr(cwd, "/sc_tmp") != NULL);
	errno = 0;
	CHECK(getcwd(cwd, 2) == NULL && errno == ERANGE);

	int fd = open("a.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 3);
	CHECK(write(fd, "hello, world\n", 13) == 13);
	CHECK(lseek(fd, 0, SEEK_CUR) == 13);
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	char buf[64] = {0};
	CHECK(read(fd, buf, sizeof buf) == 6 && memcmp(buf, "world\n", 6) == 0);
	CHECK(read(fd, buf, sizeof buf) == 0);
	CHECK(pread(fd, buf, 5, 0) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK(pwrite(fd, "J", 1, 0) == 1);
	struct iovec iov[2] = {{"ab", 2}, {"cd\n", 3}};
	CHECK(lseek(fd, 0, SEEK_END) == 13);
	CHECK(writev(fd, iov, 2) == 5);
	char b1[4] = {0}, b2[4] = {0};
	struct iovec riov[2] = {{b1, 3}, {b2, 2}};
	CHECK(preadv(fd, riov, 2, 0) == 5 && memcmp(b1, "Jel", 3) == 0 && memcmp(b2, "lo", 2) == 0);
	CHECK(ftruncate(fd, 4) == 0);

	struct stat st;
	CHECK(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 4 && (st.st_mode & 0777) == 0644);
	CHECK(stat("a.txt", &st) == 0 && st.st_size == 4 && st.st_nlink == 1);
	CHECK(symlink("a.txt", "link") == 0 || errno == ENOSYS);
	if (access("link", F_OK) == 0) {
		CHECK(lstat("link", &st) == 0 && S_ISLNK(st.st_mode));
		CHECK(readlink("link", buf, sizeof buf) == 5 && memcmp(buf, "a.txt", 5) == 0);
		CHECK(unlink("link") == 0);
	} else {
		puts("ok   (symlink unsupported)");
	}
	struct statx sx;
	CHECK(statx(AT_FDCWD, "a.txt", 0, STATX_BASIC_STATS, &sx) == 0 && sx.stx_size == 4 && S_ISREG(sx.stx_mode));
	CHECK(fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && st.st_size == 4);
	ERR(fstatat(fd, "", &st, 0), ENOENT);

	// descriptors
	int d = dup(fd);
	CHECK(d == fd + 1);
	CHECK(lseek(d, 1, SEEK_SET) == 1 && lseek(fd, 0, SEEK_CUR) == 1);
	CHECK(dup2(fd, 10) == 10);
	CHECK(fcntl(10, F_GETFD) == 0);
	CHECK(dup3(fd, 11, O_CLOEXEC) == 11 && fcntl(11, F_GETFD) == FD_CLOEXEC);
	CHECK((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	CHECK(fcntl(fd, F_SETFL, O_APPEND) == 0 && (fcntl(fd, F_GETFL) & O_APPEND));
	CHECK(fcntl(fd, F_DUPFD_CLOEXEC, 20) == 20);
	ERR(dup3(fd, fd, 0), EINVAL);
	ERR(close(99), EBADF);
	ERR(read(99, buf, 1), EBADF);
	CHECK(close(d) == 0 && close(10) == 0 && close(11) == 0 && close(20) == 0 && close(fd) == 0);

	// directories
	CHECK(mkdir("sub", 0700) == 0);
	int f2 = open("sub/z", O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(f2 >= 0 && close(f2) == 0);
	ERR(open("sub/z", O_WRONLY | O_CREAT | O_EXCL, 0600), EEXIST);
	CHECK(rename("a.txt", "sub/b.txt") == 0);
	ERR(rmdir("sub"), ENOTEMPTY);
	ERR(unlink("sub"), EISDIR);
	ERR(open("nope", O_RDONLY), ENOENT);
	ERR(open("sub/z/x", O_RDONLY), ENOTDIR);
	ERR(open("sub", O_WRONLY), EISDIR);
	ERR(open("sub/z", O_RDONLY | O_DIRECTORY), ENOTDIR);
	int dfd = open("sub", O_RDONLY | O_DIRECTORY);
	CHECK(dfd >= 0);
	int rel = openat(dfd, "b.txt", O_RDONLY);
	CHECK(rel >= 0 && read(rel, buf, 4) == 4 && memcmp(buf, "Jell", 4) == 0 && close(rel) == 0);
	CHECK(faccessat(dfd, "b.txt", R_OK | W_OK, 0) == 0);
	ERR(faccessat(dfd, "missing", F_OK, 0), ENOENT);

	DIR *dir = fdopendir(dfd);
	CHECK(dir != NULL);
	char *names[16];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL && n < 16)
		names[n++] = strdup(e->d_name);
	qsort(names, n, sizeof names[0], cmp);
	printf("     entries:");
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
	closedir(dir);

	CHECK(unlink("sub/z") == 0 && unlink("sub/b.txt") == 0 && rmdir("sub") == 0);
	CHECK(chdir("..") == 0 && rmdir("sc_tmp") == 0);
}

static void devices(void) {
	puts("== devices");
	int fd = open("/dev/null", O_RDWR);
	char buf[8] = "xxxxxxx";
	CHECK(fd >= 0 && write(fd, "abc", 3) == 3 && read(fd, buf, 8) == 0 && close(fd) == 0);
	fd = open("/dev/zero", O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, 8) == 8 && memcmp(buf, "\0\0\0\0\0\0\0\0", 8) == 0 && close(fd) == 0);
	fd = open("/dev/urandom", O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, 8) == 8 && close(fd) == 0);
	CHECK(getrandom(buf, 8, 0) == 8);
	ERR(getrandom(buf, 8, 0x40), EINVAL);
	char exe[4096];
	ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
	CHECK(l > 0);
	if (l > 0) {
		exe[l] = 0;
		CHECK(exe[0] == '/' && strcmp(strrchr(exe, '/'), "/syscalls") == 0);
	}
}

static void memory(void) {
	puts("== memory");
	long ps = sysconf(_SC_PAGESIZE);
	CHECK(ps == 4096);
	char *p = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED && ((unsigned long)p & (ps - 1)) == 0);
	CHECK(p[0] == 0 && p[3 * ps - 1] == 0);
	memset(p, 'q', 3 * ps);
	CHECK(madvise(p + ps, ps, MADV_DONTNEED) == 0 && p[ps] == 0 && p[ps - 1] == 'q' && p[2 * ps] == 'q');
	char *q = mremap(p, 3 * ps, 64 * ps, MREMAP_MAYMOVE);
	CHECK(q != MAP_FAILED && q[0] == 'q' && q[ps] == 0 && q[2 * ps] == 'q' && q[63 * ps] == 0);
	CHECK(mprotect(q, ps, PROT_READ) == 0 && q[0] == 'q');
	ERR(mremap(q, 3 * ps, 128 * ps, MREMAP_MAYMOVE), EFAULT); // spans two protections
	CHECK(munmap(q, 64 * ps) == 0);
	ERR(munmap((char *)q + 1, ps), EINVAL);
	char *fixed = mmap((void *)0x200000000UL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK(fixed == (void *)0x200000000UL);
	// Linux >= 4.17 says EEXIST; older kernels (and qemu 7) treat the address as a hint.
	char *again = mmap((void *)0x200000000UL, ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK(again == MAP_FAILED ? errno == EEXIST : again != fixed && munmap(again, ps) == 0);
	CHECK(munmap(fixed, ps) == 0);

	void *b0 = sbrk(0);
	CHECK(b0 != (void *)-1 && sbrk(100000) == b0 && (char *)sbrk(0) == (char *)b0 + 100000);
	((char *)b0)[99999] = 1;
	CHECK(sbrk(-100000) != (void *)-1 && sbrk(0) == b0);

	char *big = malloc(10 << 20);
	CHECK(big != NULL);
	memset(big, 1, 10 << 20);
	big = realloc(big, 20 << 20);
	CHECK(big != NULL && big[(10 << 20) - 1] == 1);
	free(big);

	// a file mapping
	int fd = open("/proc/self/exe", O_RDONLY);
	CHECK(fd >= 0);
	char *m = mmap(NULL, ps, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(m != MAP_FAILED && memcmp(m, "\177ELF", 4) == 0);
	CHECK(munmap(m, ps) == 0 && close(fd) == 0);
}

static void process(void) {
	puts("== process");
	struct utsname u;
	CHECK(uname(&u) == 0);
	printf("     sysname=%s machine=%s\n", u.sysname, u.machine);
	CHECK(getpid() == gettid() && getpid() > 0 && getppid() >= 0);
	CHECK(getuid() == geteuid() && getgid() == getegid());
	struct rlimit rl;
	CHECK(getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur > 0);
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	rl.rlim_cur = rl.rlim_cur / 2;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	rl.rlim_cur = rl.rlim_max + 1;
	ERR(setrlimit(RLIMIT_NOFILE, &rl), EINVAL);
	cpu_set_t set;
	CHECK(sched_getaffinity(0, sizeof set, &set) == 0 && CPU_ISSET(0, &set));
	CHECK(sched_yield() == 0);

	struct sigaction sa = {0}, old;
	sa.sa_handler = SIG_IGN;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	CHECK(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_handler == SIG_IGN);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(kill(getpid(), SIGCHLD) == 0);
	sigset_t s, os;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	CHECK(sigprocmask(SIG_BLOCK, &s, &os) == 0 && !sigismember(&os, SIGUSR2));
	CHECK(sigprocmask(SIG_SETMASK, &os, &s) == 0 && sigismember(&s, SIGUSR2));
	ERR(kill(getpid(), 99), EINVAL);
	stack_t ss = {0}, oss;
	CHECK(sigaltstack(NULL, &oss) == 0 && (oss.ss_flags & SS_DISABLE));
	ss.ss_sp = malloc(SIGSTKSZ);
	ss.ss_size = SIGSTKSZ;
	CHECK(sigaltstack(&ss, NULL) == 0);
}

static void timing(void) {
	puts("== time");
	struct timespec a, b, r;
	CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0);
	struct timespec d = {0, 10 * 1000 * 1000};
	CHECK(nanosleep(&d, NULL) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &b) == 0);
	long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	CHECK(ns >= 10 * 1000 * 1000);
	CHECK(clock_gettime(CLOCK_REALTIME, &a) == 0 && a.tv_sec > 1700000000);
	CHECK(clock_getres(CLOCK_MONOTONIC, &r) == 0 && r.tv_sec == 0 && r.tv_nsec > 0);
	struct timeval tv;
	CHECK(gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 1700000000 && tv.tv_usec < 1000000);
	CHECK(clock() >= 0);
	CHECK(time(NULL) > 1700000000);
	ERR(clock_gettime(12345, &a), EINVAL);
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "abort") == 0) {
		puts("about to abort");
		abort();
	}
	if (argc > 2 && strcmp(argv[1], "exit") == 0)
		exit(atoi(argv[2]));
	files();
	devices();
	memory();
	process();
	timing();
	printf("== %d failures\n", failures);
	return failures != 0;
}
