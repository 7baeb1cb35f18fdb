#!/usr/bin/env python3
"""PyTorch side of the GPU benchmark (runs where torch with CUDA is; no network).

For each CUDA fixture (tests/models/cuda/<name>/) it times, with the fixture's
own input, the same model:
  eager          torch eager, device tensors in and out;
  eager+io       torch eager with host I/O (x.cuda() -> model -> .cpu()), the
                 I/O our runtime's programs plan (host tensors);
  cuda graph     eager captured once in a CUDA graph, replayed (device I/O);
  aoti ctypes    the fixture's own AOTInductor .so (taken out of model.pte's
                 named data, checked against its sha256 key, weights out of the
                 .ptd) driven through its container C API via ctypes, with
                 libtorch providing the aoti_torch_* shim (device I/O). Runs
                 in a child process: torch 2.11's own AOTI loaders
                 (torch._export.aot_load / AOTIModelContainerRunnerCuda)
                 segfaulted on the GPU host, so they are not used.
Each latency is wall clock per run including the final synchronize: median
and p99 over --runs after --warmup. Then one table with our runtime's numbers
(bench/gpu_bench --csv) side by side, with ratios; with gpu_bench --device-io,
its "NAME@device" rows (the delegate alone, device I/O) against the same .so
through torch's shim (also device I/O).

Model definitions come from tools/export/export_cuda.py build(name) (seeded,
so they are the fixtures' weights). Usage:
  gpu_bench.py [--fixtures tests/models/cuda] [--models mlp,conv,transformer]
               [--runs 500] [--warmup 50] [--ours-csv FILE]
"""
import argparse
import csv
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "export"))

from aoti_shim_driver import Container, load_torch_shim, report, run_child  # noqa: E402
from pte_blobs import method_blobs  # noqa: E402


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))] if v else float("nan")


def timed(fn, sync, warmup, runs):
    for _ in range(warmup):
        fn()
    sync()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn()
        sync()
        out.append((time.perf_counter_ns() - t0) / 1e3)
    return {"med": pct(out, 0.5), "p99": pct(out, 0.99)}


def load_input(torch, d, meta):
    xs = []
    for spec in meta["inputs"]:
        raw = open(os.path.join(d, spec["file"]), "rb").read()
        dt = getattr(torch, spec["dtype"])
        t = torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(dt).reshape(spec["sizes"])
        xs.append(t)
    return xs


# ------------------------------------------------------------ AOTI via ctypes
def fixture_blobs(d, meta):
    """The fixture's .so and weights (bench/pte_blobs.py), checked against
    the keys meta.json names (sha256(bytes) + '_so_blob' / '_weights_blob')."""
    so, weights = method_blobs(open(os.path.join(d, "model.pte"), "rb").read(),
                               open(os.path.join(d, "aoti_cuda_blob.ptd"), "rb").read(),
                               meta.get("method", "forward"))
    for blob, key in ((so, meta["so_key"]), (weights, meta["weights_key"])):
        if hashlib.sha256(blob).hexdigest() != key.split("_")[0]:
            raise RuntimeError(f"{d}: the blob its delegate names does not match {key}")
    return so, weights


class CudaArray:
    def __init__(self, ptr, shape, typestr):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (ptr, False), "version": 2}


def aoti_child(d, warmup, runs):
    import torch
    meta = json.load(open(os.path.join(d, "meta.json")))
    shim = load_torch_shim(torch)
    so, weights = fixture_blobs(d, meta)
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    xs = [x.cuda() for x in load_input(torch, d, meta)]
    model = Container(torch, shim, so, weights, xs)
    # Correctness against the fixture's reference output.
    model.run(keep=True)
    torch.cuda.synchronize()
    o = meta["outputs"][0]
    odt = getattr(torch, o["dtype"])
    got = torch.as_tensor(CudaArray(model.output_ptr(0), o["sizes"],
                                    "<f4" if odt == torch.float32 else "<i2"),
                          device="cuda").view(odt).float().cpu()
    model.drop_outputs()
    ref = torch.frombuffer(bytearray(open(os.path.join(d, o["file"]), "rb").read()),
                           dtype=torch.float32).reshape(o["sizes"])
    err = float((got - ref).abs().max() / (ref.abs().max() + 1e-12))
    res = timed(model.run, torch.cuda.synchronize, warmup, runs)
    res.update({"init_ms": model.init_ms, "err": err})
    report(res)


def aoti(d, warmup, runs):
    return run_child(__file__, [d, "--warmup", str(warmup), "--runs", str(runs)])


# ------------------------------------------------------------ eager / graph
def torch_side(name, d, warmup, runs):
    import torch
    from export_cuda import build
    meta = json.load(open(os.path.join(d, "meta.json")))
    model, _, dtype = build(name)
    model = model.to("cuda", dtype).eval()
    xh = load_input(torch, d, meta)
    xs = [x.cuda() for x in xh]
    r = {}
    sync = torch.cuda.synchronize
    with torch.no_grad():
        r["eager"] = timed(lambda: model(*xs), sync, warmup, runs)

        def eager_io():
            y = model(*[x.cuda() for x in xh])
            return y.cpu()
        r["eager_io"] = timed(eager_io, sync, warmup, runs)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                model(*xs)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            static_out = model(*xs)
        g.replay()
        sync()
        ref = torch.frombuffer(bytearray(open(os.path.join(d, meta["outputs"][0]["file"]), "rb").read()),
                               dtype=torch.float32).reshape(meta["outputs"][0]["sizes"])
        out = static_out[0] if isinstance(static_out, (tuple, list)) else static_out
        r["graph_err"] = float((out.float().cpu() - ref).abs().max() / (ref.abs().max() + 1e-12))
        r["graph"] = timed(g.replay, sync, warmup, runs)
    return r


def read_ours(path):
    rows = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for row in csv.DictReader(f):
                rows[row["model"]] = row
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests", "models", "cuda"))
    ap.add_argument("--models", default="mlp,conv,transformer")
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--ours-csv")
    ap.add_argument("--aoti-child")
    a = ap.parse_args()
    if a.aoti_child:
        aoti_child(a.aoti_child, a.warmup, a.runs)
        return 0
    import torch
    if not torch.cuda.is_available():
        print("SKIP: torch sees no CUDA device")
        return 77
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}), {torch.cuda.get_device_name(0)}; "
          f"{a.warmup} warm-up + {a.runs} runs; latencies in us (median / p99)")
    ours = read_ours(a.ours_csv)
    results = {}
    for name in a.models.split(","):
        d = os.path.join(a.fixtures, name)
        try:
            results[name] = torch_side(name, d, a.warmup, a.runs)
        except Exception as e:  # noqa: BLE001 - report and go on
            results[name] = {"error": f"{type(e).__name__}: {e}"}
        results[name]["aoti"] = aoti(d, a.warmup, a.runs)

    def cell(x):
        return f"{x['med']:8.1f} /{x['p99']:8.1f}" if x and "med" in x else f"{'n/a':>18}"

    def ratio(o, x):
        return f"{o / x['med']:6.2f}x" if o and x and "med" in x else f"{'n/a':>7}"
    cols = ["ours (host I/O)", "ours CUDA graph", "eager", "eager+host I/O", "eager CUDA graph",
            "AOTI .so ctypes"]
    print()
    print(f"{'model':<12}" + "".join(f"{c:>20}" for c in cols) +
          f"{'ours/eager':>12}{'ours/eag+io':>12}{'ours/graph':>12}{'ours/aoti':>12}"
          f"{'ours graph/graph':>18}")

    def lat(row):
        if row and row["ok"] == "1":
            return {"med": float(row["med_us"]), "p99": float(row["p99_us"])}
        return None
    for name, r in results.items():
        oc, og = lat(ours.get(name)), lat(ours.get(name + "+graph"))
        om = oc["med"] if oc else None
        print(f"{name:<12}" + "".join(f"{cell(x):>20}" for x in
                                      (oc, og, r.get("eager"), r.get("eager_io"), r.get("graph"),
                                       r["aoti"])) +
              f"{ratio(om, r.get('eager')):>12}{ratio(om, r.get('eager_io')):>12}"
              f"{ratio(om, r.get('graph')):>12}{ratio(om, r['aoti']):>12}"
              f"{ratio(og['med'] if og else None, r.get('graph')):>18}")
    print()
    print(f"{'model':<12}{'ours load_method ms':>21}{'AOTI dlopen+create+weights ms':>31}"
          f"{'ours gpu us':>13}{'ours host overhead us':>23}{'aoti max err':>14}{'graph max err':>15}"
          f"{'ours@device us':>20}{'ours@device/aoti':>18}")
    def f(dct, key, spec):
        return format(float(dct[key]), spec) if key in dct else "n/a"
    for name, r in results.items():
        o = ours.get(name) or {}
        ao = r["aoti"]
        od = lat(ours.get(name + "@device"))
        print(f"{name:<12}{f(o, 'load_method_ms', '.1f'):>21}{f(ao, 'init_ms', '.1f'):>31}"
              f"{f(o, 'gpu_med_us', '.1f'):>13}{f(o, 'overhead_med_us', '.1f'):>23}"
              f"{f(ao, 'err', '.2g'):>14}{f(r, 'graph_err', '.2g'):>15}"
              f"{cell(od):>20}{ratio(od['med'] if od else None, ao):>18}")
    any_o = next(iter(ours.values()), None)
    if any_o:
        print(f"\nours, once per process: CUDA context {float(any_o['context_ms']):.1f} ms, "
              f"dlopen(libexecutorch_cuda_backend.so.1) {float(any_o['dlopen_ms']):.2f} ms")
    for name, r in results.items():
        for k in ("error",):
            if k in r:
                print(f"{name}: torch side failed: {r[k]}")
        if "error" in r["aoti"]:
            print(f"{name}: AOTI ctypes failed: {r['aoti']['error']}")
    print("ratios: our median / theirs (below 1 means ours is faster). eager uses torch's default "
          "SDPA backend; the fixtures were exported with the math backend.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
