#!/bin/bash
# A/B speed of two rvsim binaries in timing mode (docs/TIMING.md, "Speed"):
# every builtin benchmark's test input, the two binaries run back to back,
# alternating, ROUNDS times; per program the best (lowest) user CPU time of
# each binary, MIPS = instructions / user seconds, and the geometric means.
# User CPU time rather than wall time because the host is shared: the
# noise is one-sided (nothing makes a run faster than it is), so the best
# of several runs is the estimate.
#   bench/timing-ab.sh OLD_RVSIM NEW_RVSIM     (from the repository root)
set -euo pipefail
A=$(realpath "${1:?usage: bench/timing-ab.sh OLD_RVSIM NEW_RVSIM}")
B=$(realpath "${2:?usage: bench/timing-ab.sh OLD_RVSIM NEW_RVSIM}")
ROUNDS=${ROUNDS:-3}
PRESET=${PRESET:-default}
PROGRAMS=${PROGRAMS:-$(cd benchmarks && for d in */; do [ -f "$d/test.args" ] && echo "${d%/}"; done)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| benchmark | instructions | old user s | new user s | old MIPS | new MIPS | new/old |\n|---|---|---|---|---|---|---|\n'
for b in $PROGRAMS; do
  declare -A best=()
  insts=
  for r in $(seq "$ROUNDS"); do
    for v in A B; do
      bin=${!v}
      # shellcheck disable=SC2046 # the args file holds words
      (cd "benchmarks/$b" && env -i /usr/bin/time -f %U -o "$tmp/t" "$bin" run --mode timing --preset "$PRESET" \
        --stats "$tmp/s.json" "../../build/benchmarks/$b" $(cat test.args) >/dev/null 2>&1)
      t=$(cat "$tmp/t")
      insts=$(jq .instructions "$tmp/s.json")
      if [ -z "${best[$v]:-}" ] || awk -v a="$t" -v b="${best[$v]}" 'BEGIN {exit !(a < b)}'; then best[$v]=$t; fi
    done
  done
  awk -v b="$b" -v n="$insts" -v ta="${best[A]}" -v tb="${best[B]}" 'BEGIN {
    printf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.3f |\n", b, n, ta, tb, n/ta/1e6, n/tb/1e6, ta/tb }'
  unset best
done | tee "$tmp/rows"
awk -F'|' '{la += log($6); lb += log($7); k++} END {
  printf "| **geometric mean** | | | | **%.2f** | **%.2f** | **%.3f** |\n", exp(la/k), exp(lb/k), exp((lb-la)/k) }' "$tmp/rows"
