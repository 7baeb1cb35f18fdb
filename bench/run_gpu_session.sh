#!/bin/bash
# Everything a GPU-host session measures, in one device call (LIMIT, under
# the device tool's 10 minutes): the GPU suite on the committed fixtures,
# gpu_bench over several processes with the CUDA call split
# (run_gpu_rounds.sh), then the pinned comparison with upstream's runtime
# and PyTorch (run_gpu_compare.sh).
#
#   bench/run_gpu_session.sh BUILD UPSTREAM_KIT
# BUILD: tests/cuda-backend/gpu/pack_carry.sh's output of a -Dbenchmarks=true
# build; UPSTREAM_KIT: ../shared/tools/upstream-runtime copied into the tree.
# Logs go to $OUT/{suite,rounds,compare}; $OUT/results holds the result
# files under bench/results/'s names (gpu-rounds-, gpu-split-,
# gpu-compare-GPU-DATE-COMMIT-pinned.*), to be copied there. ROUNDS (20),
# CPUS (4-7), LIMIT (590: seconds for the whole call) and TIME_BUDGET can be
# set. The comparison gets what the suite and the rounds left of LIMIT; its
# recorded rounds get that less 130 s (upstream's build, about 60 s, the
# warm-up round and one round past the budget) unless TIME_BUDGET says.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${1:?build dir}" && pwd) UK=$(cd "${2:?upstream kit}" && pwd)
OUT=${OUT:-/tmp/gpu-session-out}
mkdir -p "$OUT/results"
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[0-9][0-9]*' | head -1 | tr 'H' 'h')
name=${gpu:-gpu}-$(date -u +%Y-%m-%d)-$(libexecutorch_commit "$B")
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }

FIXTURES=tests/models/cuda MEMCHECK=0 OUT=$OUT/suite timeout 200 \
  bash tests/cuda-backend/gpu/run_on_gpu_host.sh "$B" > "$OUT/suite.log" 2>&1
echo "== suite: rc $? after $(elapsed)"
cat "$OUT/suite/summary.log" 2>/dev/null

OUT=$OUT/rounds timeout 120 bash bench/run_gpu_rounds.sh "$B" "$name" > "$OUT/rounds.log" 2>&1
echo "== rounds: rc $? after $(elapsed)"
cp "$OUT"/rounds/gpu-rounds-"$name".* "$OUT"/rounds/gpu-split-"$name".txt "$OUT/results/" 2>/dev/null

left=$(( ${LIMIT:-590} - $(date +%s) + t0 ))
if [ "$left" -lt 200 ]; then
  echo "== compare: skipped, $left s left of LIMIT"
else
  CPUS=${CPUS:-4-7} ROUNDS=${ROUNDS:-20} ITERS=2000 TIME_BUDGET=${TIME_BUDGET:-$((left - 130))} \
    OUT=$OUT/compare timeout "$left" bash bench/run_gpu_compare.sh "$B" "$UK" > "$OUT/compare.log" 2>&1
  echo "== compare: rc $? after $(elapsed)"
fi
cp "$OUT/compare/gpu-compare.json" "$OUT/results/gpu-compare-$name-pinned.json" 2>/dev/null
cp "$OUT/compare/gpu-compare.txt" "$OUT/results/gpu-compare-$name-pinned.txt" 2>/dev/null
grep -E "^==|ratio|error|budget" "$OUT/compare.log" 2>/dev/null
ls "$OUT/results"
