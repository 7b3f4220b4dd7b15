// procself: reads the files of /proc/self that describe the process and
// calls pthread_getattr_np on the main thread (glibc finds the main
// thread's stack in /proc/self/maps). Each file is printed between
// "== NAME" and "== end" lines for the test to parse; checks the program
// can make itself print "ok NAME" or "FAIL NAME: why".
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 20];

// slurp reads the whole file with small reads, as a reader that does not
// trust st_size does; it returns the length or -1.
static long slurp(const char *path) {
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("FAIL %s: open: %s\n", path, strerror(errno));
		return -1;
	}
	long n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, 100);
		if (r < 0) {
			printf("FAIL %s: read: %s\n", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = 0;
	return n;
}

static void dump(const char *name) {
	char path[64];
	snprintf(path, sizeof path, "/proc/self/%s", name);
	long n = slurp(path);
	if (n < 0)
		return;
	printf("== %s\n%s== end\n", name, buf);
}

int main(int argc, char **argv) {
	int local;
	printf("sp %lx\n", (unsigned long)&local);
	printf("phdr %lx\n", getauxval(AT_PHDR));
	dump("maps");
	dump("status");
	dump("stat");

	long n = slurp("/proc/self/cmdline");
	if (n >= 0) {
		long want = 0;
		for (int i = 0; i < argc; i++)
			want += strlen(argv[i]) + 1;
		int same = n == want;
		for (long off = 0, i = 0; same && i < argc; off += strlen(argv[i]) + 1, i++)
			same = strcmp(buf + off, argv[i]) == 0;
		printf(same ? "ok cmdline\n" : "FAIL cmdline: %ld bytes, not argv\n", n);
	}

	n = slurp("/proc/self/auxv");
	if (n >= 0) {
		Elf64_auxv_t *a = (Elf64_auxv_t *)buf;
		long pairs = n / sizeof *a, found = 0;
		int end = n % sizeof *a == 0 && pairs > 0 && a[pairs - 1].a_type == AT_NULL;
		for (long i = 0; i < pairs; i++)
			if (a[i].a_type == AT_PHDR || a[i].a_type == AT_PAGESZ || a[i].a_type == AT_ENTRY)
				found += a[i].a_un.a_val == getauxval(a[i].a_type);
		if (end && found == 3)
			printf("ok auxv\n");
		else
			printf("FAIL auxv: %ld bytes, AT_NULL last %d, %ld of AT_PHDR, AT_PAGESZ, AT_ENTRY agree\n", n, end, found);
	}

	struct stat st;
	if (stat("/proc/self/maps", &st) != 0 || !S_ISREG(st.st_mode))
		printf("FAIL stat maps\n");
	else
		printf("ok stat maps\n");

	pthread_attr_t attr;
	void *addr;
	size_t size;
	int e = pthread_getattr_np(pthread_self(), &attr);
	if (e != 0) {
		printf("FAIL pthread_getattr_np: %s\n", strerror(e));
	} else if ((e = pthread_attr_getstack(&attr, &addr, &size)) != 0) {
		printf("FAIL pthread_attr_getstack: %s\n", strerror(e));
	} else {
		char *lo = addr, *hi = lo + size, *sp = (char *)&local;
		printf(lo <= sp && sp < hi ? "ok pthread stack\n" : "FAIL pthread stack %p+%zx lacks sp %p\n", addr, size, sp);
	}
	return 0;
}
