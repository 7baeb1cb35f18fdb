#!/usr/bin/env python3
"""A corpus program (tools/export/make_corpus.py's layout: model.pte, the
.ptd, calls.txt and the c<k>_in<i>/c<k>_out<i>.bin files it names) as one
method's fixture in gpu_bench's layout: model.pte and the .ptd linked,
input<i>.bin linked, output<i>.bin the reference as float32 (what
tests/cuda-backend/gpu/fixture_loader.h reads). Needs no torch, so the
GPU host's rounds and the CPU host's tests can both make one.

  corpus_fixture.py CORPUS_DIR METHOD OUT_PARENT
prints the fixture directory it made: OUT_PARENT/<program name>.
"""
import os
import struct
import sys


def parse_calls(d):
    """[(method, [(dtype, dims, file)], [(dtype, dims, file)])] from calls.txt."""
    calls = []
    for line in open(os.path.join(d, "calls.txt")):
        f = line.split()
        if not f or f[0].startswith("#") or f[0] == "tolerance":
            continue
        if f[0] == "call":
            calls.append((f[1], [], []))
        else:
            dims = [] if f[2] == "-" else [int(x) for x in f[2].split(",")]
            calls[-1][1 if f[0] == "in" else 2].append((f[1], dims, f[3]))
    return calls


def bench_call(d, method):
    """The first call of `method` (its inputs are what the benchmarks time)."""
    for c in parse_calls(d):
        if c[0] == method:
            return c
    raise ValueError(f"{d}/calls.txt: no call of method '{method}'")


def ptds(d):
    return sorted(os.path.join(d, p) for p in os.listdir(d) if p.endswith(".ptd"))


def as_float32(dtype, raw):
    """Little-endian bytes of dtype as float32 bytes."""
    if dtype == "f32":
        return raw
    n = len(raw) // 2
    if dtype == "bf16":  # the high half of a float32
        return struct.pack(f"<{n}I", *(h << 16 for h in struct.unpack(f"<{n}H", raw)))
    if dtype == "f16":
        return struct.pack(f"<{n}f", *struct.unpack(f"<{n}e", raw))
    raise ValueError(f"a {dtype} reference cannot be a float32 one")


def make_fixture(d, method, parent):
    """The fixture directory of `method` of the corpus program `d`."""
    call = bench_call(d, method)
    g = os.path.join(parent, os.path.basename(os.path.normpath(d)))
    os.makedirs(g)
    os.symlink(os.path.abspath(os.path.join(d, "model.pte")), os.path.join(g, "model.pte"))
    for p in ptds(d):
        os.symlink(os.path.abspath(p), os.path.join(g, os.path.basename(p)))
    for i, (_, _, f) in enumerate(call[1]):
        os.symlink(os.path.abspath(os.path.join(d, f)), os.path.join(g, f"input{i}.bin"))
    for i, (dtype, _, f) in enumerate(call[2]):
        raw = open(os.path.join(d, f), "rb").read()
        open(os.path.join(g, f"output{i}.bin"), "wb").write(as_float32(dtype, raw))
    return g


def main():
    if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    try:
        print(make_fixture(sys.argv[1], sys.argv[2], sys.argv[3]))
    except (OSError, ValueError) as e:
        print(f"corpus_fixture.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
