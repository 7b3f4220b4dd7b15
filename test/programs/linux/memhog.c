// Uses memory one way, given on the command line, to test rvsim's guest
// memory limit (--mem-limit):
//   malloc N   malloc and touch N MiB, 1 MiB at a time; print how many MiB
//              it got before malloc returned NULL, and exit 0
//   stack N    touch N KiB of stack (the stack is not charged when it is
//              mapped, so the touch itself must hit the limit)
//   read N     map N MiB read-only (not charged) and read every page
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static long touch_stack(long kib) {
	volatile char buf[1024];
	buf[0] = (char)kib;
	if (kib <= 1)
		return buf[0];
	return touch_stack(kib - 1) + buf[0];
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: memhog malloc|stack|read N\n");
		return 2;
	}
	long n = atol(argv[2]);
	if (strcmp(argv[1], "malloc") == 0) {
		long got = 0;
		for (; got < n; got++) {
			char *p = malloc(1 << 20);
			if (!p)
				break;
			memset(p, 1, 1 << 20);
		}
		printf("malloc: got %ld of %ld MiB\n", got, n);
		return 0;
	}
	if (strcmp(argv[1], "stack") == 0) {
		printf("stack: %ld\n", touch_stack(n) > 0 ? n : 0);
		return 0;
	}
	if (strcmp(argv[1], "read") == 0) {
		size_t size = (size_t)n << 20;
		volatile char *p = mmap(0, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			printf("read: mmap failed\n");
			return 1;
		}
		long sum = 0;
		for (size_t i = 0; i < size; i += 4096)
			sum += p[i];
		printf("read: %ld MiB, sum %ld\n", n, sum);
		return 0;
	}
	fprintf(stderr, "memhog: unknown mode %s\n", argv[1]);
	return 2;
}
