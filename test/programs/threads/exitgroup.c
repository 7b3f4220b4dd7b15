/* A thread that calls exit() ends the process with its status (exit_group)
 * while the main thread is blocked in pthread_join and another sleeps. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *sleeper(void *arg) {
	(void)arg;
	for (;;)
		sleep(100);
	return NULL;
}

static void *quitter(void *arg) {
	(void)arg;
	printf("quitter: exit(7)\n");
	exit(7);
}

int main(void) {
	pthread_t s, q;
	pthread_create(&s, NULL, sleeper, NULL);
	pthread_create(&q, NULL, quitter, NULL);
	pthread_join(s, NULL);
	printf("main: not reached\n");
	return 0;
}
