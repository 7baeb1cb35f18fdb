#!/usr/bin/env python3
"""bench/corpus_fixture.py on the committed upstream-exported corpus: the
fixture links the program and the call's inputs, its references are the
call's outputs as float32 (bf16 widened exactly, f32 unchanged), and an
unknown method or a reference that is not floating point is an error.

  corpus_fixture_test.py BENCH_DIR CORPUS_DIR
"""
import os
import struct
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
from checks import Checks  # noqa: E402
from corpus_fixture import as_float32, bench_call, make_fixture  # noqa: E402

corpus = sys.argv[2]
check = Checks()


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def check_fixture(name, method):
    d = os.path.join(corpus, name)
    call = bench_call(d, method)
    with tempfile.TemporaryDirectory() as parent:
        g = make_fixture(d, method, parent)
        check(os.path.basename(g) == name, f"{name}: the fixture is named after the program")
        check(os.path.samefile(os.path.join(g, "model.pte"), os.path.join(d, "model.pte")),
              f"{name}: model.pte is the program's")
        for i, (_, _, f) in enumerate(call[1]):
            check(os.path.samefile(os.path.join(g, f"input{i}.bin"), os.path.join(d, f)),
                  f"{name} {method}: input{i}.bin is {f}")
        for i, (dtype, dims, f) in enumerate(call[2]):
            raw = open(os.path.join(d, f), "rb").read()
            ref = open(os.path.join(g, f"output{i}.bin"), "rb").read()
            numel = 1
            for n in dims:
                numel *= n
            check(len(ref) == 4 * numel, f"{name} {method}: output{i}.bin holds {numel} floats")
            got = struct.unpack(f"<{numel}f", ref)
            if dtype == "f32":
                want = struct.unpack(f"<{numel}f", raw)
            else:  # bf16: the float whose high half is the value's bits
                want = [struct.unpack("<f", b"\0\0" + raw[2 * k:2 * k + 2])[0]
                        for k in range(numel)]
            check(list(got) == list(want), f"{name} {method}: output{i} values are {f}'s")


check_fixture("kv_decoder", "decode")
check_fixture("kv_decoder", "prefill")
check_fixture("conv", "forward")
check_fixture("mlp_bf16", "forward")
check(raises(bench_call, os.path.join(corpus, "conv"), "no_such_method"),
      "an unknown method is an error")
check(raises(as_float32, "i64", b"\0" * 8), "an int64 reference is an error")
check(as_float32("f16", struct.pack("<e", 1.5)) == struct.pack("<f", 1.5),
      "an f16 reference is widened")
check.exit()
