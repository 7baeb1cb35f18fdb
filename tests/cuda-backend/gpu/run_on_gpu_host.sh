#!/bin/bash
# Export the CUDA fixtures and run the GPU suite on a GPU host where torch is
# installed, against a build made elsewhere (build dir as $1, default build-gpu).
# Results go to $OUT (fixtures as $OUT/models/<name>.tar).
set -o pipefail
B=${1:-build-gpu}
OUT=${OUT:-/tmp/cuda-out}
mkdir -p "$OUT/models"
export PYTHONUNBUFFERED=1
NV=$(python3 -c "import nvidia,os;print(':'.join(os.path.join(d,x,'lib') for d in nvidia.__path__ for x in os.listdir(d)))" 2>/dev/null)
export LD_LIBRARY_PATH=$B/runtime:$B/cuda-stream:$B/cuda-backend:/usr/local/cuda/lib64:$NV
nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv | tee "$OUT/gpu.log"
(cd tools/export && timeout ${EXPORT_TIMEOUT:-420} python3 export_cuda.py --out "$OUT/models" ${EXPORT_ARGS:-}) 2>&1 | tee "$OUT/export.log" | grep -E '^\[export|Error|error' | tail -40
for d in "$OUT"/models/*/; do
  [ -f "$d/imports.txt" ] && { echo "== $d"; cat "$d/imports.txt"; }
done > "$OUT/imports.txt"
D=""
for d in "$OUT"/models/mlp "$OUT"/models/conv "$OUT"/models/transformer; do
  [ -f "$d/model.pte" ] && D="$D $d"
done
ldd $B/cuda-backend/libexecutorch_cuda_backend.so.1 | grep -E 'cuda|cublas' | tee -a "$OUT/gpu.log"
timeout 150 $B/tests/cuda-backend/gpu/cuda_gpu_test $D 2>&1 | tee -a "$OUT/gpu.log"
echo "gpu test rc=$?" | tee -a "$OUT/gpu.log"
rm -rf "$OUT"/models/*/
ls -la "$OUT" "$OUT/models"
