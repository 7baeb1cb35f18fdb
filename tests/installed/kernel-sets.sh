#!/bin/sh
# The installed library serves its optimized kernels (BLAS and the thread
# pool from the system's packages), EXECUTORCH_KERNELS=portable the portable
# ones, and both give the same outputs on the installed test program, at one
# thread and at two.
set -eu
command -v executorch-run >/dev/null || { echo "executorch-run not installed"; exit 77; }
# The test program is data: <datadir>/executorch-tests, this script is in
# <libexecdir>/executorch/installed-tests.
pte=$(dirname "$(readlink -f "$0")")/../../../share/executorch-tests/linear_constant_buffer.pte
info=$(executorch-run --info "$pte")
echo "$info" | grep 'aten::'
echo "$info" | grep -q 'aten::mul.out: optimized' || { echo "mul.out is not optimized"; exit 1; }
portable=$(EXECUTORCH_KERNELS=portable executorch-run --info "$pte")
echo "$portable" | grep -q 'aten::mul.out: portable' || { echo "EXECUTORCH_KERNELS ignored"; exit 1; }
# The outputs of one run as JSON, without its timing.
outputs() { executorch-run "$pte" --input 1.5,-2,3,0.25 --json "$@" | sed 's/,"timing_us".*//'; }
want=$(EXECUTORCH_KERNELS=portable outputs --threads 1)
for t in 1 2; do
  got=$(outputs --threads "$t")
  [ "$got" = "$want" ] || { printf 'threads %s:\n%s\nportable:\n%s\n' "$t" "$got" "$want"; exit 1; }
done
echo "same outputs: $want"
