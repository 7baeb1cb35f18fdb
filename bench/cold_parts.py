#!/usr/bin/env python3
"""Where a CUDA process's cold start goes, and whether loading cuBLAS while
the CUDA context is being created would shorten it.

Each round runs two fresh processes, interleaved: `serial` loads cudart,
creates the primary context (cudaFree(0)), then dlopens cuBLASLt and cuBLAS,
as the backend does on a program's first matmul; `parallel` starts a thread
that dlopens cuBLASLt and cuBLAS just before cudaFree(0) and waits for both.
Prints each process's timings and, per field, the median [min-max].

    LD_LIBRARY_PATH=<cudart and cuBLAS dirs> bench/cold_parts.py [--rounds N]
"""
import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import threading
import time

CUDA_MAJOR = os.environ.get("CUDA_MAJOR", "13")


def ms_since(t0):
    return (time.perf_counter() - t0) * 1e3


def load_cublas(times):
    t0 = time.perf_counter()
    ctypes.CDLL(f"libcublasLt.so.{CUDA_MAJOR}", mode=ctypes.RTLD_GLOBAL)
    times["cublasLt_dlopen_ms"] = ms_since(t0)
    t0 = time.perf_counter()
    ctypes.CDLL(f"libcublas.so.{CUDA_MAJOR}", mode=ctypes.RTLD_GLOBAL)
    times["cublas_dlopen_ms"] = ms_since(t0)


def child(mode):
    times = {}
    start = time.perf_counter()
    t0 = time.perf_counter()
    cudart = ctypes.CDLL(f"libcudart.so.{CUDA_MAJOR}", mode=ctypes.RTLD_GLOBAL)
    times["cudart_dlopen_ms"] = ms_since(t0)
    loader = threading.Thread(target=load_cublas, args=(times,))
    if mode == "parallel":
        loader.start()
    t0 = time.perf_counter()
    rc = cudart.cudaFree(ctypes.c_void_p(0))
    times["context_ms"] = ms_since(t0)
    if rc != 0:
        raise SystemExit(f"cudaFree(0) failed: {rc}")
    if mode == "parallel":
        loader.join()
    else:
        load_cublas(times)
    times["total_ms"] = ms_since(start)
    print(json.dumps(times))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--child", choices=["serial", "parallel"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.child)
    runs = {"serial": [], "parallel": []}
    for r in range(a.rounds):
        for mode in runs:
            out = subprocess.run([sys.executable, __file__, "--child", mode],
                                 capture_output=True, text=True, timeout=60)
            if out.returncode != 0:
                print(f"round {r + 1} {mode}: rc {out.returncode}: {out.stderr.strip()[-300:]}")
                continue
            t = json.loads(out.stdout)
            runs[mode].append(t)
            print(f"round {r + 1} {mode}: " + ", ".join(f"{k} {v:.2f}" for k, v in t.items()))
    for mode, ts in runs.items():
        if not ts:
            continue
        cells = []
        for k in ts[0]:
            v = [t[k] for t in ts]
            cells.append(f"{k} {statistics.median(v):.1f} [{min(v):.1f}-{max(v):.1f}]")
        print(f"{mode} ({len(ts)} processes): " + ", ".join(cells))


if __name__ == "__main__":
    main()
