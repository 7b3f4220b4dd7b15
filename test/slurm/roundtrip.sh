#!/usr/bin/env bash
# make slurm-test: a sweep on a real one-node Slurm cluster (cluster.sh),
# checked against the same sweep run locally (docs/COMPARISON.md,
# "Running on Slurm").
#
#   test/slurm/roundtrip.sh standin   a job array of four tasks, each writing a
#                                     file: proves the cluster runs arrays
#   test/slurm/roundtrip.sh compare   rvsim compare --emit slurm, sbatch --wait,
#                                     rvsim compare --merge, and a byte-for-byte
#                                     diff against a local rvsim compare (all but
#                                     the provenance line)
#   test/slurm/roundtrip.sh all       both, on one cluster
#
# RVSIM (default build/rvsim) is the simulator; KEEP=1 keeps the work
# directory; PROVENANCE (a grep -E pattern, default 'provenance|rvsim
# compare') names the lines that may differ. The cluster is stopped and
# its directory removed on exit, whatever happens.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rvsim=$(realpath "${RVSIM:-$root/build/rvsim}")
what=${1:-all}
provenance=${PROVENANCE:-'provenance|rvsim compare'}

die() { echo "slurm-test: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rvsim-slurm.XXXXXX")
cleanup() {
  "$here/cluster.sh" stop "$work/cluster" || true
  if [ "${KEEP:-0}" = 1 ]; then
    echo "slurm-test: kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

"$here/cluster.sh" start "$work/cluster"
eval "$("$here/cluster.sh" env "$work/cluster")"

# sbatch_wait submits a batch script and waits for it; on failure it shows
# the tasks' logs.
sbatch_wait() {
  local script=$1 logs=$2
  if ! sbatch --wait --quiet "$script"; then
    for f in "$logs"/*; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
    die "sbatch --wait $script failed"
  fi
}

standin() {
  local d=$work/standin n=4
  mkdir -p "$d/cells" "$d/logs"
  cat >"$d/job.sbatch" <<JOB
#!/bin/bash
#SBATCH --job-name=rvsim-standin
#SBATCH --array=0-$((n - 1))
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=64M
#SBATCH --output=$d/logs/%a.log
echo "cell \$SLURM_ARRAY_TASK_ID of job \$SLURM_ARRAY_JOB_ID" >"$d/cells/\$SLURM_ARRAY_TASK_ID.json.tmp"
mv "$d/cells/\$SLURM_ARRAY_TASK_ID.json.tmp" "$d/cells/\$SLURM_ARRAY_TASK_ID.json"
JOB
  local t0=$SECONDS
  sbatch_wait "$d/job.sbatch" "$d/logs"
  for i in $(seq 0 $((n - 1))); do
    [ -f "$d/cells/$i.json" ] || die "stand-in: task $i wrote no $d/cells/$i.json"
    grep -q "^cell $i of job " "$d/cells/$i.json" || die "stand-in: $d/cells/$i.json: $(cat "$d/cells/$i.json")"
  done
  [ "$(ls "$d/cells" | wc -l)" -eq $n ] || die "stand-in: $(ls "$d/cells")"
  echo "slurm-test: stand-in job array of $n tasks ran in $((SECONDS - t0)) s" >&2
}

# The comparison: two benchmarks' test inputs, two profilers, timing mode.
ARGS=(--profilers hot-method-dise-event,hot-method-hps-event --benchmarks exprc,lz --input test --mode timing
  --src "$root/benchmarks" --bin "$root/build/benchmarks" --acf-dir "$root/acf")

compare() {
  "$rvsim" compare --help 2>&1 | grep -q -- '--emit' \
    || die "$rvsim compare has no --emit (the Slurm side of rvsim compare, issue 24, is not built in)"
  local local_out=$work/local merged=$work/merged sweep=$work/sweep
  "$rvsim" compare "${ARGS[@]}" --out "$local_out" >"$work/local.log" 2>&1 \
    || { tail -20 "$work/local.log" >&2; die "the local rvsim compare failed"; }
  "$rvsim" compare "${ARGS[@]}" --emit slurm "$sweep" \
    || die "rvsim compare --emit slurm failed"
  [ -f "$sweep/job.sbatch" ] || die "no $sweep/job.sbatch"
  [ -f "$sweep/manifest.json" ] || die "no $sweep/manifest.json"
  local t0=$SECONDS
  sbatch_wait "$sweep/job.sbatch" "$sweep"
  echo "slurm-test: the sweep's job array ran in $((SECONDS - t0)) s: $(ls "$sweep/cells" | wc -l) cells" >&2
  "$rvsim" compare --merge "$sweep" --out "$merged" || die "rvsim compare --merge failed"
  # The same files, each the same bytes apart from the provenance line.
  local a b
  a=$(cd "$local_out" && find . -type f -not -path "./cache/*" | sort)
  b=$(cd "$merged" && find . -type f | sort)
  [ "$a" = "$b" ] || die "the merge wrote other files than the local run: local [$a] merged [$b]"
  [ -n "$a" ] || die "the local run wrote nothing in $local_out"
  local f bad=0
  for f in $a; do
    case $f in
      *.png) same() { cmp -s "$local_out/$f" "$merged/$f"; } ;; # images: byte for byte
      *) same() { cmp -s <(grep -Ev "$provenance" "$local_out/$f") <(grep -Ev "$provenance" "$merged/$f"); } ;;
    esac
    if ! same; then
      echo "slurm-test: $f differs:" >&2
      diff "$local_out/$f" "$merged/$f" >&2 || true
      bad=1
    fi
  done
  [ $bad -eq 0 ] || die "the merged result differs from the local run"
  echo "slurm-test: the merged result equals the local run ($(echo $a | wc -w) files)" >&2
}

case $what in
  standin) standin ;;
  compare) compare ;;
  all) standin; compare ;;
  *) die "usage: roundtrip.sh standin|compare|all" ;;
esac
