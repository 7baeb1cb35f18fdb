#!/usr/bin/env bash
# Packs what bench/run_cpu_gpu_host.sh needs from a build of this tree into a
# small git-ignored directory for the device tool's `carry`: executorch-run,
# gemm_bench (from a -Dbenchmarks=true build), libexecutorch.so.1, and the system libraries it links that the GPU host
# (Ubuntu) may lack (pthreadpool, the selected BLAS with its Fortran
# runtime), xz-compressed since the whole carry is bounded.
# Usage: bench/pack_cpu_carry.sh BUILD [OUT]   (OUT default build-cpu-carry)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: bench/pack_cpu_carry.sh BUILD [OUT]}
out=${2:-build-cpu-carry}
rm -rf "$out"
mkdir -p "$out/tools/executorch-run" "$out/runtime"
cp "$build/tools/executorch-run/executorch-run" "$out/tools/executorch-run/"
find "$build/runtime" -maxdepth 1 -name 'libexecutorch.so*' ! -type d -exec cp -P {} "$out/runtime/" \;
if [ -x "$build/bench/gemm_bench" ]; then
  mkdir -p "$out/bench"
  cp "$build/bench/gemm_bench" "$out/bench/"
fi
# The libraries libexecutorch needs beyond glibc and libstdc++, resolved
# here (the BLAS through its alternatives link).
libs=()
while read -r lib; do
  libs+=("$lib")
done < <(ldd "$build/runtime/libexecutorch.so.1" |
  awk '/libblas|libopenblas|libpthreadpool|libgfortran|libquadmath/ {print $3}')
tar -cJf "$out/system-libs.tar.xz" --dereference --transform 's|.*/||' "${libs[@]}"
# Debug info would not fit the carry.
strip --strip-debug "$out/tools/executorch-run/executorch-run" "$out"/runtime/libexecutorch.so.*.*.*
[ -x "$out/bench/gemm_bench" ] && strip --strip-debug "$out/bench/gemm_bench"
du -sh "$out"
