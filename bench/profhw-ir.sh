#!/bin/bash
# Host instructions per guest instruction (callgrind, GOMAXPROCS=1) of a
# test input without units and with each profhw configuration of
# experiments/benchtable's profhw rows: the deterministic measure of a unit's cost on a
# noisy machine (docs/SPEED.md, "Speed with profiling units attached").
# Under GOMAXPROCS=1 every unit's goroutine runs inline (profhw.Pipe), so
# this is the whole CPU cost of the run. GOGC=off: a collection that
# overlaps the interpreter turns on its write barriers and moved the
# figure without units from 28 to 34 host instructions between runs.
# cpu.rdtscp=off: valgrind 3.19 does not decode RDTSCP, which Go's
# runtime.cputicks uses when the CPU has it. --jit off: the units observe
# every instruction, so the plain run they are compared with is the
# interpreter's (the translator's is about half as many host instructions).
# Each run's output is kept in
# OUTDIR; ONLY=REGEX measures only the configurations it matches (and
# none); REUSE=1 reads the profiles OUTDIR holds instead of running.
# Usage: bench/profhw-ir.sh RVSIM [PROGRAM] [OUTDIR]
set -euo pipefail
RVSIM=$(realpath "${1:?usage: bench/profhw-ir.sh RVSIM [PROGRAM] [OUTDIR]}")
PROG=${2:-lisp}
OUT=$(realpath -m "${3:-build/bench/ir}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HW="--profhw-set error.exact=false"
configs=(
  "none|"
  "stratified-value-hw|--profhw-preset stratified-value $HW"
  "stratified-value|--profhw-preset stratified-value"
  "multihash-value-hw|--profhw-preset multihash-value $HW"
  "multihash-value|--profhw-preset multihash-value"
  "path-bl|--profhw-preset path-bl"
)
# path-bl runs with GOMAXPROCS=2: only then does its hardware model leave
# the simulation's thread (pathprof's async.go), as it does in a real
# run; valgrind runs the threads one at a time and counts them all.
procs() { [ "$1" = path-bl ] && echo 2 || echo 1; }
mkdir -p "$OUT"
cd "$ROOT/benchmarks/$PROG"
# shellcheck disable=SC2046 # args are words
args=$(cat test.args)
# The instruction count (the same in every configuration: the units do
# not change the guest).
# shellcheck disable=SC2086 # args are words
"$RVSIM" run --clear-env --stats "$OUT/$PROG.json" "$ROOT/build/benchmarks/$PROG" $args >/dev/null
n=$(awk -F'[:,]' '/"instructions"/ {print $2; exit}' "$OUT/$PROG.json")
base=
printf '%-22s %8s %6s %8s %8s %8s %8s %6s\n' config "Ir/inst" share sim hw ref 2-core share2
for c in "${configs[@]}"; do
  label=${c%%|*} flags=${c#*|}
  [[ $label == none || $label =~ ${ONLY:-.} ]] || continue
  f=$OUT/$PROG.$label.out
  # shellcheck disable=SC2086 # flags and args are words
  [ -n "${REUSE:-}" ] && [ -f "$f" ] || GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=$(procs "$label") valgrind --tool=callgrind --callgrind-out-file="$f" \
    "$RVSIM" run --clear-env --jit off $flags "$ROOT/build/benchmarks/$PROG" $args >"$OUT/$PROG.$label.stdout" 2>"$OUT/$PROG.$label.log"
  tot=$(awk '/^summary:/ {print $2}' "$f")
  # The split by function (bench/profhw-split.py): the simulation's
  # thread, the unit's consumer goroutine and the multi-hash bank's
  # reference; with two cores the run takes at least the longest of them
  # and half their sum ("2-core", a bound; "share2" plain's share of it).
  read -r s h r < <(callgrind_annotate --auto=no --threshold=100 "$f" 2>/dev/null | sed -n '/file:function/,$p' | python3 "$ROOT/bench/profhw-split.py")
  awk -v l="$label" -v t="$tot" -v n="$n" -v s="$s" -v h="$h" -v r="$r" -v b="${base:-0}" 'BEGIN {
    k = t / (s + h + r) / n; s *= k; h *= k; r *= k; p = t / n
    m = s; if (h > m) m = h; if (r > m) m = r; if (p / 2 > m) m = p / 2
    if (b == 0) b = p
    printf "%-22s %8.2f %5.0f%% %8.2f %8.2f %8.2f %8.2f %5.0f%%\n", l, p, 100 * b / p, s, h, r, m, 100 * b / m }'
  [ -n "$base" ] || base=$(awk -v t="$tot" -v n="$n" 'BEGIN {print t / n}')
done
