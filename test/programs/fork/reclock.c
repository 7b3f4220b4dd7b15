/* Record locks between processes (fcntl F_SETLK, F_SETLKW, F_GETLK and
 * the OFD forms), as sqlite takes them: a child sees its parent's lock
 * (EAGAIN, F_GETLK's description with the parent's pid), waits for it
 * with F_SETLKW until the parent unlocks, and takes ranges that do not
 * overlap; an unlock splits a lock; the process's locks on a file go
 * when it closes any descriptor of that file, and when it ends; a cycle
 * of waits is EDEADLK; OFD locks of two opens conflict within one
 * process and F_OFD_GETLK reports pid -1; a read lock wants a readable
 * descriptor. And flock between processes that opened the file after
 * the fork. A F_SETLKW that a signal interrupts, tried again, still
 * takes the lock only after the other process released it, on the
 * run's clock. Before, every record lock succeeded and F_GETLK always said
 * F_UNLCK. The output must equal the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/monotonic.h"
#include "../include/result.h"

static const char *path = "reclock.tmp";

static int lk(int fd, int cmd, short type, off_t start, off_t len) {
	struct flock f = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
	return fcntl(fd, cmd, &f);
}

// getlk describes what F_GETLK (or F_OFD_GETLK) reports for a write lock
// over [start, start+len).
static void getlk(const char *what, int fd, int cmd, off_t start, off_t len, pid_t owner) {
	struct flock f = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
	if (fcntl(fd, cmd, &f) != 0) {
		printf("%s: %s\n", what, result(-1));
		return;
	}
	if (f.l_type == F_UNLCK) {
		printf("%s: F_UNLCK\n", what);
		return;
	}
	printf("%s: %s at %ld, length %ld, pid %s\n", what, f.l_type == F_WRLCK ? "F_WRLCK" : "F_RDLCK", (long)f.l_start,
	       (long)f.l_len, f.l_pid == owner ? "the owner's" : f.l_pid == -1 ? "-1" : "another");
}

static volatile long spin;

// onAlarm computes a while, as an interpreter's handler does: the other
// process may release the lock before the call is tried again.
static void onAlarm(int sig) {
	(void)sig;
	for (long i = 0; i < 100000; i++)
		spin += i;
}

static void say(int fd) { write(fd, "x", 1); }
static void hear(int fd) {
	char c;
	read(fd, &c, 1);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "0123456789", 10);
	int toChild[2], toParent[2];
	pipe(toChild), pipe(toParent);
	pid_t parent = getpid();

	// 1. A write lock over [0, 100), then an unlock of [40, 60).
	printf("parent locks [0,100): %s\n", result(lk(fd, F_SETLK, F_WRLCK, 0, 100)));
	printf("parent unlocks [40,60): %s\n", result(lk(fd, F_SETLK, F_UNLCK, 40, 20)));
	pid_t c = fork();
	if (c == 0) {
		int cf = open(path, O_RDWR);
		printf("child locks [5,6): %s\n", result(lk(cf, F_SETLK, F_WRLCK, 5, 1)));
		printf("child locks [45,50): %s\n", result(lk(cf, F_SETLK, F_WRLCK, 45, 5)));
		printf("child read-locks [100,200): %s\n", result(lk(cf, F_SETLK, F_RDLCK, 100, 100)));
		getlk("child's F_GETLK [50,70)", cf, F_GETLK, 50, 20, parent);
		getlk("child's F_GETLK [40,60)", cf, F_GETLK, 40, 20, parent);
		say(toParent[1]);
		double t0 = now();
		int r = lk(cf, F_SETLKW, F_WRLCK, 0, 10); // the parent unlocks after 0.2 s
		printf("child's F_SETLKW [0,10): %s, after the parent's unlock %d\n", result(r), now() - t0 >= 0.2);
		say(toParent[1]);
		hear(toChild[0]);
		_exit(0);
	}
	hear(toParent[0]);
	usleep(200000);
	int r = lk(fd, F_SETLK, F_UNLCK, 0, 40);
	hear(toParent[0]); // (the child has printed by then: one order on every kernel)
	printf("parent unlocks [0,40): %s\n", result(r));
	getlk("parent's F_GETLK [0,10) while the child holds it", fd, F_GETLK, 0, 10, c);
	say(toChild[1]);
	waitpid(c, NULL, 0);
	getlk("after the child ended", fd, F_GETLK, 0, 10, c);

	// 2. Closing another descriptor of the file drops the process's locks.
	printf("parent locks [0,10): %s\n", result(lk(fd, F_SETLK, F_WRLCK, 0, 10)));
	int other = open(path, O_RDONLY);
	close(other);
	if ((c = fork()) == 0) {
		int cf = open(path, O_RDWR);
		printf("after the parent closed another descriptor, child locks [0,10): %s\n",
		       result(lk(cf, F_SETLK, F_WRLCK, 0, 10)));
		_exit(0);
	}
	waitpid(c, NULL, 0);

	// 3. A cycle of waits: EDEADLK.
	printf("parent locks [0,1): %s\n", result(lk(fd, F_SETLK, F_WRLCK, 0, 1)));
	if ((c = fork()) == 0) {
		int cf = open(path, O_RDWR);
		lk(cf, F_SETLK, F_WRLCK, 1, 1);
		say(toParent[1]);
		int r = lk(cf, F_SETLKW, F_WRLCK, 0, 1); // waits for the parent
		printf("child's F_SETLKW [0,1): %s\n", result(r));
		_exit(0);
	}
	hear(toParent[0]);
	usleep(100000); // the child waits by then
	printf("parent's F_SETLKW [1,2), which the waiting child holds: %s\n", result(lk(fd, F_SETLKW, F_WRLCK, 1, 1)));
	r = lk(fd, F_SETLK, F_UNLCK, 0, 1);
	waitpid(c, NULL, 0);
	printf("parent unlocks [0,1): %s\n", result(r));

	// 4. OFD locks: two opens of one process conflict.
	int a = open(path, O_RDWR), b = open(path, O_RDWR);
	printf("OFD lock [0,10) on one open: %s\n", result(lk(a, F_OFD_SETLK, F_WRLCK, 0, 10)));
	printf("OFD lock [5,6) on another: %s\n", result(lk(b, F_OFD_SETLK, F_WRLCK, 5, 1)));
	printf("POSIX lock [5,6) of the same process: %s\n", result(lk(b, F_SETLK, F_WRLCK, 5, 1)));
	getlk("F_OFD_GETLK [0,1)", b, F_OFD_GETLK, 0, 1, parent);
	struct flock bad = {.l_type = F_WRLCK, .l_pid = 1};
	printf("OFD lock with l_pid set: %s\n", result(fcntl(b, F_OFD_SETLK, &bad)));
	close(a);
	printf("after the first open's close, OFD lock [5,6): %s\n", result(lk(b, F_OFD_SETLK, F_WRLCK, 5, 1)));
	close(b);

	// 5. A read lock wants a readable descriptor; bad arguments.
	int wo = open(path, O_WRONLY);
	printf("read lock on a write-only descriptor: %s\n", result(lk(wo, F_SETLK, F_RDLCK, 0, 1)));
	printf("lock type 7: %s\n", result(lk(wo, F_SETLK, 7, 0, 1)));
	printf("a start before 0: %s\n", result(lk(wo, F_SETLK, F_WRLCK, -5, 1)));
	close(wo);

	// 6. flock between processes that opened the file after the fork.
	if ((c = fork()) == 0) {
		int cf = open(path, O_RDONLY);
		printf("child flock LOCK_EX: %s\n", result(flock(cf, LOCK_EX)));
		say(toParent[1]);
		hear(toChild[0]);
		_exit(0);
	}
	hear(toParent[0]);
	int pf = open(path, O_RDONLY);
	printf("parent flock LOCK_EX|LOCK_NB while the child holds it: %s\n", result(flock(pf, LOCK_EX | LOCK_NB)));
	say(toChild[1]);
	waitpid(c, NULL, 0);
	printf("after the child ended: %s\n", result(flock(pf, LOCK_EX | LOCK_NB)));
	close(pf);

	// 7. F_SETLKW interrupted every 100 ms (no SA_RESTART) and tried again.
	if ((c = fork()) == 0) {
		int cf = open(path, O_RDWR);
		lk(cf, F_SETLK, F_WRLCK, 0, 0);
		say(toParent[1]);
		usleep(300000);
		close(cf); // the lock goes
		_exit(0);
	}
	hear(toParent[0]);
	struct sigaction sa = {.sa_handler = onAlarm};
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {.it_interval = {0, 100000}, .it_value = {0, 100000}};
	setitimer(ITIMER_REAL, &it, NULL);
	double t0 = now();
	int tries = 0;
	while ((r = lk(fd, F_SETLKW, F_WRLCK, 0, 0)) != 0 && errno == EINTR)
		tries++;
	double waited = now() - t0;
	struct itimerval off = {0};
	setitimer(ITIMER_REAL, &off, NULL);
	printf("F_SETLKW tried again after EINTR: %s, interrupted %s, after the child's close %d\n", result(r),
	       tries > 1 ? "several times" : "no", waited >= 0.29);
	waitpid(c, NULL, 0);
	close(fd);
	unlink(path);
	return 0;
}
