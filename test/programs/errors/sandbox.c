// Tries file operations given on the command line and prints what the
// guest observes, one line each:
//   r:PATH      open for reading and print the first line
//   w:PATH      create/truncate and write "x"
//   mkdir:PATH  unlink:PATH  rename:OLD:NEW  rmdir:PATH  symlink:TARGET:PATH
// Used to check that --root confines the guest and that writes outside the
// working directory and --allow-write directories are refused.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *errname(int e) {
	switch (e) {
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ELOOP: return "ELOOP";
	case ENOTDIR: return "ENOTDIR";
	case EEXIST: return "EEXIST";
	case EROFS: return "EROFS";
	case EXDEV: return "EXDEV";
	}
	static char buf[32];
	snprintf(buf, sizeof buf, "errno %d", e);
	return buf;
}

static void report(const char *op, const char *path, int rc) {
	if (rc < 0)
		printf("%s %s: %s\n", op, path, errname(errno));
	else
		printf("%s %s: ok\n", op, path);
}

int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		char *colon = strchr(arg, ':');
		if (!colon) {
			printf("bad argument %s\n", arg);
			return 2;
		}
		*colon = 0;
		char *op = arg, *path = colon + 1;
		if (strcmp(op, "r") == 0) {
			int fd = open(path, O_RDONLY);
			if (fd < 0) {
				report(op, path, -1);
				continue;
			}
			char buf[128];
			ssize_t n = read(fd, buf, sizeof buf - 1);
			close(fd);
			if (n < 0)
				n = 0;
			buf[n] = 0;
			buf[strcspn(buf, "\n")] = 0;
			printf("r %s: \"%s\"\n", path, buf);
		} else if (strcmp(op, "w") == 0) {
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd >= 0) {
				write(fd, "x", 1);
				close(fd);
			}
			report(op, path, fd);
		} else if (strcmp(op, "mkdir") == 0) {
			report(op, path, mkdir(path, 0755));
		} else if (strcmp(op, "rmdir") == 0) {
			report(op, path, rmdir(path));
		} else if (strcmp(op, "unlink") == 0) {
			report(op, path, unlink(path));
		} else if (strcmp(op, "rename") == 0 || strcmp(op, "symlink") == 0) {
			char *second = strchr(path, ':');
			if (!second) {
				printf("bad argument %s\n", path);
				return 2;
			}
			*second = 0;
			int rc = op[0] == 'r' ? rename(path, second + 1) : symlink(path, second + 1);
			report(op, second + 1, rc);
		} else {
			printf("bad operation %s\n", op);
			return 2;
		}
	}
	return 0;
}
