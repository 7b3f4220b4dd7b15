// Shared by the process test programs (fork/): a call's result as a
// phrase that reads the same on every kernel.
#include <errno.h>
#include <stdio.h>
#include <string.h>

// result is r, or "-1 (ENAME)" with errno's name when r < 0.
static const char *result(long r) {
	static char b[64];
	if (r < 0)
		snprintf(b, sizeof b, "-1 (%s)", strerrorname_np(errno));
	else
		snprintf(b, sizeof b, "%ld", r);
	return b;
}
