// sysio: the system calls real tools use beyond open/read/write: file
// times and owners (the way bzip2, cp -p and tar copy them), poll and
// select, statfs, flock, hard links, memory locking and residency,
// priorities, process groups, waiting for children, in-kernel copies,
// fallocate, membarrier, close_range, memfd, eventfd and pipes. It prints
// only host-independent facts, one ok/FAIL line per check, so that its
// output under rvsim must equal its output under qemu-riscv64.
//
// It works in a scratch directory "sio_tmp" below the current directory,
// which must be writable, and removes it at the end.
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../include/check.h"

static void put(const char *name, const char *data, size_t n) {
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(fd, data, n);
	close(fd);
}

static void times_and_owners(void) {
	puts("== utimensat, futimens, fchown, fchownat (bzip2-style copy of metadata)");
	put("in.txt", "original data\n", 14);
	struct timespec set[2] = {{1234567890, 500000000}, {1300000000, 250000000}};
	CHECK(utimensat(AT_FDCWD, "in.txt", set, 0) == 0);
	struct stat in;
	CHECK(stat("in.txt", &in) == 0);
	CHECK(in.st_atim.tv_sec == 1234567890 && in.st_atim.tv_nsec == 500000000);
	CHECK(in.st_mtim.tv_sec == 1300000000 && in.st_mtim.tv_nsec == 250000000);

	// The compressor writes the output, then copies mode, owner and times.
	int out = open("in.txt.bz2", O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(out >= 0);
	CHECK(write(out, "BZh9", 4) == 4);
	CHECK(fchmod(out, in.st_mode & 07777) == 0);
	CHECK(fchown(out, in.st_uid, in.st_gid) == 0);
	struct timespec copy[2] = {in.st_atim, in.st_mtim};
	CHECK(futimens(out, copy) == 0);
	CHECK(close(out) == 0);
	struct stat o;
	CHECK(stat("in.txt.bz2", &o) == 0);
	CHECK(o.st_mode == in.st_mode && o.st_uid == in.st_uid && o.st_gid == in.st_gid);
	CHECK(o.st_mtim.tv_sec == in.st_mtim.tv_sec && o.st_mtim.tv_nsec == in.st_mtim.tv_nsec);
	CHECK(o.st_atim.tv_sec == in.st_atim.tv_sec);
	CHECK(fchownat(AT_FDCWD, "in.txt.bz2", -1, -1, 0) == 0);
	CHECK(chown("in.txt.bz2", getuid(), getgid()) == 0);
	if (geteuid() != 0)
		ERR(chown("in.txt.bz2", 0, 0), EPERM);
	else
		puts("ok   chown(\"in.txt.bz2\", 0, 0) -> EPERM");

	struct timespec omit[2] = {{0, UTIME_OMIT}, {99, 0}};
	CHECK(utimensat(AT_FDCWD, "in.txt", omit, 0) == 0);
	CHECK(stat("in.txt", &in) == 0 && in.st_atim.tv_sec == 1234567890 && in.st_mtime == 99);
	CHECK(utimensat(AT_FDCWD, "in.txt", NULL, 0) == 0);
	CHECK(stat("in.txt", &in) == 0);
	time_t now = time(NULL);
	CHECK(in.st_mtime >= now - 2 && in.st_mtime <= now + 2);
	struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
	ERR(utimensat(AT_FDCWD, "in.txt", bad, 0), EINVAL);
	ERR(utimensat(AT_FDCWD, "missing", NULL, 0), ENOENT);

	CHECK(symlink("in.txt", "link") == 0);
	struct timespec lt[2] = {{5000, 0}, {6000, 0}};
	CHECK(utimensat(AT_FDCWD, "link", lt, AT_SYMLINK_NOFOLLOW) == 0);
	struct stat ls;
	CHECK(lstat("link", &ls) == 0 && ls.st_mtime == 6000);
	CHECK(stat("in.txt", &in) == 0 && in.st_mtime != 6000);
	CHECK(fchownat(AT_FDCWD, "link", getuid(), getgid(), AT_SYMLINK_NOFOLLOW) == 0);
	ERR(fchownat(AT_FDCWD, "link", -1, -1, 0x8000), EINVAL);
}

static void polling(void) {
	puts("== ppoll, poll, pselect6, select");
	int p[2];
	CHECK(pipe(p) == 0);
	int f = open("in.txt", O_RDONLY);
	struct pollfd fds[4] = {{p[0], POLLIN, 0}, {p[1], POLLOUT, 0}, {f, POLLIN | POLLOUT, 0}, {-1, POLLIN, 0}};
	CHECK(poll(fds, 4, 0) == 2);
	CHECK(fds[0].revents == 0 && fds[1].revents == POLLOUT);
	CHECK(fds[2].revents == (POLLIN | POLLOUT) && fds[3].revents == 0);
	CHECK(poll(fds, 1, 20) == 0); // the timeout passes
	CHECK(write(p[1], "x", 1) == 1);
	CHECK(poll(fds, 1, -1) == 1 && fds[0].revents == POLLIN);
	struct pollfd bad = {999, POLLIN, 0};
	CHECK(poll(&bad, 1, 0) == 1 && bad.revents == POLLNVAL);
	struct timespec ts = {0, 5000000};
	CHECK(ppoll(fds, 1, &ts, NULL) == 1);

	fd_set r, w;
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(p[0], &r);
	FD_SET(p[1], &w);
	struct timeval tv = {0, 0};
	CHECK(select(p[1] + 1, &r, &w, NULL, &tv) == 2);
	CHECK(FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w));
	char c;
	CHECK(read(p[0], &c, 1) == 1);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	tv.tv_sec = 0;
	tv.tv_usec = 10000;
	CHECK(select(p[0] + 1, &r, NULL, NULL, &tv) == 0);
	CHECK(!FD_ISSET(p[0], &r));
	CHECK(tv.tv_sec == 0 && tv.tv_usec == 0); // the time left
	FD_SET(60, &r); // not open (descriptors past the table, 64 here, would be ignored)
	tv.tv_usec = 0;
	ERR(select(61, &r, NULL, NULL, &tv), EBADF);
	struct timespec pts = {0, 0};
	FD_ZERO(&w);
	FD_SET(f, &w);
	sigset_t mask;
	sigemptyset(&mask);
	CHECK(pselect(f + 1, NULL, &w, NULL, &pts, &mask) == 1);

	CHECK(close(p[1]) == 0);
	fds[0].events = POLLIN;
	CHECK(poll(fds, 1, 0) == 1 && fds[0].revents == POLLHUP);
	close(p[0]);
	close(f);
}

static void fs_calls(void) {
	puts("== statfs, fstatfs");
	struct statfs a, b;
	CHECK(statfs(".", &a) == 0);
	int d = open(".", O_RDONLY | O_DIRECTORY);
	CHECK(fstatfs(d, &b) == 0);
	CHECK(a.f_type == b.f_type && a.f_bsize == b.f_bsize && a.f_namelen == b.f_namelen);
	CHECK(a.f_bsize > 0 && a.f_namelen > 0);
	close(d);
	ERR(statfs("missing/x", &a), ENOENT);
	int p[2];
	CHECK(pipe(p) == 0);
	CHECK(fstatfs(p[0], &a) == 0 && a.f_type == PIPEFS_MAGIC);
	close(p[0]);
	close(p[1]);

	puts("== flock");
	int f1 = open("in.txt", O_RDONLY), f2 = open("in.txt", O_RDONLY);
	CHECK(flock(f1, LOCK_EX) == 0);
	ERR(flock(f2, LOCK_EX | LOCK_NB), EWOULDBLOCK);
	ERR(flock(f2, LOCK_SH | LOCK_NB), EWOULDBLOCK);
	int f3 = dup(f1);
	CHECK(flock(f3, LOCK_EX | LOCK_NB) == 0); // the same open file description
	CHECK(flock(f1, LOCK_SH) == 0);
	CHECK(flock(f2, LOCK_SH | LOCK_NB) == 0);
	ERR(flock(f1, LOCK_EX | LOCK_NB), EWOULDBLOCK);
	CHECK(close(f2) == 0); // the last close releases f2's lock
	CHECK(flock(f1, LOCK_EX | LOCK_NB) == 0);
	CHECK(flock(f1, LOCK_UN) == 0);
	ERR(flock(f1, 0), EINVAL);
	ERR(flock(99, LOCK_SH), EBADF);
	close(f1);
	close(f3);

	puts("== linkat");
	CHECK(link("in.txt", "hard") == 0);
	struct stat s1, s2;
	CHECK(stat("in.txt", &s1) == 0 && stat("hard", &s2) == 0);
	CHECK(s1.st_ino == s2.st_ino && s1.st_nlink == 2);
	ERR(link("in.txt", "hard"), EEXIST);
	CHECK(mkdir("dir", 0755) == 0);
	ERR(link("dir", "dir2"), EPERM);
	ERR(link("missing", "x"), ENOENT);
	CHECK(linkat(AT_FDCWD, "link", AT_FDCWD, "hard2", AT_SYMLINK_FOLLOW) == 0);
	CHECK(stat("hard2", &s2) == 0 && s2.st_ino == s1.st_ino);
	CHECK(linkat(AT_FDCWD, "link", AT_FDCWD, "softcopy", 0) == 0);
	CHECK(lstat("softcopy", &s2) == 0 && S_ISLNK(s2.st_mode));
	ERR(linkat(AT_FDCWD, "in.txt", AT_FDCWD, "x", 0x1), EINVAL);

	puts("== fallocate");
	int f = open("alloc", O_RDWR | O_CREAT, 0644);
	CHECK(fallocate(f, 0, 0, 8192) == 0);
	CHECK(fstat(f, &s1) == 0 && s1.st_size == 8192);
	CHECK(fallocate(f, FALLOC_FL_KEEP_SIZE, 8192, 4096) == 0);
	CHECK(fstat(f, &s1) == 0 && s1.st_size == 8192);
	ERR(fallocate(f, 0, 0, 0), EINVAL);
	ERR(fallocate(f, 0, -1, 10), EINVAL);
	int ro = open("alloc", O_RDONLY);
	ERR(fallocate(ro, 0, 0, 10), EBADF);
	CHECK(pipe(p) == 0);
	ERR(fallocate(p[1], 0, 0, 10), ESPIPE);
	close(p[0]);
	close(p[1]);
	close(ro);
	close(f);
}

static void copies(void) {
	puts("== copy_file_range, sendfile");
	char data[10000];
	for (int i = 0; i < (int)sizeof data; i++)
		data[i] = 'a' + i % 26;
	put("src", data, sizeof data);
	int in = open("src", O_RDONLY), out = open("dst", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(copy_file_range(in, NULL, out, NULL, 4000, 0) == 4000);
	CHECK(lseek(in, 0, SEEK_CUR) == 4000 && lseek(out, 0, SEEK_CUR) == 4000);
	loff_t io = 9000, oo = 100;
	CHECK(copy_file_range(in, &io, out, &oo, 5000, 0) == 1000); // to the end of src
	CHECK(io == 10000 && oo == 1100);
	CHECK(lseek(in, 0, SEEK_CUR) == 4000); // offsets given: positions unchanged
	char got[10000];
	CHECK(pread(out, got, 4000, 0) == 4000);
	CHECK(memcmp(got, data, 100) == 0 && memcmp(got + 100, data + 9000, 1000) == 0 &&
	      memcmp(got + 1100, data + 1100, 2900) == 0);
	ERR(copy_file_range(in, NULL, out, NULL, 10, 1), EINVAL);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	ERR(copy_file_range(dir, NULL, out, NULL, 10, 0), EISDIR);
	close(dir);

	off_t off = 5000;
	int sink = open("sent", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(sendfile(sink, in, &off, 3000) == 3000);
	CHECK(off == 8000);
	CHECK(lseek(in, 0, SEEK_CUR) == 4000);
	CHECK(sendfile(sink, in, NULL, 100) == 100);
	CHECK(lseek(in, 0, SEEK_CUR) == 4100);
	close(sink);
	int back = open("sent", O_RDONLY);
	CHECK(read(back, got, sizeof got) == 3100);
	CHECK(memcmp(got, data + 5000, 3000) == 0 && memcmp(got + 3000, data + 4000, 100) == 0);
	close(back);
	int p[2];
	CHECK(pipe(p) == 0);
	CHECK(sendfile(p[1], in, NULL, 10) == 10);
	CHECK(read(p[0], got, 20) == 10 && memcmp(got, data + 4100, 10) == 0);
	ERR(sendfile(out, p[0], NULL, 10), EINVAL);
	close(p[0]);
	close(p[1]);
	close(in);
	close(out);
}

static void memory(void) {
	puts("== msync, mlock, munlock, munlockall, mincore");
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	m[0] = m[pg] = m[2 * pg] = 1;
	CHECK(msync(m, 3 * pg, MS_SYNC) == 0);
	CHECK(msync(m, 10, MS_ASYNC) == 0);
	ERR(msync(m + 1, 10, MS_SYNC), EINVAL);
	ERR(msync(m, 10, MS_SYNC | MS_ASYNC), EINVAL);
	CHECK(mlock(m + 10, pg) == 0);
	CHECK(munlock(m, 3 * pg) == 0);
	CHECK(munlockall() == 0);
	ERR(mlockall(0), EINVAL);
	unsigned char vec[3] = {9, 9, 9};
	CHECK(mincore(m, 3 * pg, vec) == 0);
	CHECK((vec[0] & 1) == 1 && (vec[1] & 1) == 1 && (vec[2] & 1) == 1);
	ERR(mincore(m + 1, pg, vec), EINVAL);
	CHECK(munmap(m + pg, pg) == 0);
	ERR(mincore(m, 3 * pg, vec), ENOMEM);
	ERR(msync(m, 3 * pg, MS_SYNC), ENOMEM);
	ERR(mlock(m, 3 * pg), ENOMEM);
	munmap(m, 3 * pg);

	puts("== membarrier");
	long q = syscall(SYS_membarrier, 0 /* QUERY */, 0, 0);
	CHECK(q >= 0 && (q & 0x1f) == 0x1f);
	ERR(syscall(SYS_membarrier, 8 /* PRIVATE_EXPEDITED */, 0, 0), EPERM);
	CHECK(syscall(SYS_membarrier, 16 /* REGISTER_PRIVATE_EXPEDITED */, 0, 0) == 0);
	CHECK(syscall(SYS_membarrier, 8, 0, 0) == 0);
	CHECK(syscall(SYS_membarrier, 1 /* GLOBAL */, 0, 0) == 0);
	ERR(syscall(SYS_membarrier, 0, 1, 0), EINVAL);
}

static void processes(void) {
	puts("== getpriority, setpriority");
	errno = 0;
	int nice0 = getpriority(PRIO_PROCESS, 0);
	CHECK(errno == 0 && nice0 >= -20 && nice0 <= 19);
	if (nice0 < 19) {
		CHECK(setpriority(PRIO_PROCESS, 0, nice0 + 1) == 0);
		CHECK(getpriority(PRIO_PROCESS, getpid()) == nice0 + 1);
		if (geteuid() != 0)
			ERR(setpriority(PRIO_PROCESS, 0, nice0), EACCES);
		else
			puts("ok   setpriority(PRIO_PROCESS, 0, nice0) -> EACCES");
	}
	ERR(getpriority(7, 0), EINVAL);
	ERR(setpriority(PRIO_PROCESS, 999999, 0), ESRCH);

	puts("== setpgid, getpgid, setsid");
	CHECK(setpgid(0, 0) == 0);
	CHECK(getpgid(0) == getpid() && getpgrp() == getpid());
	CHECK(setpgid(getpid(), getpid()) == 0);
	ERR(setsid(), EPERM); // a process-group leader
	ERR(setpgid(0, -1), EINVAL);
	ERR(getpgid(999999), ESRCH);

	puts("== wait4, waitid: no children");
	int st;
	ERR(wait(&st), ECHILD);
	ERR(waitpid(-1, &st, WNOHANG), ECHILD);
	ERR(wait4(-1, &st, 0, NULL), ECHILD);
	siginfo_t si;
	ERR(waitid(P_ALL, 0, &si, WEXITED), ECHILD);
	ERR(waitpid(-1, &st, 0x4000), EINVAL);
}

static void descriptors(void) {
	puts("== close_range");
	int f = open("in.txt", O_RDONLY);
	CHECK(dup2(f, 40) == 40 && dup2(f, 41) == 41 && dup2(f, 43) == 43);
	CHECK(close_range(41, 42, CLOSE_RANGE_CLOEXEC) == 0);
	CHECK(fcntl(41, F_GETFD) == FD_CLOEXEC && fcntl(40, F_GETFD) == 0);
	CHECK(close_range(40, 42, 0) == 0);
	ERR(fcntl(40, F_GETFD), EBADF);
	ERR(fcntl(41, F_GETFD), EBADF);
	CHECK(fcntl(43, F_GETFD) == 0);
	ERR(close_range(5, 4, 0), EINVAL);
	CHECK(close_range(43, ~0U, 0) == 0);
	ERR(fcntl(43, F_GETFD), EBADF);
	close(f);

	puts("== memfd_create");
	int m = memfd_create("scratch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	CHECK(m >= 0);
	CHECK(fcntl(m, F_GETFD) == FD_CLOEXEC);
	CHECK(write(m, "memory file", 11) == 11);
	CHECK(lseek(m, 7, SEEK_SET) == 7);
	char buf[32] = {0};
	CHECK(read(m, buf, sizeof buf) == 4 && memcmp(buf, "file", 4) == 0);
	struct stat s;
	CHECK(fstat(m, &s) == 0 && S_ISREG(s.st_mode) && s.st_size == 11);
	char path[64], target[128] = {0};
	snprintf(path, sizeof path, "/proc/self/fd/%d", m);
	CHECK(readlink(path, target, sizeof target - 1) > 0 && strncmp(target, "/memfd:scratch", 14) == 0);
	CHECK(fcntl(m, F_GET_SEALS) == 0);
	CHECK(fcntl(m, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK) == 0);
	ERR(write(m, "x", 1), EPERM);
	ERR(ftruncate(m, 2), EPERM);
	CHECK(fcntl(m, F_GET_SEALS) == (F_SEAL_WRITE | F_SEAL_SHRINK));
	close(m);
	m = memfd_create("plain", 0);
	CHECK(fcntl(m, F_GET_SEALS) == F_SEAL_SEAL);
	ERR(fcntl(m, F_ADD_SEALS, F_SEAL_WRITE), EPERM);
	CHECK(ftruncate(m, 4096) == 0 && fstat(m, &s) == 0 && s.st_size == 4096);
	close(m);
	ERR(memfd_create("x", 0x100), EINVAL);

	puts("== eventfd");
	int e = eventfd(3, EFD_NONBLOCK);
	CHECK(e >= 0);
	uint64_t v = 4;
	CHECK(write(e, &v, 8) == 8);
	CHECK(read(e, &v, 8) == 8 && v == 7);
	ERR(read(e, &v, 8), EAGAIN);
	ERR(read(e, &v, 4), EINVAL);
	v = ~0ULL;
	ERR(write(e, &v, 8), EINVAL);
	struct pollfd pe = {e, POLLIN | POLLOUT, 0};
	CHECK(poll(&pe, 1, 0) == 1 && pe.revents == POLLOUT);
	close(e);
	e = eventfd(2, EFD_SEMAPHORE);
	CHECK(read(e, &v, 8) == 8 && v == 1);
	CHECK(read(e, &v, 8) == 8 && v == 1);
	CHECK(eventfd_write(e, 5) == 0);
	eventfd_t ev;
	CHECK(eventfd_read(e, &ev) == 0 && ev == 1);
	CHECK(fstat(e, &s) == 0 && (s.st_mode & S_IFMT) == 0);
	close(e);

	puts("== pipe2");
	int p[2];
	CHECK(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0);
	CHECK(fcntl(p[0], F_GETFD) == FD_CLOEXEC && (fcntl(p[1], F_GETFL) & O_NONBLOCK));
	CHECK(fstat(p[0], &s) == 0 && S_ISFIFO(s.st_mode));
	ERR(read(p[0], buf, 1), EAGAIN);
	CHECK(write(p[1], "hello", 5) == 5);
	CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "hel", 3) == 0);
	CHECK(read(p[0], buf, 10) == 2 && memcmp(buf, "lo", 2) == 0);
	CHECK(fcntl(p[0], F_GETPIPE_SZ) == 65536);
	static char big[70000];
	CHECK(write(p[1], big, sizeof big) == 65536); // full: a short write
	ERR(write(p[1], "x", 1), EAGAIN);
	int n;
	CHECK(ioctl(p[0], FIONREAD, &n) == 0 && n == 65536);
	ERR(lseek(p[0], 0, SEEK_SET), ESPIPE);
	CHECK(close(p[1]) == 0);
	CHECK(read(p[0], big, sizeof big) == 65536);
	CHECK(read(p[0], big, 1) == 0); // no writer: end of file
	close(p[0]);
	CHECK(pipe2(p, 0) == 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	ERR(write(p[1], "x", 1), EPIPE);
	close(p[1]);
	ERR(pipe2(p, O_APPEND), EINVAL);
}

static void cleanup(void) {
	const char *files[] = {"in.txt", "in.txt.bz2", "link", "hard", "hard2", "softcopy", "alloc", "src", "dst", "sent"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		unlink(files[i]);
	rmdir("dir");
	chdir("..");
	CHECK(rmdir("sio_tmp") == 0);
}

int main(void) {
	CHECK(mkdir("sio_tmp", 0755) == 0);
	CHECK(chdir("sio_tmp") == 0);
	times_and_owners();
	polling();
	fs_calls();
	copies();
	memory();
	processes();
	descriptors();
	cleanup();
	return failures;
}
