/* New files belong to the creating process's file-system ids: a root
 * process that set its ids to 1000 makes a file, a directory, a symbolic
 * link, a FIFO and a socket file owned by 1000:1000, and in a
 * set-group-ID directory they take its group (and a directory its
 * set-group-ID bit), as PostgreSQL's initdb, which checks that its data
 * directory is its own, needs. Not root: the ids cannot change, and the
 * lines say so. The output must equal qemu-riscv64's (the host's kernel
 * makes the files there). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static void show(const char *p) {
	struct stat st;
	if (lstat(p, &st) != 0) {
		printf("%s: %s\n", p, strerrorname_np(errno));
		return;
	}
	printf("%s: uid %u gid %u setgid %d\n", p, st.st_uid, st.st_gid, !!(st.st_mode & S_ISGID));
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	int root = geteuid() == 0;
	mkdir("own", 0777);
	chmod("own", 0777);
	mkdir("own/g", 0777);
	if (root) {
		chown("own/g", 0, 1234);
		chmod("own/g", 02777);
	}
	if (setgid(1000) != 0 || setuid(1000) != 0) {
		printf("not root: setuid %s\n", strerrorname_np(errno));
		return 0;
	}
	printf("ids now %u:%u\n", geteuid(), getegid());
	close(open("own/f", O_CREAT | O_WRONLY, 0644));
	mkdir("own/d", 0755);
	symlink("f", "own/l");
	mkfifo("own/p", 0644);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strcpy(a.sun_path, "own/s");
	bind(s, (struct sockaddr *)&a, sizeof a);
	close(open("own/g/f", O_CREAT | O_WRONLY, 0644));
	mkdir("own/g/d", 0755);
	const char *all[] = {"own/f", "own/d", "own/l", "own/p", "own/s", "own/g/f", "own/g/d"};
	for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
		show(all[i]);
	for (int i = 6; i >= 0; i--)
		i == 1 || i == 6 ? rmdir(all[i]) : unlink(all[i]);
	return 0;
}
