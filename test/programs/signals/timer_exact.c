// timer_exact: arms ITIMER_VIRTUAL to fire every 100 microseconds of CPU
// time and spins until its handler has run five times. Under rvsim's
// deterministic time that is every 100,000 retired instructions, counted
// from setitimer's ecall: sim's tests check that each delivery happens at
// exactly that instruction boundary, in both modes.
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile sig_atomic_t hits;

void on_vtalrm(int sig) { hits++; }

int main(void) {
	signal(SIGVTALRM, on_vtalrm);
	struct itimerval it = {{0, 100}, {0, 100}};
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	while (hits < 5)
		;
	printf("%d SIGVTALRM\n", (int)hits);
	return 0;
}
