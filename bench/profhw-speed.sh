#!/bin/bash
# The speed targets of the profiling units (make bench; docs/SPEED.md, "Speed
# with profiling units attached"): the benchmark suite's ref inputs in
# functional mode (and its test inputs in timing mode), one program at a
# time, without units and with each configuration below; the geometric mean of MIPS, the best of ROUNDS
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
# Timing mode (the default machine) on the test inputs: the hardware
# runs where commit sees it, so only the presets are measured.
timing=(
  "none|"
  "stratified-value|--profhw-preset stratified-value"
  "multihash-value|--profhw-preset multihash-value"
  "path-bl|--profhw-preset path-bl"
)
declare -A best
# measure MODE INPUT CONFIG...: the best geometric mean of each config.
measure() {
  local mode=$1 input=$2
  shift 2
  for r in $(seq "$ROUNDS"); do
    for c in "$@"; do
      local label=${c%%|*} flags=${c#*|} g
      # shellcheck disable=SC2086 # flags are words
      g=$("$RVSIM" benchmarks --mode "$mode" --input "$input" --jobs 1 $flags $PROGRAMS | awk '/^geometric mean:/ {print $3}')
      [ -n "$g" ] || { echo "profhw-speed: no geometric mean for $mode '$label'" >&2; exit 1; }
      echo "round $r: $mode: $label: $g MIPS" >&2
      if [ -z "${best[$mode/$label]:-}" ] || awk -v a="$g" -v b="${best[$mode/$label]}" 'BEGIN {exit !(a > b)}'; then
        best[$mode/$label]=$g
      fi
    done
  done
}
# table MODE TITLE CONFIG...: the Markdown table of a mode.
table() {
  local mode=$1 title=$2
  shift 2
  echo "| $title | MIPS | share of the speed without units |"
  echo "|---|---:|---:|"
  for c in "$@"; do
    local label=${c%%|*}
    awk -v l="$label" -v g="${best[$mode/$label]}" -v b="${best[$mode/none]}" 'BEGIN {printf "| %s | %.2f | %.0f%% |\n", l, g, 100 * g / b}'
  done
  echo
}
measure functional ref "${configs[@]}"
measure timing test "${timing[@]}"
{
  table functional "units attached (functional, ref inputs: $PROGRAMS; target 60%)" "${configs[@]}"
  table timing "units attached (timing, default machine, test inputs; target 85%)" "${timing[@]}"
  echo "Host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); best of $ROUNDS rounds."
} | tee "$OUT"
