#!/bin/bash
# The timing model's cycle-exactness guard (docs/TIMING.md, "Speed"): runs
# every builtin benchmark's test input in timing mode under each preset
# below and compares the --stats JSON, minus the two host-time keys
# (host_seconds, mips), byte for byte with the recorded copy in
# bench/timing-guard/PRESET/NAME.json. A speed change to pipeline/ must
# leave every instruction count, cycle count and statistic unchanged.
#   bench/timing-guard.sh RVSIM            check (exit 1 on any difference)
#   bench/timing-guard.sh RVSIM --record   rewrite the recorded copies (only
#                                          for a deliberate, named model change)
# Run from the repository root; cwd of each run is benchmarks/NAME, as
# rvsim benchmarks does, with the program named ../../build/benchmarks/NAME
# and an empty environment (the guest sees argv and the host environment,
# so the instruction counts would otherwise depend on both).
# About half a minute on the 2-core VM.
set -euo pipefail
# The checkout is the guest's / (--root), so the guest's working directory
# (/benchmarks/NAME) and every count do not depend on where the checkout is.
RVSIM=$(realpath "${1:?usage: bench/timing-guard.sh RVSIM [--record]}")
RECORD=${2:-}
ROOT=$(pwd)
DIR=$ROOT/bench/timing-guard
PRESETS=${PRESETS:-default hps}
PROGRAMS=${PROGRAMS:-$(cd benchmarks && for d in */; do [ -f "$d/test.args" ] && echo "${d%/}"; done)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for p in $PRESETS; do
  mkdir -p "$DIR/$p"
  for b in $PROGRAMS; do
    # shellcheck disable=SC2046 # the args file holds words
    (cd "benchmarks/$b" && env -i "$RVSIM" run --root "$ROOT" --mode timing --preset "$p" --stats "$tmp/raw.json" \
      "../../build/benchmarks/$b" $(cat test.args) >/dev/null 2>"$tmp/err") ||
      { echo "timing-guard: $p/$b: rvsim failed: $(head -c 300 "$tmp/err")" >&2; fail=1; continue; }
    jq -S 'del(.host_seconds, .mips)' "$tmp/raw.json" >"$tmp/$p-$b.json"
    if [ "$RECORD" = --record ]; then
      cp "$tmp/$p-$b.json" "$DIR/$p/$b.json"
      echo "recorded $p/$b: $(jq -r '"\(.instructions) instructions, \(.cycles) cycles"' "$tmp/$p-$b.json")"
    elif ! cmp -s "$tmp/$p-$b.json" "$DIR/$p/$b.json"; then
      echo "timing-guard: $p/$b differs from bench/timing-guard/$p/$b.json:" >&2
      diff "$DIR/$p/$b.json" "$tmp/$p-$b.json" | head -20 >&2 || true
      fail=1
    else
      echo "ok $p/$b: $(jq -r '"\(.instructions) instructions, \(.cycles) cycles"' "$tmp/$p-$b.json")"
    fi
  done
done
exit $fail
