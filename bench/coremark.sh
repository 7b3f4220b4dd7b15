#!/bin/bash
# CoreMark/MHz of rvsim's timing model (docs/TIMING.md, "Against a real
# core"): cross-builds CoreMark from a source tree you bring (it fetches
# nothing: git clone https://github.com/eembc/coremark), runs it in timing
# mode on each machine preset at two iteration counts, and prints, per
# preset, CoreMark/MHz = iterations x 1e6 / cycles taken from the
# difference of the two runs (so start-up, the cold caches and CoreMark's
# own set-up cancel out: what remains is the steady-state timed loop, which
# is what CoreMark's score counts), with the CPI stack, mispredicts and
# cache misses per iteration that explain it.
#
# Usage: bench/coremark.sh COREMARK_SRC_DIR [RVSIM [OUT.md]]
# Environment: PRESETS (default "sonicboom default" and
# bench/machines/sonicboom-perfect-bp.toml; an entry ending in
# .toml is a machine file, e.g. one with [bpred] kind = "perfect"), LO and HI iteration
# counts (default 100 and 1100), CC (default riscv64-linux-gnu-gcc),
# CFLAGS (default -O2; CoreMark's posix port, static).
set -euo pipefail
SRC=${1:?usage: bench/coremark.sh COREMARK_SRC_DIR [RVSIM [OUT.md]]}
RVSIM=${2:-build/rvsim}
OUT=${3:-/dev/null}
PRESETS=${PRESETS:-sonicboom default $(dirname "$0")/machines/sonicboom-perfect-bp.toml}
LO=${LO:-100}
HI=${HI:-1100}
CC=${CC:-riscv64-linux-gnu-gcc}
CFLAGS=${CFLAGS:--O2}
[ -f "$SRC/core_main.c" ] && [ -d "$SRC/posix" ] || {
	echo "bench/coremark.sh: $SRC: not a CoreMark source tree (no core_main.c or posix/)" >&2
	exit 2
}
[ "$HI" -gt "$LO" ] || { echo "bench/coremark.sh: HI ($HI) must exceed LO ($LO)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
"$CC" $CFLAGS -static -I"$SRC/posix" -I"$SRC" -DFLAGS_STR="\"$CFLAGS -static\"" -DPERFORMANCE_RUN=1 \
	"$SRC"/core_list_join.c "$SRC"/core_main.c "$SRC"/core_matrix.c "$SRC"/core_state.c \
	"$SRC"/core_util.c "$SRC"/posix/core_portme.c -o "$work/coremark"

# run MACHINE ITERATIONS: a timing run (MACHINE a preset or a .toml machine
# file); CoreMark's arguments are seed1 seed2 seed3 iterations (0x0 0x0
# 0x66: the performance run's seeds).
label() { basename "$1" .toml; }
run() {
	local m=(--preset "$1")
	[[ $1 == *.toml ]] && m=(--config "$1")
	"$RVSIM" run --mode timing "${m[@]}" --stats "$work/$(label "$1")-$2.json" \
		"$work/coremark" 0x0 0x0 0x66 "$2" >"$work/$(label "$1")-$2.out"
	# CoreMark's own check of its list, matrix and state CRCs (the
	# 2K performance run's values; crcfinal depends on the iteration count).
	local out=$work/$(label "$1")-$2.out
	grep -q 'crclist       : 0xe714' "$out" &&
		grep -q 'crcmatrix     : 0x1fd7' "$out" &&
		grep -q 'crcstate      : 0x8e3a' "$out" || {
		echo "bench/coremark.sh: $1, $2 iterations: wrong CRCs:" >&2
		cat "$out" >&2
		exit 1
	}
}

# per KEY: (HI run's KEY - LO run's KEY) / (HI - LO), a jq path.
{
	echo "CoreMark ($CFLAGS -static, posix port), $LO and $HI iterations, steady state = the difference"
	echo
	echo "| machine | CoreMark/MHz | IPC | cycles/iter | insts/iter | CPI stack per iter: commit / execute / frontend / mispredict / icache / dcache | cond. branches/iter | mispredicts/iter (cond.) | L1I / L1D misses/iter |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for p in $PRESETS; do
		run "$p" "$LO"
		run "$p" "$HI"
		l=$(label "$p")
		jq -r -n --arg p "$l" --argjson n "$((HI - LO))" \
			--slurpfile a "$work/$l-$LO.json" --slurpfile b "$work/$l-$HI.json" '
			def d(f): (($b[0] | f) - ($a[0] | f)) / $n;
			# two decimals; per-iteration counts to the nearest unit (start-up
			# noise of a few cycles either way is not a measurement)
			def r(x): (x * 100 | round) / 100;
			def i(x): x | round | if . == 0 then 0 else . end;
			(d(.cycles)) as $c | (d(.instructions)) as $i |
			"| \($p) | \(r(1e6 / $c)) | \(r($i / $c)) | \(i($c)) | \(i($i)) | " +
			"\(i(d(.cpi_stack.commit))) / \(i(d(.cpi_stack.execute))) / \(i(d(.cpi_stack.frontend))) / " +
			"\(i(d(.cpi_stack.mispredict))) / \(i(d(.cpi_stack.icache_miss))) / \(i(d(.cpi_stack.dcache_miss))) | " +
			"\(i(d(.bpred.conditional.lookups))) | \(i(d(.bpred.all.mispredicts))) (\(i(d(.bpred.conditional.mispredicts)))) | " +
			"\(i(d(.caches.l1i.misses))) / \(i(d(.caches.l1d.misses))) |"'
	done
	echo
	echo "Published: SonicBOOM 6.2 CoreMark/MHz (Zhao et al., CARRV 2020)."
} | tee "$OUT"
