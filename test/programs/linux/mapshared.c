// mapshared FILE: writes FILE, maps it MAP_SHARED read-write, stores
// through the mapping, and reads the file back with read() after msync,
// through a second mapping, and after munmap; each check prints "ok" or
// "FAIL". The file is removed at the end.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char buf[8192];

static void check(int fd, long off, const char *want, const char *what) {
	ssize_t n = pread(fd, buf, strlen(want), off);
	int ok = n == (ssize_t)strlen(want) && memcmp(buf, want, n) == 0;
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

int main(int argc, char **argv) {
	if (argc != 2)
		return 2;
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	memset(buf, '.', sizeof buf);
	if (write(fd, buf, 6000) != 6000) {
		perror("write");
		return 1;
	}
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap MAP_SHARED");
		return 1;
	}
	memcpy(p + 100, "through the mapping", 19);
	if (msync(p, 8192, MS_SYNC) != 0)
		perror("msync");
	check(fd, 100, "through the mapping", "read() after msync");
	char *q = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	printf("%s second mapping sees it\n", q != MAP_FAILED && memcmp(q + 100, "through the mapping", 19) == 0 ? "ok  " : "FAIL");
	memcpy(p + 5000, "second page", 11);
	munmap(p, 8192);
	check(fd, 5000, "second page", "read() after munmap");
	off_t size = lseek(fd, 0, SEEK_END);
	printf("%s size stays %ld\n", size == 6000 ? "ok  " : "FAIL", (long)size);
	close(fd);
	unlink(argv[1]);
	return 0;
}
