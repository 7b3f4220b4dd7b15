#!/usr/bin/env python3
"""Generates the MiniC programs the parser benchmark reads: small.mc (test
input) and input.mc (ref input), each with NAME.expected (bench(N) for
several N, computed by the host C compiler).

Both outputs are committed; this script is only needed to change them:
    python3 gen_input.py && make -C .. expected
MiniC is a C subset, so the host compiler runs the same source with
`int` defined as a wrapping 64-bit long. The program avoids everything whose
meaning differs between C and the benchmark's interpreter: side effects
inside expressions, division by zero, shifts out of range, left shifts of
negative values.
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
N_VALUES = [0, 1, 2, 3, 4, 5, 8, 10, 12, 16, 20, 24, 30, 40, 50, 55, 60, 80, 100]

LIBRARY = r"""
// ---- library: classic routines over global arrays ----
int data[512];
int work[512];
int primes[2048];
int matrix_a[64];
int matrix_b[64];
int matrix_c[64];
int board[16];
int best[128];
int seed = 12345;

int next_random() {
	seed = (seed * 1103515245 + 12345) & 2147483647;
	return seed >> 8;
}

int fib(int n) {
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int gcd(int a, int b) {
	while (b != 0) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

int isqrt(int x) {
	int lo = 0;
	int hi = x;
	if (x < 2)
		return x;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (mid <= x / mid)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int sieve(int limit) {
	int i;
	int count = 0;
	if (limit > 2048)
		limit = 2048;
	for (i = 0; i < limit; i = i + 1)
		primes[i] = 1;
	primes[0] = 0;
	primes[1] = 0;
	for (i = 2; i * i < limit; i = i + 1) {
		if (primes[i]) {
			int j;
			for (j = i * i; j < limit; j = j + i)
				primes[j] = 0;
		}
	}
	for (i = 0; i < limit; i = i + 1)
		count = count + primes[i];
	return count;
}

int fill_data(int n, int modulus) {
	int i;
	for (i = 0; i < n; i = i + 1)
		data[i] = next_random() % modulus;
	return n;
}

int insertion_sort(int n) {
	int i;
	for (i = 1; i < n; i = i + 1) {
		int v = data[i];
		int j = i - 1;
		while (j >= 0 && data[j] > v) {
			data[j + 1] = data[j];
			j = j - 1;
		}
		data[j + 1] = v;
	}
	return 0;
}

int partition(int lo, int hi) {
	int pivot = work[(lo + hi) / 2];
	int i = lo;
	int j = hi;
	while (i <= j) {
		while (work[i] < pivot)
			i = i + 1;
		while (work[j] > pivot)
			j = j - 1;
		if (i <= j) {
			int t = work[i];
			work[i] = work[j];
			work[j] = t;
			i = i + 1;
			j = j - 1;
		}
	}
	return i;
}

int quick_sort(int lo, int hi) {
	while (lo < hi) {
		int mid = partition(lo, hi);
		if (mid - 1 - lo < hi - mid) {
			quick_sort(lo, mid - 1);
			lo = mid;
		} else {
			quick_sort(mid, hi);
			hi = mid - 1;
		}
	}
	return 0;
}

int sorted_equal(int n) {
	int i;
	for (i = 0; i < n; i = i + 1)
		if (data[i] != work[i])
			return 0;
	for (i = 1; i < n; i = i + 1)
		if (data[i - 1] > data[i])
			return 0;
	return 1;
}

int mix(int h, int v) {
	h = h ^ v;
	h = h * 1099511628211;
	return h ^ (h >> 29);
}

int sort_test(int n, int modulus) {
	int i;
	int h = 0;
	fill_data(n, modulus);
	for (i = 0; i < n; i = i + 1)
		work[i] = data[i];
	insertion_sort(n);
	quick_sort(0, n - 1);
	for (i = 0; i < n; i = i + 1)
		h = h * 7 + data[i];
	return h + sorted_equal(n);
}

"""

LIB_EXTRA = r"""
// ---- library: more classic routines ----
int binary_search(int n, int key) {
	int lo = 0;
	int hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) >> 1;
		if (data[mid] == key)
			return mid;
		if (data[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int matmul(int n, int k) {
	int i;
	int j;
	int t = 0;
	for (i = 0; i < n * n; i = i + 1) {
		matrix_a[i] = (i * k + 3) % 17 - 8;
		matrix_b[i] = (i * 5 + k) % 13 - 6;
	}
	for (i = 0; i < n; i = i + 1)
		for (j = 0; j < n; j = j + 1) {
			int s = 0;
			int m;
			for (m = 0; m < n; m = m + 1)
				s = s + matrix_a[i * n + m] * matrix_b[m * n + j];
			matrix_c[i * n + j] = s;
			t = t + s * (i + 1) - j;
		}
	return t;
}

int hanoi(int n, int from, int to, int via) {
	if (n == 0)
		return 0;
	return hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from);
}

int collatz(int x) {
	int steps = 0;
	while (x != 1 && steps < 1000) {
		if (x % 2 == 0)
			x = x / 2;
		else
			x = 3 * x + 1;
		steps = steps + 1;
	}
	return steps;
}

int queens_ok(int row, int col) {
	int r;
	for (r = 0; r < row; r = r + 1) {
		int c = board[r];
		if (c == col || c - col == row - r || col - c == row - r)
			return 0;
	}
	return 1;
}

int queens(int row, int n) {
	int col;
	int count = 0;
	if (row == n)
		return 1;
	for (col = 0; col < n; col = col + 1) {
		if (queens_ok(row, col)) {
			board[row] = col;
			count = count + queens(row + 1, n);
		}
	}
	return count;
}

int knapsack(int items, int capacity) {
	int i;
	int w;
	if (capacity > 127)
		capacity = 127;
	for (w = 0; w <= capacity; w = w + 1)
		best[w] = 0;
	for (i = 0; i < items; i = i + 1) {
		int weight = 1 + next_random() % 20;
		int value = next_random() % 100;
		for (w = capacity; w >= weight; w = w - 1) {
			int cand = best[w - weight] + value;
			if (cand > best[w])
				best[w] = cand;
		}
	}
	return best[capacity];
}

"""

OPS = ["+", "-", "*", "^", "&", "|"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def atom(self, names):
        r = self.r.random()
        if r < 0.55:
            return self.r.choice(names)
        # literals carry an L suffix so that C folds constant subexpressions in 64 bits
        if r < 0.8:
            return "%dL" % self.r.choice([0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 100, 255, 1000])
        return "%dL" % self.r.randrange(1, 100000)

    def expr(self, names, depth):
        r = self.r.random()
        if depth <= 0 or r < 0.2:
            return self.atom(names)
        if r < 0.3:
            return "(%s / ((%s & 15) + 1))" % (self.expr(names, depth - 1), self.expr(names, depth - 1))
        if r < 0.36:
            return "(%s %% ((%s & 31) + 1))" % (self.expr(names, depth - 1), self.expr(names, depth - 1))
        if r < 0.42:
            return "(%s >> %d)" % (self.expr(names, depth - 1), self.r.randrange(1, 20))
        if r < 0.46:
            return "((%s & 65535) << %d)" % (self.expr(names, depth - 1), self.r.randrange(1, 30))
        if r < 0.52:
            cmp = self.r.choice(["<", "<=", ">", ">=", "==", "!="])
            return "(%s %s %s)" % (self.expr(names, depth - 1), cmp, self.expr(names, depth - 1))
        if r < 0.55:
            return "(%s && %s)" % (self.expr(names, depth - 1), self.expr(names, depth - 1))
        if r < 0.58:
            return "(%s || %s)" % (self.expr(names, depth - 1), self.expr(names, depth - 1))
        if r < 0.61:
            return "-%s" % self.atom(names)
        if r < 0.63:
            return "!%s" % self.atom(names)
        if r < 0.65:
            return "~%s" % self.atom(names)
        op = self.r.choice(OPS)
        return "(%s %s %s)" % (self.expr(names, depth - 1), op, self.expr(names, depth - 1))

    def stmts(self, names, locals_, depth, indent, callees, budget):
        out = []
        pad = "\t" * indent
        for _ in range(self.r.randrange(2, 6)):
            r = self.r.random()
            target = self.r.choice(locals_)
            if r < 0.45 or depth <= 0:
                out.append("%s%s = %s;" % (pad, target, self.expr(names, 3)))
            elif r < 0.6:
                out.append("%sif (%s) {" % (pad, self.expr(names, 2)))
                out += self.stmts(names, locals_, depth - 1, indent + 1, callees, budget)
                if self.r.random() < 0.5:
                    out.append("%s} else {" % pad)
                    out += self.stmts(names, locals_, depth - 1, indent + 1, callees, budget)
                out.append("%s}" % pad)
            elif r < 0.75:
                var = "i%d" % depth
                out.append("%sfor (%s = 0; %s < (%s & 7) + 2; %s = %s + 1) {" % (
                    pad, var, var, self.r.choice(names), var, var))
                out += self.stmts(names + [var], locals_, depth - 1, indent + 1, callees, budget)
                out.append("%s}" % pad)
            elif r < 0.85 and callees and budget[0] > 0:
                budget[0] -= 1
                f = self.r.choice(callees)
                args = ", ".join(self.expr(names, 1) for _ in range(3))
                out.append("%s%s = %s + %s(%s);" % (pad, target, target, f, args))
            else:
                out.append("%swhile (%s > 3 && %s < 40) {" % (pad, target, target))
                out.append("%s\t%s = %s / 2 + 1;" % (pad, target, target))
                out.append("%s}" % pad)
        return out

    def function(self, k, callees):
        names = ["a", "b", "c", "x", "y", "z"]
        lines = ["int gen%d(int a, int b, int c) {" % k, "\tint x = a ^ %d;" % self.r.randrange(1000),
                 "\tint y = b + c;", "\tint z = %s;" % self.expr(["a", "b", "c"], 2),
                 "\tint i0;", "\tint i1;", "\tint i2;"]
        lines += self.stmts(names, ["x", "y", "z"], 2, 1, callees, [1])
        lines.append("\treturn %s;" % self.expr(names, 2))
        lines.append("}")
        return "\n".join(lines)


def make_source(nfuncs, full):
    rnd = random.Random(20240611)
    g = Gen(rnd)
    parts = ["// generated by gen_input.py: input of the parser benchmark (MiniC, a C subset).",
             LIBRARY + (LIB_EXTRA if full else ""), "// ---- generated functions ----"]
    for k in range(nfuncs):
        # callees: earlier functions, so the call graph is acyclic
        callees = ["gen%d" % j for j in range(max(0, k - 20), k)] if k else []
        parts.append(g.function(k, callees))
    calls = ["\t\th = mix(h, fib(6 + i % 6));",
             "\t\th = mix(h, gcd(i * 7919 + 1, 104729));",
             "\t\th = mix(h, sort_test(20 + i % 40, 1000 + i));"]
    if full:
        calls += ["\t\th = mix(h, isqrt(i * 1000003));",
                  "\t\th = mix(h, sieve(300 + (i % 5) * 200));",
                  "\t\th = mix(h, binary_search(20, data[i % 20]));",
                  "\t\th = mix(h, matmul(3 + i % 5, i));",
                  "\t\th = mix(h, hanoi(4 + i % 4, 1, 3, 2));",
                  "\t\th = mix(h, collatz(27 + i));",
                  "\t\th = mix(h, queens(0, 4 + i % 3));",
                  "\t\th = mix(h, knapsack(8 + i % 8, 40 + i % 40));"]
    for k in range(nfuncs):
        calls.append("\t\th = mix(h, gen%d(i + %dL, h & 1023L, %dL));" % (k, k, k % 7))
    parts.append("""
int bench(int n) {
	int h = 0;
	int i;
	for (i = 0; i < n; i = i + 1) {
CALLS
	}
	return h;
}
""".replace("CALLS", "\n".join(calls)))
    return "\n".join(parts) + "\n"


def write_pair(name, src):
    with open(os.path.join(HERE, name + ".mc"), "w") as f:
        f.write(src)
    # one process per N: bench() changes global state
    harness = ("#include <stdio.h>\n#include <stdlib.h>\n#define int long\n#include \"%s\"\n"
               "#undef int\nint main(int argc, char **argv) {\n"
               "\tlong n = atol(argv[1]);\n"
               "\tprintf(\"%%ld %%ld\\n\", n, bench(n));\n"
               "\treturn 0;\n}\n" % os.path.join(HERE, name + ".mc"))
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "h.c")
        exe = os.path.join(tmp, "h")
        with open(c, "w") as f:
            f.write(harness)
        subprocess.check_call(["gcc", "-O1", "-fwrapv", "-w", "-o", exe, c])
        out = "".join(subprocess.check_output([exe, str(n)]).decode() for n in N_VALUES)
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        f.write("# N bench(N), computed by the host C compiler from %s.mc (gen_input.py)\n" % name)
        f.write(out)
    print("%s.mc: %d bytes" % (name, len(src)))


def main():
    write_pair("small", make_source(2, False))
    write_pair("input", make_source(56, True))


if __name__ == "__main__":
    main()
