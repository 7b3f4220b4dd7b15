#!/bin/bash
# The RISC-V architectural tests (riscv-arch-test, the suite RISCOF runs)
# under rvsim: cross-builds each RV64 test of a source tree you bring
# (it fetches nothing: git clone https://github.com/riscv-non-isa/riscv-arch-test)
# with rvsim's target macros (bench/riscv-arch-test/model_test.h), runs it
# bare-metal with --signature, and compares the signature with a
# reference model's:
#   - the tree's own references/NAME.reference_output (releases up to 2.x
#     shipped them, from Spike and Sail);
#   - REFS=DIR: NAME.reference_output or NAME.signature from a reference
#     model's run of the same tests;
#   - REFMODEL=qemu: QEMU's virt machine (qemu-system-riscv64, Debian's
#     qemu-system-misc), the test built a second time with the target
#     macros of bench/riscv-arch-test/qemu, which print the signature on
#     its UART. The newer releases ship no references; this runs them.
# A test that needs an extension rvsim does not implement (Zcb, Zfh,
# Zfa, ...) is not applicable, and so are the misaligned-access
# tests against a tree's references, which are a trapping model's
# (rvsim performs misaligned loads and stores, as QEMU does). Prints one
# line per failure and a count per suite (docs/TESTS.md, "The
# architectural tests").
#
# Usage: bench/riscv-arch-test.sh ARCH_TEST_DIR [RVSIM]
# Environment: SUITES (default: the suites under rv64i_m that rvsim
# implements: I M A C F D B Zicond Zifencei privilege), CC
# (riscv64-linux-gnu-gcc), EXTRA (flags for rvsim run, e.g. "--mode
# timing" or "--jit off"), REFS, REFMODEL, KEEP=DIR (keep the binaries and
# signatures there).
set -euo pipefail
ROOT=$(realpath "${1:?usage: bench/riscv-arch-test.sh ARCH_TEST_DIR [RVSIM]}")
RVSIM=$(realpath "${2:-build/rvsim}")
HERE=$(dirname "$(realpath "$0")")/riscv-arch-test
CC=${CC:-riscv64-linux-gnu-gcc}
SUITES=${SUITES:-I M A C F D B Zicond Zifencei privilege}
SUITE_DIR=$ROOT/riscv-test-suite
[ -d "$SUITE_DIR/rv64i_m" ] || SUITE_DIR=$ROOT # given riscv-test-suite itself
[ -f "$SUITE_DIR/env/arch_test.h" ] || { echo "$ROOT: no riscv-test-suite/env/arch_test.h: not a riscv-arch-test tree" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then out=$(realpath "$KEEP"); mkdir -p "$out"; else out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi

if [ "${REFMODEL:-}" = qemu ] && ! command -v qemu-system-riscv64 >/dev/null; then
  echo "REFMODEL=qemu needs qemu-system-riscv64: apt-get install qemu-system-misc" >&2
  exit 2
fi
[ -z "${REFMODEL:-}" ] || [ "$REFMODEL" = qemu ] || { echo "REFMODEL=$REFMODEL: the one model the script can run is qemu" >&2; exit 2; }
QEMU_ENV=$HERE/qemu

# The extensions rvsim implements (docs/RUNNING.md): what else a test's
# ISA names makes it not applicable.
missing_ext() {
  local isa=$1 e
  for e in $(echo "${isa#rv64}" | tr '_' ' '); do
    case $e in
      zicsr | zifencei | zba | zbb | zbc | zbs | zicond | zca) ;;
      z* | s* | x*) echo "$e"; return ;;
      *) [ -z "$(echo "$e" | tr -d imafdcg)" ] || { echo "$e" | tr -d imafdcg; return; } ;;
    esac
  done
}

# The -march and FLEN a test is built for, from its RVTEST_ISA (the
# first of a list): RV64IC -> rv64ic_zicsr_zifencei, RV64IZbb ->
# rv64i_zbb_zicsr_zifencei (csr and fence.i are extensions of their own to
# GCC 12).
isa_flags() {
  local isa base
  isa=$(grep -o -m1 'RVTEST_ISA("[^"]*")' "$1" | sed 's/RVTEST_ISA("\([^",]*\).*/\1/' | tr '[:upper:]' '[:lower:]')
  [ -n "$isa" ] || isa=rv64i
  isa=$(echo "$isa" | sed 's/\([^_]\)z/\1_z/')
  case $isa in *zicsr*) ;; *) isa=${isa}_zicsr ;; esac
  case $isa in *zifencei*) ;; *) isa=${isa}_zifencei ;; esac
  base=${isa%%_*}
  base=${base#rv64}
  case $base in *d*) echo "-march=$isa -DFLEN=64" ;; *f*) echo "-march=$isa -DFLEN=32" ;; *) echo "-march=$isa" ;; esac
}

total_pass=0 total_fail=0 total_skip=0 total_na=0 total_known=0
for suite in $SUITES; do
  dir=$SUITE_DIR/rv64i_m/$suite
  [ -d "$dir/src" ] || { echo "$suite: not in $SUITE_DIR/rv64i_m"; continue; }
  pass=0 fail=0 skip=0 na=0 known=0
  mkdir -p "$out/$suite"
  for src in "$dir"/src/*.S; do
    t=$(basename "$src" .S)
    flags=$(isa_flags "$src")
    ext=$(missing_ext "$(echo "$flags" | sed 's/-march=\([^ ]*\).*/\1/')")
    if [ -n "$ext" ]; then
      echo "n/a  $suite/$t: needs $ext, which rvsim does not implement"
      na=$((na + 1)); continue
    fi
    ref='' own=
    for r in "$dir/references/$t.reference_output" "${REFS:-/nonexistent}/$t.reference_output" "${REFS:-/nonexistent}/$t.signature"; do
      [ -f "$r" ] && { ref=$r; break; }
    done
    [ "$ref" = "$dir/references/$t.reference_output" ] && own=1
    if [ -z "$ref" ] && [ -z "${REFMODEL:-}" ]; then skip=$((skip + 1)); continue; fi
    # QEMU 7.2 (Debian 12's) predates Zicond.
    if [ -z "$ref" ] && echo "$flags" | grep -q zicond; then
      echo "skip $suite/$t: no reference: QEMU 7.2 lacks Zicond"
      skip=$((skip + 1)); continue
    fi
    # rvsim performs misaligned loads and stores (the platform's
    # hw_data_misaligned_support is True); a test that depends on it has
    # one signature per answer, and a tree's references are a trapping
    # model's (Spike's and Sail's default).
    if [ -n "$own" ] && grep -q 'hw_data_misaligned_support:=False' "$src"; then
      echo "n/a  $suite/$t: its reference traps misaligned accesses, which rvsim performs"
      na=$((na + 1)); continue
    fi
    # The test's own RVTEST_CASE conditions: the macros it asks for.
    defs=$(grep -o 'def [A-Za-z0-9_]*=[A-Za-z0-9_]*' "$src" | sed 's/^def /-D/' | sort -u | tr '\n' ' ')
    bin=$out/$suite/$t.elf
    # shellcheck disable=SC2086
    build() { # ENV_DIR OUT [EXTRA_SOURCES]
      "$CC" $flags -mabi=lp64 -static -no-pie -fno-pic -mcmodel=medany -fvisibility=hidden -nostdlib -nostartfiles \
        -Wl,--no-warn-rwx-segments -Wl,--build-id=none -DXLEN=64 $defs -I "$1" -I "$SUITE_DIR/env" -T "$1/link.ld" \
        "${@:3}" "$src" -o "$2" 2>"$out/cc.log"
    }
    if ! build "$HERE" "$bin"; then
      echo "FAIL $suite/$t: does not build: $(grep -m1 -i error "$out/cc.log" || head -1 "$out/cc.log")"
      fail=$((fail + 1))
      continue
    fi
    if [ -z "$ref" ]; then # REFMODEL=qemu
      ref=$out/$suite/$t.qemu.signature
      status=0
      build "$QEMU_ENV" "$out/$suite/$t.qemu.elf" "$QEMU_ENV/boot.S" || status=$?
      [ "$status" -ne 0 ] || timeout 120 qemu-system-riscv64 -machine virt -cpu rv64,h=false,zba=true,zbb=true,zbc=true,zbs=true \
        -m 256M -bios none -display none -monitor none -serial stdio -kernel "$out/$suite/$t.qemu.elf" >"$ref" 2>"$out/qemu.log" || status=$?
      if [ "$status" -ne 0 ] || [ ! -s "$ref" ]; then
        echo "skip $suite/$t: the reference model failed (status $status): $(head -1 "$out/qemu.log" "$out/cc.log" | grep -v '^==' | head -1)"
        skip=$((skip + 1)); continue
      fi
    fi
    sig=$out/$suite/$t.signature
    # A test ends within a million instructions; the limit catches a loop.
    # shellcheck disable=SC2086
    status=0
    # shellcheck disable=SC2086 # EXTRA is a list of flags
    "$RVSIM" run ${EXTRA:-} --max-insts 20000000 --signature "$sig" "$bin" >"$out/run.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
      echo "FAIL $suite/$t: exit status $status: $(tail -1 "$out/run.log")"
      fail=$((fail + 1))
      continue
    fi
    if ! diff -q <(tr 'A-F' 'a-f' <"$ref" | sed 's/[[:space:]]*$//' | grep -v '^$') "$sig" >/dev/null &&
      [ "$ref" = "$out/$suite/$t.qemu.signature" ] && why=$(grep -P "^\Q$suite/$t\E\t" "$QEMU_ENV/known.txt" | cut -f2-) && [ -n "$why" ]; then
      echo "known $suite/$t: differs from QEMU's: $why"
      known=$((known + 1))
      continue
    fi
    if ! diff -q <(tr 'A-F' 'a-f' <"$ref" | sed 's/[[:space:]]*$//' | grep -v '^$') "$sig" >/dev/null; then
      first=$(diff <(tr 'A-F' 'a-f' <"$ref" | sed 's/[[:space:]]*$//' | grep -v '^$') "$sig" | head -3 | tr '\n' ' ' || true)
      echo "FAIL $suite/$t: signature differs from $(basename "$ref"): $first"
      fail=$((fail + 1))
      continue
    fi
    pass=$((pass + 1))
  done
  echo "$suite: $pass passed, $fail failed$([ "$skip" -gt 0 ] && echo ", $skip without a reference signature")$([ "$na" -gt 0 ] && echo ", $na not applicable")$([ "$known" -gt 0 ] && echo ", $known known differences from the reference")"
  total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail)) total_skip=$((total_skip + skip)) total_na=$((total_na + na)) total_known=$((total_known + known))
done
echo "total: $total_pass passed, $total_fail failed, $total_skip without a reference, $total_na not applicable, $total_known known differences"
[ "$total_fail" -eq 0 ]
