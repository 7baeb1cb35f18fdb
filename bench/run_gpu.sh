#!/bin/bash
# GPU benchmark on the GPU host: our runtime (bench/gpu_bench) and PyTorch
# (bench/gpu_bench.py: eager, eager with host I/O, CUDA graph, the same
# AOTInductor .so through ctypes) on tests/models/cuda/{mlp,conv,transformer};
# ours also with the CudaBackend option use_cuda_graph ("+graph" rows).
# Writes the table to $OUT/gpu_bench.txt (and prints it).
#
#   bench/run_gpu.sh [BUILD_DIR]          run (default build-gpubench)
#   bench/run_gpu.sh --pack BUILD DEST    copy what the run needs out of a
#                                         full build (-Dbenchmarks=true, CUDA)
#                                         into a small DEST (build-gpubench)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if [ "${1:-}" = "--pack" ]; then
  src=$2 dest=$3
  rm -rf "$dest"; mkdir -p "$dest"/{bench,runtime,cuda-stream,cuda-backend}
  cp -L "$src"/bench/gpu_bench "$dest"/bench/
  cp -L "$src"/runtime/libexecutorch.so.1 "$dest"/runtime/
  cp -L "$src"/cuda-stream/libexecutorch_extension_cuda.so.1 "$dest"/cuda-stream/
  cp -L "$src"/cuda-backend/libexecutorch_cuda_backend.so.1 "$dest"/cuda-backend/
  du -sh "$dest"
  exit 0
fi
B=$(cd "${1:-build-gpubench}" && pwd) || { echo "no build dir ${1:-build-gpubench}"; exit 1; }
OUT=${OUT:-/tmp/gpu-bench-out}
RUNS=${RUNS:-500} WARMUP=${WARMUP:-50}
mkdir -p "$OUT"
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
use_build_libs "$B"
export PYTHONUNBUFFERED=1
F=${FIXTURES:-tests/models/cuda}
{
  echo "== GPU benchmark $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null)"
  nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv,noheader 2>&1 | head -2
  echo
  echo "-- ours: bench/gpu_bench (Module, MmapDataLoader, CudaBackend; host I/O)"
  timeout 180 "$B"/bench/gpu_bench --runs "$RUNS" --warmup "$WARMUP" --csv "$OUT/ours.csv" \
    --cuda-graph "$F"/mlp "$F"/conv "$F"/transformer 2>&1
  echo "gpu_bench rc=$?"
  echo
  echo "-- PyTorch: bench/gpu_bench.py"
  timeout 300 python3 bench/gpu_bench.py --fixtures "$F" --runs "$RUNS" --warmup "$WARMUP" \
    --ours-csv "$OUT/ours.csv" 2>&1
  echo "gpu_bench.py rc=$?"
} | tee "$OUT/gpu_bench.txt"
