#!/usr/bin/env bash
# A differential campaign of random C programs: Csmith writes a program
# per seed, the GNU cross compiler builds it at several optimisation
# levels (and once for the bit-manipulation extensions), and rvsim's
# output and exit status must equal qemu-riscv64's in every mode asked
# for. The instruction count must also be the same in every rvsim mode.
# make test runs a fixed handful of seeds (test/csmith_test.go); this
# script is the long run, for hunting bugs (docs/TESTS.md, "Random C
# programs").
#
#   bench/csmith.sh [-n COUNT] [-s FIRST_SEED] [-o OUTDIR] [-m MODES] [-f]
#
#   -n COUNT       programs to generate (default 100)
#   -s FIRST_SEED  the first Csmith seed (default 1); seeds are consecutive
#   -o OUTDIR      where a mismatching program's source and binaries are
#                  kept (default build/csmith)
#   -m MODES       comma-separated rvsim modes: jit, interp, timing,
#                  difftest (default jit,interp)
#   -f             let Csmith use floating point (--float)
#
# A program that qemu-riscv64 does not finish in 10 s is dropped (Csmith's
# programs may loop for very long). Prints one line per mismatch and a
# summary; exits 1 if any program differed.
set -uo pipefail

count=100 seed=1 out=build/csmith modes=jit,interp float=""
while getopts "n:s:o:m:f" opt; do
  case $opt in
    n) count=$OPTARG ;;
    s) seed=$OPTARG ;;
    o) out=$OPTARG ;;
    m) modes=$OPTARG ;;
    f) float=--float ;;
    *) echo "usage: bench/csmith.sh [-n COUNT] [-s FIRST_SEED] [-o OUTDIR] [-m MODES] [-f]" >&2; exit 2 ;;
  esac
done
[[ $count =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ ]] || { echo "csmith.sh: -n and -s take numbers" >&2; exit 2; }

prefix=${RISCV_PREFIX:-riscv64-linux-gnu-}
rvsim=${RVSIM:-build/rvsim}
inc=${CSMITH_INCLUDE:-/usr/include/csmith}
for c in csmith jq "${prefix}gcc" qemu-riscv64 "$rvsim"; do
  command -v "$c" >/dev/null 2>&1 || { echo "csmith.sh: $c not found (make setup; make build)" >&2; exit 2; }
done
[ -f "$inc/csmith.h" ] || { echo "csmith.sh: $inc/csmith.h not found (Debian's libcsmith-dev; make setup)" >&2; exit 2; }

declare -a flags=()
IFS=, read -ra want <<<"$modes"
for m in "${want[@]}"; do
  case $m in
    jit) flags+=("") ;;
    interp) flags+=("--jit off") ;;
    timing) flags+=("--mode timing") ;;
    difftest) flags+=("--difftest") ;;
    *) echo "csmith.sh: unknown mode '$m' (want jit, interp, timing or difftest)" >&2; exit 2 ;;
  esac
done

opts=("-O0" "-O1" "-O2" "-O3" "-Os" "-O2 -march=rv64gc_zba_zbb_zbc_zbs")
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ran=0 slow=0 bad=0 insns=0
for ((s = seed; s < seed + count; s++)); do
  src=$work/p$s.c
  csmith $float --seed "$s" -o "$src" >/dev/null 2>&1 || { echo "seed $s: csmith failed" >&2; continue; }
  for o in "${opts[@]}"; do
    bin=$work/p$s${o// /_}
    if ! "${prefix}gcc" -static $o -w -I"$inc" -o "$bin" "$src" 2>"$work/cc.err"; then
      echo "seed $s $o: the cross compiler failed: $(head -1 "$work/cc.err")" >&2
      continue
    fi
    q=$(timeout 10 qemu-riscv64 "$bin" 2>&1)
    qrc=$?
    if [ $qrc -eq 124 ]; then slow=$((slow + 1)); continue; fi
    ran=$((ran + 1))
    first=""
    for f in "${flags[@]}"; do
      rm -f "$work/stats.json"
      if [ "$f" = --difftest ]; then
        # --difftest takes no --stats: its check is the lock-step itself.
        r=$("$rvsim" run --difftest "$bin" 2>"$work/err")
        rrc=$?
        grep -q "no divergence" "$work/err" || rrc=divergence
        n=$first
      else
        # shellcheck disable=SC2086 # f is a list of words
        r=$("$rvsim" run --stats "$work/stats.json" $f "$bin" 2>"$work/err")
        rrc=$?
        n=$(jq -r .instructions "$work/stats.json" 2>/dev/null)
      fi
      [ -n "$first" ] || first=$n
      if [ "$q" != "$r" ] || [ "$qrc" != "$rrc" ] || [ "$n" != "$first" ]; then
        bad=$((bad + 1))
        keep=$out/seed$s${o// /_}
        mkdir -p "$keep" && cp "$src" "$bin" "$work/err" "$keep/"
        echo "MISMATCH seed $s $o rvsim run ${f:-(jit)}: qemu status $qrc, rvsim $rrc; instructions $n against $first; qemu: $(tail -c 60 <<<"$q" | tr '\n' ' ') rvsim: $(tail -c 60 <<<"$r" | tr '\n' ' ') (kept in $keep)"
        break
      fi
    done
    insns=$((insns + ${first:-0}))
  done
done
echo "csmith.sh: $ran programs run in modes $modes, $bad differed, $slow dropped (over 10 s in qemu); $insns instructions"
[ $bad -eq 0 ]
