// mapshared FILE: writes FILE, maps it MAP_SHARED read-write, stores
// through the mapping, and reads the file back with read() after msync,
// through a second mapping, and after munmap. Then the page cache's
// coherence: a mapping of a later part of a mapped file, read() of a
// store without msync, write(), pwrite(), copy_file_range(), ftruncate()
// and open(O_TRUNC) seen at once through read-write and read-only mappings,
// a forked child's pwrite() seen by its parent, and a read-only mapping
// grown by mremap. Each check prints "ok" or "FAIL". The file is removed
// at the end.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void same(const char *got, const char *want, const char *what) {
	printf("%s %s\n", memcmp(got, want, strlen(want)) == 0 ? "ok  " : "FAIL", what);
}

static void zero(const char *got, const char *what) {
	static const char zeros[4];
	printf("%s %s\n", memcmp(got, zeros, sizeof zeros) == 0 ? "ok  " : "FAIL", what);
}

// coherence checks what read() and write() of a file mapped shared show.
static void coherence(const char *path) {
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char page[4096];
	for (int i = 0; i < 3; i++) {
		memset(page, 'a' + i, sizeof page);
		write(fd, page, sizeof page);
	}
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	int ro = open(path, O_RDONLY);
	char *r = mmap(NULL, 8192, PROT_READ, MAP_SHARED, ro, 0);
	if (p == MAP_FAILED || w == MAP_FAILED || r == MAP_FAILED) {
		perror("mmap");
		return;
	}
	same(w, "bbbb", "a mapping of the second page of a mapped file");
	same(r + 4096, "bbbb", "a read-only mapping of both pages");
	memcpy(p + 10, "stored", 6);
	char *n = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	same(n + 10, "stored", "a new mapping sees a store not yet written back");
	munmap(n, 4096);
	char got[16] = {0};
	pread(fd, got, 6, 10);
	same(got, "stored", "read() of a store, without msync");
	same(r + 10, "stored", "the store through the other mapping");
	pwrite(fd, "pwritten", 8, 4096 + 20);
	same(w + 20, "pwritten", "pwrite() through the read-write mapping");
	same(r + 4096 + 20, "pwritten", "pwrite() through the read-only mapping");
	lseek(fd, 30, SEEK_SET);
	write(fd, "written", 7);
	same(p + 30, "written", "write() at the file position");
	memcpy(p + 40, "kept", 4);
	pwrite(fd, "over", 4, 50);
	same(p + 40, "kept", "a store beside a later pwrite()");
	int src = open(path, O_RDONLY);
	off64_t in = 8192, out = 60;
	copy_file_range(src, &in, fd, &out, 5, 0);
	same(p + 60, "ccccc", "copy_file_range() into the mapping");
	close(src);
	ftruncate(fd, 4096 + 100);
	zero(w + 100, "ftruncate() zeroes past the new end");
	ftruncate(fd, 3 * 4096);
	pid_t pid = fork();
	if (pid == 0) {
		pwrite(fd, "child", 5, 200);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	same(p + 200, "child", "a child's pwrite() seen by its parent");
	char *g = mremap(r, 8192, 3 * 4096, MREMAP_MAYMOVE);
	zero(g + 8192, "a read-only mapping grown by mremap");
	pwrite(fd, "end", 3, 8192 + 5);
	same(g + 8192 + 5, "end", "pwrite() into the grown part");
	int t = open(path, O_RDWR | O_TRUNC);
	pwrite(t, "x", 1, 4095);
	zero(p + 10, "open(O_TRUNC) of a mapped file");
	close(t);
	munmap(p, 4096);
	munmap(w, 4096);
	munmap(g, 3 * 4096);
	close(ro);
	close(fd);
}

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
	coherence(argv[1]);
	unlink(argv[1]);
	return 0;
}
