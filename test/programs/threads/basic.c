/* Threads whose output does not depend on the schedule: pthread_create and
 * join with return values, mutexes, condition variables, a barrier,
 * __thread variables, sched_yield, gettid. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define N 4

static __thread int tls_counter = 100;
static __thread char tls_name[16];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static long shared_sum;
static int turn;            /* which thread may append next (condvar) */
static char order[N + 1];   /* filled in thread order 0..N-1 */
static pid_t tids[N];

static void *worker(void *arg) {
	int id = (int)(intptr_t)arg;
	tids[id] = (pid_t)syscall(SYS_gettid);
	snprintf(tls_name, sizeof tls_name, "worker%d", id);
	for (int i = 0; i < 1000; i++) {
		tls_counter++;
		pthread_mutex_lock(&mu);
		shared_sum += id + 1;
		pthread_mutex_unlock(&mu);
		if (i % 100 == 0)
			sched_yield();
	}
	/* Everyone reaches the barrier before anyone takes a turn. */
	int r = pthread_barrier_wait(&bar);
	(void)r;
	pthread_mutex_lock(&mu);
	while (turn != id)
		pthread_cond_wait(&cv, &mu);
	order[id] = 'a' + id;
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	char *ret = malloc(32);
	snprintf(ret, 32, "%s:%d", tls_name, tls_counter);
	return ret;
}

int main(void) {
	pthread_t th[N];
	pthread_barrier_init(&bar, NULL, N);
	for (int i = 0; i < N; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) != 0) {
			printf("pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < N; i++) {
		void *ret;
		if (pthread_join(th[i], &ret) != 0) {
			printf("pthread_join failed\n");
			return 1;
		}
		printf("joined %d: %s\n", i, (char *)ret);
		free(ret);
	}
	printf("sum %ld (want %d)\n", shared_sum, 1000 * (1 + 2 + 3 + 4));
	printf("order %s\n", order);
	printf("main tls %d\n", tls_counter);
	int distinct = 1;
	pid_t me = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < N; i++) {
		if (tids[i] == me || tids[i] <= 0)
			distinct = 0;
		for (int j = 0; j < i; j++)
			if (tids[i] == tids[j])
				distinct = 0;
	}
	printf("main tid is pid: %d, thread tids distinct: %d\n", me == getpid(), distinct);
	pthread_barrier_destroy(&bar);
	return 0;
}
