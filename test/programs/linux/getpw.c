// getpw: looks up the user running it with getpwuid(getuid()), as
// programs that print a user name do (glibc first asks the nscd daemon
// over an AF_UNIX socket, then reads /etc/passwd). With the argument
// "packet" it also tries an AF_PACKET socket, which rvsim does not
// support (it has no network).
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
	if (argc > 1 && strcmp(argv[1], "packet") == 0) {
		int s = socket(AF_PACKET, SOCK_RAW, 0);
		printf("packet socket %s\n", s < 0 ? "fails" : "opens");
	}
	return 0;
}
