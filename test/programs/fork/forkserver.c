/* A forkserver, as Python's multiprocessing has: the main process asks a
 * server child, over a pipe, for workers one at a time, computing between
 * requests; the workers (the main process's grandchildren) meet at a
 * barrier of process-shared semaphores, each waiting with a 2 s timeout.
 * No wait times out. The output must equal the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { N = 4 };

struct shared {
	sem_t gate;
	int arrived, timeouts, passed;
};

static void worker(struct shared *s) {
	if (__atomic_add_fetch(&s->arrived, 1, __ATOMIC_SEQ_CST) == N) {
		for (int i = 0; i < N - 1; i++)
			sem_post(&s->gate);
	} else {
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 2;
		while (sem_timedwait(&s->gate, &dl) != 0)
			if (errno == ETIMEDOUT) {
				__atomic_add_fetch(&s->timeouts, 1, __ATOMIC_SEQ_CST);
				_exit(1);
			}
	}
	__atomic_add_fetch(&s->passed, 1, __ATOMIC_SEQ_CST);
	_exit(0);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sem_init(&s->gate, 1, 0);
	int req[2], rep[2];
	pipe(req), pipe(rep);
	pid_t server = fork();
	if (server == 0) {
		char c;
		int ok = 0, st;
		while (read(req[0], &c, 1) == 1 && c == 'w') {
			if (fork() == 0)
				worker(s);
			write(rep[1], "k", 1);
		}
		while (wait(&st) > 0)
			ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
		_exit(ok);
	}
	for (int i = 0; i < N; i++) {
		volatile unsigned long x = 0; /* the main process works between requests */
		for (unsigned long k = 0; k < 300000; k++)
			x += k;
		char c;
		write(req[1], "w", 1);
		read(rep[0], &c, 1);
	}
	write(req[1], "q", 1);
	int st;
	waitpid(server, &st, 0);
	printf("%d workers from a forkserver met at a barrier: passed %d, timed out %d, the server saw %d end well\n", N, s->passed,
		s->timeouts, WEXITSTATUS(st));
	return 0;
}
