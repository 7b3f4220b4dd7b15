// swapper DIR [N]: in DIR, swap the directory d with each symbolic link
// lnk-* in turn (rename d to d.real, the link to d, d back to the link,
// d.real back to d), N times (or, with N = 0, until DIR/stop exists), and
// print how many times d was replaced. One guest of the sandbox race test
// (test/race_test.go); the other, writer, works through DIR/d meanwhile.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *links[] = {"lnk-abs-out", "lnk-rel-out", "lnk-abs-ro", "lnk-rel-ro", "lnk-host-ro"};

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) != 0) {
		perror("swapper: chdir");
		return 2;
	}
	long max = argc > 2 ? atol(argv[2]) : 0;
	long swaps = 0, failed = 0;
	for (long i = 0; max == 0 || swaps < max; i++) {
		if ((i & 255) == 0 && access("stop", F_OK) == 0)
			break;
		const char *lnk = links[i % 5];
		if (rename("d", "d.real") != 0) {
			failed++;
			continue;
		}
		if (rename(lnk, "d") == 0) {
			swaps++; // d is a link
			if (rename("d", lnk) != 0)
				failed++;
		} else
			failed++;
		if (rename("d.real", "d") == 0)
			swaps++; // d is the directory again
		else
			failed++;
	}
	printf("swaps %ld failed %ld\n", swaps, failed);
	return failed != 0;
}
