/* POSIX message queues (mq_overview(7)): opening and its errors, the
 * attributes, messages by priority, the size checks, non-blocking and
 * timed calls, the queue file's read, fstat and poll, mq_notify by
 * signal and by thread, unlinking an open queue, close-on-exec, the
 * limits in /proc/sys/fs/mqueue and RLIMIT_MSGQUEUE, and a parent and a
 * child waiting on each other: a receiver that waits is handed the next
 * message, a sender that waits gets the room the next receive makes.
 * The output is the same on Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char name[64], other[64];

static void show(const char *what, long r) {
	if (r < 0)
		printf("%s: -1 (%s)\n", what, strerrorname_np(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void attrs(mqd_t q) {
	struct mq_attr a;
	mq_getattr(q, &a);
	printf("  flags %s maxmsg %ld msgsize %ld curmsgs %ld\n", a.mq_flags & O_NONBLOCK ? "O_NONBLOCK" : "0", a.mq_maxmsg,
	       a.mq_msgsize, a.mq_curmsgs);
}

static sem_t notified;
static volatile int thread_value;

static void on_message(union sigval v) {
	thread_value = v.sival_int;
	sem_post(&notified);
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(name, sizeof name, "/rvsim-mq-%d", getpid());
	snprintf(other, sizeof other, "/rvsim-mq-%d-b", getpid());
	mq_unlink(name);

	show("open missing", mq_open(name, O_RDONLY));
	show("open without a slash", mq_open("rvsim-mq", O_RDONLY | O_CREAT, 0600, NULL));
	show("open with two slashes", mq_open("/rvsim/mq", O_RDONLY | O_CREAT, 0600, NULL));
	struct mq_attr bad = {.mq_maxmsg = 0, .mq_msgsize = 16};
	show("create maxmsg 0", mq_open(name, O_RDWR | O_CREAT, 0600, &bad));
	bad = (struct mq_attr){.mq_maxmsg = 4, .mq_msgsize = -1};
	show("create msgsize -1", mq_open(name, O_RDWR | O_CREAT, 0600, &bad));

	struct mq_attr attr = {.mq_maxmsg = 4, .mq_msgsize = 64};
	mqd_t q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0640, &attr);
	show("create", q >= 0);
	show("create again, O_EXCL", mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0640, &attr));
	printf("close-on-exec: %d\n", fcntl(q, F_GETFD) & FD_CLOEXEC);
	attrs(q);
	mqd_t dflt = mq_open(other, O_RDWR | O_CREAT, 0600, NULL);
	printf("default attributes:\n");
	attrs(dflt);
	mq_close(dflt);
	mq_unlink(other);

	struct stat st;
	fstat(q, &st);
	printf("fstat: regular %d mode %o size %lld links %ld\n", S_ISREG(st.st_mode), st.st_mode & 0777, (long long)st.st_size,
	       (long)st.st_nlink);

	// Messages by priority, the order sent within one.
	const char *texts[] = {"low-1", "high-1", "mid", "high-2"};
	unsigned prios[] = {1, 9, 5, 9};
	for (int i = 0; i < 4; i++)
		show(texts[i], mq_send(q, texts[i], strlen(texts[i]), prios[i]));
	attrs(q);
	char line[128] = {0};
	ssize_t n = read(q, line, sizeof line - 1);
	printf("read %zd: %s", n, line);
	show("read again", read(q, line, sizeof line));
	show("seek to the start", lseek(q, 0, SEEK_SET));
	show("read after it", read(q, line, sizeof line));
	show("seek to the end", lseek(q, 0, SEEK_END));
	show("seek before the start", lseek(q, -100, SEEK_CUR));
	show("write", write(q, "x", 1));
	struct pollfd pfd = {.fd = q, .events = POLLIN | POLLOUT};
	poll(&pfd, 1, 0);
	printf("poll full: in %d out %d\n", !!(pfd.revents & POLLIN), !!(pfd.revents & POLLOUT));

	struct mq_attr nb = {.mq_flags = O_NONBLOCK}, old;
	mq_setattr(q, &nb, &old);
	printf("set O_NONBLOCK, old flags %ld\n", old.mq_flags);
	show("send to a full queue", mq_send(q, "x", 1, 0));
	show("send prio 32768", mq_send(q, "x", 1, 32768));
	show("send 65 bytes", mq_send(q, line, 65, 0));
	char buf[64];
	show("receive into 63 bytes", mq_receive(q, buf, 63, NULL));
	for (int i = 0; i < 4; i++) {
		unsigned prio;
		n = mq_receive(q, buf, sizeof buf, &prio);
		printf("receive: %.*s prio %u\n", (int)n, buf, prio);
	}
	show("receive from an empty queue", mq_receive(q, buf, sizeof buf, NULL));
	pfd.revents = 0;
	poll(&pfd, 1, 0);
	printf("poll empty: in %d out %d\n", !!(pfd.revents & POLLIN), !!(pfd.revents & POLLOUT));
	nb.mq_flags = 0;
	mq_setattr(q, &nb, NULL);

	// Timed calls: an absolute CLOCK_REALTIME deadline.
	struct timespec past;
	clock_gettime(CLOCK_REALTIME, &past);
	struct timespec soon = past;
	soon.tv_nsec += 1000000;
	if (soon.tv_nsec >= 1000000000) {
		soon.tv_sec++;
		soon.tv_nsec -= 1000000000;
	}
	show("timed receive, 1 ms", mq_timedreceive(q, buf, sizeof buf, NULL, &soon));
	struct timespec invalid = {.tv_sec = 0, .tv_nsec = 1000000000};
	show("timed receive, invalid time", mq_timedreceive(q, buf, sizeof buf, NULL, &invalid));
	show("timed send, invalid time, room", mq_timedsend(q, "x", 1, 0, &invalid));
	for (int i = 0; i < 4; i++)
		mq_send(q, "fill", 4, 0);
	show("timed send, past", mq_timedsend(q, "x", 1, 0, &past));
	for (int i = 0; i < 4; i++)
		mq_receive(q, buf, sizeof buf, NULL);

	// mq_notify by signal: on the first message into the empty queue.
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	struct sigevent sev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1, .sigev_value.sival_int = 42};
	show("notify", mq_notify(q, &sev));
	show("notify again", mq_notify(q, &sev));
	sev.sigev_notify = 99;
	show("notify, bad sigev_notify", mq_notify(q, &sev));
	mqd_t q2 = mq_open(name, O_RDONLY);
	n = read(q2, line, sizeof line - 1);
	line[n] = 0;
	char *owner = strstr(line, "NOTIFY_PID:");
	int pid_ok = owner && atoi(owner + 11) == getpid();
	if (owner)
		*owner = 0;
	printf("read %zd: %sNOTIFY_PID is mine %d\n", n, line, pid_ok);
	mq_send(q, "one", 3, 0);
	siginfo_t si;
	struct timespec zero = {0, 0};
	int sig = sigtimedwait(&usr1, &si, &zero);
	printf("signal %d: code SI_MESGQ %d value %d pid is mine %d\n", sig == SIGUSR1, si.si_code == SI_MESGQ,
	       si.si_value.sival_int, si.si_pid == getpid());
	mq_send(q, "two", 3, 0);
	printf("signal again: %d (registration ended)\n", sigtimedwait(&usr1, &si, &zero));
	mq_receive(q, buf, sizeof buf, NULL);
	mq_receive(q, buf, sizeof buf, NULL);
	sev.sigev_notify = SIGEV_SIGNAL;
	show("notify, then close another descriptor", mq_notify(q, &sev));
	mq_close(q2); // (mqueue_flush_file: the registering process's close ends it)
	show("notify after the close", mq_notify(q, &sev));
	show("unregister", mq_notify(q, NULL));

	// mq_notify by thread (glibc: a netlink socket and a helper thread).
	sem_init(&notified, 0, 0);
	struct sigevent tev = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = on_message,
	                       .sigev_value.sival_int = 7};
	show("notify by thread", mq_notify(q, &tev));
	mq_send(q, "three", 5, 0);
	sem_wait(&notified);
	printf("thread notified: value %d\n", thread_value);
	mq_receive(q, buf, sizeof buf, NULL);

	// A child waits to receive; the parent sends after a while.
	pid_t pid = fork();
	if (pid == 0) {
		unsigned prio;
		n = mq_receive(q, buf, sizeof buf, &prio);
		printf("child received %.*s prio %u\n", (int)n, buf, prio);
		// It fills the queue and waits to send one more.
		for (int i = 0; i < 4; i++)
			mq_send(q, "queued", 6, 1);
		_exit(mq_send(q, "waited", 6, 3) == 0 ? 0 : 1); // (it waits for room)
	}
	usleep(20000);
	mq_send(q, "to the child", 12, 2);
	int status;
	usleep(20000);
	for (int i = 0; i < 5; i++) {
		unsigned prio;
		n = mq_receive(q, buf, sizeof buf, &prio);
		printf("parent received %.*s prio %u\n", (int)n, buf, prio);
	}
	waitpid(pid, &status, 0);
	printf("child exit %d\n", WEXITSTATUS(status));

	// Unlinked, the queue lives on while it is open.
	show("unlink", mq_unlink(name));
	show("unlink again", mq_unlink(name));
	show("open the unlinked name", mq_open(name, O_RDONLY));
	show("send to the unlinked queue", mq_send(q, "still", 5, 0));
	n = mq_receive(q, buf, sizeof buf, NULL);
	printf("received %.*s\n", (int)n, buf);
	fstat(q, &st);
	printf("links %ld\n", (long)st.st_nlink);
	show("close", mq_close(q));
	show("send to a closed descriptor", mq_send(q, "x", 1, 0));
	show("mq_send on stdout", mq_send(1, "x", 1, 0));

	FILE *f = fopen("/proc/sys/fs/mqueue/msgsize_default", "r");
	long v = 0;
	if (f && fscanf(f, "%ld", &v) == 1)
		printf("msgsize_default %ld\n", v);
	if (f)
		fclose(f);

	// RLIMIT_MSGQUEUE: a default queue is charged about 82 KB.
	struct rlimit rl = {.rlim_cur = 4096, .rlim_max = 4096};
	setrlimit(RLIMIT_MSGQUEUE, &rl);
	show("create over RLIMIT_MSGQUEUE", mq_open(other, O_RDWR | O_CREAT, 0600, NULL));
	attr = (struct mq_attr){.mq_maxmsg = 2, .mq_msgsize = 8};
	mqd_t small = mq_open(other, O_RDWR | O_CREAT, 0600, &attr);
	show("create a small one", small >= 0);
	mq_close(small);
	mq_unlink(other);
	return 0;
}
