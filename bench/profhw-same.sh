#!/bin/bash
# Checks that two rvsim binaries give bit-identical profiling-unit outputs
# (every file --profhw-out writes) for every shipped profhw preset on
# test inputs, in functional mode with GOMAXPROCS 1 and 2 (a unit's
# reference inline and on its own goroutine) and in timing mode: a
# speed change to the units must not change a bit of what they report.
# Usage: bench/profhw-same.sh OLD_RVSIM NEW_RVSIM [PROGRAMS...]
# (PROGRAMS default: lisp lz). PRESETS overrides the presets; OUT the
# directory the outputs are kept in; REUSE_OLD=1 keeps the old binary's
# outputs found there.
set -euo pipefail
OLD=$(realpath "${1:?usage: bench/profhw-same.sh OLD_RVSIM NEW_RVSIM [PROGRAMS...]}")
NEW=$(realpath "${2:?usage: bench/profhw-same.sh OLD_RVSIM NEW_RVSIM [PROGRAMS...]}")
shift 2
PROGS=("$@")
[ ${#PROGS[@]} -gt 0 ] || PROGS=(lisp lz)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${OUT:-$ROOT/build/bench/same}")
PRESETS=${PRESETS:-$(ls "$ROOT"/profhw/presets/*.toml | xargs -n1 basename | sed 's/\.toml$//' | grep -v -- '-handler$')}
fail=0
# run BIN TAG PROG PRESET MODE PROCS: one run's outputs in OUT/TAG/...
run() {
  local bin=$1 tag=$2 prog=$3 preset=$4 mode=$5 procs=$6 d
  d=$OUT/$tag/$prog.$preset.$mode.$procs
  rm -rf "$d"
  mkdir -p "$d"
  # shellcheck disable=SC2046 # args are words
  (cd "$ROOT/benchmarks/$prog" && GOMAXPROCS=$procs "$bin" run --clear-env --mode "$mode" \
    --profhw-preset "$preset" --profhw-out "$d/out" "$ROOT/build/benchmarks/$prog" $(cat test.args) \
    >"$d/stdout" 2>"$d/stderr") || echo "exit $?" >>"$d/stderr"
}
for prog in "${PROGS[@]}"; do
  for preset in $PRESETS; do
    for cfg in "functional 1" "functional 2" "timing 2"; do
      # shellcheck disable=SC2086 # two words
      set -- $cfg
      [ -n "${REUSE_OLD:-}" ] && [ -d "$OUT/old/$prog.$preset.$1.$2" ] || run "$OLD" old "$prog" "$preset" "$1" "$2"
      run "$NEW" new "$prog" "$preset" "$1" "$2"
      k=$prog.$preset.$1.$2
      if ! diff -r "$OUT/old/$k" "$OUT/new/$k" >/dev/null; then
        echo "DIFFERENT: $k (diff -r $OUT/old/$k $OUT/new/$k)"
        fail=1
      else
        echo "same: $k"
      fi
    done
  done
done
exit $fail
