/* A small guest for the pprof tests: most of its time is in hot_loop,
   called from main through warm. Built with -g by the tests. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long hot_loop(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) unsigned long warm(unsigned long n)
{
	unsigned long s = 0;
	for (int k = 0; k < 20; k++)
		s += hot_loop(n + k);
	return s;
}

int main(void)
{
	sink = warm(5000);
	printf("%lu\n", sink);
	return 0;
}
