/* Threads of one process contend for a file's locks through open file
 * descriptions of their own: flock and an OFD record lock
 * (F_OFD_SETLKW). A thread that waits for a lock another thread holds
 * must wait as a thread while the holder runs on; before, flock's wait
 * held the whole process, found nothing else to run, and returned EINTR
 * with a warning. The output does not depend on the schedule. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static char path[] = "locks.XXXXXX";
static volatile int held, phase;

static int ofd(int fd, short type) {
	struct flock l = {.l_type = type, .l_whence = SEEK_SET};
	return fcntl(fd, F_OFD_SETLKW, &l);
}

static void *taker(void *arg) {
	(void)arg;
	int fd = open(path, O_RDWR);
	while (phase < 1)
		sched_yield();
	int r = flock(fd, LOCK_EX);
	printf("flock: %d %s, holder gone %d\n", r, r ? strerror(errno) : "ok", !held);
	int n = flock(fd, LOCK_EX | LOCK_NB); // (already ours: a conversion)
	printf("flock again: %d\n", n);
	flock(fd, LOCK_UN);
	phase = 2;
	while (phase < 3)
		sched_yield();
	r = ofd(fd, F_WRLCK);
	printf("ofd: %d %s, holder gone %d\n", r, r ? strerror(errno) : "ok", !held);
	ofd(fd, F_UNLCK);
	close(fd);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	pthread_t t;
	pthread_create(&t, NULL, taker, NULL);
	flock(fd, LOCK_EX);
	held = 1;
	phase = 1;
	usleep(20000);
	printf("main: flock held, the other waits %d\n", flock(open(path, O_RDWR), LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK);
	held = 0;
	flock(fd, LOCK_UN);
	while (phase < 2)
		sched_yield();
	ofd(fd, F_WRLCK);
	held = 1;
	phase = 3;
	usleep(20000);
	held = 0;
	ofd(fd, F_UNLCK);
	pthread_join(t, NULL);
	unlink(path);
	printf("main: done\n");
	return 0;
}
