/* Child processes that pass a token around a ring of process-shared
 * semaphores, each waiting with a 2 s timeout (as Python's
 * multiprocessing Barrier and Condition wait): no wait times out, and
 * the laps take no simulated time to speak of. The output must equal
 * the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/monotonic.h"

enum { N = 4, LAPS = 200 };

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	sem_t *sem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *timeouts = (int *)(sem + N);
	for (int i = 0; i < N; i++)
		sem_init(&sem[i], 1, 0);
	double t0 = now();
	for (int i = 0; i < N; i++) {
		if (fork() == 0) {
			for (int lap = 0; lap < LAPS; lap++) {
				struct timespec dl;
				clock_gettime(CLOCK_REALTIME, &dl);
				dl.tv_sec += 2;
				while (sem_timedwait(&sem[i], &dl) != 0) {
					if (errno == ETIMEDOUT) {
						__atomic_add_fetch(timeouts, 1, __ATOMIC_SEQ_CST);
						break;
					}
				}
				volatile int x = 0; /* some work with the token */
				for (int k = 0; k < 2000; k++)
					x += k;
				sem_post(&sem[(i + 1) % N]);
			}
			_exit(0);
		}
	}
	sem_post(&sem[0]);
	int ok = 0, st;
	while (wait(&st) > 0)
		ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	printf("%d children passed a token %d laps around a ring of semaphores: %d timed out, ended well %d, under 10 s: %s\n", N, LAPS,
		*timeouts, ok, now() - t0 < 10 ? "yes" : "no");
	return 0;
}
