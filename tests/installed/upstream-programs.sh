#!/bin/sh
# The installed executorch-run runs the programs written by upstream's
# exporter (from tests/data), installed as architecture-independent data in
# <datadir>/executorch-tests while this script is in
# <libexecdir>/executorch/installed-tests: add(3.5, -1.25) = 2.25 and
# 3x + 2 over [1, 2, 3, 4].
set -eu
data=$(dirname "$(readlink -f "$0")")/../../../share/executorch-tests
command -v executorch-run >/dev/null || { echo "executorch-run not installed"; exit 77; }
expect() {  # expect PROGRAM VALUES INPUT...
  pte=$data/$1 want=$2
  shift 2
  out=$(executorch-run --json "$pte" "$@")
  echo "$out"
  case "$out" in
    *"\"values\":[$want]"*) ;;
    *) echo "FAIL: $pte: want values [$want]"; exit 1 ;;
  esac
}
expect add.pte 2.25 --input 3.5 --input -1.25
expect linear_constant_buffer.pte 5,8,11,14 --input 1,2,3,4
