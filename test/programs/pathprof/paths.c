// paths: control flow for the path profiler's tests (profhw/pathprof):
// recursion deeper than the 32-entry path stack (it overflows and
// underflows), longjmp out of deep and shallow recursion (the stack's
// return repair), a dense switch that gcc compiles to a jump table (an
// indirect jump), calls through function pointers (indirect calls) and
// mutual recursion through them. Built with -g: the hot-path listing's
// source lines come from its DWARF line table. Prints a checksum; exit 0.
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile int sink;

// deep recurses n levels, with a data-dependent branch in each frame.
__attribute__((noinline)) static int deep(int n) {
	if (n == 0)
		return 1;
	int r = deep(n - 1);
	if ((n ^ r) & 1)
		r += 3;
	else
		r ^= 5;
	return r;
}

// escape recurses n levels and longjmps out of the bottom (gcc sees a
// recursion without a return: it never returns, by design).
#pragma GCC diagnostic ignored "-Winfinite-recursion"
__attribute__((noinline)) static void escape(int n, int code) {
	if (n <= 0)
		longjmp(env, code);
	sink += n;
	escape(n - 1, code);
	sink -= 1; // never reached: keeps the call from being a tail call
}

// dispatch: a dense switch, a jump table.
__attribute__((noinline)) static int dispatch(int op, int x) {
	switch (op) {
	case 0: return x + 1;
	case 1: return x * 3;
	case 2: return x - 7;
	case 3: return x ^ 0x55;
	case 4: return x << 2;
	case 5: return x >> 1;
	case 6: return ~x;
	case 7: return x & 0xff;
	case 8: return x | 0x100;
	case 9: return -x;
	default: return x;
	}
}

__attribute__((noinline)) static int f0(int x) { return x + 11; }
__attribute__((noinline)) static int f1(int x) { return x > 100 ? x - 100 : x * 2; }
__attribute__((noinline)) static int f2(int x) {
	int s = 0;
	for (int i = 0; i < (x & 7); i++)
		s += i;
	return s;
}
static int (*const fns[3])(int) = {f0, f1, f2};

// Mutual recursion through function pointers, deeper than the stack.
static int ping(int n);
static int pong(int n);
static int (*volatile pp[2])(int) = {ping, pong};
__attribute__((noinline)) static int ping(int n) { return n <= 0 ? 0 : 1 + pp[1](n - 1); }
__attribute__((noinline)) static int pong(int n) { return n <= 0 ? 0 : 2 + pp[0](n - 1); }

int main(void) {
	long sum = 0;
	for (int i = 0; i < 20; i++)
		sum += deep(40 + i * 3); // 40..97 levels
	for (int i = 0; i < 6; i++) {
		int r = setjmp(env);
		if (r == 0)
			escape(i % 2 ? 60 : 3, i + 1); // deeper than the stack, or not
		sum += r;
	}
	int x = 1;
	for (int i = 0; i < 3000; i++) {
		x = dispatch((unsigned)(x ^ i) % 11, x);
		x += fns[(unsigned)(i ^ x) % 3](x & 0xffff);
	}
	sum += x;
	for (int i = 0; i < 10; i++)
		sum += pp[i & 1](50 + i);
	printf("paths: %ld\n", sum);
	return 0;
}
