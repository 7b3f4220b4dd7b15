#!/usr/bin/env bash
# Installs what rvsim needs from Debian's packages, only if it is missing:
# the GNU RISC-V cross toolchain with its C library (headers, crt files,
# libc.a), qemu-user (reference runs), libunicorn2 (the differential-
# testing oracle), a host C compiler with its C library (the signal
# tests run the same C programs natively, as the truth), and mmdebstrap
# with debian-archive-keyring (rvsim rootfs create builds riscv64 roots
# of Debian packages with them), valgrind (its callgrind_annotate
# reads what rvsim run --callgrind writes), chromium (a test loads the
# comparison report's index.html in it, headless), and Csmith with its
# header (random C programs run against qemu-riscv64), and openssl with
# Mozilla's CA certificates (the roots' certificate links are checked
# against them). Idempotent; uses sudo when not root; prints what it
# installed.
#
# With --slurm (make slurm-test alone asks for it) it also installs
# Slurm's daemons and clients and munge (slurm-wlm, munge), for the
# one-node cluster of test/slurm/cluster.sh.
#
# What is checked is what the build needs, not that a command exists: the
# cross compiler must compile and link a static C program and a dynamic one
# (a compiler without libc6-dev-riscv64-cross has no <stdint.h> chain and no
# crt1.o). toolchain/setup_test.go checks that every Debian package owning a
# file the build uses is installed by this script.
set -euo pipefail

prefix=${RISCV_PREFIX:-riscv64-linux-gnu-}
slurm=0
case "${1:-}" in
  "") ;;
  --slurm) slurm=1 ;;
  *) echo "setup: unknown argument '$1' (want nothing or --slurm)" >&2; exit 2 ;;
esac

# The packages this script installs, one per need. Keep in step with
# toolchain/setup_test.go, which reads this line.
PKG_CC=gcc-riscv64-linux-gnu
PKG_LIBC=libc6-dev-riscv64-cross
PKG_QEMU=qemu-user
PKG_UNICORN=libunicorn2
PKG_HOSTCC=gcc
PKG_HOSTLIBC=libc6-dev
PKG_MMDEBSTRAP=mmdebstrap
PKG_KEYRING=debian-archive-keyring
PKG_VALGRIND=valgrind
PKG_JQ=jq
PKG_CHROMIUM=chromium
PKG_CSMITH=csmith
PKG_CSMITHDEV=libcsmith-dev
PKG_OPENSSL=openssl
PKG_CACERTS=ca-certificates
# Only with --slurm (make slurm-test).
PKG_SLURM=slurm-wlm
PKG_MUNGE=munge

# cross_cc_works compiles and links a one-line program with the cross
# compiler, statically and dynamically.
cross_cc_works() {
  command -v "${prefix}gcc" >/dev/null 2>&1 || return 1
  local dir rc=0
  dir=$(mktemp -d)
  printf '#include <stdint.h>\n#include <stdio.h>\nint main(void){uint64_t x=1;printf("%%d\\n",(int)x);return 0;}\n' >"$dir/t.c"
  "${prefix}gcc" -static -O2 -o "$dir/t" "$dir/t.c" >/dev/null 2>&1 || rc=1
  [ $rc -eq 0 ] && { "${prefix}gcc" -O2 -o "$dir/td" "$dir/t.c" >/dev/null 2>&1 || rc=1; }
  rm -rf "$dir"
  return $rc
}

# host_cc_works compiles and links a program with signals natively.
host_cc_works() {
  command -v cc >/dev/null 2>&1 || return 1
  local dir rc=0
  dir=$(mktemp -d)
  printf '#include <signal.h>\n#include <stdio.h>\nint main(void){signal(SIGINT, SIG_IGN);puts("ok");return 0;}\n' >"$dir/t.c"
  cc -O2 -o "$dir/t" "$dir/t.c" >/dev/null 2>&1 || rc=1
  rm -rf "$dir"
  return $rc
}

unicorn_present() {
  ldconfig -p 2>/dev/null | grep -q 'libunicorn\.so\.2' && return 0
  ls /usr/lib/*/libunicorn.so.2 >/dev/null 2>&1
}

pkgs=()
if ! cross_cc_works; then
  if [ "$prefix" != riscv64-linux-gnu- ]; then
    # Another RISCV_PREFIX is the user's own toolchain: report, do not install.
    echo "setup: ${prefix}gcc cannot compile and link a static C program (RISCV_PREFIX=$prefix)" >&2
    exit 1
  fi
  pkgs+=("$PKG_CC" "$PKG_LIBC")
fi
command -v qemu-riscv64 >/dev/null 2>&1 || pkgs+=("$PKG_QEMU")
unicorn_present || pkgs+=("$PKG_UNICORN")
host_cc_works || pkgs+=("$PKG_HOSTCC" "$PKG_HOSTLIBC")
# rvsim rootfs create (make setup's build/rootfs): mmdebstrap and the
# keyring that verifies Debian's archive.
command -v mmdebstrap >/dev/null 2>&1 || pkgs+=("$PKG_MMDEBSTRAP")
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || pkgs+=("$PKG_KEYRING")
# callgrind_annotate reads the files 'rvsim run --callgrind' writes (a test).
command -v callgrind_annotate >/dev/null 2>&1 || pkgs+=("$PKG_VALGRIND")
# bench/timing-guard.sh (make test) compares --stats JSON with jq.
command -v jq >/dev/null 2>&1 || pkgs+=("$PKG_JQ")
# compare/plots loads the report's index.html in headless Chromium (a test).
command -v chromium >/dev/null 2>&1 || pkgs+=("$PKG_CHROMIUM")
# test/csmith_test.go and bench/csmith.sh: random C programs (Csmith) and
# the header they include (csmith.h).
command -v csmith >/dev/null 2>&1 || pkgs+=("$PKG_CSMITH")
[ -f /usr/include/csmith/csmith.h ] || pkgs+=("$PKG_CSMITHDEV")
# rootfs/certs_test.go checks the roots' /etc/ssl/certs against the
# host's openssl rehash and subject hashes of Mozilla's set.
command -v openssl >/dev/null 2>&1 || pkgs+=("$PKG_OPENSSL")
[ -d /usr/share/ca-certificates/mozilla ] || pkgs+=("$PKG_CACERTS")
if [ $slurm -eq 1 ]; then
  # slurm-wlm brings slurmctld, slurmd and the clients (sbatch, sinfo).
  for c in slurmctld slurmd sbatch sinfo; do
    command -v $c >/dev/null 2>&1 || { pkgs+=("$PKG_SLURM"); break; }
  done
  { command -v munged && command -v mungekey; } >/dev/null 2>&1 || pkgs+=("$PKG_MUNGE")
fi
[ ${#pkgs[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${pkgs[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "setup: installing ${pkgs[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null

# Verify: what was installed must now work.
if [[ " ${pkgs[*]} " == *" $PKG_CC "* ]] && ! cross_cc_works; then
  echo "setup: installed ${pkgs[*]}, but ${prefix}gcc still cannot link a static C program" >&2
  exit 1
fi
if [[ " ${pkgs[*]} " == *" $PKG_HOSTCC "* ]] && ! host_cc_works; then
  echo "setup: installed ${pkgs[*]}, but cc still cannot link a C program" >&2
  exit 1
fi
echo "setup: installed ${pkgs[*]}" >&2
