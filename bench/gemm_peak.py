#!/usr/bin/env python3
"""fp32 GEMM on this machine against its peak: the shapes the CPU corpus
models multiply (their linear layers, a few convolutions as im2col GEMMs) and
a few big ones, through the system BLAS (libblas.so.3's cblas_sgemm, called
with ctypes: Debian's alternative, OpenBLAS here) and numpy's matmul (the
OpenBLAS bundled in numpy's wheel), at 1 thread and at all threads
(OPENBLAS_NUM_THREADS, one child process per thread count).

  /opt/bench-venv/bin/python bench/gemm_peak.py [--budget 0.2] [--out PREFIX]

Writes PREFIX.json (default bench/results/gemm-<date>-<commit>) and prints a
Markdown table; bench/cpu_compare.py --render-only puts the newest one in
RESULTS.md. Per shape: the median over batches of calls of the time per call,
as GFLOP/s (2*M*N*K / time) and as a share of the assumed peak (cores x MHz x
32 fp32 FLOP per cycle: two 256-bit FMA pipes, what AVX2 cores and Zen 4's
AVX-512 give; an assumption, printed with the MHz it used). Small shapes are
dominated by the call overhead from Python (the 1x1x1 row measures it).

The project's own GEMM (the optimized aten::mm.out) against the same BLAS
called directly, on the same shapes and thread counts, is bench/gemm_bench
(a -Dbenchmarks=true build): this script gives the peak line beside it.
"""
import argparse
import ctypes
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# (what, M, N, K): C[M,N] = A[M,K] B[K,N]
SHAPES = [
    ("call overhead", 1, 1, 1),
    ("kv_decoder decode q/o proj", 1, 64, 64),
    ("gpt2/llama_hf qkv, seq 12", 12, 192, 64),
    ("llama_hf kv proj, seq 12", 12, 32, 64),
    ("gpt2/llama_hf lm head, seq 12", 12, 256, 64),
    ("bert/t5 attn proj, seq 16", 16, 64, 64),
    ("bert ffn up, seq 16", 16, 128, 64),
    ("bert ffn down, seq 16", 16, 64, 128),
    ("kv_decoder prefill ffn, seq 63", 63, 128, 64),
    ("wav2vec2 ffn up, 79 frames", 79, 128, 64),
    ("resnet18_narrow stem 7x7 (im2col)", 1024, 8, 147),
    ("resnet18_narrow 3x3 at 16x16x8", 256, 8, 72),
    ("resnet18_narrow 3x3 at 2x2x64", 4, 64, 576),
    ("mobilenet 1x1 at 32x32, 16->96", 1024, 96, 16),
    ("square 256", 256, 256, 256),
    ("square 512", 512, 512, 512),
    ("square 1024", 1024, 1024, 1024),
]
CBLAS_ROW_MAJOR, CBLAS_NO_TRANS = 101, 111


def system_sgemm():
    lib = ctypes.CDLL("libblas.so.3")
    f = lib.cblas_sgemm
    f.restype = None
    f.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, ctypes.c_void_p, ctypes.c_int,
                                       ctypes.c_void_p, ctypes.c_int, ctypes.c_float,
                                       ctypes.c_void_p, ctypes.c_int]
    return f


def time_calls(call, budget):
    """Median seconds per call over batches (about budget seconds in all)."""
    call()
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < 0.02:
        call()
        n += 1
    per_batch = max(1, n // 2)  # about 10 ms a batch
    times = []
    end = time.perf_counter() + budget
    while time.perf_counter() < end or len(times) < 5:
        t0 = time.perf_counter()
        for _ in range(per_batch):
            call()
        times.append((time.perf_counter() - t0) / per_batch)
    return statistics.median(times)


def child(budget):
    """Runs in a process with OPENBLAS_NUM_THREADS set; prints JSON rows."""
    import numpy as np
    sgemm = system_sgemm()
    rng = np.random.default_rng(0)
    rows = []
    for what, m, n, k in SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        c = np.empty((m, n), dtype=np.float32)
        pa, pb, pc = (x.ctypes.data for x in (a, b, c))

        def sys_call():
            sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k, 1.0,
                  pa, k, pb, n, 0.0, pc, n)

        def np_call():
            np.matmul(a, b, out=c)

        flop = 2.0 * m * n * k
        for impl, call in (("system BLAS", sys_call), ("numpy", np_call)):
            t = time_calls(call, budget)
            rows.append({"what": what, "M": m, "N": n, "K": k, "impl": impl,
                         "us": t * 1e6, "gflops": flop / t / 1e9})
    print(json.dumps(rows))


def facts():
    import numpy as np
    mhz = [float(ln.split(":")[1]) for ln in open("/proc/cpuinfo") if ln.startswith("cpu MHz")]
    model = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                  if ln.startswith("model name")), "")
    blas = subprocess.run(["update-alternatives", "--query", "libblas.so.3-x86_64-linux-gnu"],
                          capture_output=True, text=True).stdout
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    cores = os.cpu_count() or 1
    peak_core = (max(mhz) if mhz else 0.0) * 1e6 * 32 / 1e9
    return {"cpu": model, "cores": cores, "mhz": max(mhz) if mhz else None,
            "peak_gflops_per_core": peak_core, "numpy": np.__version__, "commit": commit,
            "system_blas": next((ln.split(":", 1)[1].strip() for ln in blas.splitlines()
                                 if ln.startswith("Value:")), None)}


def render(run, name):
    f = run["facts"]
    lines = [f"### {name}: {run['date']}, {f['cpu']}, {f['cores']} cores at {f['mhz']} MHz, "
             f"system BLAS {f['system_blas']}, numpy {f['numpy']}", "",
             f"Assumed peak {f['peak_gflops_per_core']:.0f} GFLOP/s per core (MHz x 32). "
             "GFLOP/s (% of the peak of the threads used); small shapes include "
             "the Python call overhead. Ours: not measured yet (no callable "
             "optimized GEMM).", "",
             "| shape | M x N x K | " + " | ".join(
                 f"{impl}, {t} thr" for t in run["threads"] for impl in ("system BLAS", "numpy"))
             + " |", "|---|---|" + "---:|" * (2 * len(run["threads"]))]
    by = {(r["what"], r["impl"], r["threads"]): r for r in run["rows"]}
    for what, m, n, k in SHAPES:
        cells = []
        for t in run["threads"]:
            for impl in ("system BLAS", "numpy"):
                r = by.get((what, impl, t))
                pct = 100 * r["gflops"] / (f["peak_gflops_per_core"] * t) if r else 0
                if r and m * n * k == 1:
                    cells.append(f"{r['us']:.2f} us a call")
                else:
                    cells.append(f"{r['gflops']:.2f} ({pct:.0f}%)" if r else "n/a")
        lines.append(f"| {what} | {m}x{n}x{k} | " + " | ".join(cells) + " |")
    return lines + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=0.2, help="seconds per shape and library")
    ap.add_argument("--out", default="")
    ap.add_argument("--child", action="store_true")
    a = ap.parse_args()
    if a.child:
        return child(a.budget)
    date = datetime.datetime.now(datetime.timezone.utc)
    run = {"kind": "gemm", "date": f"{date:%Y-%m-%dT%H:%MZ}", "facts": facts(),
           "threads": sorted({1, os.cpu_count() or 1}), "rows": [],
           "loadavg_start": [round(x, 2) for x in os.getloadavg()]}
    for t in run["threads"]:
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t), OMP_NUM_THREADS=str(t))
        out = subprocess.run([sys.executable, __file__, "--child", "--budget", str(a.budget)],
                             env=env, capture_output=True, text=True, check=True).stdout
        run["rows"] += [dict(r, threads=t) for r in json.loads(out)]
    run["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    prefix = a.out or os.path.join(HERE, "results",
                                   f"gemm-{date:%Y-%m-%d}-{run['facts']['commit']}")
    with open(prefix + ".json", "w") as fh:
        json.dump(run, fh, indent=1)
    print("\n".join(render(run, os.path.basename(prefix) + ".json")))
    print(f"wrote {prefix}.json")


if __name__ == "__main__":
    main()
