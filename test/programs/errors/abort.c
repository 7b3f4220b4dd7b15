// Calls abort() after printing a line: exit status 128+SIGABRT = 134 and
// "Aborted" from rvsim.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
	printf("about to abort\n");
	fflush(stdout);
	abort();
}
