#!/bin/bash
# The official RISC-V ISA tests (riscv-tests, physical-memory "-p-"
# variants) under rvsim: cross-builds every RV64 test of the suites below
# from source trees you bring (it fetches nothing: git clone
# https://github.com/riscv-software-src/riscv-tests and
# https://github.com/riscv/riscv-test-env), runs each bare-metal (HTIF
# tohost, exit status 0 on a pass) and prints one line per failure and a
# count (docs/TESTS.md, "The official ISA tests"). The "-v-" variants
# need virtual memory, and rv64si supervisor mode, which rvsim does not
# model (it runs Linux programs in user mode, and bare-metal ones in M
# and U mode).
#
# Usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]
# Environment: SUITES (default: rv64ui rv64um rv64ua rv64uf rv64ud rv64uc
# rv64uzba rv64uzbb rv64uzbs rv64mi rv64si), CC (riscv64-linux-gnu-gcc).
set -euo pipefail
TESTS=$(realpath "${1:?usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]}")
ENV=$(realpath "${2:?usage: bench/riscv-tests.sh RISCV_TESTS_DIR RISCV_TEST_ENV_DIR [RVSIM]}")
RVSIM=$(realpath "${3:-build/rvsim}")
CC=${CC:-riscv64-linux-gnu-gcc}
SUITES=${SUITES:-rv64ui rv64um rv64ua rv64uf rv64ud rv64uc rv64uzba rv64uzbb rv64uzbs rv64mi rv64si}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
for suite in $SUITES; do
  [ -d "$TESTS/isa/$suite" ] || { echo "$suite: not in $TESTS/isa"; continue; }
  for src in "$TESTS/isa/$suite"/*.S; do
    t=$(basename "$src" .S)
    bin=$out/$suite-p-$t
    if ! "$CC" -march=rv64gc_zba_zbb_zbs_zicsr_zifencei -mabi=lp64d -static -mcmodel=medany \
        -fvisibility=hidden -nostdlib -nostartfiles -I "$ENV/p" -I "$ENV" -I "$TESTS/isa/macros/scalar" \
        -T "$ENV/p/link.ld" "$src" -o "$bin" 2>"$out/cc.log"; then
      echo "FAIL $suite-p-$t: does not build: $(head -1 "$out/cc.log")"
      fail=$((fail + 1))
      continue
    fi
    # A test ends within thousands of instructions; the limit catches a loop.
    if "$RVSIM" run --max-insts 10000000 "$bin" >"$out/run.log" 2>&1; then
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
