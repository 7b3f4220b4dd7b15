/* Memory shared between processes (MAP_SHARED): what a child stores there
 * its parent sees and the other way round, whichever touched a page first;
 * permissions stay each process's own; futexes in it wake across processes
 * (process-shared semaphores); a child's stores through a shared file
 * mapping reach the file after its parent unmapped it, and two mappings
 * of one file show the same bytes (with argv[1] = "alias", two in one
 * process). rvsim's processes
 * take turns at fixed points (a child runs from its fork until it ends or
 * waits), so the output's order is fixed; test/fork_test.go holds it
 * (sharedWant), written from Linux's semantics. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(int ok, const char *what) {
	if (!ok) {
		perror(what);
		exit(1);
	}
}

static void wait_child(const char *what, pid_t pid) {
	int st;
	check(waitpid(pid, &st, 0) == pid, "waitpid");
	if (WIFEXITED(st))
		printf("%s: exited with %d\n", what, WEXITSTATUS(st));
	else
		printf("%s: killed by signal %d\n", what, WTERMSIG(st));
}

/* shared_in_maps reports whether /proc/self/maps shows the mapping at a
 * as shared: the line whose range holds a (a private mapping may have
 * merged with an older neighbour, as libc's .bss when ld.so's cache left
 * no gap, so its line need not start at a). */
static int shared_in_maps(void *a) {
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	check(f != NULL, "maps");
	int s = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= (unsigned long)a && (unsigned long)a < hi)
			s = strchr(line, ' ')[4] == 's';
	}
	fclose(f);
	return s;
}

/* alias: two shared mappings of one file in one process show the same
 * bytes (not under --difftest: its reference keeps two copies). */
static int alias(void) {
	int fd = open("alias.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, "0123456789", 10) == 10, "alias.dat");
	char *a = mmap(NULL, 10, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *b = mmap(NULL, 10, PROT_READ, MAP_SHARED, fd, 0);
	check(a != MAP_FAILED && b != MAP_FAILED, "mmap");
	memcpy(a + 2, "ab", 2);
	printf("the other mapping sees: %.10s\n", b);
	check(munmap(a, 10) == 0, "munmap");
	char buf[11] = {0};
	check(pread(fd, buf, 10, 0) == 10, "pread");
	printf("file: %s\n", buf);
	unlink("alias.dat");
	return 0;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && strcmp(argv[1], "alias") == 0)
		return alias();
	long pg = sysconf(_SC_PAGESIZE);
	char *a = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(a != MAP_FAILED && p != MAP_FAILED, "mmap");
	printf("maps: shared %d, private %d\n", shared_in_maps(a), shared_in_maps(p));
	strcpy(a, "parent");
	strcpy(p, "private");
	pid_t pid = fork();
	if (pid == 0) {
		printf("child sees: %s\n", a);
		strcpy(a, "child");
		strcpy(a + 2 * pg, "a page untouched before the fork");
		strcpy(p, "the child's copy");
		_exit(0);
	}
	wait_child("writer", pid);
	printf("shared: %s; %s; private: %s\n", a, a + 2 * pg, p);

	/* The child's mprotect is its own; MADV_DONTNEED drops its view of a
	 * shared page, not the bytes; a mapping moved by mremap still shares. */
	pid = fork();
	if (pid == 0) {
		check(mprotect(a, pg, PROT_READ) == 0, "mprotect");
		check(madvise(a + 2 * pg, pg, MADV_DONTNEED) == 0, "madvise");
		printf("after MADV_DONTNEED: %s\n", a + 2 * pg);
		char *b = mremap(a + pg, 2 * pg, 5 * pg, MREMAP_MAYMOVE);
		check(b != MAP_FAILED, "mremap");
		strcpy(b, "through mremap");
		strcpy(b + 4 * pg, "the grown part");
		_exit(0);
	}
	wait_child("mprotect, madvise, mremap", pid);
	strcpy(a, "still writable here");
	printf("%s; %s\n", a, a + pg);

	/* Process-shared semaphores: 1000 round trips, each a futex wait
	 * that only the other process can end. */
	sem_t *s = (sem_t *)(a + 3 * pg);
	int *counter = (int *)(a + 3 * pg + 256);
	check(sem_init(&s[0], 1, 0) == 0 && sem_init(&s[1], 1, 0) == 0, "sem_init");
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 1000; i++) {
			sem_wait(&s[0]);
			++*counter;
			sem_post(&s[1]);
		}
		_exit(0);
	}
	for (int i = 0; i < 1000; i++) {
		++*counter;
		sem_post(&s[0]);
		sem_wait(&s[1]);
	}
	wait_child("semaphores", pid);
	printf("counter %d\n", *counter);

	/* A shared file mapping: the child stores after its parent unmapped
	 * its own view; the store reaches the file when the child exits. */
	int fd = open("shared.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, "................", 16) == 16, "shared.dat");
	char *f = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(f != MAP_FAILED, "mmap shared.dat");
	memcpy(f, "parent", 6);
	int pp[2];
	check(pipe(pp) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		char c;
		check(read(pp[0], &c, 1) == 1, "read");
		printf("child sees in the file's mapping: %.16s\n", f);
		memcpy(f + 8, "child", 5);
		_exit(0);
	}
	check(munmap(f, 16) == 0, "munmap");
	check(write(pp[1], "x", 1) == 1, "write");
	wait_child("file writer", pid);
	char buf[17] = {0};
	check(pread(fd, buf, 16, 0) == 16, "pread");
	printf("file: %s\n", buf);

	/* A child's own new mapping of the file shows the same bytes as its
	 * parent's (one page cache). */
	char *g = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(g != MAP_FAILED, "mmap again");
	memcpy(g, "one", 3);
	pid = fork();
	if (pid == 0) {
		int cfd = open("shared.dat", O_RDWR);
		check(cfd >= 0, "open");
		char *h = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		check(h != MAP_FAILED, "the child's mapping");
		printf("the child's mapping sees: %.16s\n", h);
		memcpy(h + 3, "TWO", 3);
		_exit(0);
	}
	wait_child("a child's own mapping", pid);
	printf("the parent's mapping sees: %.16s\n", g);
	check(munmap(g, 16) == 0, "munmap");
	check(pread(fd, buf, 16, 0) == 16, "pread");
	printf("file: %s\n", buf);
	unlink("shared.dat");
	return 0;
}
