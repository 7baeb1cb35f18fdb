#!/usr/bin/env bash
# The CPU comparison (bench/cpu_compare.py) on the GPU host's CPU, with what
# bench/pack_cpu_carry.sh packed. The carried system libraries are used only
# for those the host's loader does not have. Results go to $OUT (the device
# tool's output directory) or to ./cpu-results.
# Usage: [TAG=large] bench/run_cpu_gpu_host.sh CARRY [cpu_compare.py options...]
set -euo pipefail
cd "$(dirname "$0")/.."
carry=$(cd "${1:?usage: bench/run_cpu_gpu_host.sh CARRY [options]}" && pwd)
shift
out=${OUT:-$PWD/cpu-results}
mkdir -p "$out"
libdir=$(mktemp -d)
tar -xJf "$carry/system-libs.tar.xz" -C "$libdir"
# A library the host's loader already has is the host's: drop the copy
# (USE_CARRIED_BLAS=1 keeps the carried BLAS, the build machine's).
for lib in "$libdir"/*; do
  name=$(basename "$lib")
  case $name in libblas*|libopenblas*|libgfortran*|libquadmath*)
    [ "${USE_CARRIED_BLAS:-0}" = 1 ] && continue ;;
  esac
  if ldconfig -p | grep -q "^[[:space:]]*$name "; then rm -f "$lib"; fi
done
# The BLAS is libblas.so.3 in the build's NEEDED list; OpenBLAS's also
# needs libopenblas.so.0, packed under its real name.
for real in "$libdir"/libopenblasp*.so; do
  [ -e "$real" ] && ln -sf "$(basename "$real")" "$libdir/libopenblas.so.0"
done
export LD_LIBRARY_PATH="$carry/runtime:$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{
  echo "== host: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p')"
  echo "== commit: $("$carry/tools/executorch-run/executorch-run" --version 2>&1 | head -1)"
  ldd "$carry/runtime/libexecutorch.so.1" | grep -E 'blas|pthreadpool'
  readlink -f "$(ldconfig -p | awk '/libblas.so.3 / {print $NF; exit}')" 2>/dev/null || true
  python3 -c 'import torch, onnxruntime; print("torch", torch.__version__, "ort", onnxruntime.__version__)'
} | tee "$out/host.txt"
# TAG names a run of other programs (--corpus), e.g. TAG=large for
# bench/export_large_cnns.sh's; such a run leaves out the GEMM lines.
stamp="cpu-compare-gpuhost${TAG:+-$TAG}-$(date -u +%Y-%m-%d)"
python3 bench/cpu_compare.py --build "$carry" --md '' --out "$out/$stamp" "$@" 2>&1 |
  tee "$out/cpu-compare.log"
[ -n "${TAG:-}" ] && exit 0
if [ -x "$carry/bench/gemm_bench" ]; then
  for t in 1 "$(nproc)"; do
    "$carry/bench/gemm_bench" --threads "$t"
  done | tee "$out/gemm-bench.md"
fi
python3 bench/gemm_peak.py --out "$out/gemm-gpuhost-$(date -u +%Y-%m-%d)" 2>&1 |
  tail -40 | tee -a "$out/cpu-compare.log" || true
