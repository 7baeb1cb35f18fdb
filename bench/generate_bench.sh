#!/bin/bash
# Generation benchmark on the GPU host: prefill and decode tokens/s of our
# executorch-generate against PyTorch eager and torch.compile on the CUDA
# kv_decoder (bf16; prefill and decode methods), interleaved round after
# round (bench/generate_bench.py). Raw JSON and the log go to $OUT and to
# bench/results/.
#
#   bench/generate_bench.sh --pack BUILD DEST   copy what the run needs out
#                                               of a CUDA build (libraries +
#                                               executorch-generate) into DEST
#   bench/generate_bench.sh DEST [EXPORTER_KIT] run; EXPORTER_KIT (the
#                                               exporter tarballs + flatc, as
#                                               for bench/run_gpu_compare.sh)
#                                               exports the fixture, unless
#                                               FIXTURE=DIR names one
# Environment: ROUNDS (7), RUNS (10), WARMUP (3), PROMPT_LEN (32),
# NEW_TOKENS (32), OPTIONS (backend options for ours; default
# CudaBackend:weight_sharing_across_methods=true), OURS_ARGS (more arguments
# for executorch-generate, e.g. "--prefill-method decode" to prefill token
# by token where the dynamic prefill does not run yet).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if [ "${1:-}" = "--pack" ]; then
  src=$2 dest=$3
  rm -rf "$dest"; mkdir -p "$dest"/{tools/executorch-generate,runtime,cuda-stream,cuda-backend}
  cp -L "$src"/tools/executorch-generate/executorch-generate "$dest"/tools/executorch-generate/
  cp -L "$src"/runtime/libexecutorch.so.1 "$dest"/runtime/
  cp -L "$src"/cuda-stream/libexecutorch_extension_cuda.so.1 "$dest"/cuda-stream/
  cp -L "$src"/cuda-backend/libexecutorch_cuda_backend.so.1 "$dest"/cuda-backend/
  # The GPU host has no libsentencepiece: it travels beside libexecutorch.
  ldd "$src"/tools/executorch-generate/executorch-generate |
    awk '/libsentencepiece/ {print $3}' | xargs -r cp -L -t "$dest"/runtime/
  git rev-parse --short HEAD > "$dest"/COMMIT 2>/dev/null
  du -sh "$dest"
  exit 0
fi
B=$(cd "${1:?usage: bench/generate_bench.sh DEST [EXPORTER_KIT]}" && pwd) || exit 1
OUT=${OUT:-/tmp/generate-bench-out}
mkdir -p "$OUT" bench/results
F=${FIXTURE:-}
if [ -z "$F" ]; then
  XK=$(cd "${2:?no FIXTURE and no EXPORTER_KIT}" && pwd) || exit 1
  mkdir -p /tmp/ux
  tar -C /tmp/ux -xzf "$XK"/executorch-python-*.tar.gz
  tar -C /tmp/ux -xzf "$XK"/ruamel-yaml-*.tar.gz
  chmod +x "$XK/flatc"
  PYTHONPATH=/tmp/ux FLATC_EXECUTABLE=$XK/flatc timeout 400 python3 tools/export/make_corpus.py \
    --out /tmp/generate-bench-fixtures --flow cuda --only kv_decoder > "$OUT/export.log" 2>&1
  tail -3 "$OUT/export.log"
  F=/tmp/generate-bench-fixtures/cuda/kv_decoder
fi
[ -f "$F/model.pte" ] || { echo "no $F/model.pte (see $OUT/export.log)"; exit 1; }
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
use_build_libs "$B"
export PYTHONUNBUFFERED=1
COMMIT=$(cat "$B/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null)
STAMP=$(date -u +%Y-%m-%d)
opts=()
for o in ${OPTIONS-CudaBackend:weight_sharing_across_methods=true}; do opts+=(--backend-option "$o"); done
read -r -a ours_args <<< "${OURS_ARGS:-}"
extra=()
for o in "${ours_args[@]}"; do extra+=("--ours-arg=$o"); done
{
  echo "== generate_bench $(date -u +%Y-%m-%dT%H:%MZ), ours at $COMMIT"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c "import torch; print('torch', torch.__version__)"
  # One greedy generation first: does the program run at all, and what it says.
  "$B/tools/executorch-generate/executorch-generate" "$F/model.pte" --ptd "$F/aoti_cuda_blob.ptd" \
    --prompt 1,2,3,4,5,6,7,8 -n 8 --stats "${opts[@]}" "${ours_args[@]}"
  echo "smoke rc=$?"
  PYTHONPATH=${PYTHONPATH:-/tmp/ux} timeout 540 python3 bench/generate_bench.py \
    --ours "$B/tools/executorch-generate/executorch-generate" --fixture "$F" \
    --rounds "${ROUNDS:-7}" --runs "${RUNS:-10}" --warmup "${WARMUP:-3}" \
    --prompt-len "${PROMPT_LEN:-32}" --new-tokens "${NEW_TOKENS:-32}" \
    "${opts[@]}" "${extra[@]}" --json "$OUT/generate-bench.json"
  echo "generate_bench.py rc=$?"
} 2>&1 | tee "$OUT/generate-bench.txt"
cp "$OUT/generate-bench.json" "bench/results/generate-h200-$STAMP.json" 2>/dev/null
cp "$OUT/generate-bench.txt" "bench/results/generate-h200-$STAMP.txt"
