#!/bin/bash
# On a GPU host with torch: re-export every CUDA fixture, run the GPU suite
# and executorch-run against them, compute-sanitizer, and the no-libtorch /
# no-leftover-file checks. Build dir as $1 (default build-gpu, made elsewhere
# with CUDA on). Everything is logged under $OUT; the new fixtures are staged
# in $OUT/models/<name>/ (copy $OUT/models/* into tests/models/cuda/).
# Fixtures: mlp conv transformer (device layout, upstream 1.4+), *_host (host
# layout, 1.1-1.3 style), mlp2 (two CUDA partitions in one method),
# conv_aten / attn / attn32 (the cuDNN convolution and SDPA fallbacks).
# FIXTURES=DIR skips the export and uses DIR's fixtures (e.g.
# tests/models/cuda); MEMCHECK=0 skips compute-sanitizer.
# Exit status: 77 without a GPU, 1 when any step failed, else 0.
set -u -o pipefail
B=$(cd "${1:-build-gpu}" && pwd)
OUT=${OUT:-/tmp/cuda-out}
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$OUT/models"
LOG=$OUT/summary.log
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }
FAILED=()
# check NAME RC: remember NAME when RC is not 0.
check() { [ "$2" = 0 ] || FAILED+=("$1"); }
if ! nvidia-smi -L > /dev/null 2>&1; then
  say "== no GPU (nvidia-smi -L failed): skipped"
  exit 77
fi
T0=$(date +%s)
export PYTHONUNBUFFERED=1
# shellcheck source=bench/gpu_host_env.sh
. "$SRC/bench/gpu_host_env.sh"
use_build_libs "$B"
nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv > "$OUT/gpu.log" 2>&1
say "== gpu: $(tail -1 "$OUT/gpu.log")"
ALL="mlp conv transformer mlp_host conv_host transformer_host mlp2 conv_aten attn attn32"
GT=$B/tests/cuda-backend/gpu

if [ -z "${FIXTURES:-}" ]; then
  # (a) export, one process per model: the three base models in both
  # layouts, the rest in the device layout only.
  E=$SRC/tools/export/export_cuda.py
  (timeout "${EXPORT_TIMEOUT:-330}" python3 "$E" --out "$OUT/models" --layout both \
     --models mlp,conv,transformer > "$OUT/export-both.log" 2>&1) &
  P1=$!
  (timeout "${EXPORT_TIMEOUT:-330}" python3 "$E" --out "$OUT/models" --layout device \
     --models mlp2,conv_aten,attn,attn32 > "$OUT/export-device.log" 2>&1) &
  P2=$!
  wait $P1; R1=$?; wait $P2; R2=$?
  say "== (a) export rc=$R1/$R2 ($(( $(date +%s) - T0 ))s)"
  cat "$OUT"/export-*.log > "$OUT/export.log"
  grep -E '^\[export.*(wrote|done|Error|error)' "$OUT/export.log" | tail -30 | tee -a "$LOG"
  grep -E 'Error|Traceback' -A3 "$OUT/export.log" | tail -20 | tee -a "$LOG"
  for d in "$OUT"/models/*/; do
    [ -f "$d/imports.txt" ] && { echo "== $d"; cat "$d/imports.txt"; rm -f "$d/imports.txt"; }
  done > "$OUT/imports.txt"
  grep -hoE 'aoti_torch_cuda_[a-z_]+' "$OUT/imports.txt" | sort | uniq -c | tee -a "$LOG"
  rm -f "$OUT"/models/*/*.json.tmp
  M=$OUT/models
else
  M=$(cd "$FIXTURES" && pwd)
  say "== (a) export skipped: fixtures from $M"
fi
du -sh "$M"/* 2>/dev/null | tee -a "$LOG"
FX=()
for n in $ALL; do
  [ -f "$M/$n/model.pte" ] && FX+=("$M/$n")
done
say "fixtures: ${FX[*]}"
ldd "$B/cuda-backend/libexecutorch_cuda_backend.so.1" | grep -E 'cuda|cublas|cudnn' >> "$OUT/gpu.log"

# (b) the gpu suite binaries against the fixtures.
timeout 150 "$GT/cuda_module_test" "${FX[@]}" > "$OUT/module_test.log" 2>&1
rc=$?; check cuda_module_test $rc
say "== (b) cuda_module_test rc=$rc ($(( $(date +%s) - T0 ))s)"
grep -E 'FAIL|PASSED|FAILED|fixtures|growth' "$OUT/module_test.log" | head -30 | tee -a "$LOG"
FX1=()  # one delegate each
for d in "${FX[@]}"; do [ "${d##*/}" = mlp2 ] || FX1+=("$d"); done
timeout 150 "$GT/cuda_gpu_test" "${FX1[@]}" > "$OUT/gpu_test.log" 2>&1
rc=$?; check cuda_gpu_test $rc
say "== (b) cuda_gpu_test rc=$rc ($(( $(date +%s) - T0 ))s)"
grep -E 'FAIL|PASSED|FAILED|executes|NOTE' "$OUT/gpu_test.log" | head -40 | tee -a "$LOG"
for t in shim_blas_test shim_conv_test shim_sdpa_test; do
  timeout 120 "$GT/$t" > "$OUT/$t.log" 2>&1
  rc=$?; check "$t" $rc
  say "== (b) $t rc=$rc $(tail -1 "$OUT/$t.log")"
done

# (c) executorch-run on each fixture, eagerly and with CUDA-graph replay,
# compared with the reference.
for d in "${FX[@]}"; do
  for mode in eager graph; do
    line=$(bash "$SRC/tests/cuda-backend/gpu/run_and_compare.sh" \
      "$B/tools/executorch-run/executorch-run" "$d" $mode "$OUT")
    check "executorch-run ${d##*/} $mode" $?
    say "== (c) $line"
  done
done

# (d) compute-sanitizer memcheck (leak check) on the whole GPU suite.
CS=/usr/local/cuda/bin/compute-sanitizer
if [ "${MEMCHECK:-1}" = 0 ]; then
  say "== (d) memcheck skipped (MEMCHECK=0)"
elif [ -x "$CS" ]; then
  # In parallel (the sanitizer is CPU-bound); each test under its own limit.
  for t in cuda_module_test cuda_gpu_test shim_blas_test shim_conv_test shim_sdpa_test; do
    case $t in cuda_module_test) args=("${FX[@]}") ;; cuda_gpu_test) args=("${FX1[@]}") ;; *) args=() ;; esac
    EXECUTORCH_GPU_TEST_REPEATS=20 timeout "${MEMCHECK_TIMEOUT:-300}" "$CS" --tool memcheck \
      --leak-check full --error-exitcode 99 "$GT/$t" "${args[@]}" > "$OUT/memcheck_$t.log" 2>&1 &
  done
  wait
  for t in cuda_module_test cuda_gpu_test shim_blas_test shim_conv_test shim_sdpa_test; do
    grep -q 'ERROR SUMMARY: 0 errors' "$OUT/memcheck_$t.log" || FAILED+=("memcheck $t")
    say "== (d) memcheck $t: $(grep -E 'ERROR SUMMARY|LEAK SUMMARY|PASSED|FAILED|passed|Terminated' "$OUT/memcheck_$t.log" | tail -4 | tr '\n' ' ')"
  done
  say "== (d) memcheck done ($(( $(date +%s) - T0 ))s)"
else
  say "== (d) memcheck skipped: $CS not found"
fi

# (e) no libtorch/libc10 in a running executorch-run; no files left in TMPDIR.
OLD_TMPDIR=${TMPDIR:-}
TD=$(mktemp -d); export TMPDIR=$TD
{ ldd "$B/tools/executorch-run/executorch-run"; ldd "$B/cuda-backend/libexecutorch_cuda_backend.so.1"; } \
  > "$OUT/ldd.log" 2>&1
MM=$M/mlp
"$B/tools/executorch-run/executorch-run" "$MM/model.pte" --ptd "$MM/aoti_cuda_blob.ptd" \
  --input "@$MM/input0.bin" --iterations 4000 > /dev/null 2> "$OUT/maps_run.err" &
PID=$!
# Snapshot once the model .so is mapped (the backend dlopens it from a memfd
# named executorch_cuda_model): earlier, only the .ptd may be mapped and a
# libtorch the model pulled in would not show yet.
MAPPED=no
for _ in $(seq 1 100); do
  if grep -q 'memfd:executorch_cuda_model' "/proc/$PID/maps" 2>/dev/null; then
    MAPPED=yes
    break
  fi
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
cp "/proc/$PID/maps" "$OUT/maps.txt" 2>/dev/null
LEFT=$(find "$TD" -mindepth 1 -maxdepth 1 -printf '%f ')
wait $PID; RRC=$?
TORCH=$(grep -Ec 'libtorch|libc10' "$OUT/maps.txt" "$OUT/ldd.log" | awk -F: '{s+=$2} END {print s+0}')
check "no-libtorch run" "$RRC"
[ "$MAPPED" = yes ] && [ "$TORCH" = 0 ] || FAILED+=("no-libtorch check")
say "== (e) executorch-run rc=$RRC; model .so mapped at the snapshot: $MAPPED; libtorch/libc10 mappings+ldd lines: $TORCH; TMPDIR entries during run: [${LEFT}] after: [$(find "$TD" -mindepth 1 -maxdepth 1 -printf '%f ')]"
grep -E '\.so' "$OUT/maps.txt" | awk '{print $6}' | sort -u > "$OUT/maps_libs.txt"
rm -rf "$TD"
if [ -n "$OLD_TMPDIR" ]; then export TMPDIR=$OLD_TMPDIR; else unset TMPDIR; fi
# (f) libtorch first in the global scope (LD_PRELOAD), exporting its own
# aoti_torch_* shim: each fixture must still bind to this backend's shim
# (cuda-backend/src/aoti/private_shim.h) and match its reference.
TL=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2> /dev/null)
if [ -f "$TL/libtorch_cpu.so" ] && [ -f "$TL/libtorch_cuda.so" ]; then
  say "== (f) libtorch exports: $(nm -D --defined-only "$TL/libtorch_cpu.so" "$TL/libtorch_cuda.so" | grep -c ' aoti_torch_') aoti_torch_* symbols"
  for d in "${FX[@]}"; do
    line=$(LD_PRELOAD="$TL/libtorch_cuda.so $TL/libtorch_cpu.so" LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$TL" \
      bash "$SRC/tests/cuda-backend/gpu/run_and_compare.sh" \
      "$B/tools/executorch-run/executorch-run" "$d" eager "$OUT")
    check "libtorch-first ${d##*/}" $?
    say "== (f) libtorch first: $line"
  done
else
  say "== (f) libtorch-first check skipped: no torch/lib/libtorch_{cpu,cuda}.so"
fi
say "== done in $(( $(date +%s) - T0 ))s; copy with: cp -r \$OUT/models/* tests/models/cuda/"
ls -la "$OUT" "$OUT/models" >> "$LOG"
# The device tool returns at most 8 files of 16 MiB: PACK=1 packs the
# fixtures into three archives and the logs into one (summary.log stays),
# before the benchmark, so a run cut short still returns them.
if [ "${PACK:-1}" = 1 ]; then
  if [ -z "${FIXTURES:-}" ]; then
    (cd "$OUT/models" && tar -czf "$OUT/models-1.tar.gz" mlp conv transformer \
       && tar -czf "$OUT/models-2.tar.gz" mlp2 mlp_host conv_host transformer_host \
       && tar -czf "$OUT/models-3.tar.gz" conv_aten attn attn32)
    rm -rf /tmp/gpu-host-models && mv "$OUT/models" /tmp/gpu-host-models && M=/tmp/gpu-host-models
  fi
  rm -rf "$OUT/models"
  # Archive outside $OUT (tar must not read the file it writes), then keep
  # only the archives and summary.log there.
  tar -czf /tmp/gpu-host-logs.tar.gz -C "$OUT" --exclude='models-*' --exclude=summary.log .
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name 'models-*' ! -name summary.log -exec rm -rf {} +
  mv /tmp/gpu-host-logs.tar.gz "$OUT/logs.tar.gz"
fi
# BENCH_BUILD=DIR also runs the GPU benchmarks (bench/run_gpu.sh) on the
# fixtures; the table lands in $OUT/bench/gpu_bench.txt.
if [ -n "${BENCH_BUILD:-}" ]; then
  mkdir -p "$OUT/bench"
  FIXTURES=$M OUT=$OUT/bench timeout "${BENCH_TIMEOUT:-420}" bash "$SRC/bench/run_gpu.sh" \
    "$BENCH_BUILD" > "$OUT/bench/bench.log" 2>&1
  say "== bench rc=$? ($(( $(date +%s) - T0 ))s)"
  rm -f "$OUT/bench/ours.csv"
fi
if [ ${#FAILED[@]} -gt 0 ]; then
  say "== FAILED: $(IFS=,; echo "${FAILED[*]}")"
  exit 1
fi
say "== all steps passed"
