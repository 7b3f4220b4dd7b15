#!/bin/bash
# The official RISC-V ISA tests (riscv-tests, physical-memory "-p-"
# variants) under rvsim: cross-builds every RV64 test of the suites below
# from source trees you bring (it fetches nothing: git clone
# https://github.com/riscv-software-src/riscv-tests and
# https://github.com/riscv/riscv-test-env), runs each bare-metal (HTIF
# tohost, exit status 0 on a pass) and prints one line per failure and a
# count (docs/TESTS.md, "The official ISA tests"); then the suite's
# bare-metal benchmarks (dhrystone, qsort, mm, the mt-* ones on one hart
# ...: they print through the HTIF syscall proxy and check their results),
# in functional and timing mode. The "-v-" variants
# need virtual memory, and rv64si supervisor mode, which rvsim does not
# model (it runs Linux programs in user mode, and bare-metal ones in M
# and U mode).
#
# Usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]
# Environment: SUITES (default: rv64ui rv64um rv64ua rv64uf rv64ud rv64uc
# rv64uzba rv64uzbb rv64uzbc rv64uzbs rv64uzicond rv64mi rv64si), CC
# (riscv64-linux-gnu-gcc; Zicond's mnemonics, which binutils 2.40 lacks,
# come from bench/riscv-tests/zicond.h), EXTRA (flags for rvsim run on the
# ISA tests, e.g. "--mode timing" or "--jit off").
set -euo pipefail
TESTS=$(realpath "${1:?usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]}")
ENV=$(realpath "${2:?usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]}")
RVSIM=$(realpath "${3:-build/rvsim}")
CC=${CC:-riscv64-linux-gnu-gcc}
SUITES=${SUITES:-rv64ui rv64um rv64ua rv64uf rv64ud rv64uc rv64uzba rv64uzbb rv64uzbc rv64uzbs rv64uzicond rv64mi rv64si}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
for suite in $SUITES; do
  [ -d "$TESTS/isa/$suite" ] || { echo "$suite: not in $TESTS/isa"; continue; }
  for src in "$TESTS/isa/$suite"/*.S; do
    t=$(basename "$src" .S)
    bin=$out/$suite-p-$t
    if ! "$CC" -march=rv64gc_zba_zbb_zbc_zbs_zicsr_zifencei -mabi=lp64d -static -mcmodel=medany \
        -fvisibility=hidden -nostdlib -nostartfiles -include "$(dirname "$(realpath "$0")")/riscv-tests/zicond.h" -I "$ENV/p" -I "$ENV" -I "$TESTS/isa/macros/scalar" \
        -T "$ENV/p/link.ld" "$src" -o "$bin" 2>"$out/cc.log"; then
      echo "FAIL $suite-p-$t: does not build: $(head -1 "$out/cc.log")"
      fail=$((fail + 1))
      continue
    fi
    # A test ends within thousands of instructions; the limit catches a loop.
    # shellcheck disable=SC2086
    if "$RVSIM" run ${EXTRA:-} --max-insts 10000000 "$bin" >"$out/run.log" 2>&1; then
      pass=$((pass + 1))
    else
      rc=$?
      # HTIF: exit status n is test case n (TESTNUM) failing.
      echo "FAIL $suite-p-$t: exit status $rc $(head -c 120 "$out/run.log" | tr '\n' ' ')"
      fail=$((fail + 1))
    fi
  done
done
echo "riscv-tests: $pass passed, $fail failed"

# The benchmarks (not the vector ones: rvsim has no V), as their Makefile
# builds them.
bpass=0 bfail=0
B=$TESTS/benchmarks
for b in dhrystone median memcpy mm multiply pmp qsort rsort spmv towers vvadd mt-matmul mt-memcpy mt-vvadd; do
  [ -d "$B/$b" ] || continue
  # shellcheck disable=SC2046 # the benchmark's sources
  if ! "$CC" -I "$B/common" -I "$ENV" -I "$B/$b" -U_FORTIFY_SOURCE -DPREALLOCATE=1 -mcmodel=medany -static -std=gnu99 -O2 \
      -ffast-math -fno-common -fno-builtin-printf -fno-tree-loop-distribute-patterns -Wno-implicit-int \
      -Wno-implicit-function-declaration -mabi=lp64d -march=rv64gc_zicsr_zifencei -o "$out/$b" \
      $(ls "$B/$b"/*.c "$B/$b"/*.S "$B/common"/*.c "$B/common"/*.S 2>/dev/null) \
      -nostdlib -nostartfiles -lm -lgcc -T "$B/common/test.ld" 2>"$out/cc.log"; then
    echo "FAIL benchmark $b: does not build: $(head -1 "$out/cc.log")"
    bfail=$((bfail + 1))
    continue
  fi
  for mode in functional timing; do
    if "$RVSIM" run --mode "$mode" --max-insts 200000000 "$out/$b" >"$out/run.log" 2>&1; then
      bpass=$((bpass + 1))
    else
      echo "FAIL benchmark $b ($mode): exit status $? $(tail -c 120 "$out/run.log" | tr '\n' ' ')"
      bfail=$((bfail + 1))
    fi
  done
done
echo "riscv-tests benchmarks: $bpass runs passed, $bfail failed"
