/* System V semaphores between a parent and its children (semget, semop,
 * semtimedop, semctl): a keyed set found again, EEXIST, ENOENT and the
 * argument errors; SETVAL, SETALL, GETVAL, GETALL, GETPID; an operation
 * array applied all or nothing, the same semaphore twice, wait-for-zero;
 * a child that waits until its parent posts, GETNCNT and GETZCNT while
 * it waits, two waiters served in the order they came; SEM_UNDO undone
 * when a child ends, and SETVAL clearing what it would undo; a timeout,
 * a signal (EINTR whatever SA_RESTART says), IPC_RMID under a waiter
 * (EIDRM), IPC_SET, IPC_INFO and SEM_INFO, SEM_STAT, and the set's line
 * in /proc/sysvipc/sem. Before, semget was ENOSYS. The output must equal
 * the host's (ids, keys and times are compared, not printed). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/result.h"

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *__buf;
};

static int id;

static int op(unsigned short num, short delta, short flags) {
	struct sembuf b = {num, delta, flags};
	return semop(id, &b, 1);
}

static int val(int num) { return semctl(id, num, GETVAL); }

static void setval(int num, int v) { semctl(id, num, SETVAL, (union semun){.val = v}); }

// waitFor polls until semaphore num has n waiters of the kind (GETNCNT
// or GETZCNT): a child has queued its operation.
static void waitFor(int num, int cmd, int n) {
	for (int i = 0; i < 5000 && semctl(id, num, cmd) != n; i++)
		usleep(1000);
}

static void onAlarm(int sig) { (void)sig; }

static void reap(const char *what, pid_t pid) {
	int st;
	waitpid(pid, &st, 0);
	printf("%s: exit %d\n", what, WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st));
}

int main(void) {
	int r;
	setvbuf(stdout, NULL, _IOLBF, 0);
	key_t key = 0x53560000 + (getpid() & 0xffff);
	printf("get missing key: %s\n", result(semget(key, 3, 0600)));
	printf("nsems 0: %s\n", result(semget(IPC_PRIVATE, 0, IPC_CREAT | 0600)));
	printf("nsems 32001: %s\n", result(semget(IPC_PRIVATE, 32001, IPC_CREAT | 0600)));
	printf("nsems -1: %s\n", result(semget(IPC_PRIVATE, -1, IPC_CREAT | 0600)));
	id = semget(key, 3, IPC_CREAT | IPC_EXCL | 0640);
	printf("create keyed: %s\n", id >= 0 ? "ok" : result(id));
	printf("again with IPC_EXCL: %s\n", result(semget(key, 3, IPC_CREAT | IPC_EXCL | 0600)));
	printf("again by key: %d\n", semget(key, 0, 0) == id && semget(key, 2, 0) == id);
	printf("again, more: %s\n", result(semget(key, 4, 0)));

	struct semid_ds ds;
	printf("stat: %s", result(semctl(id, 0, IPC_STAT, (union semun){.buf = &ds})));
	printf(", nsems %lu, mode %o, otime %ld, ctime set %d, owner is me %d, key kept %d\n", (unsigned long)ds.sem_nsems,
	       ds.sem_perm.mode, (long)ds.sem_otime, ds.sem_ctime != 0,
	       ds.sem_perm.uid == geteuid() && ds.sem_perm.cuid == geteuid(), ds.sem_perm.__key == key);
	printf("new values: %d %d %d, pid %d\n", val(0), val(1), val(2), semctl(id, 0, GETPID));

	unsigned short all[3] = {4, 0, 1}, got[3];
	printf("setall: %s\n", result(semctl(id, 0, SETALL, (union semun){.array = all})));
	semctl(id, 0, GETALL, (union semun){.array = got});
	printf("getall: %d %d %d, pid is me %d\n", got[0], got[1], got[2], semctl(id, 1, GETPID) == getpid());
	unsigned short big[3] = {1, 32768, 1};
	printf("setall 32768: %s\n", result(semctl(id, 0, SETALL, (union semun){.array = big})));
	printf("setval 32768: %s\n", result(semctl(id, 0, SETVAL, (union semun){.val = 32768})));
	printf("setval -1: %s\n", result(semctl(id, 0, SETVAL, (union semun){.val = -1})));
	printf("getval 3: %s\n", result(semctl(id, 3, GETVAL)));
	printf("getval -1: %s\n", result(semctl(id, -1, GETVAL)));
	printf("bad cmd: %s\n", result(semctl(id, 0, 99)));
	printf("bad id: %s\n", result(semctl(id + 1, 0, GETVAL)));
	printf("negative id: %s\n", result(semctl(-1, 0, IPC_INFO, (union semun){.__buf = NULL})));

	// Operation arrays.
	printf("P on 1 (0), nowait: %s\n", result(op(1, -1, IPC_NOWAIT)));
	struct sembuf two[2] = {{0, 1, 0}, {1, -1, IPC_NOWAIT}};
	r = semop(id, two, 2);
	printf("+1 on 0 and -1 on 1, nowait: %s, values %d %d\n", result(r), val(0), val(1));
	struct sembuf dup[2] = {{0, -3, 0}, {0, -2, IPC_NOWAIT}};
	r = semop(id, dup, 2);
	printf("-3 then -2 on 0 (4): %s, value %d\n", result(r), val(0));
	dup[1].sem_op = -1;
	r = semop(id, dup, 2);
	printf("-3 then -1 on 0 (4): %s, value %d\n", result(r), val(0));
	struct sembuf incZero[2] = {{2, 1, 0}, {2, 0, IPC_NOWAIT}};
	r = semop(id, incZero, 2);
	printf("+1 then wait-for-zero on 2: %s, value %d\n", result(r), val(2));
	struct sembuf zeroDec[2] = {{0, 0, 0}, {2, -1, 0}};
	r = semop(id, zeroDec, 2);
	printf("zero on 0 and -1 on 2: %s, values %d %d\n", result(r), val(0), val(2));
	setval(0, 32767);
	r = op(0, 1, 0);
	printf("past 32767: %s, value %d\n", result(r), val(0));
	printf("nsops 0: %s\n", result(semop(id, two, 0)));
	struct sembuf many[501];
	for (int i = 0; i < 501; i++)
		many[i] = (struct sembuf){0, 0, IPC_NOWAIT};
	printf("nsops 501: %s\n", result(semop(id, many, 501)));
	printf("nsops 500: %s\n", result(semop(id, many, 500)));
	printf("semnum 3: %s\n", result(op(3, 1, 0)));
	printf("bad address: %s\n", result(semop(id, (struct sembuf *)8, 1)));
	struct timespec bad = {0, 1000000000};
	printf("bad timeout: %s\n", result(semtimedop(id, two, 1, &bad)));
	struct timespec brief = {0, 20000000};
	struct sembuf z0 = {0, 0, 0};
	printf("wait-for-zero on 0 for 20 ms: %s\n", result(semtimedop(id, &z0, 1, &brief)));
	struct timespec none = {0, 0};
	struct sembuf p0 = {1, -1, 0};
	printf("P on 1 with timeout 0: %s\n", result(semtimedop(id, &p0, 1, &none)));
	semctl(id, 0, IPC_STAT, (union semun){.buf = &ds});
	printf("otime set %d\n", ds.sem_otime != 0);

	// A child waits on semaphore 1 until the parent posts.
	setval(0, 0);
	setval(1, 0);
	int fds[2];
	pipe(fds);
	pid_t a = fork();
	if (a == 0) {
		int r = op(1, -1, 0);
		r = r;
		printf("child: P on 1: %s, value %d\n", result(r), val(1));
		exit(0);
	}
	waitFor(1, GETNCNT, 1);
	printf("waiting for 1: ncnt %d, zcnt %d\n", semctl(id, 1, GETNCNT), semctl(id, 1, GETZCNT));
	int v = op(1, 1, 0);
	reap("P child", a);
	printf("V on 1: %s\n", result(v));
	printf("after: value %d, ncnt %d, pid is the child's %d\n", val(1), semctl(id, 1, GETNCNT),
	       semctl(id, 1, GETPID) == a);

	// Two waiters, served in the order they came.
	pid_t first = fork();
	if (first == 0) {
		op(1, -1, 0);
		write(fds[1], "A", 1);
		exit(0);
	}
	waitFor(1, GETNCNT, 1);
	pid_t second = fork();
	if (second == 0) {
		op(1, -1, 0);
		write(fds[1], "B", 1);
		exit(0);
	}
	waitFor(1, GETNCNT, 2);
	printf("two waiting: ncnt %d\n", semctl(id, 1, GETNCNT));
	char order[3] = {0};
	op(1, 1, 0);
	read(fds[0], order, 1);
	op(1, 1, 0);
	read(fds[0], order + 1, 1);
	printf("served: %s\n", order);
	reap("first", first);
	reap("second", second);

	// A child waits for zero.
	setval(2, 2);
	pid_t z = fork();
	if (z == 0) {
		int r = op(2, 0, 0);
		printf("child: zero on 2: %s\n", result(r));
		exit(0);
	}
	waitFor(2, GETZCNT, 1);
	printf("waiting for zero: zcnt %d, ncnt %d\n", semctl(id, 2, GETZCNT), semctl(id, 2, GETNCNT));
	op(2, -1, 0);
	printf("one left: zcnt %d\n", semctl(id, 2, GETZCNT));
	op(2, -1, 0);
	reap("zero child", z);

	// SEM_UNDO: undone when the child ends; SETVAL clears it.
	setval(0, 5);
	pid_t u = fork();
	if (u == 0) {
		op(0, -2, SEM_UNDO);
		op(0, 3, SEM_UNDO);
		op(0, -1, SEM_UNDO);
		printf("child: value %d\n", val(0));
		exit(0);
	}
	reap("undo child", u);
	printf("after the child: value %d\n", val(0));
	pid_t c = fork();
	if (c == 0) {
		op(0, -2, SEM_UNDO);
		write(fds[1], "x", 1);
		op(1, -1, 0); // until the parent has set 0
		exit(0);
	}
	char x;
	read(fds[0], &x, 1);
	setval(0, 10);
	op(1, 1, 0);
	reap("cleared child", c);
	printf("after SETVAL: value %d\n", val(0));
	pid_t cl = fork();
	if (cl == 0) {
		setval(0, 32767);
		op(0, -32767, SEM_UNDO); // to 0, with +32767 to undo
		write(fds[1], "x", 1);
		op(1, -1, 0);
		exit(0);
	}
	read(fds[0], &x, 1);
	setval(1, 0);
	op(0, 5, 0);
	op(1, 1, 0);
	reap("clamped child", cl);
	printf("undo past 32767: value %d\n", val(0));
	setval(0, 0);
	printf("undo -32767: %s\n", result(op(0, 32767, SEM_UNDO)));
	op(0, -32767, 0);
	printf("undo -32768: %s\n", result(op(0, 1, SEM_UNDO)));
	op(0, -1, 0);
	r = op(0, 1, SEM_UNDO);
	printf("undo -32769: %s, value %d\n", result(r), val(0));

	// A signal ends a wait with EINTR, SA_RESTART or not.
	struct sigaction sa = {.sa_handler = onAlarm, .sa_flags = SA_RESTART};
	sigaction(SIGALRM, &sa, NULL);
	setval(1, 0);
	struct itimerval it = {.it_value = {0, 30000}};
	setitimer(ITIMER_REAL, &it, NULL);
	r = op(1, -1, 0);
	printf("P interrupted: %s, ncnt %d\n", result(r), semctl(id, 1, GETNCNT));

	// IPC_SET and the stats.
	struct semid_ds set = {.sem_perm = {.uid = geteuid(), .gid = getegid(), .mode = 0604}};
	printf("set: %s\n", result(semctl(id, 0, IPC_SET, (union semun){.buf = &set})));
	semctl(id, 0, IPC_STAT, (union semun){.buf = &ds});
	printf("mode after set: %o\n", ds.sem_perm.mode);
	struct seminfo info;
	int hi = semctl(0, 0, IPC_INFO, (union semun){.__buf = &info});
	printf("info: semmni %d, semmsl %d, semmns %d, semopm %d, semvmx %d, semume %d, semusz %d, semaem %d, highest ok %d\n",
	       info.semmni, info.semmsl, info.semmns, info.semopm, info.semvmx, info.semume, info.semusz, info.semaem,
	       hi >= id % 32768);
	semctl(0, 0, SEM_INFO, (union semun){.__buf = &info});
	printf("sem_info: sets %d, semaphores at least 3 %d\n", info.semusz >= 1, info.semaem >= 3);
	int sid = semctl(id % 32768, 0, SEM_STAT, (union semun){.buf = &ds});
	printf("sem_stat: same id %d, nsems %lu\n", sid == id, (unsigned long)ds.sem_nsems);

	FILE *f = fopen("/proc/sysvipc/sem", "r");
	char line[256];
	int found = 0;
	if (f) {
		fgets(line, sizeof line, f);
		printf("proc header: %s", line);
		while (fgets(line, sizeof line, f)) {
			int k, i;
			unsigned mode, nsems;
			if (sscanf(line, "%d %d %o %u", &k, &i, &mode, &nsems) == 4 && i == id)
				found = printf("proc line: key %d, perms %o, nsems %u, width %zu\n", k == key, mode, nsems,
				               strlen(line));
		}
		fclose(f);
	}
	if (!found)
		printf("proc line: missing\n");

	// IPC_RMID under a waiter: EIDRM.
	pid_t w = fork();
	if (w == 0) {
		int r = op(1, -1, 0);
		printf("child: P on a removed set: %s\n", result(r));
		exit(0);
	}
	waitFor(1, GETNCNT, 1);
	int rm = semctl(id, 0, IPC_RMID);
	reap("removed child", w);
	printf("rmid: %s\n", result(rm));
	printf("after rmid: %s\n", result(semctl(id, 0, GETVAL)));
	printf("key gone: %s\n", result(semget(key, 3, 0)));
	int priv = semget(IPC_PRIVATE, 1, 0600);
	printf("private: %s, distinct %d\n", priv >= 0 ? "ok" : result(priv), priv != id);
	semctl(priv, 0, IPC_RMID);
	return 0;
}
