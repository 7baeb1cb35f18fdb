#!/usr/bin/env python3
"""Side-by-side GPU benchmark on the GPU host, interleaved (issue 18's method).

For each program (a corpus fixture made by tools/export/make_corpus.py with
upstream's exporter: model.pte + aoti_cuda_blob.ptd + calls.txt) and each of
--rounds rounds, in this order every round (ABAB...):
  upstream   upstream ExecuTorch's executor_runner + CudaBackend (the
             reference runtime, ../shared/tools/upstream-runtime): time of
             method->execute() per iteration, host I/O as the program plans
  ours       our executorch-run, the same program, --iterations N: time of
             Method::execute() per iteration (same span as upstream's)
  ours_graph the same with --backend-option CudaBackend:use_cuda_graph=true
  torch_*    PyTorch on the same module (rebuilt from make_corpus.py with the
             same seed): eager with device I/O, eager with host I/O
             (x.cuda() -> model -> .cpu()), CUDA graph replay with host I/O
             (static_in.copy_(host); replay; static_out.cpu()) from pageable
             and from pinned host memory
  aoti_shim  the method's own AOTInductor .so (bench/pte_blobs.py) driven
             through torch's aoti_torch_* shim via ctypes (device I/O), in a
             child process
  ours_device our CudaBackend alone on the same program, inputs and outputs
             in device memory (bench/gpu_bench --device-io): execute +
             synchronize per iteration, the span aoti_shim times
             (aoti_shim's time also holds its ctypes calls, a few us of
             Python per execute)
and once per round a cold start of each runtime: process start to exit
after the first execute and its output (--iterations 1).
Each cell: the round's median over N iterations; reported: the median of the
round medians and the min-max spread; ratios are paired per round.
With --procs P, each runtime that runs as its own process (upstream, ours,
aoti_shim, ours_device and the cold starts) runs P times per round,
alternating with the one it is compared with, and the round's cell is the
median of those P processes: the GPU host runs some processes 15-30% slower
than others in everything they do (CUDA calls, context creation, dlopen),
and one such process should not decide a paired ratio.
Writes one JSON (raw) and prints a text summary; bench/make_results.py turns
the JSON files in bench/results/ into RESULTS.md's GPU tables.

  gpu_compare.py --ours BUILD --upstream RUNNER --fixtures DIR[,DIR...]
                 [--rounds 7] [--warmup-rounds 1] [--iters 300] [--procs 1]
                 [--time-budget SECONDS] [--cpus LIST]
                 --json OUT.json
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "export"))

from aoti_shim_driver import Container, load_torch_shim, report, run_child  # noqa: E402
from corpus_fixture import bench_call, make_fixture, ptds  # noqa: E402
from pte_blobs import method_blobs  # noqa: E402

TORCH_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
                "i64": "int64", "i32": "int32", "bool": "bool"}


# ------------------------------------------------------------ runtimes
def run_upstream(runner, d, method, iters):
    call = bench_call(d, method)
    ins = ",".join(os.path.join(d, f) for _, _, f in call[1])
    args = [runner, "--model_path", os.path.join(d, "model.pte"), "--inputs", ins,
            "--num_executions", str(iters), "--method_name", method,
            "--output_file", "/tmp/gpu_compare_up", "--print_output", "none"]
    for p in ptds(d):
        args += ["--data_path", p]
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    wall_ms = (time.perf_counter() - t0) * 1e3
    times = [float(m) * 1e3 for m in re.findall(r"Iteration \d+ of \d+: ([0-9.]+) ms",
                                                p.stdout + p.stderr)]
    if p.returncode != 0 or not times:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        return {"error": f"rc {p.returncode}: {' | '.join(tail)[:300]}"}
    return {"med": statistics.median(times), "wall_ms": wall_ms}


def run_ours(build, d, method, iters, graph=False):
    call = bench_call(d, method)
    exe = os.path.join(build, "tools", "executorch-run", "executorch-run")
    args = [exe, os.path.join(d, "model.pte"), "--method", method, "--iterations", str(iters),
            "--json"]
    for p in ptds(d):
        args += ["--ptd", p]
    for _, _, f in call[1]:
        args += ["--input", "@" + os.path.join(d, f)]
    if graph:
        args += ["--backend-option", "CudaBackend:use_cuda_graph=true"]
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    wall_ms = (time.perf_counter() - t0) * 1e3
    try:
        j = json.loads(p.stdout.strip().splitlines()[-1])
        return {"med": float(j["timing_us"]["median"]), "wall_ms": wall_ms,
                "out0": j["outputs"][0]["values"]}
    except Exception:  # noqa: BLE001 - report what the run said
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        return {"error": f"rc {p.returncode}: {' | '.join(tail)[:300]}"}


def run_ours_device(build, d, method, iters):
    import shutil
    import tempfile
    parent = tempfile.mkdtemp(prefix="gpu_compare_")
    csv = os.path.join(parent, "rows.csv")
    exe = os.path.join(build, "bench", "gpu_bench")
    p = None
    try:
        g = make_fixture(d, method, parent)
        p = subprocess.run([exe, "--runs", str(iters), "--warmup", "20", "--device-io",
                            "--method", method, "--csv", csv, g],
                           capture_output=True, text=True, timeout=300)
        rows = [ln.split(",") for ln in open(csv).read().splitlines()]
        col = rows[0].index("med_us")
        row = next(r for r in rows[1:] if r[0].endswith("@device"))
        if row[rows[0].index("ok")] != "1":
            raise RuntimeError("the @device row failed")
        # GPU time and the execute call's own host time too, so a slow
        # round shows which of them it lost.
        return {"med": float(row[col]), "gpu_med": float(row[rows[0].index("gpu_med_us")]),
                "call_med": float(row[rows[0].index("call_med_us")])}
    except Exception as e:  # noqa: BLE001 - report what the run said
        tail = (p.stdout + p.stderr).strip().splitlines()[-3:] if p is not None else []
        tail.append(str(e))
        return {"error": f"{type(e).__name__}: {' | '.join(tail)[:300]}"}
    finally:
        shutil.rmtree(parent, ignore_errors=True)


# ------------------------------------------------------------ PyTorch side
def load_tensor(torch, d, spec):
    dtype, dims, f = spec
    raw = bytearray(open(os.path.join(d, f), "rb").read())
    t = torch.frombuffer(raw, dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
    return t.view(getattr(torch, TORCH_DTYPES[dtype])).reshape(dims)


def torch_model(name, method):
    """The module make_corpus.py exported, rebuilt with the same seed."""
    import make_corpus
    if name == "kv_decoder":
        model, _, _ = make_corpus.kv_methods("cuda")
        return model
    model, _, _, _ = make_corpus.build_single("cuda", name, "cuda")
    return model


def timed(fn, sync, iters):
    times = []
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        fn()
        sync()
        times.append((time.perf_counter_ns() - t0) / 1e3)
    return statistics.median(times)


class TorchSide:
    """Eager and CUDA-graph timings of one program's module."""

    def __init__(self, name, d, method):
        import torch
        self.torch = torch
        self.model = torch_model(name, method)
        call = bench_call(d, method)
        self.host = [load_tensor(torch, d, s) for s in call[1]]
        self.pinned = [x.pin_memory() for x in self.host]
        self.dev = [x.cuda() for x in self.host]
        with torch.no_grad():
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    self.model(*self.dev)
            torch.cuda.current_stream().wait_stream(s)
            self.static_in = [x.clone() for x in self.dev]
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.static_out = self.model(*self.static_in)

    def measure(self, iters):
        torch = self.torch
        sync = torch.cuda.synchronize
        m = self.model
        r = {}
        with torch.no_grad():
            r["torch_eager"] = timed(lambda: m(*self.dev), sync, iters)
            r["torch_eager_io"] = timed(lambda: m(*[x.cuda() for x in self.host]).cpu(), sync, iters)

            def graph_io(src):
                def run():
                    for dst, x in zip(self.static_in, src):
                        dst.copy_(x, non_blocking=True)
                    self.graph.replay()
                    return self.static_out.cpu()
                return run
            r["torch_graph_io_pageable"] = timed(graph_io(self.host), sync, iters)
            r["torch_graph_io_pinned"] = timed(graph_io(self.pinned), sync, iters)
        return {k: {"med": v} for k, v in r.items()}


# ------------------------------------------------------------ AOTI .so via torch's shim
def aoti_child(d, method, iters):
    import torch
    shim = load_torch_shim(torch)
    so, weights = method_blobs(open(os.path.join(d, "model.pte"), "rb").read(),
                               open(ptds(d)[0], "rb").read(), method)
    torch.zeros(1, device="cuda")
    xs = [load_tensor(torch, d, s).cuda() for s in bench_call(d, method)[1]]
    model = Container(torch, shim, so, weights, xs)
    for _ in range(20):
        model.run()
    report({"med": timed(model.run, torch.cuda.synchronize, iters)})


def run_aoti(d, method, iters):
    return run_child(__file__, [d, "--method", method, "--iters", str(iters)])


# ------------------------------------------------------------ driver
def summarize(rounds):
    """{column: {"median", "min", "max", "n"}} over the rounds' medians, and
    paired ratios ours*/x per round."""
    cols = {}
    for r in rounds:
        for k, v in r.items():
            if isinstance(v, dict) and "med" in v:
                cols.setdefault(k, []).append(v["med"])
    out = {k: {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}
           for k, v in cols.items()}
    pairs = [("ours", "upstream"), ("ours", "torch_eager_io"), ("ours", "aoti_shim"),
             ("ours_device", "aoti_shim"),
             ("ours_graph", "torch_graph_io_pageable"), ("ours_graph", "torch_graph_io_pinned"),
             ("ours_cold", "upstream_cold")]
    ratios = {}
    for a, b in pairs:
        v = [r[a]["med"] / r[b]["med"] for r in rounds
             if "med" in r.get(a, {}) and "med" in r.get(b, {}) and r[b]["med"] > 0]
        if v:
            ratios[f"{a}/{b}"] = {"median": statistics.median(v), "min": min(v), "max": max(v),
                                  "n": len(v)}
    return out, ratios


def median_cell(runs):
    """One round's cell from the same column's processes: the median of each
    number they all report, their medians under "procs", and the first
    error when some failed (a cell whose processes all failed is the first
    one's error)."""
    ok = [x for x in runs if "med" in x]
    if not ok:
        return runs[0]
    keys = [k for k, v in ok[0].items() if isinstance(v, float) and all(k in x for x in ok)]
    cell = {k: statistics.median(x[k] for x in ok) for k in keys}
    cell["procs"] = [x["med"] for x in ok]
    failed = [x["error"] for x in runs if "error" in x]
    if failed:
        cell["error"] = f"{len(failed)} of {len(runs)} processes: {failed[0]}"
    return cell


def cold(result):
    """A cold start's cell: the process's wall time."""
    return {"med": result["wall_ms"]} if "wall_ms" in result else result


def one_round(a, d, name, method, torch_side):
    """Each pair of runtimes that the goals compare process against process
    runs a.procs times, alternating (A B A B ...); the round's cell is the
    median of those processes, so one process that ran slow does not decide
    the round."""
    runs = {k: [] for k in ("upstream", "ours", "aoti_shim", "ours_device",
                            "upstream_cold", "ours_cold")}
    for _ in range(a.procs):
        runs["upstream"].append(run_upstream(a.upstream, d, method, a.iters))
        runs["ours"].append(run_ours(a.ours, d, method, a.iters))
    r = {"ours_graph": run_ours(a.ours, d, method, a.iters, graph=True)}
    if torch_side is not None:
        r.update(torch_side.measure(a.iters))
    for _ in range(a.procs):
        runs["aoti_shim"].append(run_aoti(d, method, a.iters))
        runs["ours_device"].append(run_ours_device(a.ours, d, method, a.iters))
    for _ in range(a.procs):
        runs["upstream_cold"].append(cold(run_upstream(a.upstream, d, method, 1)))
        runs["ours_cold"].append(cold(run_ours(a.ours, d, method, 1)))
    r.update({k: median_cell(v) for k, v in runs.items()})
    r["ours_graph"].pop("out0", None)
    return r


def parse_cpus(spec):
    """{cpu numbers} from a list such as 4-7 or 2,3,8-9."""
    cpus = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours")
    ap.add_argument("--upstream")
    ap.add_argument("--fixtures", default="")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--warmup-rounds", type=int, default=1,
                    help="rounds run first and not recorded (the first processes on a "
                         "machine that was idle run slower, ours and the others alike)")
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--procs", type=int, default=1,
                    help="processes per round of upstream, ours, aoti_shim, ours_device and "
                         "the cold starts; a round's cell is their median (how fast the host "
                         "runs a process varies from one process to the next)")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="seconds after the warm-up: start no round that would end after "
                         "this (0: no limit)")
    ap.add_argument("--cpus", default="",
                    help="CPU list (e.g. 4-7): pin this process and every runtime it starts")
    ap.add_argument("--json")
    ap.add_argument("--commit", default="")
    ap.add_argument("--aoti-child")
    ap.add_argument("--method", default="forward")
    a = ap.parse_args()
    if a.procs < 1:
        ap.error("--procs must be at least 1")
    if a.aoti_child:
        aoti_child(a.aoti_child, a.method, a.iters)
        return 0
    if a.cpus:
        # Children inherit the affinity: every runtime then runs on the same
        # cores, so a round's processes do not differ by where they landed.
        os.sched_setaffinity(0, parse_cpus(a.cpus))
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    programs = []
    for spec in filter(None, a.fixtures.split(",")):
        d, _, method = spec.partition(":")
        programs.append((os.path.basename(d.rstrip("/")), d, method or "forward"))
    sides = {}
    for name, d, method in programs:
        try:
            sides[name] = TorchSide(name, d, method)
        except Exception as e:  # noqa: BLE001 - the torch columns are then missing
            print(f"{name}: torch side unavailable: {type(e).__name__}: {e}", flush=True)
            sides[name] = None
    results = {"commit": a.commit, "date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
               "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
               "rounds": a.rounds, "iters": a.iters, "cpus": a.cpus, "procs": a.procs,
               "warmup_rounds": a.warmup_rounds, "programs": {}}
    warm = argparse.Namespace(**{**vars(a), "procs": 1})  # one process each warms up
    for i in range(a.warmup_rounds):
        for name, d, method in programs:
            one_round(warm, d, name, method, sides[name])
        print(f"warm-up round {i + 1}/{a.warmup_rounds} done (not recorded)", flush=True)
    per = {name: [] for name, _, _ in programs}
    start = time.monotonic()
    for i in range(a.rounds):
        t0 = time.monotonic()
        for name, d, method in programs:
            per[name].append(one_round(a, d, name, method, sides[name]))
        print(f"round {i + 1}/{a.rounds} done", flush=True)
        now = time.monotonic()
        if a.time_budget and i + 1 < a.rounds and now - start + (now - t0) > a.time_budget:
            print(f"time budget {a.time_budget:.0f} s: stopping after {i + 1} rounds", flush=True)
            break
    results["rounds"] = len(per[programs[0][0]]) if programs else 0
    a.rounds = results["rounds"]
    for name, d, method in programs:
        cols, ratios = summarize(per[name])
        errors = sorted({f"{k}: {v['error']}" for r in per[name] for k, v in r.items()
                         if isinstance(v, dict) and "error" in v})
        results["programs"][name] = {"method": method, "columns": cols, "ratios": ratios,
                                     "errors": errors, "rounds": per[name]}
        print(f"\n== {name} ({method}): median of {a.rounds} round medians [min-max], us")
        for k, v in cols.items():
            print(f"  {k:26} {v['median']:10.1f}  [{v['min']:.1f}-{v['max']:.1f}]")
        for k, v in ratios.items():
            print(f"  ratio {k:36} {v['median']:6.3f}  [{v['min']:.3f}-{v['max']:.3f}]")
        for e in errors:
            print("  error", e)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
