// umask: what the guest creates (mkdir, open with O_CREAT, mkfifo) gets
// the mode it asked for less its own umask, not less rvsim's as well; an
// existing file keeps its mode; the sticky bit of mkdir stays.
#include <stdio.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
int main(void){
  umask(002);
  mkdir("umd", 0777); mkdir("umd2", 0555);
  int fd = open("umf", O_CREAT|O_WRONLY, 0666); close(fd);
  mkfifo("ump", 0666);
  fd = open("umf", O_CREAT|O_WRONLY, 0600); close(fd); /* exists: mode stays */
  struct stat st;
  const char *n[] = {"umd", "umd2", "umf", "ump"};
  for (int i = 0; i < 4; i++) { stat(n[i], &st); printf("%s %o\n", n[i], st.st_mode & 07777); }
  umask(0); mkdir("umd3", 01777); stat("umd3", &st); printf("umd3 %o\n", st.st_mode & 07777);
  rmdir("umd"); rmdir("umd2"); rmdir("umd3"); unlink("umf"); unlink("ump");
  return 0;
}
