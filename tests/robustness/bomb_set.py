#!/usr/bin/env python3
"""The bomb set: runs executorch-run on every hostile file make_bombs writes
(issue 15's classes: strides, retyping moves, memory and time chosen by the
file, undefined behaviour from file bytes) and reports files tried, clean
errors, runs that completed, crashes, hangs and the peak RSS of any run.

usage: bomb_set.py EXECUTORCH_RUN MAKE_BOMBS [MEMORY_LIMIT]

A crash is death by a signal or exit status 70 (executorch-run caught a
crash or an abort); a hang is a run over TIMEOUT seconds. Either, or a peak
RSS over the memory limit plus 256 MiB, fails the test. MEMORY_LIMIT
(default 1G) is passed as EXECUTORCH_MEMORY_LIMIT, the way a host would cap
what one file may make the tool allocate.
"""

import os
import resource
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60


def parse_size(text):
    units = {"K": 10, "M": 20, "G": 30, "T": 40}
    if text[-1:].upper() in units:
        return int(text[:-1]) << units[text[-1].upper()]
    return int(text)


def run_one(tool, pte, env):
    args = [tool, pte]
    ptd = pte[:-4] + ".ptd"
    if os.path.exists(ptd):
        args += ["--ptd", ptd]
    start = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        _, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return "hang", TIMEOUT, ""
    took = time.monotonic() - start
    err = err.decode("utf-8", "replace").strip()
    if p.returncode < 0 or p.returncode == 70:
        return "crash", took, err
    return ("ran" if p.returncode == 0 else "error"), took, err


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    tool, make_bombs = sys.argv[1:3]
    limit = sys.argv[3] if len(sys.argv) == 4 else "1G"
    env = dict(os.environ, EXECUTORCH_MEMORY_LIMIT=limit)
    counts = {"ran": 0, "error": 0, "crash": 0, "hang": 0}
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([make_bombs, d], check=True, stdout=subprocess.DEVNULL)
        files = sorted(f for f in os.listdir(d) if f.endswith(".pte"))
        for f in files:
            outcome, took, err = run_one(tool, os.path.join(d, f), env)
            counts[outcome] += 1
            line = err.splitlines()[-1] if err else ""
            print(f"{outcome:5} {took:6.2f}s {f}: {line}")
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"bomb set: {len(files)} files tried, {counts['error']} clean errors, "
          f"{counts['ran']} ran to completion, {counts['crash']} crashes, "
          f"{counts['hang']} hangs, peak RSS {peak_mib:.0f} MiB "
          f"(EXECUTORCH_MEMORY_LIMIT={limit})")
    rss_ok = peak_mib * (1 << 20) <= parse_size(limit) + (256 << 20)
    if not rss_ok:
        print("FAIL: a run used more memory than the limit allows")
    return 0 if counts["crash"] == 0 and counts["hang"] == 0 and rss_ok else 1


if __name__ == "__main__":
    sys.exit(main())
