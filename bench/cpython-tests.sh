#!/bin/bash
# Runs CPython's own regression tests (Debian's libpython3.N-testsuite)
# under rvsim in a Debian root (docs/LINUX.md, "Checking against CPython's
# tests"): an independent suite of the kernel's behaviour as Python sees
# it (files, processes, signals, threads, sockets, terminals, mmap).
#   bench/cpython-tests.sh ROOT RVSIM [TEST...]
# ROOT holds python3 and its test suite:
#   rvsim rootfs create ROOT --packages python3,libpython3.13-testsuite
# TEST defaults to the OS-facing modules below. EXTRA="--mode timing"
# passes flags to rvsim. The guest gets a fixed environment (HOME, PATH,
# LANG, TERM, TMPDIR), not the host's: a host's PYTHONDONTWRITEBYTECODE,
# say, makes test_compileall fail. The tests' files go under ROOT/tmp/cpython-tests.PID
# (their TMPDIR, the one writable directory), removed afterwards. Exit
# status: python -m test's (0 when every test passed or was skipped).
set -uo pipefail
ROOT=$(realpath "${1:?usage: bench/cpython-tests.sh ROOT RVSIM [TEST...]}")
RVSIM=$(realpath "${2:?usage: bench/cpython-tests.sh ROOT RVSIM [TEST...]}")
shift 2
TESTS=("$@")
if [ ${#TESTS[@]} -eq 0 ]; then
  TESTS=(test_os test_posix test_signal test_threading test_subprocess test_select
    test_selectors test_fcntl test_mmap test_time test_pty test_tempfile test_shutil
    test_pathlib test_socket test_poll test_epoll test_file test_fileio test_resource
    test_sched test_thread test_queue test_getpass test_pwd test_grp test_termios
    test_wait3 test_wait4 test_eintr test_multiprocessing_fork)
fi
read -r -a EXTRA <<<"${EXTRA:-}"
PY=$(cd "$ROOT/usr/bin" && ls python3.[0-9]* 2>/dev/null | grep -E '^python3\.[0-9]+$' | sort -V | tail -1)
if [ -z "$PY" ] || [ ! -d "$ROOT/usr/lib/$PY/test/libregrtest" ]; then
  echo "cpython-tests: $ROOT has no python3 with its test suite (--packages python3,lib$PY-testsuite)" >&2
  exit 2
fi
W=/tmp/cpython-tests.$$
mkdir -p "$ROOT$W"
trap 'chmod -R u+rwx "$ROOT$W" 2>/dev/null; rm -rf "$ROOT$W"' EXIT
cd "$ROOT$W" || exit 2
"$RVSIM" run "${EXTRA[@]}" --root "$ROOT" --allow-write "$ROOT$W" --clear-env \
  --env HOME=/root --env PATH=/usr/local/bin:/usr/bin:/bin --env LANG=C.UTF-8 --env TERM=dumb --env TMPDIR="$W" \
  "$ROOT/usr/bin/$PY" -m test "${TESTS[@]}"
