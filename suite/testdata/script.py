import sys
n = int(sys.stdin.read())
total = sum(range(n + 1))
open("result.txt", "w").write("sum %d" % total)
print("n =", n)
