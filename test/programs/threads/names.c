/* Thread names: pthread_setname_np and pthread_getname_np on the calling
 * thread (prctl) and on another one (its /proc/self/task/TID/comm), a new
 * thread's inherited name, a name too long (ERANGE), and /proc/self/comm.
 * Compared with qemu-riscv64. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static pthread_barrier_t b;
static void *worker(void *arg) {
	char n[16];
	pthread_barrier_wait(&b); // renamed by main
	pthread_getname_np(pthread_self(), n, sizeof n);
	printf("worker sees %s\n", n);
	pthread_barrier_wait(&b);
	return 0;
}
int main(void) {
	pthread_t t;
	char n[16];
	pthread_barrier_init(&b, 0, 2);
	pthread_setname_np(pthread_self(), "mainthread");
	pthread_create(&t, 0, worker, 0);
	pthread_getname_np(t, n, sizeof n);
	printf("new thread named %s\n", n);
	printf("set: %d\n", pthread_setname_np(t, "worker-long-name-x"));
	printf("set short: %d\n", pthread_setname_np(t, "worker"));
	pthread_getname_np(t, n, sizeof n);
	printf("main sees %s\n", n);
	pthread_barrier_wait(&b);
	pthread_barrier_wait(&b);
	pthread_join(t, 0);
	FILE *f = fopen("/proc/self/comm", "r");
	fgets(n, sizeof n, f);
	printf("comm %s", n);
	return 0;
}
