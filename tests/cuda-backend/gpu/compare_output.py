#!/usr/bin/env python3
"""Compares `executorch-run --json` output with a CUDA fixture's reference
(tests/models/cuda/<name>/output<i>.bin, float32 written by the exporter).
Tolerances as in the GPU suite: fp32 1e-4 relative per element (with a floor
of 1% of the output's largest magnitude), bf16 2e-2 of the largest magnitude.
Usage: compare_output.py FIXTURE_DIR RUN_JSON   (exit 0 when all match)"""
import json
import struct
import sys


def main():
    fixture, run_json = sys.argv[1:3]
    meta = json.load(open(fixture + "/meta.json"))
    got_all = json.load(open(run_json))["outputs"]
    if len(got_all) != len(meta["outputs"]):
        print(f"{fixture}: {len(got_all)} outputs, reference has {len(meta['outputs'])} FAIL")
        return 1
    worst, ok = 0.0, True
    for i, spec in enumerate(meta["outputs"]):
        raw = open(f"{fixture}/{spec['file']}", "rb").read()
        ref = struct.unpack("<%df" % (len(raw) // 4), raw)
        got = got_all[i]["values"]
        if len(got) != len(ref):
            print(f"{fixture}: output {i} has {len(got)} values, reference {len(ref)} FAIL")
            return 1
        scale = max(abs(r) for r in ref) + 1e-12
        if spec["dtype"] == "bfloat16":
            err, tol = max(abs(g - r) for g, r in zip(got, ref)) / scale, 2e-2
        else:
            err = max(abs(g - r) / max(abs(r), 1e-2 * scale) for g, r in zip(got, ref))
            tol = 1e-4
        worst = max(worst, err / tol)
        ok = ok and err <= tol
        print(f"{fixture}: output {i} ({spec['dtype']}) err {err:.3g} tol {tol:g} "
              f"{'ok' if err <= tol else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
