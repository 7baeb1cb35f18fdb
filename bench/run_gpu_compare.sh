#!/bin/bash
# The GPU comparison on the GPU host (issue 18's method): builds upstream's
# runtime from its kit, makes the upstream-exported programs the committed
# corpus lacks (tools/export/make_corpus.py), then bench/gpu_compare.py runs
# upstream's executor_runner, ours and PyTorch interleaved, round after round.
#
#   bench/run_gpu_compare.sh BUILD UPSTREAM_KIT [EXPORTER_KIT]
# BUILD: our libraries + executorch-run (tests/cuda-backend/gpu/pack_carry.sh);
# UPSTREAM_KIT: ../shared/tools/upstream-runtime copied into the tree;
# EXPORTER_KIT: the exporter tarballs + flatc (tools/export/make_corpus.py's
# needs), only for PROGRAMS the committed corpus lacks. ROUNDS, ITERS, PROGRAMS (names under cuda/, NAME[:METHOD]),
# WARMUP_ROUNDS (1: rounds run first, not recorded),
# TIME_BUDGET (seconds for the rounds; fewer rounds then), CPUS (a CPU list
# every process is pinned to, e.g. 4-7), PROCS_PER_ROUND (1: gpu_compare.py's
# --procs, processes per runtime per round) and COMMIT can be
# set in the environment. Raw JSON and the log go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
B=$(cd "$1" && pwd) UK=$(cd "$2" && pwd) XK=${3:+$(cd "$3" && pwd)}
OUT=${OUT:-/tmp/gpu-compare-out}
mkdir -p "$OUT"
ROUNDS=${ROUNDS:-7} ITERS=${ITERS:-300}
PROGRAMS=${PROGRAMS:-"mlp mlp_bf16 conv resnet18_narrow llama_hf_bf16 kv_decoder:decode"}
COMMIT=${COMMIT:-$(cat "$B/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null)}
export PYTHONUNBUFFERED=1

# Upstream's runtime (about a minute on 16 cores), in the background while
# the programs are exported.
(bash "$UK/build.sh" "$UK" /tmp/upstream > "$OUT/upstream-build.log" 2>&1; echo "rc=$?" >> "$OUT/upstream-build.log") &
up_pid=$!

F=/tmp/gpu-compare-fixtures
need=$(for p in $PROGRAMS; do n=${p%%:*}; [ -f "tests/models/corpus/cuda/$n/model.pte" ] || echo "$n"; done | sort -u | paste -sd,)
if [ -n "$need" ] && [ -z "$XK" ]; then
  echo "programs $need are not in the corpus and no EXPORTER_KIT was given: left out"
elif [ -n "$need" ]; then
  mkdir -p /tmp/ux
  tar -C /tmp/ux -xzf "$XK"/executorch-python-*.tar.gz
  tar -C /tmp/ux -xzf "$XK"/ruamel-yaml-*.tar.gz
  chmod +x "$XK/flatc"
  PYTHONPATH=/tmp/ux FLATC_EXECUTABLE=$XK/flatc timeout 400 python3 tools/export/make_corpus.py \
    --out "$F" --flow cuda --only "$need" > "$OUT/export.log" 2>&1
fi
wait "$up_pid"
tail -2 "$OUT/upstream-build.log"
RUNNER=/tmp/upstream/build/upb_extra/executor_runner_cuda

specs=""
for p in $PROGRAMS; do
  n=${p%%:*}; m=${p#*:}; [ "$m" = "$p" ] && m=forward
  d=tests/models/corpus/cuda/$n; [ -f "$d/model.pte" ] || d=$F/cuda/$n
  if [ -f "$d/model.pte" ]; then specs+="${specs:+,}$d:$m"; else echo "no program $n (export failed?)"; fi
done
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
use_build_libs "$B"
# The library names the commit it was built from; that is what was measured.
LIBVER=$(libexecutorch_commit "$B")
COMMIT=${LIBVER:-$COMMIT}
{
  echo "== gpu_compare $(date -u +%Y-%m-%dT%H:%MZ), ours at $COMMIT, upstream cff6f4dd32"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$B/tools/executorch-run/executorch-run" --version
  PYTHONPATH=/tmp/ux timeout 540 python3 bench/gpu_compare.py --ours "$B" --upstream "$RUNNER" \
    --fixtures "$specs" --rounds "$ROUNDS" --warmup-rounds "${WARMUP_ROUNDS:-1}" --iters "$ITERS" --procs "${PROCS_PER_ROUND:-1}" --time-budget "${TIME_BUDGET:-0}" --commit "$COMMIT" ${CPUS:+--cpus "$CPUS"} \
    --json "$OUT/gpu-compare.json"
} 2>&1 | tee "$OUT/gpu-compare.txt"
