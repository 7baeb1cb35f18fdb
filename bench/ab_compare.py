#!/usr/bin/env python3
"""Before/after timing of two builds of executorch-run on corpus programs.

  python3 bench/ab_compare.py --base build-base --new build --rounds 7 \
      --only mobilenet_v2,unet --out bench/results/ab-<date>-<tag>

Each round runs every program once with each build, the order of the two
alternating from round to round, at one thread (--threads). --corpus DIR
times programs of another directory in that layout (bench/export_large_cnns.sh's). A measurement is
executorch-run's printed median of --iterations executes. Prints, per
program, each build's median [min-max] over the rounds and the median
[min-max] of the per-round ratios new/base; --out PREFIX writes PREFIX.json
and PREFIX.md. --base-rev/--new-rev record the commits the builds are of.
No torch or ORT needed.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "tests", "models", "corpus", "cpu")
TIMING_RE = re.compile(r"timing: (\d+) iteration\(s\), min ([\d.]+) us, median ([\d.]+) us")


def first_call(model):
    """(method, [input files]) of the fixture's first call."""
    method, inputs = None, []
    with open(os.path.join(CORPUS, model, "calls.txt")) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "call":
                if method is not None:
                    break
                method = parts[1]
            elif parts[0] == "in" and method is not None:
                inputs.append(os.path.join(CORPUS, model, parts[3]))
    return method, inputs


def time_once(build, model, threads, iters):
    exe = os.path.join(build, "tools", "executorch-run", "executorch-run")
    method, inputs = first_call(model)
    cmd = [exe, os.path.join(CORPUS, model, "model.pte"), "--method", method]
    for i in inputs:
        cmd += ["--input", "@" + i]
    cmd += ["--threads", str(threads), "--iterations", str(iters)]
    env = dict(os.environ, EXECUTORCH_NUM_THREADS=str(threads))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    return float(TIMING_RE.search(out).group(3))


def spread(xs):
    return f"{statistics.median(xs):.1f} [{min(xs):.1f}-{max(xs):.1f}]"


def render(run):
    """The run's header line and its table (markdown lines)."""
    a, res = run["args"], run["results"]
    lines = [f"ab_compare {run['date']}: base {a['base']} ({a['base_rev']}), "
             f"new {a['new']} ({a['new_rev']}), {a['rounds']} rounds, "
             f"{a['iterations']} iterations, {a['threads']} thread(s), load {run['load']:.2f}",
             "", "| model | base us | new us | new/base |", "|---|---|---|---|"]
    for m, r in res.items():
        ratios = [n / b for b, n in zip(r["base"], r["new"])]
        lines.append(f"| {m} | {spread(r['base'])} | {spread(r['new'])} | "
                     f"{statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}] |")
    return lines


def main():
    global CORPUS
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--corpus", default=CORPUS, help="the programs' directory")
    ap.add_argument("--only", default="mobilenet_v2,mobilenet_v3_small,resnet18_narrow,"
                    "squeezenet1_1,unet")
    ap.add_argument("--base-rev", default="?", help="the commit the base build is of")
    ap.add_argument("--new-rev", default="?", help="the commit the new build is of")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    CORPUS = os.path.abspath(a.corpus)
    models = a.only.split(",")
    res = {m: {"base": [], "new": []} for m in models}
    for r in range(a.rounds):
        for m in models:
            order = ["base", "new"] if r % 2 == 0 else ["new", "base"]
            for side in order:
                build = a.base if side == "base" else a.new
                res[m][side].append(time_once(build, m, a.threads, a.iterations))
        print(f"round {r + 1}/{a.rounds} done", flush=True)
    run = {"date": f"{datetime.datetime.utcnow():%Y-%m-%dT%H:%MZ}",
           "load": round(os.getloadavg()[0], 2), "args": vars(a), "results": res}
    lines = render(run)
    print("\n".join(lines))
    if a.out:
        with open(a.out + ".json", "w") as f:
            json.dump(run, f, indent=1)
        with open(a.out + ".md", "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
