/* inotify (inotify_init1, inotify_add_watch, inotify_rm_watch, read,
 * FIONREAD, poll) on the events a process's own file operations make, and
 * its child's: a directory and a file in it watched at once (the
 * directory's events carry the name, the file's none), create, open,
 * read, write, close, truncate, chmod, utimes, link, symlink, mkdir,
 * rmdir, rename within and across watched directories (one cookie per
 * move), unlink (IN_ATTRIB, then IN_DELETE_SELF and IN_IGNORED, at the
 * last close when the file was still open), directory listing, identical
 * events merged, IN_ONESHOT, IN_MASK_ADD, IN_MASK_CREATE, IN_ONLYDIR,
 * IN_DONT_FOLLOW, IN_EXCL_UNLINK, rm_watch's IN_IGNORED, watch numbers
 * not reused, the queue's overflow, O_PATH opens (no events), and a
 * blocked read that a child's create wakes. Before, inotify_init1 was
 * ENOSYS. The output must equal the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static int in; // the inotify instance
static const char *names[64];

static void named(int wd, const char *name) {
	if (wd > 0 && wd < 64)
		names[wd] = name;
}

static const char *wdName(int wd) {
	static char b[16];
	if (wd > 0 && wd < 64 && names[wd])
		return names[wd];
	snprintf(b, sizeof b, "wd%d", wd);
	return b;
}

static void maskNames(uint32_t m, char *out) {
	static const struct {
		uint32_t bit;
		const char *name;
	} bits[] = {
	    {IN_ACCESS, "ACCESS"}, {IN_MODIFY, "MODIFY"}, {IN_ATTRIB, "ATTRIB"}, {IN_CLOSE_WRITE, "CLOSE_WRITE"},
	    {IN_CLOSE_NOWRITE, "CLOSE_NOWRITE"}, {IN_OPEN, "OPEN"}, {IN_MOVED_FROM, "MOVED_FROM"},
	    {IN_MOVED_TO, "MOVED_TO"}, {IN_CREATE, "CREATE"}, {IN_DELETE, "DELETE"}, {IN_DELETE_SELF, "DELETE_SELF"},
	    {IN_MOVE_SELF, "MOVE_SELF"}, {IN_UNMOUNT, "UNMOUNT"}, {IN_Q_OVERFLOW, "Q_OVERFLOW"},
	    {IN_IGNORED, "IGNORED"}, {IN_ISDIR, "ISDIR"},
	};
	out[0] = 0;
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
		if (m & bits[i].bit) {
			if (out[0])
				strcat(out, "|");
			strcat(out, bits[i].name);
			m &= ~bits[i].bit;
		}
	if (m)
		sprintf(out + strlen(out), "|0x%x", m);
}

// drain prints the queued events (cookies as the move they pair: the
// first nonzero cookie seen is c1, the next c2, ...).
static void drain(const char *what) {
	static uint32_t cookies[16];
	static int ncookies;
	char buf[8192] __attribute__((aligned(8)));
	printf("%s:", what);
	int any = 0;
	for (;;) {
		ssize_t n = read(in, buf, sizeof buf);
		if (n < 0) {
			if (errno != EAGAIN)
				printf(" read %s", result(n));
			break;
		}
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			char m[256];
			maskNames(ev->mask, m);
			printf("\n  %s %s", wdName(ev->wd), m);
			if (ev->cookie) {
				int c = 0;
				while (c < ncookies && cookies[c] != ev->cookie)
					c++;
				if (c == ncookies && ncookies < 16)
					cookies[ncookies++] = ev->cookie;
				printf(" cookie c%d", c + 1);
			}
			if (ev->len)
				printf(" \"%s\" (len %u)", ev->name, ev->len);
			p += sizeof *ev + ev->len;
			any = 1;
		}
	}
	printf("%s\n", any ? "" : " none");
}

static void writeFile(const char *p, const char *s) {
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, s, strlen(s)) < 0)
		printf("write %s: %s\n", p, strerror(errno));
	close(fd);
}

static int watch(const char *p, uint32_t mask, const char *name) {
	int wd = inotify_add_watch(in, p, mask);
	named(wd, name);
	return wd;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	char top[] = "inotify.XXXXXX";
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	if (chdir(top) != 0)
		return 1;
	printf("init1 bad flags: %s\n", result(inotify_init1(1)));
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	printf("init1: %s, cloexec %d, nonblock %d\n", in >= 0 ? "ok" : result(in), !!(fcntl(in, F_GETFD) & FD_CLOEXEC),
	       !!(fcntl(in, F_GETFL) & O_NONBLOCK));
	mkdir("d", 0755);
	mkdir("d2", 0755);
	writeFile("plain", "x");

	// Errors.
	printf("missing path: %s\n", result(inotify_add_watch(in, "nope", IN_ALL_EVENTS)));
	printf("onlydir on a file: %s\n", result(inotify_add_watch(in, "plain", IN_ALL_EVENTS | IN_ONLYDIR)));
	printf("no events: %s\n", result(inotify_add_watch(in, "d", 0)));
	printf("only flags: %s\n", result(inotify_add_watch(in, "d", IN_ONESHOT)));
	printf("add and create: %s\n", result(inotify_add_watch(in, "d", IN_MODIFY | IN_MASK_ADD | IN_MASK_CREATE)));
	printf("bad fd: %s\n", result(inotify_add_watch(99, "d", IN_MODIFY)));
	int notin = open("plain", O_RDONLY);
	printf("not an inotify fd: %s\n", result(inotify_add_watch(notin, "d", IN_MODIFY)));
	printf("rm_watch on it: %s\n", result(inotify_rm_watch(notin, 1)));
	close(notin);
	printf("rm_watch of no watch: %s\n", result(inotify_rm_watch(in, 7)));
	char small[8];
	printf("read of nothing: %s\n", result(read(in, small, sizeof small)));

	int wdD = watch("d", IN_ALL_EVENTS, "D");
	int wdD2 = watch("d2", IN_ALL_EVENTS, "D2");
	printf("watches: %d %d\n", wdD, wdD2);
	printf("same directory again: %s\n", result(inotify_add_watch(in, "d/.", IN_ALL_EVENTS)));
	printf("mask_create on it: %s\n", result(inotify_add_watch(in, "d", IN_OPEN | IN_MASK_CREATE)));

	// A new file, then its own watch.
	int fd = open("d/f", O_WRONLY | O_CREAT | O_EXCL, 0644);
	drain("create d/f");
	int wdF = watch("d/f", IN_ALL_EVENTS, "F");
	printf("FIONREAD with nothing: %d\n", ioctl(in, FIONREAD, &(int){-1}) == 0);
	write(fd, "hello", 5);
	write(fd, "hello", 5);
	int pending = -1;
	ioctl(in, FIONREAD, &pending);
	printf("FIONREAD after two writes: %d\n", pending);
	printf("read into 8 bytes: %s\n", result(read(in, small, sizeof small)));
	struct pollfd pfd = {.fd = in, .events = POLLIN};
	int ready = poll(&pfd, 1, 0);
	printf("poll: %d revents %#x\n", ready, pfd.revents);
	drain("two writes (the directory's and the file's alternate)");
	close(fd);
	drain("close after writing");

	fd = open("d/f", O_RDONLY);
	char b[64];
	read(fd, b, sizeof b);
	read(fd, b, sizeof b); // at the end: no event
	close(fd);
	drain("open, read, read at the end, close");

	fd = open("d/f", O_WRONLY | O_TRUNC);
	drain("open O_TRUNC");
	ftruncate(fd, 3);
	drain("ftruncate");
	close(fd);
	truncate("d/f", 1);
	drain("close, truncate");
	chmod("d/f", 0600);
	drain("chmod");
	chown("d/f", -1, -1);
	drain("chown to the same (-1, -1)");
	struct timespec ts[2] = {{1, 0}, {2, 0}};
	utimensat(AT_FDCWD, "d/f", ts, 0);
	drain("utimensat both");
	ts[1].tv_nsec = UTIME_OMIT;
	utimensat(AT_FDCWD, "d/f", ts, 0);
	drain("utimensat atime only");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_nsec = 0;
	utimensat(AT_FDCWD, "d/f", ts, 0);
	drain("utimensat mtime only");
	fd = open("d/f", O_PATH);
	close(fd);
	drain("O_PATH open and close");
	fd = open("d/f", O_RDWR);
	close(fd);
	drain("O_RDWR open, close");

	link("d/f", "d/hard");
	drain("link");
	symlink("f", "d/sym");
	drain("symlink");
	printf("dont_follow on the link: %s\n", result(watch("d/sym", IN_ATTRIB | IN_DONT_FOLLOW, "SYM")));
	printf("following it: %s\n", result(inotify_add_watch(in, "d/sym", IN_ALL_EVENTS)));
	unlink("d/sym");
	drain("unlink the link");
	mkdir("d/sub", 0755);
	drain("mkdir");
	DIR *dir = opendir("d");
	int entries = 0;
	while (readdir(dir))
		entries++;
	closedir(dir);
	drain("list d");
	rmdir("d/sub");
	drain("rmdir");

	rename("d/f", "d/g");
	drain("rename in d");
	rename("d/g", "d2/g");
	drain("rename to d2");
	writeFile("d2/h", "h");
	drain("write d2/h");
	fd = open("d2/h", O_WRONLY | O_APPEND);
	write(fd, "1", 1);
	write(fd, "2", 1);
	pwrite(fd, "3", 1, 0);
	struct iovec iov[3] = {{"a", 1}, {"b", 1}, {"c", 1}};
	writev(fd, iov, 3);
	drain("open, four writes (merged), writev of three buffers");
	fsync(fd);
	fchmod(fd, 0640);
	fallocate(fd, 0, 0, 100);
	close(fd);
	drain("fchmod, fallocate, close");
	rename("d2/h", "d2/g");
	drain("rename over g (its link F still has d/hard)");
	unlink("d/hard");
	drain("unlink d/hard (F's inode's last name went with the rename)");

	// A watched file unlinked while open: DELETE_SELF at the last close.
	writeFile("d/open", "o");
	int wdO = watch("d/open", IN_ALL_EVENTS, "O");
	fd = open("d/open", O_RDONLY);
	int fd2 = dup(fd);
	drain("make d/open, watch it, open it");
	unlink("d/open");
	drain("unlink it while open");
	close(fd);
	drain("close one descriptor");
	close(fd2);
	drain("close the last");
	printf("rm_watch of the gone watch: %s\n", result(inotify_rm_watch(in, wdO)));

	// IN_ONESHOT, IN_MASK_ADD, rm_watch.
	writeFile("plain", "y");
	int wdP = watch("plain", IN_MODIFY | IN_ONESHOT, "P");
	drain("watch plain oneshot");
	writeFile("plain", "z");
	writeFile("plain", "w");
	drain("two rewrites of plain");
	wdP = watch("plain", IN_ATTRIB, "P2");
	printf("new watch number after oneshot: %d\n", wdP);
	printf("mask_add: %d\n", inotify_add_watch(in, "plain", IN_MODIFY | IN_MASK_ADD) == wdP);
	writeFile("plain", "v");
	chmod("plain", 0644);
	drain("rewrite, chmod");
	printf("replace mask: %d\n", inotify_add_watch(in, "plain", IN_ATTRIB) == wdP);
	writeFile("plain", "u");
	chmod("plain", 0600);
	drain("rewrite, chmod (attrib only)");
	printf("rm_watch: %s\n", result(inotify_rm_watch(in, wdP)));
	drain("after rm_watch");
	chmod("plain", 0644);
	drain("chmod after rm_watch");

	// IN_EXCL_UNLINK: a child unlinked but open gives its directory no events.
	int wdE = watch("d2", IN_ALL_EVENTS | IN_EXCL_UNLINK, "D2x");
	printf("D2 again with excl_unlink: %d\n", wdE == wdD2);
	fd = open("d2/g", O_RDWR);
	drain("open d2/g");
	unlink("d2/g");
	drain("unlink d2/g");
	write(fd, "after", 5);
	close(fd);
	drain("write and close the unlinked g");

	// Overflow: alternating events do not merge.
	writeFile("d/a", "a");
	writeFile("d/b", "b");
	int fa = open("d/a", O_WRONLY), fb = open("d/b", O_WRONLY);
	drain("two files");
	int max = 0;
	FILE *mq = fopen("/proc/sys/fs/inotify/max_queued_events", "r");
	if (mq) {
		if (fscanf(mq, "%d", &max) != 1)
			max = 0;
		fclose(mq);
	}
	printf("max_queued_events read: %d\n", max > 0);
	for (int i = 0; i < max + 10; i++)
		write(i & 1 ? fb : fa, "x", 1);
	int count = 0, overflow = 0, lastwd = 0;
	char big[65536] __attribute__((aligned(8)));
	for (;;) {
		ssize_t n = read(in, big, sizeof big);
		if (n <= 0)
			break;
		for (char *p = big; p < big + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			count++;
			if (ev->mask & IN_Q_OVERFLOW) {
				overflow++;
				lastwd = ev->wd;
			}
			p += sizeof *ev + ev->len;
		}
	}
	printf("events after %d+10 writes: max+1 %d, overflows %d (wd %d, last %d)\n", max, count == max + 1, overflow,
	       lastwd, count);
	close(fa);
	close(fb);
	drain("closes after the overflow");

	// A child's operations; a blocked read woken by them.
	int bl = inotify_init1(0);
	int wdB = inotify_add_watch(bl, "d2", IN_CREATE | IN_DELETE);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		writeFile("d2/child", "c");
		unlink("d2/child");
		_exit(0);
	}
	char cb[4096] __attribute__((aligned(8)));
	ssize_t n = read(bl, cb, sizeof cb); // blocks until the child's create
	struct inotify_event *ev = (struct inotify_event *)cb;
	printf("blocked read: %s, first event wd %d mask %#x name %s\n", n > 0 ? "events" : result(n), ev->wd == wdB,
	       ev->mask, ev->name);
	waitpid(pid, NULL, 0);
	drain("the child's operations on the first instance");
	close(bl);

	// Watches go with their files: rmdir of a watched directory.
	mkdir("d/w", 0755);
	watch("d/w", IN_ALL_EVENTS, "W");
	drain("mkdir d/w, watch it");
	rmdir("d/w");
	drain("rmdir d/w");
	// Moving a watched directory.
	mkdir("d/m", 0755);
	watch("d/m", IN_ALL_EVENTS, "M");
	rename("d/m", "d2/m");
	drain("mkdir d/m, watch it, move it to d2");
	printf("watch numbers so far: F %d, O %d, E %d\n", wdF, wdO, wdE);

	// Clean up.
	unlink("d/a");
	unlink("d/b");
	rmdir("d2/m");
	rmdir("d");
	rmdir("d2");
	drain("clean up");
	close(in);
	unlink("plain");
	chdir("..");
	rmdir(top);
	return 0;
}
