#!/bin/bash
# On the GPU host: which kernels the conv program runs, ours (gpu_bench on
# upstream's conv program, device I/O, eager and graph) against torch (eager
# and CUDA graph), with ncu's per-kernel GPU time.
#   bench/ncu_conv.sh BUILD      (bench/results/ncu-conv-*.txt came from it)
set -u
C=$(cd "${1:?usage: bench/ncu_conv.sh BUILD (a pack_carry.sh directory)}" && pwd)
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/ncu-conv-out}
mkdir -p "$OUT"
# shellcheck source=bench/gpu_host_env.sh
. bench/gpu_host_env.sh
use_build_libs "$C"
G=$(python3 -c "
import sys; sys.path.insert(0,'bench'); import gpu_compare
print(gpu_compare.gpu_bench_dir('tests/models/corpus/cuda/conv','forward'))")
echo "staged $G"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
timeout 200 "$NCU" --metrics gpu__time_duration.sum --csv --graph-profiling node \
  "$C/bench/gpu_bench" --runs 3 --warmup 2 --device-io --cuda-graph "$G" > "$OUT/ncu_ours.csv" 2> "$OUT/ncu_ours.err"
echo "ncu ours rc=$?"
cat > "$OUT/tconv.py" <<'PY'
import torch, torch.nn as nn
torch.backends.cudnn.allow_tf32 = False
m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()).cuda().eval()
x = torch.randn(2, 3, 16, 16, device="cuda")
with torch.no_grad():
    for _ in range(3): m(x)
    torch.cuda.synchronize()
    for _ in range(3): m(x)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3): y = m(x)
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        y = m(x)
    for _ in range(3): g.replay()
    torch.cuda.synchronize()
PY
timeout 200 "$NCU" --metrics gpu__time_duration.sum --csv --graph-profiling node python3 "$OUT/tconv.py" > "$OUT/ncu_torch.csv" 2> "$OUT/ncu_torch.err"
echo "ncu torch rc=$?"
for f in ours torch; do
  echo "== $f: count, median ns, kernel"
  python3 - "$OUT/ncu_$f.csv" <<'PY'
import csv, sys, statistics, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; k = h.index("Kernel Name"); v = h.index("Metric Value")
d = collections.defaultdict(list)
for r in rows[1:]:
    try: d[r[k][:110]].append(float(r[v].replace(",", "")))
    except ValueError: pass
for name, xs in sorted(d.items(), key=lambda t: -statistics.median(t[1])):
    print(f"  {len(xs):4d} {statistics.median(xs):10.0f}  {name}")
PY
done
rm -rf "$G"
