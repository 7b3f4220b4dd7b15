/* System V semaphores and message queues between the threads of one
 * process, and between a threaded process and its child: a thread waits
 * in semop until another posts, in semtimedop until its timeout, in
 * msgrcv until another sends its type, in msgsnd until another makes
 * room; a signal sent to a thread waiting in msgrcv ends the wait with
 * EINTR; a child waits in semop until a thread of its parent posts, and
 * a thread waits in msgrcv until the child sends. Before, semget and
 * msgget were ENOSYS. The output does not depend on the schedule. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int sem, q;

struct msg {
	long type;
	char text[64];
};

static int op(int num, int delta) {
	struct sembuf b = {num, delta, 0};
	return semop(sem, &b, 1);
}

// waitFor polls until semaphore num has n waiters of the kind.
static void waitFor(int num, int cmd, int n) {
	for (int i = 0; i < 5000 && semctl(sem, num, cmd) != n; i++)
		usleep(1000);
}

// poster posts semaphore arg once a thread or process waits on it.
static void *poster(void *arg) {
	waitFor((int)(long)arg, GETNCNT, 1);
	op((int)(long)arg, 1);
	return NULL;
}

static void *timed(void *arg) {
	(void)arg;
	struct sembuf b = {1, -1, 0};
	struct timespec ts = {0, 20000000};
	int r = semtimedop(sem, &b, 1, &ts);
	return (void *)(long)(r < 0 ? errno : 0);
}

static void *receiver(void *arg) {
	struct msg m;
	ssize_t n = msgrcv(q, &m, sizeof m.text, (long)arg, 0);
	static char out[2][100];
	char *o = out[(long)arg == 3];
	if (n < 0)
		snprintf(o, 100, "%s", strerrorname_np(errno));
	else
		snprintf(o, 100, "type %ld \"%.*s\"", m.type, (int)n, m.text);
	return o;
}

static void *sender(void *arg) {
	(void)arg;
	struct msg m = {.type = 9, .text = "late"};
	int r = msgsnd(q, &m, 4, 0);
	return (void *)(long)(r < 0 ? errno : 0);
}

static void onUsr1(int sig) { (void)sig; }

static volatile int received;

static void *receiveOnce(void *arg) {
	void *r = receiver(arg);
	received = 1;
	return r;
}

static void countMsgs(const char *what, unsigned long want) {
	struct msqid_ds ds;
	for (int i = 0; i < 5000; i++) {
		msgctl(q, IPC_STAT, &ds);
		if (ds.msg_qnum == want)
			break;
		usleep(1000);
	}
	printf("%s: %lu messages\n", what, (unsigned long)ds.msg_qnum);
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	sem = semget(IPC_PRIVATE, 2, 0600);
	q = msgget(IPC_PRIVATE, 0600);
	printf("made: %d\n", sem >= 0 && q >= 0);

	pthread_t t;
	pthread_create(&t, NULL, poster, (void *)0);
	int r = op(0, -1);
	pthread_join(t, NULL);
	printf("P woken by a thread: %d, value %d\n", r, semctl(sem, 0, GETVAL));

	void *ret;
	pthread_create(&t, NULL, timed, NULL);
	pthread_join(t, &ret);
	printf("timed wait in a thread: %s\n", strerrorname_np((int)(long)ret));

	pthread_t a, b;
	pthread_create(&a, NULL, receiver, (void *)3);
	struct msg m = {.type = 2, .text = "two"};
	msgsnd(q, &m, 3, 0);
	m.type = 3;
	strcpy(m.text, "three");
	msgsnd(q, &m, 5, 0);
	pthread_join(a, &ret);
	printf("thread received %s\n", (char *)ret);
	countMsgs("left", 1);

	// A thread waits for room.
	struct msqid_ds ds;
	msgctl(q, IPC_STAT, &ds);
	ds.msg_qbytes = 4;
	msgctl(q, IPC_SET, &ds);
	pthread_create(&b, NULL, sender, NULL);
	usleep(20000);
	countMsgs("while the sender waits", 1);
	msgrcv(q, &m, sizeof m.text, 0, 0);
	pthread_join(b, &ret);
	printf("sender: %s\n", (int)(long)ret ? strerrorname_np((int)(long)ret) : "sent");
	ssize_t n = msgrcv(q, &m, sizeof m.text, 0, IPC_NOWAIT);
	printf("then: type %ld, %zd bytes\n", m.type, n);
	ds.msg_qbytes = 16384;
	msgctl(q, IPC_SET, &ds);

	// A signal to a waiting thread.
	struct sigaction sa = {.sa_handler = onUsr1, .sa_flags = SA_RESTART};
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(&a, NULL, receiveOnce, (void *)5);
	while (!received) {
		usleep(10000);
		pthread_kill(a, SIGUSR1);
	}
	pthread_join(a, &ret);
	printf("interrupted thread: %s\n", (char *)ret);

	// A child waits for a thread of its parent; a thread waits for the
	// child.
	pthread_create(&a, NULL, receiver, (void *)3);
	pid_t pid = fork();
	if (pid == 0) {
		int r = op(1, -1);
		struct msg c = {.type = 3, .text = "from the child"};
		msgsnd(q, &c, strlen(c.text), 0);
		_exit(r == 0 ? 0 : 1);
	}
	pthread_create(&t, NULL, poster, (void *)1);
	pthread_join(t, NULL);
	pthread_join(a, &ret);
	int st;
	waitpid(pid, &st, 0);
	printf("thread received %s; child exit %d\n", (char *)ret, WEXITSTATUS(st));
	printf("values %d %d\n", semctl(sem, 0, GETVAL), semctl(sem, 1, GETVAL));
	semctl(sem, 0, IPC_RMID);
	msgctl(q, IPC_RMID, NULL);
	return 0;
}
