// Shared by the Linux test programs (signals/, sysio/, syscalls/): CHECK
// prints one "ok"/"FAIL" line per condition and ERR one per call that
// must fail with a given errno, so that the output under rvsim can be
// compared line by line with the output under qemu-riscv64 (or the host).
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

// ERR runs a call that must fail with errno e.
#define ERR(call, e)                                                         \
	do {                                                                 \
		errno = 0;                                                   \
		long r_ = (long)(call);                                      \
		if (r_ == -1 && errno == (e))                                \
			printf("ok   %s -> %s\n", #call, #e);                    \
		else {                                                       \
			printf("FAIL %s -> %ld %s, want %s\n", #call, r_,        \
			       strerrorname_np(errno), #e);                  \
			failures++;                                          \
		}                                                            \
		fflush(stdout);                                              \
	} while (0)
