// session: process groups and sessions between a parent and its
// children, as a shell and a daemon use them: setsid in a child (a new
// session and group it leads; a second setsid and a setpgid there fail),
// setpgid by the parent on a child (a group of its own, then back into
// the parent's group), getpgid and getsid of another process, and ESRCH
// for a process that does not exist. Prints one line per check, in an
// order that does not depend on the host (only relations between ids).
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(const char *what, int ok) { printf("%s: %s\n", what, ok ? "yes" : "no"); }

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	pid_t me = getpid(), mysid = getsid(0), mypg = getpgid(0);
	check("getsid(0) is getsid(getpid())", mysid == getsid(me));
	check("getpgid(0) is getpgid(getpid())", mypg == getpgid(me));

	pid_t a = fork();
	if (a == 0) {
		pid_t s = setsid();
		check("child: setsid returns its pid", s == getpid());
		check("child: it leads its session", getsid(0) == getpid());
		check("child: and its group", getpgid(0) == getpid());
		check("child: a second setsid is EPERM", setsid() < 0 && errno == EPERM);
		check("child: setpgid of a session leader is EPERM", setpgid(0, 0) < 0 && errno == EPERM);
		check("child: its parent's session is another", getsid(getppid()) == mysid && mysid != getpid());
		check("child: its parent's scheduling policy", sched_getscheduler(getppid()) == SCHED_OTHER);
		_exit(0);
	}
	waitpid(a, NULL, 0);

	int go[2], back[2];
	pipe(go);
	pipe(back);
	pid_t b = fork();
	if (b == 0) {
		char c;
		read(go[0], &c, 1); // the parent has moved it
		check("second child: in a group of its own", getpgid(0) == getpid());
		check("second child: in its parent's session", getsid(0) == mysid);
		write(back[1], "k", 1);
		read(go[0], &c, 1);
		check("second child: back in its parent's group", getpgid(0) == mypg);
		_exit(0);
	}
	check("setpgid(child, child)", setpgid(b, b) == 0);
	check("getpgid(child) is the child", getpgid(b) == b);
	check("getsid(child) is ours", getsid(b) == mysid);
	write(go[1], "x", 1);
	char c;
	read(back[0], &c, 1); // the child has looked
	check("setpgid(child, our group)", setpgid(b, mypg) == 0);
	write(go[1], "x", 1);
	waitpid(b, NULL, 0);
	int rnd[2];
	pipe(rnd);
	for (int i = 0; i < 2; i++) {
		if (fork() == 0) {
			unsigned char r[8];
			getrandom(r, sizeof r, 0);
			write(rnd[1], r, sizeof r);
			_exit(0);
		}
		wait(NULL);
	}
	unsigned char r1[8], r2[8];
	read(rnd[0], r1, sizeof r1);
	read(rnd[0], r2, sizeof r2);
	check("two children draw different random bytes", memcmp(r1, r2, sizeof r1) != 0);
	check("the run's parent's scheduling policy", sched_getscheduler(getppid()) == SCHED_OTHER);
	check("getpgid of no process is ESRCH", getpgid(999999) < 0 && errno == ESRCH);
	check("getsid of no process is ESRCH", getsid(999999) < 0 && errno == ESRCH);
	check("setpgid of no child is ESRCH", setpgid(999999, 0) < 0 && errno == ESRCH);
	return 0;
}
