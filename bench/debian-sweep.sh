#!/bin/bash
# Runs Debian's programs under rvsim and qemu-riscv64 and says, per
# command, whether they behave the same (docs/LINUX.md, "Checking against
# qemu"): standard output, exit status, standard error (minus rvsim's own
# warnings, printed beside the verdict) and the files the command left in
# its working directory (names, types, modes, sizes, contents).
#   bench/debian-sweep.sh ROOT RVSIM [COMMANDS]
# ROOT is a riscv64 root with the programs (rvsim rootfs create ROOT
# --packages ...; the list is in docs/LINUX.md); the script writes only
# under ROOT/tmp/debian-sweep.PID. COMMANDS defaults to
# bench/debian-sweep/commands.txt. Each command runs twice from a fresh copy
# of bench/debian-sweep/files in ROOT/tmp/debian-sweep/w, its working
# directory, with an empty environment. EXTRA="--jit off" or
# EXTRA="--mode timing" passes flags to rvsim; TO is the timeout (60 s).
# Prints one line per command and a count; exit 1 if any differed.
set -uo pipefail
ROOT=$(realpath "${1:?usage: bench/debian-sweep.sh ROOT RVSIM [COMMANDS]}")
RVSIM=$(realpath "${2:?usage: bench/debian-sweep.sh ROOT RVSIM [COMMANDS]}")
HERE=$(cd "$(dirname "$0")" && pwd)
LIST=${3:-$HERE/debian-sweep/commands.txt}
FILES=$HERE/debian-sweep/files
TO=${TO:-60}
read -r -a EXTRA <<<"${EXTRA:-}"
S=$ROOT/tmp/debian-sweep.$$ # one per run: two sweeps may share a root
W=$S/w
mkdir -p "$S"
out=$(mktemp -d)
trap 'rm -rf "$out" "$S"' EXIT

# snap lists what a run left in W (sorted, with each file's checksum).
snap() {
  (cd "$W" && find . -mindepth 1 -printf '%p %y %m %s %l\n' | sort) >"$1"
  (cd "$W" && find . -type f -exec md5sum {} + | sort -k 2) >>"$1"
}

fresh() {
  chmod -R u+rwx "$S" 2>/dev/null; rm -rf "${S:?}"/*
  mkdir -p "$W" && cp -r "$FILES"/. "$W"/
  # Older than rvsim's clock (2024) and more than half a year older than
  # qemu's (the host's), so ls shows both the same.
  find "$W" -exec touch -h -d '2020-01-01 00:00:00' {} +
}

same=0 diff=0 n=0
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  in=/dev/null cmd=$line
  if [[ "$line" =~ ^(.*[^[:space:]])[[:space:]]+\<[[:space:]]+([^[:space:]]+)$ ]]; then
    cmd=${BASH_REMATCH[1]} in=${BASH_REMATCH[2]}
  fi
  eval "argv=($cmd)"
  exe=""
  for d in usr/bin bin usr/sbin sbin; do
    if [ -e "$ROOT/$d/${argv[0]}" ]; then exe=$(realpath "$ROOT/$d/${argv[0]}"); break; fi
  done
  n=$((n + 1))
  if [ -z "$exe" ]; then echo "MISSING: $line"; diff=$((diff + 1)); continue; fi
  for who in rv q; do
    fresh
    if [ "$in" != /dev/null ]; then cp "$W/$in" "$out/stdin"; else : >"$out/stdin"; fi
    if [ $who = rv ]; then
      (cd "$W" && timeout "$TO" "$RVSIM" run --root "$ROOT" --clear-env "${EXTRA[@]}" "$exe" "${argv[@]:1}") \
        <"$out/stdin" >"$out/o.$who" 2>"$out/e.$who"
    else
      (cd "$W" && timeout "$TO" env -i qemu-riscv64 -L "$ROOT" "$exe" "${argv[@]:1}") \
        <"$out/stdin" >"$out/o.$who" 2>"$out/e.$who"
    fi
    echo $? >"$out/rc.$who"
    snap "$out/t.$who"
  done
  warn=$(grep -h '^rvsim: ' "$out/e.rv" | sort -u | tr '\n' ' ')
  grep -v '^rvsim: ' "$out/e.rv" >"$out/e.rve"
  what=""
  cmp -s "$out/o.rv" "$out/o.q" || what+=" stdout"
  cmp -s "$out/rc.rv" "$out/rc.q" || what+=" status($(cat "$out/rc.rv")/$(cat "$out/rc.q"))"
  cmp -s "$out/e.rve" "$out/e.q" || what+=" stderr"
  cmp -s "$out/t.rv" "$out/t.q" || what+=" files"
  if [ -z "$what" ]; then
    same=$((same + 1)); echo "same: $line${warn:+  [$warn]}"
  else
    diff=$((diff + 1)); echo "DIFF:$what: $line${warn:+  [$warn]}"
    if [ -n "${VERBOSE:-}" ]; then
      for f in o e t; do r=$out/$f.rv; [ $f = e ] && r+=e; diff "$r" "$out/$f.q" | head -"${DL:-8}"; done
    fi
  fi
done <"$LIST"
echo "$same of $n the same, $diff differ"
[ "$diff" = 0 ]
