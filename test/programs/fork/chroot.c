/* chroot(2): a child changes its root to a directory below its working
 * directory and looks around: absolute paths and ".." stop at the new
 * root, absolute symbolic links resolve inside it, the working directory
 * it left outside still reaches the old tree (getcwd says
 * "(unreachable)"), the root's ".." entry names its real parent, a
 * grandchild inherits the root, and a nested chroot and the refusals
 * (ENOTDIR, ENOENT, EPERM without CAP_SYS_CHROOT) act as on Linux.
 * /proc/PID/root: the child's own names "/", its parent's is another
 * directory than the child's "/" (ischroot's test), and the parent sees
 * the child's root as the jail's path; the child's mount tables are
 * empty (the mounts' points lie above its root).
 * Run as root in a writable working directory; the output must equal the
 * host's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static void put(const char *name, const char *text) {
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(fd, text, strlen(text));
	close(fd);
}

// show prints what reading name gives: its text or the error.
static void show(const char *what, const char *name) {
	char b[64] = "";
	int fd = open(name, O_RDONLY);
	if (fd < 0) {
		printf("%s: %s\n", what, result(fd));
		return;
	}
	ssize_t n = read(fd, b, sizeof b - 1);
	b[n > 0 ? n : 0] = 0;
	close(fd);
	printf("%s: %s\n", what, b);
}

static void cwd(const char *what) {
	char b[4096];
	if (!getcwd(b, sizeof b)) {
		printf("%s: %s\n", what, result(-1));
		return;
	}
	if (strncmp(b, "(unreachable)", 13) == 0)
		printf("%s: (unreachable) ending in /%s\n", what, strrchr(b, '/') + 1);
	else if (!strstr(b, "/chroot-test"))
		printf("%s: %s\n", what, b); // (a path inside the jail)
	else
		printf("%s: a path ending in /%s\n", what, strrchr(b, '/') + 1);
}

// dotdot is the inode the ".." entry of directory name gives.
static unsigned long dotdot(const char *name) {
	DIR *d = opendir(name);
	struct dirent *e;
	unsigned long ino = 0;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, "..") == 0)
			ino = e->d_ino;
	if (d)
		closedir(d);
	return ino;
}

static int wait1(void) {
	int st;
	wait(&st);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	mkdir("chroot-test", 0755);
	chdir("chroot-test");
	mkdir("jail", 0755);
	mkdir("jail/sub", 0755);
	put("outside.txt", "outside");
	put("jail/inside.txt", "inside");
	put("jail/sub/deeper.txt", "deeper");
	symlink("/inside.txt", "jail/abs");
	symlink("../../../../../../../outside.txt", "jail/climb");
	struct stat here;
	stat(".", &here);

	printf("chroot to a file: %s\n", result(chroot("jail/inside.txt")));
	printf("chroot to nothing: %s\n", result(chroot("jail/none")));
	int up[2], down[2]; // the child tells the parent it is in the jail, and waits for it
	pipe(up), pipe(down);
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		int proc = open("/proc", O_RDONLY | O_DIRECTORY); // (the jail has no /proc of its own)
		printf("chroot(\"jail\"): %s\n", result(chroot("jail")));
		char link[256], name[64];
		ssize_t n = readlinkat(proc, "self/root", link, sizeof link - 1);
		link[n > 0 ? n : 0] = 0;
		printf("  /proc/self/root: %s\n", n < 0 ? result(-1) : link);
		struct stat root, theirs;
		snprintf(name, sizeof name, "%d/root", (int)parent);
		int r = stat("/", &root), t = fstatat(proc, name, &theirs, 0);
		for (int i = 0; i < 2; i++) { // no mount point lies below the new root
			const char *f = i ? "self/mountinfo" : "self/mounts";
			int fd = openat(proc, f, O_RDONLY), lines = 0;
			char c;
			while (fd >= 0 && read(fd, &c, 1) == 1)
				lines += c == '\n';
			printf("  /proc/%s: %s\n", f, fd < 0 ? result(-1) : lines ? "lines" : "empty");
			close(fd);
		}
		close(proc);
		printf("  the parent's root is another directory (ischroot): %s\n",
		       r || t ? result(-1) : root.st_ino != theirs.st_ino || root.st_dev != theirs.st_dev ? "yes" : "no");
		write(up[1], "", 1);
		read(down[0], name, 1);
		cwd("  getcwd, the working directory left outside");
		show("  outside.txt from the old working directory", "outside.txt");
		show("  /inside.txt", "/inside.txt");
		show("  /outside.txt", "/outside.txt");
		show("  /../../inside.txt", "/../../inside.txt");
		show("  /abs (-> /inside.txt)", "/abs");
		show("  /climb (-> ../../../outside.txt)", "/climb");
		printf("  chdir(\"/\"): %s\n", result(chdir("/")));
		cwd("  getcwd");
		show("  ../inside.txt", "../inside.txt");
		show("  sub/../../../inside.txt", "sub/../../../inside.txt");
		printf("  the root's \"..\" entry is its real parent: %s\n", dotdot("/") == here.st_ino ? "yes" : "no");
		if (fork() == 0) {
			show("  a grandchild reads /inside.txt", "/inside.txt");
			cwd("  a grandchild's getcwd");
			_exit(0);
		}
		wait1();
		printf("  chroot(\"sub\") again: %s\n", result(chroot("sub")));
		cwd("  getcwd");
		show("  /deeper.txt", "/deeper.txt");
		show("  /inside.txt", "/inside.txt");
		show("  inside.txt from the old working directory", "inside.txt");
		printf("  chdir(\"..\"), then chdir(\"/\"): %s, %s\n", result(chdir("..")), result(chdir("/")));
		cwd("  getcwd");
		if (fork() == 0) {
			setuid(65534);
			printf("  chroot as nobody: %s\n", result(chroot(".")));
			_exit(0);
		}
		wait1();
		_exit(0);
	}
	char b, link[4096], name[64];
	read(up[0], &b, 1);
	snprintf(name, sizeof name, "/proc/%d/root", (int)child);
	ssize_t n = readlink(name, link, sizeof link - 1);
	link[n > 0 ? n : 0] = 0;
	struct stat jail, theirs;
	stat("jail", &jail);
	if (n < 0)
		printf("the parent reads the child's root: %s\n", result(-1));
	else
		printf("the parent reads the child's root: a path ending in /%s, the jail: %s\n", strrchr(link, '/') + 1,
		       stat(name, &theirs) == 0 && theirs.st_ino == jail.st_ino ? "yes" : "no");
	write(down[1], "", 1);
	printf("the child ended with %d\n", wait1());
	cwd("the parent's getcwd");
	show("the parent reads jail/inside.txt", "jail/inside.txt");
	unlink("jail/abs"), unlink("jail/climb");
	unlink("jail/sub/deeper.txt"), rmdir("jail/sub");
	unlink("jail/inside.txt"), rmdir("jail");
	unlink("outside.txt");
	chdir("..");
	printf("cleaned up: %s\n", result(rmdir("chroot-test")));
	return 0;
}
