// Shared by the process test programs (fork/): the monotonic clock in
// seconds, for the times they compare against a bound.
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
