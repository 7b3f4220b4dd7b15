// fdinfo.c: /proc/self/fdinfo/N of a regular file, a pipe's two ends, a
// socket, an eventfd, a signalfd and a pidfd (before and after its
// process is reaped): the host's lines, the mount id, inode and eventfd
// id replaced by N (they depend on the machine); fdinfo lists the
// descriptors fd does. Before, rvsim had no fdinfo files.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *what, int fd) {
	char p[64], line[256];
	snprintf(p, sizeof p, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(p, "r");
	if (!f) {
		printf("%s: cannot open\n", what);
		return;
	}
	printf("%s:", what);
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "mnt_id:", 7) || !strncmp(line, "ino:", 4) || !strncmp(line, "eventfd-id:", 11))
			*strchr(line, ':') = 0, strcat(line, ": N");
		printf(" [%s]", line);
	}
	printf("\n");
	fclose(f);
}

static int count(const char *dir) {
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	int f = open("fdinfo.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(f, "1234567", 7);
	show("regular file at 7", f);
	int p[2];
	pipe2(p, O_CLOEXEC | O_NONBLOCK);
	show("pipe read end", p[0]);
	show("pipe write end", p[1]);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	show("socket", s);
	int e = eventfd(5, EFD_SEMAPHORE);
	show("eventfd", e);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1), sigaddset(&m, SIGTERM);
	int sf = signalfd(-1, &m, 0);
	show("signalfd", sf);
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	int pf = syscall(SYS_pidfd_open, c, 0);
	char want[32], got[64];
	snprintf(want, sizeof want, "Pid:\t%d", c);
	snprintf(got, sizeof got, "/proc/self/fdinfo/%d", pf);
	FILE *pi = fopen(got, "r");
	char buf[512] = {0};
	fread(buf, 1, sizeof buf - 1, pi);
	fclose(pi);
	printf("pidfd before the reap: its pid %s\n", strstr(buf, want) ? "yes" : "no");
	waitpid(c, NULL, 0);
	show("pidfd after the reap", pf);
	printf("fdinfo lists as many as fd: %d\n", count("/proc/self/fdinfo") == count("/proc/self/fd"));
	close(e);
	snprintf(got, sizeof got, "/proc/self/fdinfo/%d", e);
	printf("a closed descriptor's fdinfo: %s\n", access(got, F_OK) == 0 ? "there" : "gone");
	unlink("fdinfo.tmp");
	return 0;
}
