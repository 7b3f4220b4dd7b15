#!/bin/sh
# The real suite's check command (suite/real.toml):
#   check.sh NAME.INPUT [TOOL CORPUS]
# compares the SHA-256 of the run's standard output ($RVSIM_STDOUT) with
# expected/NAME.INPUT.sha256 (qemu-riscv64's, from `make real-expected`).
# With TOOL and CORPUS (a compressor's run) it also decompresses the
# output with the root's own TOOL under qemu-riscv64 and compares it with
# build/real/CORPUS: the round trip.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
want="$dir/expected/$1.sha256"
[ -f "$want" ] || { echo "no $want: run 'make real-expected'"; exit 1; }
got=$(sha256sum <"$RVSIM_STDOUT" | cut -d' ' -f1)
[ "$got" = "$(cat "$want")" ] || { echo "$1: output's sha256 $got, want $(cat "$want") (expected/$1.sha256)"; exit 1; }
if [ $# -ge 3 ]; then
	corpus="$dir/../../build/real/$3"
	qemu-riscv64 -L "$RVSIM_ROOT" "$RVSIM_ROOT/usr/bin/$2" -d -c <"$RVSIM_STDOUT" | cmp -s - "$corpus" ||
		{ echo "$1: $2 -d of the output differs from $3 (round trip)"; exit 1; }
fi
