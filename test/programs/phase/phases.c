/* A program with known phases for the Phase Tracker's tests
 * (profhw/phase): three loops of different code, A, B and C, run in the
 * order A B A C B A, each for about a million instructions (20 intervals
 * of 50,000 instructions). argv[1], if given, scales every segment. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* A: a linear congruential generator with a data-dependent branch. */
__attribute__((noinline)) static unsigned long phase_a(long n)
{
	unsigned long x = 1;
	for (long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + (unsigned long)i;
		if (x & 0x100)
			x ^= (unsigned long)i;
	}
	return x;
}

/* B: a nested loop summing bit fields. */
__attribute__((noinline)) static unsigned long phase_b(long n)
{
	unsigned long s = 0;
	for (long i = 0; i < n; i++)
		for (int j = 0; j < 4; j++)
			if ((i >> j) & 1)
				s += (unsigned long)j;
	return s;
}

static unsigned int table[1024];

/* C: a strided walk over an array with a compare and a swap. */
__attribute__((noinline)) static unsigned long phase_c(long n)
{
	unsigned long s = 0;
	for (long i = 0; i < n; i++) {
		unsigned int k = (unsigned int)(i * 7) & 1023, m = (k + 1) & 1023;
		if (table[k] > table[m]) {
			unsigned int t = table[k];
			table[k] = table[m];
			table[m] = t;
		}
		s += table[k];
		table[m] += (unsigned int)i;
	}
	return s;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	const char *order = "ABACBA";
	for (const char *p = order; *p; p++) {
		switch (*p) {
		case 'A': sink += phase_a(100000 * scale); break;
		case 'B': sink += phase_b(40000 * scale); break;
		case 'C': sink += phase_c(60000 * scale); break;
		}
	}
	printf("%lu\n", sink);
	return 0;
}
