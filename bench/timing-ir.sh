#!/bin/bash
# Host instructions per guest instruction of a timing run (callgrind,
# deterministic), split by function between the model's goroutine (the
# window's intake from the staged slots, the stages, the caches), the
# functional core's thread (the interpreter, the records, the staging with
# its decode cache and branch predictor) and the rest (the runtime,
# start-up): the measure of the model's cost on a noisy machine
# (docs/TIMING.md, "a seventh round"). The run must reach MAX_INSTS (the
# count divided by).
# GOMAXPROCS=1 runs both goroutines on one thread (callgrind counts them
# all); --timing-threads 2 still stages the records as a two-CPU run does.
# INPUT (default test) picks the program's input: test or ref (ref's
# first MAX_INSTS instructions are its steady state, past start-up).
# Usage: bench/timing-ir.sh RVSIM [PROGRAM] [THREADS] [MAX_INSTS] [OUTDIR] [INPUT]
set -euo pipefail
RVSIM=$(realpath "${1:?usage: bench/timing-ir.sh RVSIM [PROGRAM] [THREADS] [MAX_INSTS] [OUTDIR] [INPUT]}")
PROG=${2:-lisp}
THREADS=${3:-2}
MAX=${4:-5000000}
OUT=$(realpath -m "${5:-build/bench/timing-ir}")
INPUT=${6:-test}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
f=$OUT/$PROG.$INPUT.t$THREADS.out
cd "$ROOT/benchmarks/$PROG"
# shellcheck disable=SC2046 # args are words
GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$f" \
  "$RVSIM" run --clear-env --mode timing --timing-threads "$THREADS" --max-insts "$MAX" \
  "$ROOT/build/benchmarks/$PROG" $(cat "$INPUT.args") >"$OUT/$PROG.$INPUT.t$THREADS.log" 2>&1 || true
read -r m p o < <(callgrind_annotate --auto=no --threshold=100 "$f" 2>/dev/null | sed -n '/file:function/,$p' | awk '
/^ *[0-9][0-9,]* / {
  ir = $1; gsub(",", "", ir); fn = ""
  for (i = 2; i <= NF; i++) if ($i ~ /:/) { fn = $i; break }
  if (fn == "") next
  sub(/^[^:]*:/, "", fn)
  if (fn ~ /rvsim\/cpu\.|pipeline\.\(\*Async\)\.(Retire|stage|flush)|pipeline\.\(\*decodeCache\)|pipeline\.staticOf|pipeline\.\(\*streamPredictor\)|pipeline\.\(\*storeLookup\)|pipeline\.\(\*storeQueue\)\.(alloc|youngestOlder|walk)$|pipeline\/bpred\./) p += ir
  else if (fn ~ /rvsim\/(pipeline|mem)\./) m += ir
  else o += ir
}
END { printf "%.0f %.0f %.0f\n", m, p, o }')
awk -v m="$m" -v p="$p" -v o="$o" -v n="$MAX" -v prog="$PROG" -v inp="$INPUT" -v t="$THREADS" 'BEGIN {
  printf "%s (%s input, threads %s, %d instructions): model %.1f, producer %.1f, other %.1f, total %.1f host instructions per instruction\n",
    prog, inp, t, n, m / n, p / n, o / n, (m + p + o) / n }'
