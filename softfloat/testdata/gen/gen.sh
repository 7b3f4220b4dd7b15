#!/bin/sh
# Rebuilds ../vectors.txt.gz: golden vectors computed by the host x86-64 FPU.
# Needs the host C compiler (not the RISC-V cross compiler), glibc >= 2.35
# (fminimum_num) and a CPU with FMA. Run from anywhere; `go generate` in the
# softfloat package runs it. An optional argument scales the vector counts.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-gcc} -std=gnu11 -O2 -mfma -frounding-math -fsignaling-nans -ffp-contract=off \
	-fno-math-errno -Wall -o "$tmp/gen" gen.c -lm
"$tmp/gen" "${1:-1}" > "$tmp/vectors.txt"
gzip -9n < "$tmp/vectors.txt" > ../vectors.txt.gz
wc -l < "$tmp/vectors.txt" | xargs echo "vectors:"
