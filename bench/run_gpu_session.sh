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
# What comes back stays within the device tool's 8 files: $OUT/session.log
# (the three steps' logs), $OUT/work.tar.gz (every step's own files) and
# $OUT/results with the result files under bench/results/'s names
# (gpu-rounds-, gpu-split-, gpu-compare-GPU-DATE-COMMIT-pinned.*), to be
# copied there. The steps work in WORK (a temporary directory). ROUNDS (20),
# CPUS (4-7), PROCS_PER_ROUND (3: processes per runtime in each comparison
# round, their median being the round's cell), LIMIT (590: seconds for the
# whole call) and TIME_BUDGET can be set. The comparison gets what the suite
# and the rounds left of LIMIT; its recorded rounds get that less 150 s
# (upstream's build, about 60 s, the warm-up round and the summary) unless
# TIME_BUDGET says; no round starts that would end past it. On an H100 at
# f3e7d70 that left room for 4 rounds of three programs at three processes
# each; for 5 or more, follow with run_gpu_compare.sh alone (TIME_BUDGET=440,
# PROCS_PER_ROUND=3) while the machine is still warm.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${1:?build dir}" && pwd) UK=$(cd "${2:?upstream kit}" && pwd)
OUT=${OUT:-/tmp/gpu-session-out}
W=$(mktemp -d "${TMPDIR:-/tmp}/gpu-session.XXXXXX") || exit 1
mkdir -p "$OUT/results"
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[0-9][0-9]*' | head -1 | tr 'H' 'h')
name=${gpu:-gpu}-$(date -u +%Y-%m-%d)-$(libexecutorch_commit "$B")
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }

FIXTURES=tests/models/cuda MEMCHECK=0 OUT=$W/suite timeout 200 \
  bash tests/cuda-backend/gpu/run_on_gpu_host.sh "$B" > "$W/suite.log" 2>&1
echo "== suite: rc $? after $(elapsed)"
cat "$W/suite/summary.log" 2>/dev/null

OUT=$W/rounds timeout 120 bash bench/run_gpu_rounds.sh "$B" "$name" > "$W/rounds.log" 2>&1
echo "== rounds: rc $? after $(elapsed)"
cp "$W"/rounds/gpu-rounds-"$name".* "$W"/rounds/gpu-split-"$name".txt "$OUT/results/" 2>/dev/null

left=$(( ${LIMIT:-590} - $(date +%s) + t0 ))
if [ "$left" -lt 200 ]; then
  echo "== compare: skipped, $left s left of LIMIT"
else
  CPUS=${CPUS:-4-7} ROUNDS=${ROUNDS:-20} PROCS_PER_ROUND=${PROCS_PER_ROUND:-3} ITERS=2000 TIME_BUDGET=${TIME_BUDGET:-$((left - 150))} \
    OUT=$W/compare timeout "$left" bash bench/run_gpu_compare.sh "$B" "$UK" > "$W/compare.log" 2>&1
  echo "== compare: rc $? after $(elapsed)"
fi
cp "$W/compare/gpu-compare.json" "$OUT/results/gpu-compare-$name-pinned.json" 2>/dev/null
cp "$W/compare/gpu-compare.txt" "$OUT/results/gpu-compare-$name-pinned.txt" 2>/dev/null
grep -E "^==|ratio|error|budget" "$W/compare.log" 2>/dev/null
for step in suite rounds compare; do
  echo "==== $step.log"
  cat "$W/$step.log" 2>/dev/null
done > "$OUT/session.log"
tar -C "$W" -czf "$OUT/work.tar.gz" . && rm -rf "$W"
ls "$OUT" "$OUT/results"
