/* The futex system call directly: timeouts, EAGAIN, WAKE counts, REQUEUE,
 * CMP_REQUEUE and the bitset operations, with output that does not depend
 * on the schedule. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int fails;
#define CHECK(c) do { if (c) printf("ok   %s\n", #c); else { printf("FAIL %s\n", #c); fails++; } } while (0)

static long futex(uint32_t *u, int op, uint32_t val, const struct timespec *ts, uint32_t *u2, uint32_t val3) {
	return syscall(SYS_futex, u, op, val, ts, u2, val3);
}

#define N 3
/* f1 is both the waiters' condition and their futex word (0: wait), so a
 * waiter that checks it just before it turns 1 gets EAGAIN from its wait
 * instead of sleeping through the wakes (under qemu-riscv64, where threads
 * really run at once, a separate flag lost that race and hung). */
static uint32_t f1, f2;
static volatile int done;

static void *waiter(void *arg) {
	(void)arg;
	while (__atomic_load_n(&f1, __ATOMIC_SEQ_CST) == 0)
		futex(&f1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static uint32_t bits;
static volatile int bit_done;
static void *bit_waiter(void *arg) {
	(void)arg;
	while (__atomic_load_n(&bits, __ATOMIC_SEQ_CST) == 0)
		futex(&bits, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, 2);
	bit_done = 1;
	return NULL;
}

int main(void) {
	uint32_t v = 5;
	struct timespec ts = {0, 5000000};
	errno = 0;
	CHECK(futex(&v, FUTEX_WAIT_PRIVATE, 4, &ts, NULL, 0) == -1 && errno == EAGAIN);
	CHECK(futex(&v, FUTEX_WAIT_PRIVATE, 5, &ts, NULL, 0) == -1 && errno == ETIMEDOUT);
	struct timespec abs;
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 2000000;
	if (abs.tv_nsec >= 1000000000) { abs.tv_sec++; abs.tv_nsec -= 1000000000; }
	CHECK(futex(&v, FUTEX_WAIT_BITSET_PRIVATE, 5, &abs, NULL, FUTEX_BITSET_MATCH_ANY) == -1 && errno == ETIMEDOUT);
	CHECK(futex(&v, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0);
	CHECK(futex(&v, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &f2, 4) == -1 && errno == EAGAIN);
	CHECK(futex(&v, FUTEX_WAIT_BITSET_PRIVATE, 5, NULL, NULL, 0) == -1 && errno == EINVAL);

	/* Waiters on f1 are requeued onto f2, then woken there. */
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	usleep(20000);
	long moved = 0;
	while (moved < N - 1 && done == 0) {
		long r = futex(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)(intptr_t)N, &f2, 0);
		if (r < 0) break;
		moved += r;
		if (moved < N - 1) usleep(1000);
	}
	__atomic_store_n(&f1, 1, __ATOMIC_SEQ_CST);
	futex(&f1, FUTEX_WAKE_PRIVATE, N, NULL, NULL, 0);
	futex(&f2, FUTEX_WAKE_PRIVATE, N, NULL, NULL, 0);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	CHECK(done == N);

	/* WAKE_BITSET with a bit the waiter does not wait for wakes nobody. */
	pthread_t bt;
	pthread_create(&bt, NULL, bit_waiter, NULL);
	usleep(20000);
	CHECK(futex(&bits, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 1) == 0);
	CHECK(bit_done == 0);
	__atomic_store_n(&bits, 1, __ATOMIC_SEQ_CST);
	while (futex(&bits, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 2) == 0 && !bit_done)
		usleep(1000);
	pthread_join(bt, NULL);
	CHECK(bit_done == 1);

	printf("%d failures\n", fails);
	return fails;
}
