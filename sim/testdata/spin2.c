/* Two threads that spin without system calls: switches between them
 * happen only at the end of a quantum. */
#include <pthread.h>
#include <stdio.h>

static volatile long sink[2];

static void *spin(void *a) {
	long id = (long)a;
	for (long i = 0; i < 20000; i++)
		sink[id] += i;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, spin, (void *)1);
	spin((void *)0);
	pthread_join(t, NULL);
	printf("%ld %ld\n", sink[0], sink[1]);
	return 0;
}
