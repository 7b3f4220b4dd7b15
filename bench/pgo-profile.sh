#!/bin/bash
# Profile-guided optimization's profile (docs/SPEED.md, "Profile-guided
# optimization"): CPU profiles of rvsim's own work on a mix of runs, merged
# into one pprof file that `go build` reads as cmd/rvsim/default.pgo (and
# the in-process runners experiments/benchtable and experiments/sampling,
# through their symlinks to it). The mix, weighted by host time as pprof
# weighs it:
#   - timing mode, `default` preset: every builtin benchmark's ref input,
#     its first MAXI instructions (the steady state, past start-up);
#   - timing mode, `hps` preset (DISE in decode): lisp's and lz's test inputs;
#   - functional mode with a profhw preset attached (stratified-value,
#     multihash-value, path-bl), translated as rvsim runs them (their value
#     and control taps are recorded by translated code): lisp's and lz's ref
#     inputs, their first MAXF instructions;
#   - functional mode with the translator: every builtin ref input, whole.
# The profile is input to the compiler only: a stale or different profile
# changes speed, never results (every statistic is checked by
# bench/timing-guard.sh on the PGO-built binary).
#   bench/pgo-profile.sh RVSIM OUT.pgo     (from the repository root)
set -euo pipefail
RVSIM=$(realpath "${1:?usage: bench/pgo-profile.sh RVSIM OUT.pgo}")
OUT=${2:?usage: bench/pgo-profile.sh RVSIM OUT.pgo}
MAXI=${MAXI:-20000000}
MAXF=${MAXF:-150000000}
ROOT=$(pwd)
PROGRAMS=$(cd benchmarks && for d in */; do [ -f "$d/ref.args" ] && echo "${d%/}"; done)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
# prof NAME ARGS...: one run of benchmark NAME with rvsim's flags ARGS and
# the input named by $INPUT; exit status 124 (--max-insts reached) is the
# expected end of a cut run.
prof() {
  local b=$1
  shift
  n=$((n + 1))
  # shellcheck disable=SC2046 # the args file holds words
  (cd "benchmarks/$b" && env -i "$RVSIM" run --root "$ROOT" --cpuprofile "$tmp/$n.pprof" "$@" \
    "../../build/benchmarks/$b" $(cat "$INPUT.args") >/dev/null 2>"$tmp/err") || {
    rc=$?
    [ "$rc" = 124 ] || { echo "pgo-profile: $b $*: rvsim failed ($rc): $(head -c 300 "$tmp/err")" >&2; exit 1; }
  }
}
INPUT=ref
for b in $PROGRAMS; do prof "$b" --mode timing --preset default --max-insts "$MAXI"; done
for b in $PROGRAMS; do prof "$b" --jit on; done
for p in stratified-value multihash-value path-bl; do
  for b in lisp lz; do prof "$b" --profhw-preset "$p" --max-insts "$MAXF"; done
done
INPUT=test
for b in lisp lz; do prof "$b" --mode timing --preset hps; done
go tool pprof -proto "$tmp"/*.pprof >"$OUT" 2>/dev/null
echo "pgo-profile: $n runs merged into $OUT ($(stat -c %s "$OUT") bytes)"
