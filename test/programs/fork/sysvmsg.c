/* System V message queues between a parent and its children (msgget,
 * msgsnd, msgrcv, msgctl): a keyed queue found again, EEXIST, ENOENT and
 * the argument errors; messages taken by type (0: the first, > 0: the
 * first of that type or, with MSG_EXCEPT, of another, < 0: the lowest
 * type up to it), E2BIG and MSG_NOERROR, ENOMSG, MSG_COPY; a child that
 * waits for a type until its parent sends it, two waiting receivers
 * served in the order they came, a sender that waits for room
 * (msg_qbytes lowered by IPC_SET) until a receive makes it; a signal
 * (EINTR with a handler), IPC_RMID under a waiter (EIDRM), IPC_STAT's
 * counts and pids, IPC_INFO and MSG_INFO, MSG_STAT, and the queue's line
 * in /proc/sysvipc/msg. Before, msgget was ENOSYS. The output must equal
 * the host's (ids, keys and times are compared, not printed). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

struct msg {
	long type;
	char text[200];
};

static int id;

static int send(long type, const char *text, int flags) {
	struct msg m = {.type = type};
	strcpy(m.text, text);
	return msgsnd(id, &m, strlen(text), flags);
}

// recv describes what msgrcv took for (size, type, flags).
static const char *recv(size_t size, long type, int flags) {
	static char b[300];
	struct msg m;
	memset(&m, 0, sizeof m);
	ssize_t n = msgrcv(id, &m, size, type, flags);
	if (n < 0)
		snprintf(b, sizeof b, "%s", result(-1));
	else
		snprintf(b, sizeof b, "type %ld, %zd bytes \"%.*s\"", m.type, n, (int)n, m.text);
	return b;
}

static struct msqid_ds stat(void) {
	struct msqid_ds ds;
	memset(&ds, 0, sizeof ds);
	msgctl(id, IPC_STAT, &ds);
	return ds;
}

static void counts(const char *what) {
	struct msqid_ds ds = stat();
	printf("%s: %lu messages, %lu bytes\n", what, (unsigned long)ds.msg_qnum, (unsigned long)ds.__msg_cbytes);
}

// settle gives a child time to queue its call.
static void settle(void) { usleep(30000); }

static void onAlarm(int sig) { (void)sig; }

static void reap(const char *what, pid_t pid) {
	int st;
	waitpid(pid, &st, 0);
	printf("%s: exit %d\n", what, WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st));
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	key_t key = 0x4d560000 + (getpid() & 0xffff);
	printf("get missing key: %s\n", result(msgget(key, 0600)));
	id = msgget(key, IPC_CREAT | IPC_EXCL | 0640);
	printf("create keyed: %s\n", id >= 0 ? "ok" : result(id));
	printf("again with IPC_EXCL: %s\n", result(msgget(key, IPC_CREAT | IPC_EXCL | 0600)));
	printf("again by key: %d\n", msgget(key, 0) == id);
	struct msqid_ds ds = stat();
	printf("stat: mode %o, qbytes %lu, qnum %lu, stime %ld, rtime %ld, ctime set %d, owner is me %d, key kept %d\n",
	       ds.msg_perm.mode, (unsigned long)ds.msg_qbytes, (unsigned long)ds.msg_qnum, (long)ds.msg_stime,
	       (long)ds.msg_rtime, ds.msg_ctime != 0, ds.msg_perm.uid == geteuid() && ds.msg_perm.cuid == geteuid(),
	       ds.msg_perm.__key == key);

	printf("type 0: %s\n", result(send(0, "x", 0)));
	printf("type -1: %s\n", result(send(-1, "x", 0)));
	static struct msg huge;
	huge.type = 1;
	printf("8193 bytes: %s\n", result(msgsnd(id, &huge, 8193, 0)));
	printf("bad address: %s\n", result(msgsnd(id, (void *)8, 4, 0)));
	printf("bad id: %s\n", result(msgsnd(id + 1, &huge, 1, 0)));
	printf("negative id: %s\n", result(msgsnd(-1, &huge, 1, 0)));
	printf("empty, nowait: %s\n", recv(100, 0, IPC_NOWAIT));
	printf("send 1: %s\n", result(send(1, "one", 0)));
	printf("send 3: %s\n", result(send(3, "three", 0)));
	printf("send 2: %s\n", result(send(2, "two", 0)));
	printf("send 5: %s\n", result(send(5, "five", 0)));
	printf("send 1 (empty): %s\n", result(send(1, "", 0)));
	counts("queued");
	ds = stat();
	printf("lspid is me %d, lrpid %d, stime set %d\n", ds.msg_lspid == getpid(), ds.msg_lrpid, ds.msg_stime != 0);
	printf("copy 2: %s\n", recv(100, 2, MSG_COPY | IPC_NOWAIT));
	printf("copy 9: %s\n", recv(100, 9, MSG_COPY | IPC_NOWAIT));
	printf("copy, waiting: %s\n", recv(100, 0, MSG_COPY));
	printf("copy with except: %s\n", recv(100, 0, MSG_COPY | MSG_EXCEPT | IPC_NOWAIT));
	printf("type 2: %s\n", recv(100, 2, 0));
	printf("type 4, nowait: %s\n", recv(100, 4, IPC_NOWAIT));
	printf("up to 4: %s\n", recv(100, -4, 0));
	printf("except 1: %s\n", recv(100, 1, MSG_EXCEPT));
	printf("3 bytes of 5: %s\n", recv(3, 5, 0));
	printf("3 bytes, noerror: %s\n", recv(3, 5, MSG_NOERROR));
	printf("size -1: %s\n", recv((size_t)-1, 0, 0));
	counts("left");
	printf("any: %s\n", recv(100, 0, 0));
	ds = stat();
	printf("lrpid is me %d, rtime set %d\n", ds.msg_lrpid == getpid(), ds.msg_rtime != 0);

	// A child waits for type 7; a type 5 does not wake it.
	pid_t a = fork();
	if (a == 0) {
		printf("child: type 7: %s\n", recv(100, 7, 0));
		exit(0);
	}
	settle();
	send(5, "not for it", 0);
	settle();
	counts("with a receiver");
	send(7, "seven", 0);
	reap("type 7 child", a);
	counts("after");
	ds = stat();
	printf("lrpid is the child's %d\n", ds.msg_lrpid == a);
	recv(100, 0, 0);

	// Two receivers, served in the order they came.
	int fds[2];
	pipe(fds);
	pid_t first = fork();
	if (first == 0) {
		char b[300];
		snprintf(b, sizeof b, "A got %s", recv(100, 0, 0));
		write(fds[1], b, strlen(b) + 1);
		exit(0);
	}
	settle();
	pid_t second = fork();
	if (second == 0) {
		char b[300];
		snprintf(b, sizeof b, "B got %s", recv(100, 0, 0));
		write(fds[1], b, strlen(b) + 1);
		exit(0);
	}
	settle();
	char got[300];
	send(1, "first", 0);
	read(fds[0], got, sizeof got);
	printf("%s\n", got);
	send(1, "second", 0);
	read(fds[0], got, sizeof got);
	printf("%s\n", got);
	reap("first", first);
	reap("second", second);

	// A receiver too small for what comes: E2BIG, the message stays.
	pid_t small = fork();
	if (small == 0) {
		printf("child: 2 bytes: %s\n", recv(2, 0, 0));
		exit(0);
	}
	settle();
	send(4, "four", 0);
	reap("small child", small);
	counts("kept");
	recv(100, 0, 0);

	// A sender waits for room.
	ds = stat();
	ds.msg_qbytes = 10;
	printf("set qbytes 10: %s\n", result(msgctl(id, IPC_SET, &ds)));
	printf("qbytes now %lu\n", (unsigned long)stat().msg_qbytes);
	printf("8 bytes: %s\n", result(send(1, "12345678", 0)));
	printf("3 more, nowait: %s\n", result(send(2, "abc", IPC_NOWAIT)));
	printf("2 more: %s\n", result(send(2, "ab", 0)));
	printf("0 more, nowait: %s\n", result(send(2, "", IPC_NOWAIT)));
	pid_t s = fork();
	if (s == 0) {
		int r = send(3, "xyz", 0);
		printf("child: send waited: %s\n", result(r));
		exit(0);
	}
	settle();
	counts("full");
	printf("take: %s\n", recv(100, 0, 0));
	reap("sender", s);
	counts("after the sender");
	printf("rest: %s", recv(100, 0, 0));
	printf(", %s", recv(100, 0, 0));
	printf(", %s\n", recv(100, 0, 0));

	// A signal with a handler ends the wait (EINTR, SA_RESTART or not).
	struct sigaction sa = {.sa_handler = onAlarm, .sa_flags = SA_RESTART};
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {.it_value = {0, 30000}};
	setitimer(ITIMER_REAL, &it, NULL);
	printf("interrupted: %s\n", recv(100, 0, 0));

	// Limits and stats.
	struct msginfo info;
	int hi = msgctl(0, IPC_INFO, (struct msqid_ds *)&info);
	printf("info: msgmax %d, msgmnb %d, msgmni %d, msgssz %d, msgseg %d, msgpool %d, msgmap %d, msgtql %d, highest ok %d\n",
	       info.msgmax, info.msgmnb, info.msgmni, info.msgssz, info.msgseg, info.msgpool, info.msgmap, info.msgtql,
	       hi >= id % 32768);
	send(1, "abc", 0);
	msgctl(0, MSG_INFO, (struct msqid_ds *)&info);
	printf("msg_info: queues %d, messages %d, bytes %d\n", info.msgpool >= 1, info.msgmap >= 1, info.msgtql >= 3);
	int sid = msgctl(id % 32768, MSG_STAT, &ds);
	printf("msg_stat: same id %d, qnum %lu\n", sid == id, (unsigned long)ds.msg_qnum);
	printf("bad cmd: %s\n", result(msgctl(id, 99, &ds)));

	FILE *f = fopen("/proc/sysvipc/msg", "r");
	char line[256];
	int found = 0;
	if (f) {
		fgets(line, sizeof line, f);
		printf("proc header: %s", line);
		while (fgets(line, sizeof line, f)) {
			int k, i;
			unsigned mode;
			unsigned long cbytes, qnum;
			if (sscanf(line, "%d %d %o %lu %lu", &k, &i, &mode, &cbytes, &qnum) == 5 && i == id)
				found = printf("proc line: key %d, perms %o, cbytes %lu, qnum %lu, width %zu\n", k == key, mode,
				               cbytes, qnum, strlen(line));
		}
		fclose(f);
	}
	if (!found)
		printf("proc line: missing\n");

	// IPC_RMID under a waiting receiver: EIDRM.
	recv(100, 0, 0);
	pid_t w = fork();
	if (w == 0) {
		printf("child: on a removed queue: %s\n", recv(100, 0, 0));
		exit(0);
	}
	settle();
	int rm = msgctl(id, IPC_RMID, NULL);
	reap("removed child", w);
	printf("rmid: %s\n", result(rm));
	printf("after rmid: %s\n", result(send(1, "x", 0)));
	printf("key gone: %s\n", result(msgget(key, 0)));
	return 0;
}
