# rvsim's real suite (suite/real.toml): Python kernels in the style of
# pyperformance, written for the project: object-heavy code (a
# richards-like scheduler of tasks and packets), dicts, and recursion.
# Usage: python3 -S oo.py N (N scales the work linearly). Every kernel
# prints a checksum, checked against qemu-riscv64's output
# (workloads/real/expected).
import sys


class Rng:
    """A 64-bit linear congruential generator (Knuth's MMIX constants)."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.s >> 33

    def below(self, n):
        return self.next() % n


# --- object-heavy: a small scheduler of tasks and packets (richards-like) ---

class Packet:
    __slots__ = ("link", "ident", "kind", "datum", "data")

    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * 4

    def append_to(self, lst):
        self.link = None
        if lst is None:
            return self
        p = lst
        while p.link is not None:
            p = p.link
        p.link = self
        return lst


class Task:
    def __init__(self, ident, prio):
        self.ident = ident
        self.prio = prio
        self.queue = None
        self.count = 0

    def run(self, pkt, sched):
        raise NotImplementedError


class Worker(Task):
    def run(self, pkt, sched):
        if pkt is None:
            return None
        self.count += 1
        pkt.datum = (pkt.datum + self.ident * 7 + self.count) % 1000
        for i in range(4):
            pkt.data[i] = (pkt.data[i] * 3 + pkt.datum + i) & 0xFFFF
        pkt.ident = (self.ident + self.count) % sched.ntasks
        return pkt


class Handler(Task):
    def run(self, pkt, sched):
        if pkt is None:
            return None
        self.count += 1
        pkt.kind = "work" if pkt.kind == "device" else "device"
        pkt.ident = (pkt.ident * 5 + 3) % sched.ntasks
        return pkt


class Scheduler:
    def __init__(self, ntasks):
        self.ntasks = ntasks
        self.tasks = [Worker(i, i % 3) if i % 2 == 0 else Handler(i, i % 5) for i in range(ntasks)]
        self.moves = 0

    def schedule(self, packets, rounds):
        for p in packets:
            t = self.tasks[p.ident % self.ntasks]
            t.queue = p.append_to(t.queue)
        for _ in range(rounds):
            for t in sorted(self.tasks, key=lambda t: (t.prio, t.ident)):
                pkt = t.queue
                if pkt is None:
                    continue
                t.queue = pkt.link
                out = t.run(pkt, self)
                if out is not None:
                    dst = self.tasks[out.ident]
                    dst.queue = out.append_to(dst.queue)
                    self.moves += 1
        return sum(t.count * (t.ident + 1) for t in self.tasks) + self.moves


def bench_objects(n):
    s = Scheduler(24)
    pkts = [Packet(None, i, "work" if i % 3 else "device") for i in range(60)]
    return s.schedule(pkts, 12 * n)


# --- dicts: an inventory of records, grouped, merged and inverted ---

def bench_dicts(n):
    rng = Rng(7)
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa",
             "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"]
    total = 0
    for r in range(n):
        inv = {}
        for i in range(400):
            key = words[rng.below(len(words))] + str(rng.below(50))
            rec = inv.setdefault(key, {"count": 0, "sum": 0, "tags": set()})
            rec["count"] += 1
            rec["sum"] += rng.below(1000)
            rec["tags"].add(words[rng.below(len(words))])
        by_count = {}
        for k, v in inv.items():
            by_count.setdefault(v["count"], []).append(k)
        merged = {**{k: v["sum"] for k, v in inv.items() if v["count"] > 1},
                  **{k: -1 for k in list(inv)[:10]}}
        inverted = {v: k for k, v in merged.items()}
        total += len(inv) + sum(len(v) for v in by_count.values()) + len(inverted)
        total += sum(len(v["tags"]) for v in inv.values()) + max(by_count)
    return total


# --- recursion: binary trees, Ackermann, permutations ---

def make_tree(d):
    if d == 0:
        return (None, None)
    d -= 1
    return (make_tree(d), make_tree(d))


def check_tree(t):
    l, r = t
    if l is None:
        return 1
    return 1 + check_tree(l) + check_tree(r)


def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))


def permutations(items):
    if len(items) <= 1:
        yield list(items)
        return
    for i in range(len(items)):
        for p in permutations(items[:i] + items[i + 1:]):
            yield [items[i]] + p


def bench_recursion(n):
    total = 0
    for r in range(n):
        total += check_tree(make_tree(10 + r % 3))
        total += ack(2, 30 + r % 7)
        total += sum(p[0] * p[-1] for p in permutations(list(range(6))))
    return total


KERNELS = [("objects", bench_objects, 1), ("dicts", bench_dicts, 1), ("recursion", bench_recursion, 1)]


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: %s N" % sys.argv[0])
    n = int(sys.argv[1])
    for name, fn, weight in KERNELS:
        print("%-10s %d" % (name, fn(n * weight)))


main()
