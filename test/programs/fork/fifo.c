// fifo: named pipes (mkfifo) between and within processes, as Linux's
// fifo_open has them: a reader's open waits for a writer and a writer's
// for a reader (the other process opens the other end), O_NONBLOCK opens
// (a reader at once, a writer without a reader ENXIO), O_RDWR at once,
// poll, fstat's file type and inode, a thread that opens the other end,
// and the bytes going when the last end closes. Run in a writable
// directory; prints one line per check.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *path = "rvsim-fifo";

// readAll reads fd to its end.
static void readAll(int fd, const char *who) {
	char buf[64];
	size_t got = 0;
	ssize_t n;
	while ((n = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	printf("%s read \"%s\" then %s\n", who, buf, n == 0 ? "end of file" : strerror(errno));
}

static void *opener(void *arg) {
	(void)arg;
	int w = open(path, O_WRONLY);
	write(w, "from a thread", 13);
	close(w);
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0); // the children's lines too, in order
	unlink(path);
	if (mkfifo(path, 0600) != 0) {
		perror("mkfifo");
		return 1;
	}
	struct stat st, fst;
	stat(path, &st);

	// A reader waits for a writer in another process.
	pid_t pid = fork();
	if (pid == 0) {
		int w = open(path, O_WRONLY);
		write(w, "hello ", 6);
		write(w, "reader", 6);
		_exit(0);
	}
	int r = open(path, O_RDONLY);
	fstat(r, &fst);
	printf("fstat: fifo %d, same inode %d\n", S_ISFIFO(fst.st_mode), fst.st_ino == st.st_ino);
	readAll(r, "parent");
	close(r);
	waitpid(pid, NULL, 0);

	// A writer waits for a reader in another process.
	pid = fork();
	if (pid == 0) {
		int rr = open(path, O_RDONLY);
		readAll(rr, "child");
		_exit(0);
	}
	int w = open(path, O_WRONLY);
	write(w, "hello writer", 12);
	close(w);
	waitpid(pid, NULL, 0);

	// O_NONBLOCK: a reader opens at once and reads the end of file; a
	// writer without a reader fails; with one it opens.
	int nr = open(path, O_RDONLY | O_NONBLOCK);
	char c;
	printf("nonblocking reader: opened %d, read %zd\n", nr >= 0, read(nr, &c, 1));
	int nw = open(path, O_WRONLY | O_NONBLOCK);
	printf("nonblocking writer with a reader: opened %d\n", nw >= 0);
	struct pollfd p = {nr, POLLIN, 0};
	printf("poll before a write: %d\n", poll(&p, 1, 0));
	write(nw, "x", 1);
	printf("poll after a write: %d revents %#x\n", poll(&p, 1, 0), p.revents);
	close(nw);
	close(nr);
	int lone = open(path, O_WRONLY | O_NONBLOCK);
	printf("nonblocking writer alone: %d %s\n", lone, lone < 0 ? strerror(errno) : "");

	// O_RDWR opens at once; the bytes go when the last end closes.
	int rw = open(path, O_RDWR);
	write(rw, "kept", 4);
	char buf[8] = {0};
	printf("O_RDWR: read %zd \"%s\"\n", read(rw, buf, sizeof buf - 1), buf);
	write(rw, "lost", 4);
	close(rw);
	rw = open(path, O_RDWR | O_NONBLOCK);
	ssize_t n = read(rw, buf, sizeof buf);
	printf("after the last close: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	close(rw);

	// A thread opens the other end.
	pthread_t t;
	pthread_create(&t, NULL, opener, NULL);
	r = open(path, O_RDONLY);
	readAll(r, "main thread");
	close(r);
	pthread_join(t, NULL);

	unlink(path);
	return 0;
}
