/* Two threads that wait for each other forever: rvsim ends the run with a
 * one-line deadlock error (Linux would hang). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;

static void *other(void *arg) {
	(void)arg;
	pthread_mutex_lock(&b);
	pthread_barrier_wait(&bar);
	pthread_mutex_lock(&a);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t, NULL, other, NULL);
	pthread_mutex_lock(&a);
	pthread_barrier_wait(&bar);
	printf("both hold a lock\n");
	fflush(stdout);
	pthread_mutex_lock(&b);
	return 0;
}
