#!/usr/bin/env python3
"""CPU speed: ours (executorch-run) vs torch eager vs ONNX Runtime, on the
upstream-exported corpus programs in tests/models/corpus/cpu/.

For each corpus program the same model is built in torch the way
tools/export/make_corpus.py builds it (its own constructors, imported; same
seed), checked against the fixture's reference outputs (so the weights are the
ones in the .pte), exported to ONNX (torch.onnx.export; a model that fails to
export or to run in ORT is recorded, not fatal) and then timed:

  ours   executorch-run MODEL --method M --input @FILE ... --iterations N
         (--threads T when the tool has it, and EXECUTORCH_NUM_THREADS=T);
         its printed median of N executes (the first, cold one included)
  torch  torch.set_num_threads(T), torch.inference_mode(), 1 warm-up call,
         then N timed calls (this process)
  ort    intra_op_num_threads=T, inter_op_num_threads=1, sequential
         execution, 1 warm-up run, N timed runs (a worker process, so ORT's
         and torch's thread pools never share a process)

at 1 thread and at os.cpu_count() threads. N is chosen per (model, runtime,
threads) once, before the rounds, so that one measurement takes about
--budget seconds (at least --min-iters). Rounds are interleaved: every round
measures every runtime once per model and thread count, the runtime order
rotating from round to round (A B C, B C A, C A B, ...). A measurement's value
is the median of its N calls; the table shows, over the rounds, the median and
[min-max] of those values, and of the per-round ratios ours/torch, ours/ORT.

Inputs are the fixture's c<i>_in*.bin. executorch-run feeds inputs at the
method's declared sizes (the upper bound for a dynamic input), so the dynamic
programs are timed at that bound: bert_dynamic at 1x32 (its third call),
kv_decoder's prefill at 63 tokens (inputs made here: seed 0 tokens, positions
0..62). kv_decoder's decode is timed as its first decode call (position 8).

Needs torch, torchvision, timm, transformers, onnx, onnxscript, onnxruntime
(a venv outside the tree; the project never depends on it):

  python3 -m venv /opt/bench-venv
  /opt/bench-venv/bin/pip install torch torchvision timm transformers onnx onnxscript onnxruntime
  /opt/bench-venv/bin/python bench/cpu_compare.py --build build

Options: --build DIR (DIR/tools/executorch-run/executorch-run), --rounds R
(default 5), --budget S (seconds per measurement, default 0.4), --iterations N
(a fixed N instead of the budget; --min-iters 3, --max-iters 2000 bound the
adaptive one), --only NAME,... (fixture names), --corpus DIR (another
directory of programs in that layout, e.g. make_corpus.py --flow cpu-large's
full-size CNNs; default tests/models/corpus/cpu),
--threads 1,2 (default 1 and os.cpu_count()), --out PREFIX (default
bench/results/cpu-compare-<date>-<commit>; writes PREFIX.json and PREFIX.md),
--md FILE (default bench/RESULTS.md: the section "CPU: ours vs torch eager vs
ONNX Runtime" is regenerated from every bench/results/cpu-compare-*.json;
--md '' leaves it alone), --render-only (just regenerate that section).
The full run (18 programs, 19 cases, 5 rounds, 1 and 2 threads) took about
10 minutes on the 2-core build VM (about 1 minute of setup, then about 100 s
a round). Run it on an otherwise idle machine: it prints a warning and
records the load average, and records whether executorch-run was rebuilt
while it ran.
"""
import argparse
import contextlib
import copy
import datetime
import glob
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "tests", "models", "corpus", "cpu")
CORPUS_REL = os.path.join("tests", "models", "corpus", "cpu")
RUNTIMES = ["ours", "torch", "ort"]
NP_DTYPES = {"f32": "float32", "f16": "float16", "f64": "float64", "i64": "int64",
             "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "bool": "bool"}
HEADING = "## CPU: ours vs torch eager vs ONNX Runtime (bench/cpu_compare.py)"
BEGIN, END = "<!-- cpu-compare:begin -->", "<!-- cpu-compare:end -->"
TIMING_RE = re.compile(r"timing: (\d+) iteration\(s\), min ([\d.]+) us, median ([\d.]+) us")


# ----------------------------------------------------------------- fixtures
def parse_calls(fixture):
    """calls.txt -> (tolerance, [{"method", "in": [spec], "out": [spec]}]),
    spec = (dtype, dims, absolute path)."""
    d = os.path.join(CORPUS, fixture)
    tol, calls = None, []
    with open(os.path.join(d, "calls.txt")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "tolerance":
                tol = float(w[1])
            elif w[0] == "call":
                calls.append({"method": w[1], "in": [], "out": []})
            else:
                dims = [] if w[2] == "-" else [int(x) for x in w[2].split(",")]
                calls[-1][w[0]].append((w[1], dims, os.path.join(d, w[3])))
    return tol, calls


def load_bin(spec):
    import numpy as np
    dtype, dims, path = spec
    return np.fromfile(path, dtype=NP_DTYPES[dtype]).reshape(dims)


def rel_err(got, ref):
    """max |got - ref| / max |ref| (inf on a shape mismatch)."""
    import numpy as np
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if got.size != ref.size:
        return float("inf")
    scale = max(float(np.abs(ref).max()) if ref.size else 0.0, 1e-30)
    return float(np.abs(got.reshape(ref.shape) - ref).max()) / scale if ref.size else 0.0


def compare_outputs(outs, specs, tol):
    errs = [rel_err(o, load_bin(s)) for o, s in zip(outs, specs)]
    if len(outs) != len(specs):
        return {"match": False, "max_rel_err": None, "note": f"{len(outs)} outputs, "
                f"fixture has {len(specs)}"}
    worst = max(errs) if errs else 0.0
    return {"match": worst <= tol, "max_rel_err": worst, "tolerance": tol}


def case_list(only):
    """[(case, fixture, method, call index or 'prefill63')] in corpus order."""
    cases = []
    for fixture in sorted(os.listdir(CORPUS)):
        if only and fixture not in only:
            continue
        if fixture == "kv_decoder":
            cases += [("kv_decoder.prefill", fixture, "prefill", "prefill63"),
                      ("kv_decoder.decode", fixture, "decode", 1)]
        elif fixture == "bert_dynamic":
            cases.append((fixture, fixture, "forward", 2))
        else:
            cases.append((fixture, fixture, "forward", 0))
    return cases


def case_inputs(fixture, call, tmpdir):
    """The timed call's input specs; kv_decoder's 63-token prefill is made here."""
    _, calls = parse_calls(fixture)
    if call != "prefill63":
        return calls[call]["in"]
    import numpy as np
    rng = np.random.default_rng(0)
    tokens = rng.integers(0, 256, size=(1, 63), dtype=np.int64)
    pos = np.arange(63, dtype=np.int64)
    specs = []
    for name, arr in (("prefill63_in0.bin", tokens), ("prefill63_in1.bin", pos)):
        path = os.path.join(tmpdir, name)
        arr.tofile(path)
        specs.append(("i64", list(arr.shape), path))
    return specs


# ----------------------------------------------------------------- torch side
def make_corpus_module():
    sys.path.insert(0, os.path.join(ROOT, "tools", "export"))
    import make_corpus  # only stdlib at import time; torch is imported lazily
    return make_corpus


def build_torch(fixture):
    """(eval model, reference calls [(method, ins, outs)]) exactly as
    make_corpus.py builds them (seed 0, batch-norm statistics randomized)."""
    mc = make_corpus_module()
    if fixture == "kv_decoder":
        fresh, _, calls = mc.kv_methods("cpu")
        return fresh, calls
    model, _, _, calls = mc.build_single("cpu", fixture, "cpu")
    return model, calls


def check_torch(fixture, model, calls):
    """Replays the fixture's calls, in order, on a copy of the torch model fed
    the fixture's input bytes: a match means the same weights. Also records
    whether make_corpus's own example inputs equal the fixture's."""
    import torch
    tol, fx = parse_calls(fixture)
    same_inputs = len(calls) == len(fx) and all(
        bool((t.numpy() == load_bin(spec)).all())
        for (_, ins, _), ref in zip(calls, fx) for t, spec in zip(ins, ref["in"]))
    m, worst = copy.deepcopy(model), 0.0
    with torch.no_grad():
        for ref in fx:
            outs = make_corpus_module().as_list(m(*torch_inputs(ref["in"])))
            res = compare_outputs([o.float().numpy() for o in outs], ref["out"], tol)
            worst = max(worst, res["max_rel_err"] if res["max_rel_err"] is not None else 1e30)
    return {"match": worst <= tol, "max_rel_err": worst, "tolerance": tol,
            "make_corpus_inputs_equal": same_inputs}


def torch_inputs(specs):
    import torch
    return tuple(torch.from_numpy(load_bin(s).copy()) for s in specs)


def time_torch(model, args, threads, iters):
    """Median and min (us) of `iters` calls after one warm-up call."""
    import torch
    torch.set_num_threads(threads)
    times = []
    with torch.inference_mode():
        model(*args)
        for _ in range(iters):
            t0 = time.perf_counter_ns()
            model(*args)
            times.append((time.perf_counter_ns() - t0) / 1e3)
    return statistics.median(times), min(times)


def export_onnx(model, args, path, log):
    """torch.onnx.export, the dynamo exporter first, then the TorchScript
    one; returns (exporter name, None) or (None, error text)."""
    import torch
    errors = []
    for dynamo in (True, False):
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                torch.onnx.export(copy.deepcopy(model), args, path, dynamo=dynamo)
            return ("dynamo" if dynamo else "torchscript"), None
        except Exception as e:  # noqa: BLE001 - recorded, not fatal
            errors.append(f"{'dynamo' if dynamo else 'torchscript'}: "
                          f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")
    return None, "; ".join(errors)


# ------------------------------------------------------------------ ORT side
def ort_worker():
    """Serves JSON-line requests on stdin: load / check / time (see OrtClient)."""
    import numpy as np
    import onnxruntime as ort
    sessions, feeds = {}, {}
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["op"] == "load":
                so = ort.SessionOptions()
                so.intra_op_num_threads = req["threads"]
                so.inter_op_num_threads = 1
                so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                s = ort.InferenceSession(req["onnx"], so, providers=["CPUExecutionProvider"])
                names = [i.name for i in s.get_inputs()]
                arrays = [load_bin(tuple(x)) for x in req["inputs"]]
                if len(names) != len(arrays):
                    raise RuntimeError(f"the ONNX model takes {len(names)} inputs, "
                                       f"the call has {len(arrays)}")
                sessions[req["key"]], feeds[req["key"]] = s, dict(zip(names, arrays))
                reply = {"ok": True}
            elif req["op"] == "check":
                outs = sessions[req["key"]].run(None, feeds[req["key"]])
                reply = compare_outputs([np.asarray(o) for o in outs],
                                        [tuple(x) for x in req["outputs"]], req["tol"])
            else:
                s, feed = sessions[req["key"]], feeds[req["key"]]
                s.run(None, feed)
                times = []
                for _ in range(req["iters"]):
                    t0 = time.perf_counter_ns()
                    s.run(None, feed)
                    times.append((time.perf_counter_ns() - t0) / 1e3)
                reply = {"median": statistics.median(times), "min": min(times)}
        except Exception as e:  # noqa: BLE001 - reported to the caller
            reply = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        print(json.dumps(reply), flush=True)


class OrtClient:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--ort-worker"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.version = None

    def ask(self, **req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("the ORT worker exited")
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


# ----------------------------------------------------------------- ours side
class Ours:
    def __init__(self, build):
        self.exe = os.path.join(build, "tools", "executorch-run", "executorch-run")
        if not os.access(self.exe, os.X_OK):
            sys.exit(f"no executorch-run at {self.exe} (--build DIR)")
        help_text = subprocess.run([self.exe, "--help"], capture_output=True, text=True).stdout
        self.has_threads = "--threads" in help_text

    def command(self, pte, method, specs, threads, extra):
        cmd = [self.exe, pte, "--method", method]
        for s in specs:
            cmd += ["--input", "@" + s[2]]
        if self.has_threads:
            cmd += ["--threads", str(threads)]
        return cmd + extra

    def run(self, cmd, threads):
        env = dict(os.environ, EXECUTORCH_NUM_THREADS=str(threads))
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError((p.stderr or p.stdout).strip().splitlines()[-1][:300])
        return p.stdout

    def time(self, pte, method, specs, threads, iters):
        out = self.run(self.command(pte, method, specs, threads, ["--iterations", str(iters)]),
                       threads)
        m = TIMING_RE.search(out)
        if not m:
            raise RuntimeError("no timing line in executorch-run's output")
        return float(m.group(3)), float(m.group(2))

    def check(self, pte, method, specs, out_specs, tol):
        out = self.run(self.command(pte, method, specs, 1, ["--json", "--all-values"]), 1)
        outs = [o["values"] for o in json.loads(out)["outputs"]]
        return compare_outputs(outs, out_specs, tol)


# -------------------------------------------------------------- orchestration
class Bench:
    """Holds every case's torch model, inputs, ORT sessions and results."""

    def __init__(self, args, ours, ort, tmpdir, log):
        self.a, self.ours, self.ort, self.tmp, self.log = args, ours, ort, tmpdir, log
        self.cases, self.info, self.torch, self.specs = [], {}, {}, {}

    def setup(self, cases):
        built = {}
        for case, fixture, method, call in cases:
            t0 = time.time()
            if fixture not in built:
                try:
                    model, calls = build_torch(fixture)
                except ImportError as e:  # e.g. no torchvision or timm on this host
                    print(f"setup {case:20} skipped: cannot build the torch model ({e})",
                          flush=True)
                    built[fixture] = None
                    continue
                built[fixture] = (model, check_torch(fixture, model, calls))
            if built[fixture] is None:
                continue
            model, torch_check = built[fixture]
            specs = case_inputs(fixture, call, self.tmp)
            info = {"fixture": fixture, "method": method, "call": call,
                    "inputs": [f"{s[0]}[{'x'.join(map(str, s[1]))}]" for s in specs],
                    "torch_check": torch_check, "errors": {}}
            self.info[case], self.torch[case] = info, (model, torch_inputs(specs))
            self.specs[case] = specs
            self.cases.append(case)
            self.setup_checks(case, fixture, method, call, specs)
            print(f"setup {case:20} {time.time() - t0:5.1f}s torch="
                  f"{'match' if torch_check['match'] else 'MISMATCH'} ours="
                  f"{fmt_check(info.get('ours_check'))} onnx="
                  f"{info['onnx'].get('exporter') or 'FAILED'} ort="
                  f"{fmt_check(info.get('ort_check'))}", flush=True)

    def setup_checks(self, case, fixture, method, call, specs):
        """Ours and ORT against the reference outputs, and the ONNX export
        with one ORT session per thread count."""
        info, (model, targs) = self.info[case], self.torch[case]
        ref, tol = self.reference(case, fixture, call)
        pte = os.path.join(CORPUS, fixture, "model.pte")
        try:
            info["ours_check"] = self.ours.check(pte, method, specs, ref, tol)
        except Exception as e:  # noqa: BLE001
            info["errors"]["ours"] = str(e)
        path = os.path.join(self.tmp, case + ".onnx")
        exporter, err = export_onnx(model, targs, path, self.log)
        info["onnx"] = {"exporter": exporter, "error": err}
        if err:
            info["errors"]["ort"] = "export: " + err
            return
        for t in self.a.thread_list:
            r = self.ort.ask(op="load", key=f"{case}@{t}", onnx=path, threads=t,
                             inputs=[list(s) for s in specs])
            if "error" in r:
                info["errors"]["ort"] = "session: " + r["error"]
                return
        r = self.ort.ask(op="check", key=f"{case}@1", tol=tol, outputs=[list(s) for s in ref])
        info["ort_check"] = r if "error" not in r else None
        if "error" in r:
            info["errors"]["ort"] = "run: " + r["error"]

    def reference(self, case, fixture, call):
        """(output specs, tolerance): the fixture's outputs for a call that
        starts from the program's initial state, else torch eager's outputs
        on the same inputs from the model's initial state (kv_decoder)."""
        tol, calls = parse_calls(fixture)
        if call != "prefill63" and not (fixture == "kv_decoder" and call > 0):
            self.info[case]["reference"] = "fixture"
            return calls[call]["out"], tol
        import torch
        model, targs = self.torch[case]
        with torch.no_grad():
            outs = make_corpus_module().as_list(copy.deepcopy(model)(*targs))
        specs = []
        for j, o in enumerate(outs):
            path = os.path.join(self.tmp, f"{case}_ref{j}.bin")
            o.float().numpy().tofile(path)
            specs.append(("f32", list(o.shape), path))
        self.info[case]["reference"] = "torch eager, same inputs"
        return specs, tol

    def measure(self, runtime, case, threads, iters):
        """(median us, min us) of one measurement of `iters` calls."""
        info = self.info[case]
        if runtime == "ours":
            pte = os.path.join(CORPUS, info["fixture"], "model.pte")
            return self.ours.time(pte, info["method"], self.specs[case], threads, iters)
        if runtime == "torch":
            model, targs = self.torch[case]
            return time_torch(model, targs, threads, iters)
        r = self.ort.ask(op="time", key=f"{case}@{threads}", iters=iters)
        if "error" in r:
            raise RuntimeError(r["error"])
        return r["median"], r["min"]

    def runnable(self, runtime, case):
        return runtime not in self.info[case]["errors"]

    def calibrate(self):
        """Iterations per (case, runtime, threads): about --budget seconds."""
        iters = {}
        for case in self.cases:
            for rt in RUNTIMES:
                for t in self.a.thread_list:
                    if not self.runnable(rt, case):
                        continue
                    if self.a.iterations:
                        iters[key(case, rt, t)] = self.a.iterations
                        continue
                    try:
                        med, _ = self.measure(rt, case, t, 3)
                    except Exception as e:  # noqa: BLE001
                        self.info[case]["errors"][rt] = str(e)
                        continue
                    n = int(self.a.budget * 1e6 / max(med, 1.0))
                    iters[key(case, rt, t)] = max(self.a.min_iters, min(n, self.a.max_iters))
        return iters

    def rounds(self, iters):
        """Interleaved rounds; returns the samples."""
        samples = []
        for r in range(self.a.rounds):
            t0 = time.time()
            for ci, case in enumerate(self.cases):
                shift = (r + ci) % len(RUNTIMES)
                order = RUNTIMES[shift:] + RUNTIMES[:shift]
                for t in self.a.thread_list:
                    for rt in order:
                        n = iters.get(key(case, rt, t))
                        if n is None or not self.runnable(rt, case):
                            continue
                        try:
                            med, mn = self.measure(rt, case, t, n)
                        except Exception as e:  # noqa: BLE001 - this round only
                            self.info[case].setdefault("round_errors", []).append(
                                f"round {r}, {rt}, {t} thr: {e}")
                            continue
                        samples.append({"round": r, "case": case, "runtime": rt, "threads": t,
                                        "iterations": n, "median_us": med, "min_us": mn})
                        time.sleep(0.02)  # let the last runtime's spinning threads settle
            print(f"round {r + 1}/{self.a.rounds}: {time.time() - t0:.1f}s", flush=True)
        return samples


def key(case, runtime, threads):
    return f"{case}/{runtime}/{threads}"


def fmt_check(c):
    if not c:
        return "n/a"
    e = c.get("max_rel_err")
    return ("match" if c["match"] else "MISMATCH") + (f" ({e:.1e})" if e is not None else "")


# ------------------------------------------------------------- machine facts
def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_facts(build, ours):
    import numpy
    import torch
    lscpu = dict(line.split(":", 1) for line in sh(["lscpu"]).splitlines() if ":" in line)
    blas = sh(["update-alternatives", "--query", "libblas.so.3-x86_64-linux-gnu"])
    buildopts = sh(["meson", "introspect", build, "--buildoptions"])
    try:  # a packed build (bench/pack_cpu_carry.sh) has no meson data
        buildtype = next((o["value"] for o in json.loads(buildopts)
                          if o["name"] == "buildtype"), None)
    except ValueError:
        buildtype = None
    torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    return {
        "cpu": lscpu.get("Model name", "").strip(),
        "hypervisor": lscpu.get("Hypervisor vendor", "").strip() or None,
        "nproc": sh(["nproc"]), "os_cpu_count": os.cpu_count(),
        "kernel": platform.release(), "python": platform.python_version(),
        "torch": torch.__version__, "torch_blas": torch_blas.group(1) if torch_blas else None,
        "torch_parallel": torch.__config__.parallel_info().splitlines()[-1:],
        "onnxruntime": sh([sys.executable, "-c",
                           "import onnxruntime; print(onnxruntime.__version__)"]),
        "numpy": numpy.__version__,
        "system_blas": next((ln.split(":", 1)[1].strip() for ln in blas.splitlines()
                             if ln.startswith("Value:")), None),
        "executorch_run": sh([ours.exe, "--version"]), "build_dir": os.path.abspath(build),
        "executorch_run_mtime": os.stat(ours.exe).st_mtime,
        "buildtype": buildtype, "ours_threads_flag": ours.has_threads,
        "commit": library_commit(ours) or sh(["git", "-C", ROOT, "describe", "--always",
                                                   "--dirty"]),
    }


def library_commit(ours):
    """The commit the measured library was built from, as its --version names
    it ("libexecutorch 2ee5273"): a packed build may run in another tree."""
    m = re.search(r"libexecutorch ([0-9a-f]+(?:-dirty)?)", sh([ours.exe, "--version"]))
    return m.group(1) if m else None


# ------------------------------------------------------------------ the table
def stats(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values)} if values else None


def summarize(run):
    """Per case and thread count: each runtime's stats over the rounds (us)
    and the per-round ratios ours/torch and ours/ort."""
    by = {}
    for s in run["samples"]:
        by.setdefault((s["case"], s["threads"]), {}).setdefault(s["runtime"], {})[
            s["round"]] = s["median_us"]
    out = {}
    for (case, t), rts in by.items():
        row = {rt: stats(list(v.values())) for rt, v in rts.items()}
        for other in ("torch", "ort"):
            a, b = rts.get("ours", {}), rts.get(other, {})
            row["ours/" + other] = stats([a[r] / b[r] for r in a if r in b])
        out[(case, t)] = row
    return out


def ms(v):
    v /= 1e3
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}" if v >= 1 \
        else f"{v:.3f}"


def cell(st, ratio=False):
    if not st:
        return "n/a"
    if ratio:
        return (f"{ratio_text(st['median'])}x [{ratio_text(st['min'])}-"
                f"{ratio_text(st['max'])}]")
    return f"{ms(st['median'])} [{ms(st['min'])}-{ms(st['max'])}]"


def ratio_text(v):
    return f"{v:.3g}" if v < 10 else f"{v:.0f}"


def render(run, name):
    m, st = run["machine"], run["settings"]
    guest = f", {m['hypervisor']} guest" if m["hypervisor"] else ""
    lines = [f"### {name}: {run['date']}, ours at {m['commit']} ({m['buildtype']}), "
             f"{m['cpu']} ({m['nproc']} cores{guest}), "
             f"torch {m['torch']} ({m['torch_blas']}), ONNX Runtime {m['onnxruntime']}, "
             f"system BLAS {m['system_blas']}"
             + (f", programs from {st['corpus']}" if st.get("corpus", CORPUS_REL) != CORPUS_REL
                else ""), "",
             f"{st['rounds']} interleaved rounds, about {st['budget_s']} s per measurement "
             f"(iterations: {st['iterations'] or 'adaptive'}), load average "
             f"{run['loadavg_start']} at the start, {run['loadavg_end']} at the end. "
             "Milliseconds per call: median [min-max] over the rounds of each "
             "measurement's median; ratios per round. Lower is faster; ratio > 1: ours slower."
             + (" **executorch-run was rebuilt during this run: its numbers mix builds.**"
                if run.get("ours_rebuilt_during_run") else ""), ""]
    summ = summarize(run)
    for t in st["threads"]:
        lines += [f"{t} thread{'s' if t > 1 else ''}:", "",
                  "| model | inputs | ours ms | torch eager ms | ORT ms | ours / torch "
                  "| ours / ORT |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        for case, info in run["cases"].items():
            row = summ.get((case, t), {})
            lines.append(f"| {case} | {' '.join(info['inputs'])} | {cell(row.get('ours'))} | "
                         f"{cell(row.get('torch'))} | {cell(row.get('ort'))} | "
                         f"{cell(row.get('ours/torch'), True)} | "
                         f"{cell(row.get('ours/ort'), True)} |")
        lines.append("")
    return lines + scaling_table(run, summ) + check_table(run)


def scaling_table(run, summ):
    """Each runtime's 1-thread median over its T-thread median (> 1: faster
    with more threads), when the run measured 1 thread and more."""
    many = [t for t in run["settings"]["threads"] if t > 1]
    if 1 not in run["settings"]["threads"] or not many:
        return []
    lines = ["Speed-up over 1 thread (1-thread median / T-thread median; "
             "higher is better):", "",
             "| model | " + " | ".join(f"{rt} {t}t" for t in many for rt in RUNTIMES) + " |",
             "|---|" + "---:|" * (len(many) * len(RUNTIMES))]
    for case in run["cases"]:
        cells = []
        for t in many:
            for rt in RUNTIMES:
                one, more = summ.get((case, 1), {}).get(rt), summ.get((case, t), {}).get(rt)
                cells.append(f"{one['median'] / more['median']:.2f}x" if one and more
                             else "n/a")
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return lines + [""]


def check_table(run):
    lines = ["Checks (max |diff| / max |ref|) against the fixture's reference outputs, "
             "or, marked *, against torch eager on the same inputs (kv_decoder: a call "
             "made here, or one that depends on earlier calls):", "",
             "| model | torch (same weights) | ours | ORT | ONNX exporter | errors |",
             "|---|---|---|---|---|---|"]
    for case, info in run["cases"].items():
        errs = [f"{k}: {v}" for k, v in info["errors"].items()] + info.get("round_errors", [])
        errs = "; ".join(errs).replace("|", "/")
        star = "*" if info.get("reference", "fixture") != "fixture" else ""
        lines.append(f"| {case} | {fmt_check(info['torch_check'])} | "
                     f"{fmt_check(info.get('ours_check'))}{star} | "
                     f"{fmt_check(info.get('ort_check'))}{star} | "
                     f"{info['onnx'].get('exporter') or 'failed'} | {errs[:400]} |")
    return lines + [""]


# --------------------------------------------------------------- RESULTS.md
SECTION_INTRO = """Each program of tests/models/corpus/cpu/ timed three ways on this machine:
ours (`executorch-run --iterations N`), the same PyTorch model in eager mode
(built by tools/export/make_corpus.py's own constructors, seed 0, checked to
give the fixture's outputs) and ONNX Runtime on that model's
`torch.onnx.export`, at 1 thread and at all threads, in interleaved rounds.
Reproduce (torch, torchvision, timm, transformers, onnx, onnxscript,
onnxruntime in a venv outside the tree):
`/opt/bench-venv/bin/python bench/cpu_compare.py --build build` (5 rounds, about
15 minutes on 2 cores; `--only bert,lstm --rounds 1` for a smoke run; run it
on an otherwise idle machine: it records the load average), then
`/opt/bench-venv/bin/python bench/gemm_peak.py` for the GEMM line. Raw
results: bench/results/cpu-compare-*.json and gemm-*.json; the tables below
are generated from them (`bench/cpu_compare.py --render-only`), newest first."""


def section_body(results_dir):
    runs = []
    for path in glob.glob(os.path.join(results_dir, "cpu-compare-*.json")):
        with open(path) as f:
            runs.append((json.load(f), os.path.basename(path)))
    runs.sort(key=lambda r: r[0]["date"], reverse=True)
    lines = []
    for run, name in runs:
        lines += render(run, name)
    lines = lines or ["No run recorded yet.", ""]
    gemm = []
    for path in glob.glob(os.path.join(results_dir, "gemm-*.json")):
        with open(path) as f:
            gemm.append((json.load(f), os.path.basename(path)))
    if gemm:
        sys.path.insert(0, HERE)
        import gemm_peak
        newest = max(gemm, key=lambda g: g[0]["date"])
        lines += ["GEMM alone against the machine's peak (bench/gemm_peak.py), newest run:", ""]
        lines += gemm_peak.render(*newest)
    return "\n".join(lines)


def update_md(md, results_dir):
    with open(md) as f:
        text = f.read()
    body = f"{BEGIN}\n{section_body(results_dir)}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + body + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + f"\n\n{HEADING}\n\n{SECTION_INTRO}\n\n{body}\n"
    with open(md, "w") as f:
        f.write(text)


# ---------------------------------------------------------------------- main
def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.4, help="seconds per measurement")
    ap.add_argument("--iterations", type=int, default=0, help="fixed N (default: adaptive)")
    ap.add_argument("--min-iters", type=int, default=3)
    ap.add_argument("--max-iters", type=int, default=2000)
    ap.add_argument("--only", default="")
    ap.add_argument("--corpus", default=CORPUS, help="the programs' directory")
    ap.add_argument("--threads", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--md", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--ort-worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    a.thread_list = ([int(x) for x in a.threads.split(",")] if a.threads
                     else sorted({1, os.cpu_count() or 1}))
    return a


def run_all(a):
    global CORPUS
    CORPUS = os.path.abspath(a.corpus)
    only = set(filter(None, a.only.split(",")))
    ours = Ours(a.build)
    facts = machine_facts(a.build, ours)
    date = datetime.datetime.now(datetime.timezone.utc)
    out = a.out or os.path.join(a.results, f"cpu-compare-{date:%Y-%m-%d}-{facts['commit']}")
    started, load0 = time.time(), os.getloadavg()
    if load0[0] > 0.5 * (os.cpu_count() or 1):
        print(f"warning: load average {load0[0]:.1f} on {os.cpu_count()} CPUs: other work "
              "is running and will skew the timings", flush=True)
    ort = OrtClient()
    with tempfile.TemporaryDirectory(prefix="cpu-compare-") as tmp, \
            open(os.path.join(tempfile.gettempdir(),
                              os.path.basename(out) + "-export.log"), "w") as log:
        b = Bench(a, ours, ort, tmp, log)
        b.setup(case_list(only))
        iters = b.calibrate()
        print(f"setup and calibration: {time.time() - started:.0f}s", flush=True)
        samples = b.rounds(iters)
    ort.close()
    if os.stat(ours.exe).st_mtime != facts["executorch_run_mtime"]:
        print(f"warning: {ours.exe} changed during the run (rebuilt?)", flush=True)
    run = {"kind": "cpu-compare", "date": f"{date:%Y-%m-%dT%H:%MZ}", "machine": facts,
           "settings": {"rounds": a.rounds, "budget_s": a.budget, "iterations": a.iterations,
                        "threads": a.thread_list, "only": sorted(only),
                        "corpus": os.path.relpath(CORPUS, ROOT),
                        "argv": sys.argv[1:]},
           "loadavg_start": [round(x, 2) for x in load0],
           "loadavg_end": [round(x, 2) for x in os.getloadavg()],
           "seconds": round(time.time() - started), "iterations": iters,
           "ours_rebuilt_during_run": os.stat(ours.exe).st_mtime != facts["executorch_run_mtime"],
           "cases": b.info, "samples": samples}
    return run, out


def main():
    a = parse_args()
    if a.ort_worker:
        return ort_worker()
    if not a.render_only:
        run, out = run_all(a)
        with open(out + ".json", "w") as f:
            json.dump(run, f, indent=1)
        table = "\n".join(render(run, os.path.basename(out) + ".json"))
        with open(out + ".md", "w") as f:
            f.write(table + "\n")
        print("\n" + table)
        print(f"wrote {out}.json, {out}.md ({run['seconds']} s)")
    if a.md:
        update_md(a.md, a.results)
        print(f"updated {a.md}")


if __name__ == "__main__":
    main()
