#!/bin/sh
# Rebuilds the loader's test executables with the GNU RISC-V cross toolchain.
set -e
cd "$(dirname "$0")"
CC=${RISCV_PREFIX:-riscv64-linux-gnu-}gcc
$CC -nostdlib -static -o tiny.exec tiny.S
$CC -nostdlib -static-pie -fPIE -Wl,--no-dynamic-linker -o tiny.pie tiny.S
echo 'int main(){return 0;}' > /tmp/rvsim-dyn.c
$CC -O2 -nostdlib -o dynamic.elf /tmp/rvsim-dyn.c -Wl,-e,main -Wl,--dynamic-linker=/lib/ld-linux-riscv64-lp64d.so.1 -Wl,-pie
