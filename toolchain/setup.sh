#!/usr/bin/env bash
# Installs what rvsim needs from Debian's packages, only if it is missing:
# the GNU RISC-V cross toolchain, qemu-user (reference runs) and libunicorn2
# (the differential-testing oracle). Idempotent; uses sudo when not root.
set -euo pipefail

prefix=${RISCV_PREFIX:-riscv64-linux-gnu-}
missing=()
command -v "${prefix}gcc" >/dev/null 2>&1 || missing+=(gcc-riscv64-linux-gnu)
command -v qemu-riscv64 >/dev/null 2>&1 || missing+=(qemu-user)
if ! ldconfig -p 2>/dev/null | grep -q 'libunicorn\.so\.2' &&
   ! ls /usr/lib/*/libunicorn.so.2 >/dev/null 2>&1; then
  missing+=(libunicorn2)
fi
# The default toolchain is Debian's; another RISCV_PREFIX is the user's own.
if [ "$prefix" != riscv64-linux-gnu- ]; then
  missing=("${missing[@]/gcc-riscv64-linux-gnu}")
  command -v "${prefix}gcc" >/dev/null 2>&1 || { echo "setup: ${prefix}gcc not found (RISCV_PREFIX=$prefix)" >&2; exit 1; }
fi
pkgs=()
for p in "${missing[@]}"; do [ -n "$p" ] && pkgs+=("$p"); done
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
