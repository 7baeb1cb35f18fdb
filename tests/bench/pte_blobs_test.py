#!/usr/bin/env python3
"""bench/pte_blobs.py on the committed upstream-exported corpus: each
method's .so and weights are the blobs its processed bytes name (found by
their sha256 keys), a two-method program gives each method its own .so, and
an unknown method is an error. On our own exporter's fixtures (processed
bytes inline, not in a segment), each one-delegate fixture's blobs hash to
the keys its meta.json names (what gpu_bench.py relies on).

  pte_blobs_test.py BENCH_DIR CORPUS_DIR FIXTURES_DIR
"""
import json
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

for name in sorted(os.listdir(sys.argv[3])):
    d = os.path.join(sys.argv[3], name)
    meta_path = os.path.join(d, "meta.json")
    meta = json.load(open(meta_path)) if os.path.isfile(meta_path) else {}
    if "so_key" not in meta or meta.get("partitions", 1) != 1:
        continue
    so, weights = method_blobs(open(os.path.join(d, "model.pte"), "rb").read(),
                               open(os.path.join(d, "aoti_cuda_blob.ptd"), "rb").read(), "forward")
    check(hashlib.sha256(so).hexdigest() + "_so_blob" == meta["so_key"] and
          hashlib.sha256(weights).hexdigest() + "_weights_blob" == meta["weights_key"],
          f"{name}: the .so and weights match meta.json's keys")

check(sos.get(("kv_decoder", "decode")) not in (None, sos.get(("kv_decoder", "prefill"))),
      "kv_decoder: decode and prefill have their own .so")
check.exit()
