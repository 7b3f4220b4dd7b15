/* Threads wait in mq_timedreceive and mq_send on a POSIX message queue
 * while the main thread works, then sends and receives: each wait must
 * block its thread, not the process, and end when the other side acts.
 * A timed receive ends with ETIMEDOUT. The output does not depend on
 * the schedule. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static mqd_t in, out;

static void *receiver(void *arg) {
	(void)arg;
	char buf[32];
	unsigned prio;
	ssize_t n = mq_receive(in, buf, sizeof buf, &prio);
	printf("receiver: %.*s prio %u\n", (int)n, buf, prio);
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 50000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	n = mq_timedreceive(in, buf, sizeof buf, NULL, &t);
	printf("receiver: timed %zd %s\n", n, n < 0 ? strerrorname_np(errno) : "");
	return NULL;
}

static void *sender(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++)
		mq_send(out, "early", 5, 1);
	int r = mq_send(out, "late", 4, 2); // waits: the queue holds three
	printf("sender: late sent %d\n", r);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	char a[64], b[64];
	snprintf(a, sizeof a, "/rvsim-thr-%d-a", getpid());
	snprintf(b, sizeof b, "/rvsim-thr-%d-b", getpid());
	struct mq_attr attr = {.mq_maxmsg = 3, .mq_msgsize = 32};
	in = mq_open(a, O_RDWR | O_CREAT, 0600, &attr);
	out = mq_open(b, O_RDWR | O_CREAT, 0600, &attr);
	mq_unlink(a);
	mq_unlink(b);
	pthread_t r, s;
	pthread_create(&r, NULL, receiver, NULL);
	pthread_create(&s, NULL, sender, NULL);
	volatile long sum = 0;
	for (long i = 0; i < 200000; i++) // the main thread works meanwhile
		sum += i;
	usleep(20000);
	mq_send(in, "hello", 5, 7);
	pthread_join(r, NULL);
	char buf[32];
	for (int i = 0; i < 4; i++) {
		unsigned prio;
		ssize_t n = mq_receive(out, buf, sizeof buf, &prio);
		if (i == 0)
			usleep(20000); // (the sender's late message takes the room)
		printf("main: %.*s prio %u\n", (int)n, buf, prio);
	}
	pthread_join(s, NULL);
	printf("main: worked %d\n", sum == 19999900000L);
	return 0;
}
