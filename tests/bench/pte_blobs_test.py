#!/usr/bin/env python3
"""bench/pte_blobs.py on the committed upstream-exported corpus: each
method's .so and weights are the blobs its processed bytes name (found by
their sha256 keys), a two-method program gives each method its own .so, and
an unknown method is an error.

  pte_blobs_test.py BENCH_DIR CORPUS_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, sys.argv[1])
from checks import Checks  # noqa: E402
from corpus_fixture import parse_calls  # noqa: E402
from pte_blobs import method_blobs  # noqa: E402

corpus = sys.argv[2]
check = Checks()


def methods(d):
    return list(dict.fromkeys(c[0] for c in parse_calls(d)))


sos = {}
for name in sorted(os.listdir(corpus)):
    d = os.path.join(corpus, name)
    pte = open(os.path.join(d, "model.pte"), "rb").read()
    ptd = open(os.path.join(d, "aoti_cuda_blob.ptd"), "rb").read()
    for m in methods(d):
        so, weights = method_blobs(pte, ptd, m)
        so_key = hashlib.sha256(so).hexdigest().encode() + b"_so_blob"
        w_key = hashlib.sha256(weights).hexdigest().encode() + b"_weights_blob"
        check(so[:4] == b"\x7fELF", f"{name}.{m}: the .so is an ELF image ({len(so)} bytes)")
        check(so_key + b"\n" + w_key in pte,
              f"{name}.{m}: its processed bytes name this .so and these weights")
        sos[(name, m)] = so
    try:
        method_blobs(pte, ptd, "no_such_method")
        check(False, f"{name}: an unknown method raises KeyError")
    except KeyError:
        check(True, f"{name}: an unknown method raises KeyError")

check(sos.get(("kv_decoder", "decode")) not in (None, sos.get(("kv_decoder", "prefill"))),
      "kv_decoder: decode and prefill have their own .so")
check.exit()
