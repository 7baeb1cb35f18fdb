#!/bin/sh
# Feeds ~200 corrupted programs to executorch-run: every run must end with an
# error status (1 or 2) or succeed; 70 (executorch-run caught a crash or an
# abort), a signal or a timeout (>= 124) is a failure.
# usage: corrupt_cli_test.sh EXECUTORCH_RUN MAKE_CORRUPT CONFORMANCE_DIR
set -u
run=$1; make=$2; conf=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set --
for f in "$conf"/add.pte "$conf"/linear_constant_buffer.pte; do
  [ -f "$f" ] && set -- "$@" "$f"
done
n=$("$make" "$tmp" 200 "$@") || { echo "make_corrupt failed"; exit 1; }
bad=0; zero=0; total=0
for f in "$tmp"/*.pte; do
  total=$((total + 1))
  timeout 20 "$run" "$f" >/dev/null 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    zero=$((zero + 1))
  elif [ "$rc" -eq 70 ] || [ "$rc" -ge 124 ]; then
    echo "FAIL: $(basename "$f"): exit status $rc (crash, abort, signal or timeout)"
    bad=$((bad + 1))
  fi
done
echo "corrupt_cli: $total files ($n written), $zero ran to completion, $bad crashed"
[ "$total" -ge 100 ] || { echo "too few files"; exit 1; }
[ "$bad" -eq 0 ]
