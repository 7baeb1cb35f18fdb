#!/bin/bash
# On a GPU host with torch: re-export every CUDA fixture, run the GPU suite
# and executorch-run against them, compute-sanitizer, and the no-libtorch /
# no-leftover-file checks. Build dir as $1 (default build-gpu, made elsewhere
# with CUDA on). Everything is logged under $OUT; the new fixtures are staged
# in $OUT/models/<name>/ (copy $OUT/models/* into tests/models/cuda/).
# Fixtures: mlp conv transformer (device layout, upstream 1.4+), *_host (host
# layout, 1.1-1.3 style), mlp2 (two CUDA partitions in one method).
set -u -o pipefail
B=$(cd "${1:-build-gpu}" && pwd)
OUT=${OUT:-/tmp/cuda-out}
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$OUT/models"
LOG=$OUT/summary.log
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }
T0=$(date +%s)
export PYTHONUNBUFFERED=1
NV=$(python3 -c "import nvidia,os;print(':'.join(os.path.join(d,x,'lib') for d in nvidia.__path__ for x in os.listdir(d)))" 2>/dev/null)
LIBS=$B/runtime:$B/cuda-stream:$B/cuda-backend
export LD_LIBRARY_PATH=$LIBS:/usr/local/cuda/lib64:${NV:-}
nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv > "$OUT/gpu.log" 2>&1
say "== gpu: $(tail -1 "$OUT/gpu.log")"

# (a) export: 4 processes in parallel (mlp, conv, transformer, mlp2), each
# writing both layouts from one compile.
(cd "$SRC/tools/export" && timeout ${EXPORT_TIMEOUT:-300} python3 export_cuda.py \
   --out "$OUT/models" --layout both --models ${MODELS:-mlp,conv,transformer,mlp2}) \
   > "$OUT/export.log" 2>&1
say "== (a) export rc=$? ($(( $(date +%s) - T0 ))s)"
grep -E '^\[export' "$OUT/export.log" | tail -30 | tee -a "$LOG"
for d in "$OUT"/models/*/; do
  [ -f "$d/imports.txt" ] && { echo "== $d"; cat "$d/imports.txt"; rm -f "$d/imports.txt"; }
done > "$OUT/imports.txt"
rm -f "$OUT"/models/*/*.json.tmp
du -sh "$OUT"/models/* 2>/dev/null | tee -a "$LOG"
FX=""
for n in mlp conv transformer mlp_host conv_host transformer_host mlp2; do
  [ -f "$OUT/models/$n/model.pte" ] && FX="$FX $OUT/models/$n"
done
say "fixtures:$FX"
ldd "$B/cuda-backend/libexecutorch_cuda_backend.so.1" | grep -E 'cuda|cublas' >> "$OUT/gpu.log"

# (b) the gpu suite binaries against the new fixtures.
timeout 150 "$B/tests/cuda-backend/gpu/cuda_module_test" $FX > "$OUT/module_test.log" 2>&1
say "== (b) cuda_module_test rc=$? ($(( $(date +%s) - T0 ))s)"
grep -E 'FAIL|PASSED|FAILED|fixtures|growth' "$OUT/module_test.log" | head -30 | tee -a "$LOG"
D=""
for n in mlp conv transformer mlp_host conv_host transformer_host; do
  [ -d "$OUT/models/$n" ] && D="$D $OUT/models/$n"
done
timeout 150 "$B/tests/cuda-backend/gpu/cuda_gpu_test" $D > "$OUT/gpu_test.log" 2>&1
say "== (b) cuda_gpu_test rc=$? ($(( $(date +%s) - T0 ))s)"
grep -E 'FAIL|PASSED|FAILED' "$OUT/gpu_test.log" | head -20 | tee -a "$LOG"

# (c) executorch-run on each fixture, compared with the reference.
cat > "$OUT/compare.py" <<'PY'
import json, struct, sys
meta = json.load(open(sys.argv[1] + "/meta.json"))
out = json.loads(open(sys.argv[2]).read())
ref = open(sys.argv[1] + "/output0.bin", "rb").read()
ref = struct.unpack("<%df" % (len(ref) // 4), ref)
got = out["outputs"][0]["values"]
assert len(got) == len(ref), (len(got), len(ref))
scale = max(abs(r) for r in ref)
bf16 = meta["outputs"][0]["dtype"] == "bfloat16"
if bf16:
    err, tol = max(abs(g - r) for g, r in zip(got, ref)) / (scale + 1e-12), 2e-2
else:
    err, tol = max(abs(g - r) / max(abs(r), 1e-2 * scale + 1e-12) for g, r in zip(got, ref)), 1e-4
print(f"{sys.argv[1]}: err {err:.3g} tol {tol:g} {'ok' if err <= tol else 'FAIL'}")
sys.exit(0 if err <= tol else 1)
PY
for d in $FX; do
  n=$(basename "$d")
  timeout 60 "$B/tools/executorch-run/executorch-run" "$d/model.pte" --ptd "$d/aoti_cuda_blob.ptd" \
    --input "@$d/input0.bin" --json > "$OUT/run_$n.json" 2> "$OUT/run_$n.err"
  rc=$?
  python3 "$OUT/compare.py" "$d" "$OUT/run_$n.json" > "$OUT/cmp_$n.log" 2>&1
  say "== (c) executorch-run $n rc=$rc compare: $(tail -1 "$OUT/cmp_$n.log") $(head -c 300 "$OUT/run_$n.err")"
done

# (d) compute-sanitizer memcheck on the Module test with the mlp fixtures.
CS=/usr/local/cuda/bin/compute-sanitizer
if [ -x "$CS" ]; then
  timeout 150 "$CS" --tool memcheck --leak-check full \
    "$B/tests/cuda-backend/gpu/cuda_module_test" "$OUT/models/mlp" "$OUT/models/mlp_host" \
    > "$OUT/memcheck.log" 2>&1
  say "== (d) memcheck rc=$? $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$OUT/memcheck.log" | tr '\n' ' ')"
else
  say "== (d) memcheck skipped: $CS not found"
fi

# (e) no libtorch/libc10 in a running executorch-run; no files left in TMPDIR.
OLD_TMPDIR=${TMPDIR:-}
TD=$(mktemp -d); export TMPDIR=$TD
{ ldd "$B/tools/executorch-run/executorch-run"; ldd "$B/cuda-backend/libexecutorch_cuda_backend.so.1"; } \
  > "$OUT/ldd.log" 2>&1
M=$OUT/models/mlp
"$B/tools/executorch-run/executorch-run" "$M/model.pte" --ptd "$M/aoti_cuda_blob.ptd" \
  --input "@$M/input0.bin" --iterations 4000 > /dev/null 2> "$OUT/maps_run.err" &
PID=$!
for _ in $(seq 1 50); do
  grep -q aoti "/proc/$PID/maps" 2>/dev/null && break
  grep -q memfd "/proc/$PID/maps" 2>/dev/null && break
  sleep 0.1
done
cp "/proc/$PID/maps" "$OUT/maps.txt" 2>/dev/null
LEFT=$(ls -A "$TD" | tr '\n' ' ')
wait $PID; RRC=$?
TORCH=$(grep -Ec 'libtorch|libc10' "$OUT/maps.txt" "$OUT/ldd.log" | awk -F: '{s+=$2} END {print s+0}')
say "== (e) executorch-run rc=$RRC; libtorch/libc10 mappings+ldd lines: $TORCH; TMPDIR entries during run: [${LEFT}] after: [$(ls -A "$TD" | tr '\n' ' ')]"
grep -E '\.so' "$OUT/maps.txt" | awk '{print $6}' | sort -u > "$OUT/maps_libs.txt"
rm -rf "$TD"
if [ -n "$OLD_TMPDIR" ]; then export TMPDIR=$OLD_TMPDIR; else unset TMPDIR; fi
say "== done in $(( $(date +%s) - T0 ))s; copy with: cp -r \$OUT/models/* tests/models/cuda/"
ls -la "$OUT" "$OUT/models" >> "$LOG"
# BENCH_BUILD=DIR also runs the GPU benchmarks (bench/run_gpu.sh) on the
# fixtures just exported; the table lands in $OUT/bench/gpu_bench.txt.
if [ -n "${BENCH_BUILD:-}" ]; then
  FIXTURES=$OUT/models OUT=$OUT/bench timeout 420 bash bench/run_gpu.sh "$BENCH_BUILD" > "$OUT/bench.log" 2>&1
  say "== bench rc=$? ($(( $(date +%s) - T0 ))s)"
fi
# The device tool returns at most 8 files of 16 MiB: PACK=1 packs the
# fixtures into three archives and the logs into one (summary.log stays).
if [ "${PACK:-1}" = 1 ]; then
  (cd "$OUT/models" && tar -czf "$OUT/models-1.tar.gz" mlp conv transformer \
     && tar -czf "$OUT/models-2.tar.gz" mlp2 mlp_host \
     && tar -czf "$OUT/models-3.tar.gz" conv_host transformer_host) && rm -rf "$OUT/models"
  # Archive outside $OUT (tar must not read the file it writes), then keep
  # only the archives, summary.log and bench/ there.
  tar -czf /tmp/gpu-host-logs.tar.gz -C "$OUT" --exclude='models-*' --exclude=summary.log \
      --exclude=bench .
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name 'models-*' ! -name summary.log ! -name bench \
      -exec rm -rf {} +
  mv /tmp/gpu-host-logs.tar.gz "$OUT/logs.tar.gz"
fi
