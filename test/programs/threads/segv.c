/* A thread that segfaults kills the whole process, as on Linux: the main
 * thread waits in pthread_join and never prints its last line. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static void *crash(void *arg) {
	(void)arg;
	printf("thread: about to fault\n");
	fflush(stdout);
	volatile int *p = (volatile int *)(uintptr_t)16;
	*p = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	printf("main: start\n");
	fflush(stdout);
	pthread_create(&t, NULL, crash, NULL);
	pthread_join(t, NULL);
	printf("main: not reached\n");
	return 0;
}
