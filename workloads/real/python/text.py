# rvsim's real suite (suite/real.toml): Python kernels in the style of
# pyperformance, written for the project: string formatting, a JSON round
# trip and regular expressions. Usage: python3 -S text.py N (N scales the
# work linearly). Every kernel prints a checksum, checked against
# qemu-riscv64's output (workloads/real/expected).
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


# --- string formatting: a report in three styles ---

def bench_strings(n):
    rng = Rng(11)
    total = 0
    for r in range(n):
        lines = []
        for i in range(40):
            a, b = rng.below(100000), rng.below(1000)
            name = "item%04d" % (a % 9973)
            lines.append(f"{name:<12}|{a:>8d}|{b / 7:10.3f}|{a ^ b:#x}")
            lines.append("{0}:{1:08b}:{2!r}".format(i, b & 255, name[::-1]))
            lines.append("%-6s %5.1f%% %s" % (name[:6], 100.0 * b / 1000, "ok" if a & 1 else "no"))
        text = "\n".join(lines)
        parts = text.split("|")
        up = text.upper().count("ITEM")
        total += len(text) + len(parts) + up + text.count("ok") + len(text.replace(":", "::"))
    return total


# --- JSON: a document built, dumped and loaded back ---

def bench_json(n):
    import json
    rng = Rng(13)
    total = 0
    for r in range(n):
        doc = {
            "id": r,
            "users": [
                {"name": "user%d" % rng.below(10000), "age": rng.below(90), "score": rng.below(1000) / 8,
                 "tags": ["t%d" % rng.below(20) for _ in range(rng.below(5))],
                 "active": rng.below(2) == 1, "manager": None}
                for _ in range(10)
            ],
            "meta": {"version": "1.%d" % (r % 10), "note": "caf\u00e9 \"quoted\" \\ slash"},
        }
        s = json.dumps(doc, sort_keys=True)
        back = json.loads(s)
        if back != doc:
            raise SystemExit("json round trip differs")
        s2 = json.dumps(back, indent=1)
        total += len(s) + len(s2) + sum(u["age"] for u in back["users"])
    return total


# --- regular expressions: parse generated log lines ---

def bench_regex(n):
    import re
    LOG_RE = re.compile(r"^(\d{4})-(\d\d)-(\d\d) (\w+) \[(\w+)\] (.*?)(?: code=(\d+))?$")
    WORD_RE = re.compile(r"\b[a-z]{4,}\b")
    IP_RE = re.compile(r"(\d+)\.(\d+)\.(\d+)\.(\d+)")
    rng = Rng(17)
    levels = ["INFO", "WARN", "ERROR", "DEBUG"]
    msgs = ["connection from %d.%d.%d.%d accepted", "request served in time", "disk quota nearly full",
            "retrying after timeout", "user logged out cleanly"]
    total = 0
    for r in range(n):
        lines = []
        for i in range(30):
            m = msgs[rng.below(len(msgs))]
            if "%d" in m:
                m = m % (rng.below(256), rng.below(256), rng.below(256), rng.below(256))
            code = " code=%d" % rng.below(600) if rng.below(3) == 0 else ""
            lines.append("2024-%02d-%02d host%d [%s] %s%s" % (1 + rng.below(12), 1 + rng.below(28),
                                                                rng.below(9), levels[rng.below(4)], m, code))
        counts = {}
        for line in lines:
            mo = LOG_RE.match(line)
            if mo is None:
                raise SystemExit("no match: " + line)
            counts[mo.group(5)] = counts.get(mo.group(5), 0) + 1
            if mo.group(7):
                total += int(mo.group(7))
            total += len(WORD_RE.findall(mo.group(6)))
            for ip in IP_RE.findall(line):
                total += sum(int(x) for x in ip)
        text = "\n".join(lines)
        total += len(re.sub(r"host(\d)", r"h<\1>", text)) + sum(counts.values())
    return total


KERNELS = [("strings", bench_strings, 1), ("json", bench_json, 2), ("regex", bench_regex, 1)]


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: %s N" % sys.argv[0])
    n = int(sys.argv[1])
    for name, fn, weight in KERNELS:
        print("%-10s %d" % (name, fn(n * weight)))


main()
