// processvm.c: process_vm_readv and process_vm_writev on the caller
// itself, on one of its threads and on a child: the argument checks in
// Linux's order, gather and scatter across iovecs, a copy that stops at
// the first unmapped or forbidden remote page (the bytes before it are
// the result), a write to a read-only page, the local count taken as 32
// bits (import_iovec's) and the remote one as 64, the real-ids check after a
// child drops root, and a zombie. Its output is the host's (Linux 6.1 and
// later, run as root), written by hand.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static char shared_buf[64] = "parent data";

static long vm_read(pid_t pid, const struct iovec *l, unsigned long ln, const struct iovec *r, unsigned long rn,
                    unsigned long flags) {
	return syscall(SYS_process_vm_readv, pid, l, ln, r, rn, flags);
}
static long vm_write(pid_t pid, const struct iovec *l, unsigned long ln, const struct iovec *r, unsigned long rn,
                     unsigned long flags) {
	return syscall(SYS_process_vm_writev, pid, l, ln, r, rn, flags);
}

static void show(const char *what, long r) {
	if (r < 0)
		printf("%s: -1 (%s)\n", what, strerrorname_np(errno));
	else
		printf("%s: %ld\n", what, r);
}

static volatile pid_t thread_tid;
static volatile int thread_done;
static void *thread_main(void *arg) {
	(void)arg;
	thread_tid = gettid();
	while (!thread_done)
		usleep(1000);
	return NULL;
}

int main(void) {
	char out[64];
	struct iovec l = {out, sizeof out}, r = {shared_buf, 12};
	pid_t me = getpid();

	// Checks, in the kernel's order.
	show("flags 1", vm_read(me, &l, 1, &r, 1, 1));
	show("liovcnt 1025", vm_read(me, &l, 1025, &r, 1, 0));
	show("liovcnt 2^32+1", vm_read(me, &l, (1UL << 32) + 1, &r, 1, 0));
	show("local iov unreadable", vm_read(me, (struct iovec *)8, 1, &r, 1, 0));
	struct iovec empty = {out, 0};
	show("empty local, pid -1", vm_read(-1, &empty, 1, &r, 1, 0));
	show("riovcnt 1025", vm_read(me, &l, 1, &r, 1025, 0));
	show("riovcnt 2^32+1", vm_read(me, &l, 1, &r, (1UL << 32) + 1, 0));
	struct iovec rempty = {shared_buf, 0};
	show("empty remote, pid -1", vm_read(-1, &l, 1, &rempty, 1, 0));
	show("pid -1", vm_read(-1, &l, 1, &r, 1, 0));
	show("pid 0", vm_read(0, &l, 1, &r, 1, 0));

	// Itself.
	memset(out, 0, sizeof out);
	show("self read", vm_read(me, &l, 1, &r, 1, 0));
	printf("  read '%s'\n", out);
	char src[] = "ABCDEFGH";
	struct iovec l2[2] = {{src, 3}, {src + 3, 5}};
	struct iovec r2[2] = {{shared_buf + 20, 4}, {shared_buf + 30, 4}};
	show("self write, 2 local, 2 remote", vm_write(me, l2, 2, r2, 2, 0));
	printf("  wrote '%.4s' '%.4s'\n", shared_buf + 20, shared_buf + 30);

	// Two pages, the second unmapped: the copy stops at the page's end.
	long pg = sysconf(_SC_PAGESIZE);
	char *two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(two, 'x', pg);
	munmap(two + pg, pg);
	struct iovec span = {two + pg - 100, 200}, big = {out, sizeof out};
	char wide[256];
	struct iovec lw = {wide, sizeof wide};
	show("remote read across an unmapped page", vm_read(me, &lw, 1, &span, 1, 0));
	struct iovec gone = {two + pg, 8};
	show("remote read of an unmapped page", vm_read(me, &big, 1, &gone, 1, 0));
	struct iovec r3[2] = {{shared_buf, 8}, {two + pg, 8}};
	show("second remote iov unmapped", vm_read(me, &big, 1, r3, 2, 0));
	mprotect(two, pg, PROT_READ);
	struct iovec ro = {two, 8};
	show("remote write to a read-only page", vm_write(me, &big, 1, &ro, 1, 0));
	mprotect(two, pg, PROT_NONE);
	show("remote read of a PROT_NONE page", vm_read(me, &big, 1, &ro, 1, 0));

	// One of its threads, by its tid.
	pthread_t th;
	pthread_create(&th, NULL, thread_main, NULL);
	while (!thread_tid)
		usleep(1000);
	memset(out, 0, sizeof out);
	show("read by a thread's tid", vm_read(thread_tid, &l, 1, &r, 1, 0));
	printf("  read '%s'\n", out);
	thread_done = 1;
	pthread_join(th, NULL);

	// A child: its own copy of shared_buf, read and written by the parent.
	int p2c[2], c2p[2];
	pipe(p2c);
	pipe(c2p);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		char c;
		strcpy(shared_buf, "child data");
		write(c2p[1], "r", 1);
		read(p2c[0], &c, 1); // the parent has written
		printf("child sees '%s'\n", shared_buf);
		fflush(stdout);
		write(c2p[1], "s", 1);
		read(p2c[0], &c, 1);
		// Unprivileged, it may not read its root parent.
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			printf("setresuid failed\n");
		struct iovec cl = {out, sizeof out}, cr = {shared_buf, 12};
		show("unprivileged child reads its root parent", vm_read(getppid(), &cl, 1, &cr, 1, 0));
		show("unprivileged child reads itself", vm_read(getpid(), &cl, 1, &cr, 1, 0));
		fflush(stdout);
		_exit(0);
	}
	char c;
	read(c2p[0], &c, 1);
	memset(out, 0, sizeof out);
	show("read the child", vm_read(child, &l, 1, &r, 1, 0));
	printf("  read '%s' (own copy '%s')\n", out, shared_buf);
	char msg[] = "from parent";
	struct iovec lm = {msg, sizeof msg}, rm = {shared_buf, sizeof msg};
	show("write the child", vm_write(child, &lm, 1, &rm, 1, 0));
	write(p2c[1], "w", 1);
	read(c2p[0], &c, 1);
	write(p2c[1], "g", 1);
	int st;
	waitpid(child, &st, 0);
	printf("parent's copy still '%s'\n", shared_buf);

	// A zombie has no memory left.
	fflush(stdout);
	pid_t z = fork();
	if (z == 0)
		_exit(0);
	siginfo_t si;
	waitid(P_PID, z, &si, WEXITED | WNOWAIT);
	show("read a zombie", vm_read(z, &l, 1, &r, 1, 0));
	waitpid(z, &st, 0);
	show("read a reaped child", vm_read(z, &l, 1, &r, 1, 0));
	return 0;
}
