/* A guest program that reads the multi-hash profiler's accumulator window
 * (docs/PROFHW.md, "The accumulator window"): it loads four hot values in
 * a loop long enough for several 1,000-tuple intervals, then prints what
 * the window holds. The test places the window at mh_window. */
#include <stdint.h>
#include <stdio.h>

#define MAXENT 64
volatile uint64_t mh_window[8 + 4 * MAXENT] __attribute__((aligned(64)));
static volatile uint64_t hot[4] = {0x11, 0x22, 0x33, 0x44};

int main(void) {
	uint64_t sum = 0;
	for (int i = 0; i < 5500; i++)
		sum += hot[i & 3];
	/* Copy the window first: printf's own loads are tuples too, and an
	 * interval may end while it runs. */
	uint64_t w[8 + 4 * MAXENT];
	for (int i = 0; i < 8 + 4 * MAXENT; i++)
		w[i] = mh_window[i];
	printf("magic %llx seq %llu interval %llu threshold %llu entries %llu candidates %llu sum %llu\n",
	       (unsigned long long)w[0], (unsigned long long)w[1], (unsigned long long)w[2],
	       (unsigned long long)w[3], (unsigned long long)w[4], (unsigned long long)w[5],
	       (unsigned long long)sum);
	for (uint64_t i = 0; i < w[4] && i < MAXENT; i++) {
		uint64_t *e = &w[8 + 4 * i];
		if ((e[3] & 3) == 1)
			printf("candidate pc %llx word %llx count %llu\n", (unsigned long long)e[0],
			       (unsigned long long)e[1], (unsigned long long)e[2]);
	}
	return 0;
}
