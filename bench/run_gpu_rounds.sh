#!/bin/bash
# Our own GPU figures over several processes, on the GPU host: each process
# is one gpu_bench run (its own CUDA context, cold dlopen of the backend),
# so the spread covers process-to-process variation, not only run-to-run.
# Then the same with bench/cuda_api_profile.cpp preloaded, which splits each
# execute's host time into CUDA calls and the rest.
#
#   bench/run_gpu_rounds.sh BUILD NAME
# BUILD: tests/cuda-backend/gpu/pack_carry.sh's output of a -Dbenchmarks=true
# build. NAME: the result files' stem, e.g. h100-2026-12-05-abc1234; they go
# to $OUT: gpu-rounds-NAME.{csv,txt} and gpu-split-NAME.txt, the inputs of
# bench/make_results.py (copy them into bench/results/). PROCS (5), RUNS
# (300), WARMUP (50) and FIXTURES (tests/models/cuda) can be set. Each
# process also runs the corpus's KV-cache decoder's decode method (a
# second gpu_bench, as --method applies to every fixture of a run), made
# into gpu_bench's layout by bench/corpus_fixture.py.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${1:?build dir}" && pwd) NAME=${2:?result name}
OUT=${OUT:-/tmp/gpu-rounds-out}
PROCS=${PROCS:-5} RUNS=${RUNS:-300} WARMUP=${WARMUP:-50}
F=${FIXTURES:-tests/models/cuda}
mkdir -p "$OUT"
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
use_build_libs "$B"
args=(--runs "$RUNS" --warmup "$WARMUP" --cuda-graph --device-io "$F/mlp" "$F/conv" "$F/transformer")
kv_args=()
KV=tests/models/corpus/cuda/kv_decoder
if [ -f "$KV/calls.txt" ]; then
  kv=$(python3 bench/corpus_fixture.py "$KV" decode "$(mktemp -d)") &&
    kv_args=(--runs "$RUNS" --warmup "$WARMUP" --cuda-graph --device-io --method decode "$kv")
fi
# bench_sets [CSV]: gpu_bench on the fixtures, then on the decoder when
# there is one; with CSV, their rows go to CSV.1 and CSV.2.
bench_sets() {
  local csv1=() csv2=()
  [ -n "${1:-}" ] && csv1=(--csv "$1.1") csv2=(--csv "$1.2")
  timeout 300 "$B/bench/gpu_bench" "${args[@]}" "${csv1[@]}" 2>&1 || echo "gpu_bench rc=$?"
  [ ${#kv_args[@]} -eq 0 ] && return
  timeout 300 "$B/bench/gpu_bench" "${kv_args[@]}" "${csv2[@]}" 2>&1 || echo "gpu_bench rc=$?"
}
lib=$(libexecutorch_commit "$B")
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, /, driver /')
what="$PROCS processes, each: gpu_bench ${args[*]}${kv_args[*]:+; gpu_bench ${kv_args[*]}}"

csv=$OUT/gpu-rounds-$NAME.csv txt=$OUT/gpu-rounds-$NAME.txt
echo "== gpu_bench rounds $(date -u +%Y-%m-%dT%H:%MZ), libexecutorch $lib, $gpu: $what" > "$txt"
: > "$csv"
for r in $(seq 1 "$PROCS"); do
  one=$OUT/rounds-$r.csv
  { echo; echo "round $r"; } >> "$txt"
  bench_sets "$one" >> "$txt"
  # One header, then every process's rows with its round number in front.
  for part in "$one".1 "$one".2; do
    [ -f "$part" ] || continue
    [ -s "$csv" ] || sed -n '1s/^/round,/p' "$part" > "$csv"
    sed -n "2,\$s/^/$r,/p" "$part" >> "$csv"
    rm -f "$part"
  done
done

split=$OUT/gpu-split-$NAME.txt
echo "== cuda_api_profile $(date -u +%Y-%m-%dT%H:%MZ), libexecutorch $lib, $gpu: $what, bench/libcuda_api_profile.so preloaded" > "$split"
for r in $(seq 1 "$PROCS"); do
  { echo; echo "round $r"; } >> "$split"
  LD_PRELOAD=$B/bench/libcuda_api_profile.so bench_sets >> "$split"
done
echo "wrote $csv $txt $split"
