#!/bin/bash
# The speed targets of the profiling units (make bench; README, "Speed
# with profiling units attached"): the benchmark suite's ref inputs in
# functional mode, one program at a time, without units and with each
# configuration below; the geometric mean of MIPS, the best of ROUNDS
# interleaved rounds (the host's noise is one-sided: nothing makes a run
# faster than it is), and each configuration's share of the speed
# without units. Usage: bench/profhw-speed.sh RVSIM [OUT.md]
set -euo pipefail
RVSIM=${1:?usage: bench/profhw-speed.sh RVSIM [OUT.md]}
OUT=${2:-/dev/null}
ROUNDS=${ROUNDS:-2}
PROGRAMS=${PROGRAMS:-lisp lz gametree raytrace}
HW="--profhw-set error.exact=false"
configs=(
  "none|"
  "stratified-value, hardware alone|--profhw-preset stratified-value $HW"
  "stratified-value, with its exact reference|--profhw-preset stratified-value"
  "multihash-value, hardware alone|--profhw-preset multihash-value $HW"
  "multihash-value, with its perfect profiler|--profhw-preset multihash-value"
  "path-bl|--profhw-preset path-bl"
)
declare -A best
for r in $(seq "$ROUNDS"); do
  for c in "${configs[@]}"; do
    label=${c%%|*}
    flags=${c#*|}
    # shellcheck disable=SC2086 # flags are words
    g=$("$RVSIM" benchmarks --input ref --jobs 1 $flags $PROGRAMS | awk '/^geometric mean:/ {print $3}')
    [ -n "$g" ] || { echo "profhw-speed: no geometric mean for '$label'" >&2; exit 1; }
    echo "round $r: $label: $g MIPS" >&2
    if [ -z "${best[$label]:-}" ] || awk -v a="$g" -v b="${best[$label]}" 'BEGIN {exit !(a > b)}'; then
      best[$label]=$g
    fi
  done
done
base=${best[none]}
{
  echo "| units attached (functional, ref inputs: $PROGRAMS) | MIPS | share of the speed without units |"
  echo "|---|---:|---:|"
  for c in "${configs[@]}"; do
    label=${c%%|*}
    awk -v l="$label" -v g="${best[$label]}" -v b="$base" 'BEGIN {printf "| %s | %.1f | %.0f%% |\n", l, g, 100 * g / b}'
  done
  echo
  echo "Host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); best of $ROUNDS rounds."
} | tee "$OUT"
