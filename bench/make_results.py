#!/usr/bin/env python3
"""Writes RESULTS.md's GPU tables from the raw runs in bench/results/: the
side-by-side comparison from gpu-compare-*.json (bench/gpu_compare.py), the
generation benchmark from generate-*.json with the header line of its .txt
log (bench/generate_bench.py), and our own cold start and host overhead
from gpu-rounds-*.csv (gpu_bench's --csv of several processes, a "round"
column added) with the header line of its .txt, and the split of an
execute's host time from gpu-split-*.txt (bench/cuda_api_profile.cpp's
lines of several processes), and a CPU change against its parent from
ab-*.json (bench/ab_compare.py): no number in those tables is copied by
hand.

  bench/make_results.py [--results bench/results] [--md bench/RESULTS.md]

Each set of tables goes between its markers (`<!-- gpu-compare:begin -->`
... `end`, `<!-- generate:begin -->` ... `end`, `<!-- gpu-rounds:begin -->`
... `end`, `<!-- gpu-split:begin -->` ... `end`, `<!-- cpu-ab:begin -->` ...
`end`); the rest of the file is kept.
"""
import argparse
import collections
import csv
import glob
import statistics
import json
import os
import re

import ab_compare  # noqa: E402  (bench/, beside this script)

BEGIN, END = "<!-- gpu-compare:begin -->", "<!-- gpu-compare:end -->"
GEN_BEGIN, GEN_END = "<!-- generate:begin -->", "<!-- generate:end -->"
ROUNDS_BEGIN, ROUNDS_END = "<!-- gpu-rounds:begin -->", "<!-- gpu-rounds:end -->"
SPLIT_BEGIN, SPLIT_END = "<!-- gpu-split:begin -->", "<!-- gpu-split:end -->"
AB_BEGIN, AB_END = "<!-- cpu-ab:begin -->", "<!-- cpu-ab:end -->"
ROUND_COLUMNS = [("med_us", "latency us"), ("gpu_med_us", "GPU us"),
                 ("overhead_med_us", "latency - GPU us"), ("call_med_us", "execute returns us"),
                 ("load_method_ms", "load_method ms")]
COLUMNS = [("upstream", "upstream runtime"), ("ours", "ours"), ("ours_graph", "ours + CUDA graph"),
           ("aoti_shim", "same .so via torch's shim"),
           ("ours_device", "ours, delegate alone (device I/O)"), ("torch_eager", "torch eager"),
           ("torch_eager_io", "torch eager + host I/O"),
           ("torch_graph_io_pageable", "torch graph + host I/O (pageable)"),
           ("torch_graph_io_pinned", "torch graph + host I/O (pinned)"),
           ("upstream_cold", "upstream cold start (ms)"), ("ours_cold", "ours cold start (ms)")]
RATIOS = [("ours/upstream", "ours / upstream", 1.00),
          ("ours/aoti_shim", "ours (host I/O) / same .so via shim (device I/O)", 1.00),
          ("ours_device/aoti_shim", "ours (device I/O) / same .so via shim (device I/O)", 1.00),
          ("ours/torch_eager_io", "ours / torch eager (host I/O)", 1.00),
          ("ours_graph/torch_graph_io_pageable", "ours graph / torch graph (pageable)", 1.05),
          ("ours_graph/torch_graph_io_pinned", "ours graph / torch graph (pinned)", 1.05),
          ("ours_cold/upstream_cold", "cold start ours / upstream", 1.00)]


def cell(v):
    return f"{v['median']:.1f} [{v['min']:.1f}-{v['max']:.1f}]" if v else "n/a"


def verdict(v, goal):
    if not v:
        return "n/a"
    if v["max"] <= goal:
        return "met"
    if v["min"] > goal:
        return "missed"
    return "spread crosses goal"


def tables(run, name):
    lines = [f"### {name}: {run['date']}, ours at {run['commit'] or '?'}, {run['gpu']}, "
             f"torch {run['torch']}",
             "",
             f"{run['rounds']} interleaved rounds x {run['iters']} executes"
             + (f", every process pinned to CPUs {run['cpus']}" if run.get("cpus") else "")
             + (f", {run['procs']} processes of each runtime per round (the round's cell is "
                "their median)" if run.get("procs", 1) > 1 else "")
             + (f", after {run['warmup_rounds']} unrecorded warm-up round(s)"
                if run.get("warmup_rounds") else "")
             + "; each cell: median of the round medians [min-max], microseconds unless marked.",
             "",
             "| program | " + " | ".join(label for _, label in COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]
    for prog, r in run["programs"].items():
        cols = r["columns"]
        label = prog if r["method"] == "forward" else f"{prog} ({r['method']})"
        lines.append(f"| {label} | " + " | ".join(cell(cols.get(k)) for k, _ in COLUMNS) + " |")
    lines += ["", "Ratios, paired per round (median [min-max]); goal and whether the whole "
              "spread is within it:", "",
              "| program | " + " | ".join(f"{label} (goal <= {g:.2f})" for _, label, g in RATIOS)
              + " |", "|---|" + "---:|" * len(RATIOS)]
    for prog, r in run["programs"].items():
        rs = r["ratios"]
        cells = []
        for key, _, goal in RATIOS:
            v = rs.get(key)
            cells.append("n/a" if not v else
                         f"{v['median']:.2f} [{v['min']:.2f}-{v['max']:.2f}] {verdict(v, goal)}")
        lines.append(f"| {prog} | " + " | ".join(cells) + " |")
    errs = [f"- {prog}: {e}" + (f" ({n} rounds)" if n > 1 else "")
            for prog, r in run["programs"].items()
            for e, n in collections.Counter(map(short_error, r.get("errors", []))).items()]
    if errs:
        lines += ["", "Errors in this run:", ""] + errs
    return lines


def short_error(e):
    """An error as the runs repeat it: gpu_bench's temporary directory names
    made alike, and of its table only the rows that failed."""
    e = re.sub(r"gpu_compare_[A-Za-z0-9_]{8}", "gpu_compare_*", e).strip()
    head, sep, rest = e.partition(": ")
    failed = [part.strip() for part in rest.split(" | ") if "FAILED" in part]
    return f"{head}: {' | '.join(failed)}" if sep and failed else e


def span(v, fmt):
    return f"{v['median']:{fmt}} [{v['min']:{fmt}}-{v['max']:{fmt}}]"


def generate_tables(run, header, name):
    """One generation run: tokens/s of each runner and the paired ratios."""
    a, sm = run["args"], run["summary"]
    lines = [f"### {name}: {header or 'no header line'}", "",
             f"kv_decoder (bf16), prompt {a['prompt_len']} tokens, {a['new_tokens']} new tokens, "
             f"{a['rounds']} interleaved rounds x {a['runs']} runs; median of the round medians "
             "[min-max]; ratios are ours/X paired per round (above 1: ours faster). Greedy "
             "tokens equal to ours: " +
             ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in run["same_tokens"].items()) + ".",
             "", "| runner | prefill tokens/s | decode tokens/s |", "|---|---:|---:|"]
    for key, v in sm.items():
        fmt = ".2f" if "/" in key else ".0f"
        lines.append(f"| {key} | {span(v['prefill'], fmt)} | {span(v['decode'], fmt)} |")
    return lines


def replace_between(text, begin, end, body, title):
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + "\n".join(body) + rest.split(end, 1)[1]
    return text.rstrip("\n") + f"\n\n## {title}\n\n" + "\n".join(body) + "\n"


def compare_body(results):
    runs = [(json.load(open(p)), os.path.basename(p))
            for p in glob.glob(os.path.join(results, "gpu-compare-*.json"))]
    runs.sort(key=lambda r: r[0]["date"], reverse=True)  # file names do not sort by date
    body = [BEGIN, "", "Generated by bench/make_results.py from bench/results/gpu-compare-*.json "
            "(newest first); the method is in bench/gpu_compare.py's header.", ""]
    for run, name in runs:
        body += tables(run, name) + [""]
    return body + [END]


def header_line(path, ext):
    """The first line of the run's .txt log beside `path`, without its '== '."""
    txt = path[:-len(ext)] + ".txt"
    return open(txt).readline().strip().lstrip("= ") if os.path.exists(txt) else ""


def run_date(path):
    """The run's date and any letter after it (2026-12-04b) from its file name,
    then the name: the GPU's name comes before the date, so names alone do not
    sort by date."""
    m = re.search(r"\d{4}-\d{2}-\d{2}[a-z]?", os.path.basename(path))
    return (m.group(0) if m else "", os.path.basename(path))


def logged_runs_body(results, pattern, begin, end, intro, render):
    """One section: every run matching `pattern` (newest first), each rendered
    with the header line of its .txt log."""
    ext = os.path.splitext(pattern)[1]
    body = [begin, "", f"Generated by bench/make_results.py from bench/results/{pattern} "
            f"(newest first){intro}", ""]
    for path in sorted(glob.glob(os.path.join(results, pattern)), key=run_date, reverse=True):
        body += render(path, header_line(path, ext), os.path.basename(path)) + [""]
    return body + [end]


def generate_body(results):
    return logged_runs_body(
        results, "generate-*.json", GEN_BEGIN, GEN_END,
        "; the method is in bench/generate_bench.py's header.",
        lambda path, header, name: generate_tables(json.load(open(path)), header, name))


def stats(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def rounds_tables(rows, header, name):
    """gpu_bench rows of several processes: each column's median [min-max]."""
    by_model = {}
    for row in rows:
        by_model.setdefault(row["model"], []).append(row)
    lines = [f"### {name}: {header or 'no header line'}", "",
             f"{len(set(r['round'] for r in rows))} processes; each cell: median of the per-process "
             "medians [min-max]. `latency - GPU` is gpu_bench's host overhead (wall clock of "
             "set_input + execute + synchronize minus the CUDA-event time); `@device` rows call "
             "the delegate directly with device I/O; `floor` (where present) times the same events "
             "and synchronize with nothing between them.", "",
             "| row | " + " | ".join(label for _, label in ROUND_COLUMNS) + " |",
             "|---|" + "---:|" * len(ROUND_COLUMNS)]
    for model, rs in by_model.items():
        cells = [span(stats([float(r[k]) for r in rs]), ".1f") for k, _ in ROUND_COLUMNS]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    first = {r["round"]: r for r in rows}.values()
    lines += ["", "Once per process: dlopen of libexecutorch_cuda_backend.so.1 "
              f"{span(stats([float(r['dlopen_ms']) for r in first]), '.2f')} ms, CUDA context "
              f"{span(stats([float(r['context_ms']) for r in first]), '.1f')} ms."]
    return lines


def rounds_body(results):
    return logged_runs_body(
        results, "gpu-rounds-*.csv", ROUNDS_BEGIN, ROUNDS_END, ".",
        lambda path, header, name: rounds_tables(list(csv.DictReader(open(path))), header, name))


def parse_split(path):
    """bench/cuda_api_profile.cpp's lines of several processes ("round N"
    lines between them): {row: {"scope"|"api"|"rest": [per process],
    "calls": {name: [(calls, us) per process]}}}, in first-seen order."""
    rows = {}
    for line in open(path):
        if not line.startswith("cuda_api_profile "):
            continue
        label, _, rest = line[len("cuda_api_profile "):].partition(": ")
        row = rows.setdefault(label, {"scope": [], "api": [], "rest": [], "calls": {}})
        if "executes, median us:" in rest:
            nums = [float(x.split()[-1]) for x in rest.split(":", 1)[1].split(",")]
            for key, v in zip(("scope", "api", "rest"), nums):
                row[key].append(v)
        else:
            f = rest.split()
            row["calls"].setdefault(f[0], []).append((float(f[1]), float(f[3])))
    return rows


def split_tables(path, header, name):
    rows = parse_split(path)
    n = max((len(r["scope"]) for r in rows.values()), default=0)
    lines = [f"### {name}: {header or 'no header line'}", "",
             f"{n} processes; each cell: median of the per-process medians [min-max], "
             "microseconds per execute. `execute` is the host time of the execute call "
             "(gpu_bench's `execute returns`, with the interposers' own cost); `in CUDA calls` "
             "is the part spent inside the CUDA runtime and driver calls it made; `rest` is "
             "the runtime's own code, the shim, and what it calls through dlsym'd pointers "
             "(cuBLAS, cuDNN). CUDA calls: name, calls per execute, and the microseconds per "
             "execute spent in them (medians over the processes).",
             "", "| row | execute | in CUDA calls | rest | CUDA calls |", "|---|---:|---:|---:|---|"]
    for label, r in rows.items():
        if not r["scope"]:
            continue
        calls = sorted(((statistics.median(c for c, _ in v), statistics.median(u for _, u in v), k)
                        for k, v in r["calls"].items()), key=lambda t: -t[1])
        listed = ", ".join(f"{k} {c:g}x {u:.1f}" for c, u, k in calls)
        lines.append(f"| {label} | {span(stats(r['scope']), '.1f')} | "
                     f"{span(stats(r['api']), '.1f')} | {span(stats(r['rest']), '.1f')} | "
                     f"{listed} |")
    return lines


def split_body(results):
    return logged_runs_body(
        results, "gpu-split-*.txt", SPLIT_BEGIN, SPLIT_END,
        "; bench/cuda_api_profile.cpp says how.",
        lambda path, header, name: split_tables(path, header, name))


def ab_body(results):
    return logged_runs_body(
        results, "ab-*.json", AB_BEGIN, AB_END,
        "; the method is in bench/ab_compare.py's header.",
        lambda path, header, name: [f"### {name}", ""] + ab_compare.render(json.load(open(path))))


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--md", default=os.path.join(here, "RESULTS.md"))
    a = ap.parse_args()
    text = open(a.md).read() if os.path.exists(a.md) else "# Benchmark results\n"
    text = replace_between(text, BEGIN, END, compare_body(a.results),
                           "GPU, side by side (bench/run_gpu_compare.sh)")
    text = replace_between(text, GEN_BEGIN, GEN_END, generate_body(a.results),
                           "Generation on the GPU (bench/generate_bench.sh)")
    text = replace_between(text, ROUNDS_BEGIN, ROUNDS_END, rounds_body(a.results),
                           "GPU cold start and host overhead, ours (bench/gpu_bench, "
                           "several processes)")
    text = replace_between(text, SPLIT_BEGIN, SPLIT_END, split_body(a.results),
                           "GPU host time of an execute, split (bench/cuda_api_profile.cpp)")
    text = replace_between(text, AB_BEGIN, AB_END, ab_body(a.results),
                           "CPU, a change against its parent (bench/ab_compare.py)")
    with open(a.md, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
