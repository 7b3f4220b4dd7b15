/* The program exec.c's last stage runs: another program, at other
 * addresses, so that code left over from the old image would show. It
 * prints its arguments and one variable of its environment, and exits
 * with 42. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++)
		printf("target argv[%d] = %s\n", i, argv[i]);
	const char *v = getenv("STAGE");
	printf("target STAGE = %s\n", v ? v : "(unset)");
	long sum = 0;
	for (long i = 0; i < 100000; i++)
		sum += i * (i & 7);
	printf("target sum = %ld\n", sum);
	return 42;
}
