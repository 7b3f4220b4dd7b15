// A small program built both statically and dynamically (it needs
// libc.so.6 and libm.so.6 when dynamic): prints its arguments and a
// libm result, and exits with status 3.
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
	volatile double x = 2.0 * argc;
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	printf("sqrt(%g) = %.6f\n", x, sqrt(x));
	return 3;
}
