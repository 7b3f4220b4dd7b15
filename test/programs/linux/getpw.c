// getpw: looks up the user running it with getpwuid(getuid()), as
// programs that print a user name do (glibc first asks the nscd daemon
// over an AF_UNIX socket, then reads /etc/passwd). With the argument
// "inet" it also tries an AF_INET socket, which rvsim does not support.
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
	struct passwd *pw = getpwuid(getuid());
	if (pw == NULL) {
		printf("getpwuid: no entry\n");
		return 1;
	}
	printf("uid %u is %s, home %s\n", (unsigned)pw->pw_uid, pw->pw_name, pw->pw_dir);
	if (argc > 1 && strcmp(argv[1], "inet") == 0) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		printf("inet socket %s\n", s < 0 ? "fails" : "opens");
	}
	return 0;
}
