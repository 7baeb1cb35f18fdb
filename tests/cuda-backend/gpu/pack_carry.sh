#!/bin/bash
# Copies what tests/cuda-backend/gpu/run_on_gpu_host.sh (and, when built with
# -Dbenchmarks=true, bench/run_gpu.sh) needs out of a full build into a small
# git-ignored directory that the device tool can carry to the GPU host:
# the three libraries, executorch-run, the GPU suite binaries, gpu_bench,
# the CUDA corpus runner, the CUDA call profiler, and system libraries the
# GPU host does not have (syslib/).
#   tests/cuda-backend/gpu/pack_carry.sh BUILD DEST     (e.g. build-dev build-carry)
set -euo pipefail
src=${1:?build dir} dest=${2:?destination dir}
rm -rf "$dest"
mkdir -p "$dest"/{runtime,cuda-stream,cuda-backend,tools/executorch-run,tests/cuda-backend/gpu,bench}
cp -L "$src"/runtime/libexecutorch.so.1 "$dest"/runtime/
cp -L "$src"/cuda-stream/libexecutorch_extension_cuda.so.1 "$dest"/cuda-stream/
cp -L "$src"/cuda-backend/libexecutorch_cuda_backend.so.1 "$dest"/cuda-backend/
cp -L "$src"/tools/executorch-run/executorch-run "$dest"/tools/executorch-run/
for t in cuda_gpu_test cuda_module_test shim_blas_test shim_conv_test shim_sdpa_test; do
  cp -L "$src"/tests/cuda-backend/gpu/$t "$dest"/tests/cuda-backend/gpu/
done
[ -x "$src"/bench/gpu_bench ] && cp -L "$src"/bench/gpu_bench "$dest"/bench/
[ -f "$src"/bench/libcuda_api_profile.so ] && cp -L "$src"/bench/libcuda_api_profile.so "$dest"/bench/
# The CUDA model corpus runner (tests/models/corpus/cuda/<name> CudaBackend).
if [ -x "$src"/tests/models/corpus_runner_cuda ]; then
  mkdir -p "$dest"/tests/models
  cp -L "$src"/tests/models/corpus_runner_cuda "$dest"/tests/models/
fi
# Libraries the GPU host lacks (Ubuntu there has no libpthreadpool):
# into syslib/, which use_build_libs (bench/gpu_host_env.sh) puts on the path.
mkdir -p "$dest"/syslib
pthreadpool=$(ldd "$src"/runtime/libexecutorch.so.1 | awk '$1 == "libpthreadpool.so.0" { print $3 }')
[ -z "$pthreadpool" ] || cp -L "$pthreadpool" "$dest"/syslib/
# Keep symbols out of the carried copy (64 MiB limit), not function names
# compute-sanitizer prints.
find "$dest" -type f -exec strip --strip-debug {} +
du -sh "$dest"
