// Shared by the signal test programs: CHECK prints one "ok"/"FAIL" line
// per condition, so that the output under rvsim can be compared line by
// line with the output under qemu-riscv64.
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (cond)                                                    \
			printf("ok   %s\n", #cond);                          \
		else {                                                       \
			printf("FAIL %s (line %d, errno %s)\n", #cond, __LINE__, \
			       strerrorname_np(errno));                      \
			failures++;                                          \
		}                                                            \
		fflush(stdout);                                              \
	} while (0)
