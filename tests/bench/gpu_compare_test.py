#!/usr/bin/env python3
"""bench/gpu_compare.py's rounds without a GPU: the runtimes are replaced by
fakes that log their calls, so the checks see the order the processes run
in with --procs, each cell as the median of its processes, failed
processes reported, and ratios paired per round.

  gpu_compare_test.py BENCH_DIR
"""
import argparse
import sys

sys.path.insert(0, sys.argv[1])
import gpu_compare  # noqa: E402
from checks import Checks  # noqa: E402

check = Checks()

cell = gpu_compare.median_cell([{"med": 1.0, "wall_ms": 10.0}, {"med": 3.0, "wall_ms": 30.0},
                                {"med": 2.0, "wall_ms": 20.0}])
check(cell == {"med": 2.0, "wall_ms": 20.0, "procs": [1.0, 3.0, 2.0]},
      f"median_cell: the median of each number and the processes' medians ({cell})")
cell = gpu_compare.median_cell([{"med": 4.0, "out0": [1.0]}, {"error": "rc 1: boom"},
                                {"med": 6.0, "out0": [2.0]}])
check(cell.get("med") == 5.0 and "out0" not in cell
      and cell.get("error") == "1 of 3 processes: rc 1: boom",
      f"median_cell: a failed process is named, the others still count ({cell})")
cell = gpu_compare.median_cell([{"error": "first"}, {"error": "second"}])
check(cell == {"error": "first"}, f"median_cell: all processes failed: the first error ({cell})")

log = []
speed = {"upstream": [30.0, 10.0, 20.0], "ours": [9.0, 27.0, 18.0],
         "aoti_shim": [50.0, 40.0, 60.0], "ours_device": [44.0, 33.0, 55.0]}


def fake(column):
    def run(*args, graph=False):  # every runner takes iters last, graph by keyword
        iters = args[-1]
        name = column + ("_graph" if graph else "") + ("_cold" if iters == 1 else "")
        log.append(name)
        if name.endswith("_cold"):
            return {"wall_ms": 100.0 + len(log)}
        if name == "ours_graph":
            return {"med": 7.0, "out0": [0.5]}
        n = sum(1 for x in log if x == name)
        return {"med": speed[column][n - 1], "out0": [0.5]}
    return run


gpu_compare.run_upstream = fake("upstream")
gpu_compare.run_ours = fake("ours")
gpu_compare.run_aoti = fake("aoti_shim")
gpu_compare.run_ours_device = fake("ours_device")
a = argparse.Namespace(procs=3, iters=5, upstream="up", ours="build")
r = gpu_compare.one_round(a, "dir", "prog", "forward", None)
want = (["upstream", "ours"] * 3 + ["ours_graph"] + ["aoti_shim", "ours_device"] * 3
        + ["upstream_cold", "ours_cold"] * 3)
check(log == want, f"one_round --procs 3: each compared pair alternates ({log})")
check(r["upstream"]["med"] == 20.0 and r["ours"]["med"] == 18.0
      and r["aoti_shim"]["med"] == 50.0 and r["ours_device"]["med"] == 44.0,
      "one_round: each cell is the median of its three processes")
check(r["ours_graph"] == {"med": 7.0}, f"one_round: ours_graph runs once ({r['ours_graph']})")
check(r["upstream_cold"]["procs"] == [114.0, 116.0, 118.0]
      and r["ours_cold"]["med"] == 117.0,
      f"one_round: cold starts are the processes' wall times ({r['ours_cold']})")
_, ratios = gpu_compare.summarize([r, r])
check(ratios["ours/upstream"]["median"] == 0.9
      and ratios["ours_device/aoti_shim"]["median"] == 44.0 / 50.0,
      "summarize: ratios of the round cells")
check(gpu_compare.parse_cpus("2,4-6") == {2, 4, 5, 6}, "parse_cpus: lists and ranges")
check.exit()
