#!/bin/bash
# One CUDA fixture through executorch-run, compared with its reference
# (compare_output.py). MODE eager: one run; graph: 5 runs with
# --backend-option CudaBackend:use_cuda_graph=true (eager, captured, 3
# replays). Writes run_<name>_<mode>.{json,err} and cmp_<name>_<mode>.log
# under OUTDIR, prints one summary line, exits 0 when the run succeeded and
# matched.
#   run_and_compare.sh EXECUTORCH_RUN FIXTURE_DIR MODE OUTDIR
set -u
run=$1 d=${2%/} mode=$3 out=$4
n=$(basename "$d")
extra=()
case $mode in
  eager) ;;
  graph) extra=(--iterations 5 --backend-option CudaBackend:use_cuda_graph=true) ;;
  *) echo "run_and_compare.sh: unknown mode '$mode' (eager or graph)" >&2; exit 2 ;;
esac
base=$out/run_${n}_$mode
timeout 60 "$run" "$d/model.pte" --ptd "$d/aoti_cuda_blob.ptd" --input "@$d/input0.bin" \
  --json "${extra[@]}" > "$base.json" 2> "$base.err"
rc=$?
python3 "$(dirname "$0")/compare_output.py" "$d" "$base.json" > "$out/cmp_${n}_$mode.log" 2>&1
crc=$?
echo "executorch-run $n ($mode) rc=$rc: $(tr '\n' ' ' < "$out/cmp_${n}_$mode.log" | sed "s|$d: ||g") $(head -c 200 "$base.err")"
[ $rc = 0 ] && [ $crc = 0 ]
