#!/bin/sh
# The installed executorch-run runs the installed demo program
# (forward(x, y) = x * 2 + y over float[2,2]; all-ones inputs give 3).
set -eu
command -v executorch-run >/dev/null || { echo "executorch-run not installed"; exit 77; }
out=$(executorch-run --json)
echo "$out"
case "$out" in
  *'"values":[3,3,3,3]'*) exit 0 ;;
  *) echo "unexpected demo output"; exit 1 ;;
esac
