// kill: signals between the run's processes, as kill(2) addresses them: a
// child signals its parent (a handler runs, waitpid goes on: SA_RESTART),
// its own process group (kill(0): parent and child), the parent's group
// from a child in a group of its own, the parent that child's group
// (SIGTERM ends it), kill(-1) with no other process, and a pid that no
// process has (ESRCH). Its expected output is hand-checked: qemu-riscv64
// shares the host's process group with the test harness, so kill(0) there
// would reach the harness.
#include <stdio.h>
#include <signal.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
static volatile int got1, got2;
static void h1(int s){ got1++; }
static void h2(int s){ got2++; }
int main(void){
  setvbuf(stdout, NULL, _IONBF, 0);
  struct sigaction sa = {0}; sa.sa_handler = h1; sa.sa_flags = SA_RESTART; sigaction(SIGUSR1, &sa, 0);
  sa.sa_handler = h2; sigaction(SIGUSR2, &sa, 0);
  pid_t c = fork();
  if (c == 0) { printf("child: kill(parent) %d\n", kill(getppid(), SIGUSR1)); printf("child: kill(0) %d\n", kill(0, SIGUSR2)); printf("child got2 %d\n", got2); _exit(0); }
  int st; pid_t w = waitpid(c, &st, 0);
  printf("parent: waitpid %d, got1 %d got2 %d\n", w == c, got1, got2);
  c = fork();
  if (c == 0) { setpgid(0, 0); printf("child2: kill(-parent group) %d\n", kill(-getpgid(getppid()), SIGUSR1)); pause(); _exit(0); }
  while (got1 < 2) usleep(1000);
  printf("parent: got1 %d\n", got1);
  printf("parent: kill(-child2 group) %d\n", kill(-c, SIGTERM));
  waitpid(c, &st, 0);
  printf("child2: signalled %d by %d\n", WIFSIGNALED(st), WTERMSIG(st));
  printf("kill(-1, 0): %d %s\n", kill(-1, 0), strerror(errno));
  printf("kill(no such process): %d %s\n", kill(99999, 0), strerror(errno));
  return 0;
}
