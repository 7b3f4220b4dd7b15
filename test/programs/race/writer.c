// writer DIR: until DIR/../stop exists, modify DIR/f and its neighbours in
// every way the sandbox must check (write, append, truncate, chmod,
// chown, set times, create, link, rename, mkdir, symlink, through paths
// and through a directory descriptor), and print how many calls were made
// and how many succeeded. DIR is swapped with symbolic links meanwhile
// (swapper): whatever it points to, nothing outside --allow-write may
// change. One guest of the sandbox race test (test/race_test.go).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long calls, oks;

static void count(long r)
{
	calls++;
	if (r >= 0)
		oks++;
}

static void closefd(int fd)
{
	count(fd);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: writer DIR\n");
		return 2;
	}
	char f[256], g[256], sub[256], newf[256], newd[256], hl[256], g2[256], stop[256];
	snprintf(f, sizeof f, "%s/f", argv[1]);
	snprintf(g, sizeof g, "%s/sub/g", argv[1]);
	snprintf(sub, sizeof sub, "%s/sub", argv[1]);
	snprintf(newf, sizeof newf, "%s/new", argv[1]);
	snprintf(newd, sizeof newd, "%s/newdir", argv[1]);
	snprintf(hl, sizeof hl, "%s/hardlink", argv[1]);
	snprintf(g2, sizeof g2, "%s/g2", argv[1]);
	snprintf(stop, sizeof stop, "%s/../stop", argv[1]);
	const char msg[] = "written by the writer\n";
	struct timespec times[2] = {{1000000000, 0}, {2000000000, 0}};
	uid_t uid = getuid() == 0 ? 4321 : getuid();
	gid_t gid = getgid() == 0 ? 4321 : getgid();
	for (long i = 0;; i++) {
		if ((i & 15) == 0 && access(stop, F_OK) == 0)
			break;
		int fd = open(f, O_WRONLY | O_APPEND);
		if (fd >= 0)
			count(write(fd, msg, sizeof msg - 1));
		closefd(fd);
		count(chmod(f, 0606));
		count(truncate(f, 1));
		count(chown(f, uid, gid));
		count(lchown(g, uid, gid));
		count(utimensat(AT_FDCWD, f, times, 0));
		count(utimensat(AT_FDCWD, g, NULL, 0));
		count(chmod(sub, 0700));
		closefd(open(f, O_WRONLY | O_TRUNC));
		fd = open(g, O_RDWR);
		if (fd >= 0) {
			count(ftruncate(fd, 0));
			count(fchmod(fd, 0666));
			count(fchown(fd, uid, gid));
			count(futimens(fd, times));
		}
		closefd(fd);
		closefd(open(newf, O_WRONLY | O_CREAT, 0644));
		count(unlink(newf));
		count(mkdir(newd, 0755));
		count(rmdir(newd));
		count(symlink("/etc", newf));
		count(unlink(newf));
		count(link(f, hl));
		count(unlink(hl));
		count(rename(g, g2));
		count(rename(g2, g));
		int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
		if (dfd >= 0) {
			count(fchmodat(dfd, "f", 0604, 0));
			closefd(openat(dfd, "f", O_WRONLY | O_APPEND));
			count(futimens(dfd, times));
			count(mkdirat(dfd, "newdir", 0755));
			count(unlinkat(dfd, "newdir", AT_REMOVEDIR));
		}
		closefd(dfd);
	}
	printf("calls %ld succeeded %ld\n", calls, oks);
	return 0;
}
