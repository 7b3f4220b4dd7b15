// Reads the cycle CSR (rdcycle) in a loop whose work depends on the
// values read, and prints them: in timing mode the output is the timing
// model's cycle counts, so it must be the same whether the model runs on
// the functional core's thread or its own (sim's TestTimingAsyncCycleCSR).
// Some reads follow a system call (a partial observer batch), some come
// in quick succession.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline unsigned long rdcycle(void) {
	unsigned long c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	unsigned long sum = 0, x = 1;
	for (int i = 0; i < rounds; i++) {
		unsigned long c = rdcycle();
		// Work whose length depends on the value read.
		for (unsigned long k = 0; k < 50 + (c & 511); k++)
			x = x * 6364136223846793005UL + k;
		sum += c ^ x;
		if (i % 16 == 0) {
			printf("%d %lu %lu\n", i, c, rdcycle() - c);
			fflush(stdout); // a write: the batch ends early
		}
	}
	printf("sum %lu\n", sum);
	return 0;
}
