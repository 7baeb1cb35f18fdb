#!/bin/bash
# Preloads bench/cuda_api_profile.cpp's library into the driver and checks
# its report: two executes of "work", per execute 3 cudaGetLastError calls
# and 1 cudaGetDevice (the call outside the scopes not counted), and that
# bench/make_results.py reads the same figures from it.
#   cuda_api_profile_test.sh DRIVER PROFILE_LIBRARY BENCH_DIR
set -euo pipefail
driver=$1 lib=$2 bench=$3
report=$(mktemp)
trap 'rm -f "$report"' EXIT
LD_PRELOAD=$lib "$driver" 2> "$report"
cat "$report"
fail() { echo "FAIL: $*"; exit 1; }
grep -q '^cuda_api_profile work: 2 executes, median us: scope [0-9.]*, in CUDA calls [0-9.]*, rest [0-9.]*$' \
  "$report" || fail "no summary line for 2 executes of work"
grep -Eq '^cuda_api_profile work: +cudaGetLastError +3\.00 calls' "$report" ||
  fail "cudaGetLastError not 3 calls per execute"
grep -Eq '^cuda_api_profile work: +cudaGetDevice +1\.00 calls' "$report" ||
  fail "cudaGetDevice not 1 call per execute"
[ "$(grep -c '^cuda_api_profile ' "$report")" = 3 ] || fail "other lines in the report"
PYTHONDONTWRITEBYTECODE=1 python3 - "$bench" "$report" <<'PY' || fail "make_results.py read it otherwise"
import sys
sys.path.insert(0, sys.argv[1])
import make_results
rows = make_results.parse_split(sys.argv[2])
work = rows["work"]
assert list(rows) == ["work"], rows
assert len(work["scope"]) == 1 and work["scope"][0] >= work["api"][0] >= 0, work
assert abs(work["scope"][0] - work["api"][0] - work["rest"][0]) < 0.02, work
assert [c for c, _ in work["calls"]["cudaGetLastError"]] == [3.0], work
assert [c for c, _ in work["calls"]["cudaGetDevice"]] == [1.0], work
print("make_results.parse_split:", dict(work))
PY
echo PASS
