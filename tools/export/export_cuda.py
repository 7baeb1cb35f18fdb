#!/usr/bin/env python3
"""Export small PyTorch models for the CudaBackend delegate (runs where torch
with CUDA is installed). For each model: torch.export, AOTInductor compile
(libtorch-free .so + weights blob), then a .pte (one DelegateCall to
"CudaBackend") and a .ptd (FlatTensor holding the weights), in upstream's
1.4 layout, plus fixed inputs and eager reference outputs.

Delegate I/O tensors are host (CPU) tensors: this runtime plans buffers on the
host, so the backend stages them to the GPU itself (the 1.1-1.3 behaviour)
while the keys follow 1.4 (sha256 keys; .so in the program's named data,
weights in the .ptd). --keys legacy writes 1.1-1.3 keys instead.

Usage: export_cuda.py --out DIR [--models mlp,conv,transformer] [--keys 1.4|legacy]
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbwriter import Table, Writer  # noqa: E402

T0 = time.time()


def log(msg):
    print(f"[export {time.time() - T0:7.1f}s] {msg}", flush=True)


# ---------------------------------------------------------------- file writers
SCALAR_TYPE = {"float32": 6, "float16": 5, "bfloat16": 15, "int64": 4, "int32": 3}


def _pad(b, a):
    return b + bytes((-len(b)) % a)


def write_pte(path, method, in_specs, out_specs, processed, compile_specs, named):
    """in_specs/out_specs: [(dtype, sizes)]; named: [(key, bytes)] in segments."""
    values, offset = [], 0
    for dtype, sizes in list(in_specs) + list(out_specs):
        n = 1
        for s in sizes:
            n *= s
        nbytes = n * {6: 4, 5: 2, 15: 2, 4: 8, 3: 4}[SCALAR_TYPE[dtype]]
        alloc = Table((0, "uint", 1), (1, "uint", offset & 0xFFFFFFFF), (2, "uint", offset >> 32))
        tensor = Table(
            (0, "byte", SCALAR_TYPE[dtype]), (1, "int", 0), (2, "vec:int", list(sizes)),
            (3, "vec:ubyte", list(range(len(sizes)))), (4, "bool", 0), (5, "uint", 0),
            (6, "table", alloc), (7, "byte", 0), (8, "byte", 0))
        values.append(Table((0, "ubyte", 5), (1, "table", tensor)))
        offset += (nbytes + 15) // 16 * 16
    n_in, n_out = len(in_specs), len(out_specs)
    ins, outs = list(range(n_in)), list(range(n_in, n_in + n_out))
    call = Table((0, "int", 0), (1, "vec:int", ins + outs))
    chain = Table((0, "vec:int", ins), (1, "vec:int", outs),
                  (2, "vec:table", [Table((0, "ubyte", 2), (1, "table", call))]))
    delegate = Table(
        (0, "str", "CudaBackend"),
        (1, "table", Table((0, "ubyte", 0), (1, "uint", 0))),
        (2, "vec:table", [Table((0, "str", k), (1, "bytes", v)) for k, v in compile_specs]))
    plan = Table(
        (0, "str", method), (1, "table", Table((0, "str", ""), (1, "str", ""))),
        (2, "vec:table", values), (3, "vec:int", ins), (4, "vec:int", outs),
        (5, "vec:table", [chain]), (6, "vec:table", []), (7, "vec:table", [delegate]),
        (8, "vec:long", [0, offset]))
    # segments: each named blob 128-aligned
    seg_tables, seg_data = [], b""
    for _, data in named:
        seg_data = _pad(seg_data, 128)
        seg_tables.append(Table((0, "ulong", len(seg_data)), (1, "ulong", len(data))))
        seg_data += data
    program = Table(
        (0, "uint", 0), (1, "vec:table", [plan]),
        (3, "vec:table", [Table((0, "bytes", processed))]),
        (4, "vec:table", seg_tables),
        (7, "vec:table", [Table((0, "str", k), (1, "uint", i)) for i, (k, _) in enumerate(named)]))
    fb = Writer().finish(program, b"ET12", reserve=32)
    seg_base = (len(fb) + 127) // 128 * 128
    hdr = b"eh00" + struct.pack("<IQQQ", 32, len(fb), seg_base if named else 0, len(seg_data))
    fb = fb[:8] + hdr + fb[40:]
    with open(path, "wb") as f:
        f.write(_pad(fb, 128) if named else fb)
        if named:
            f.write(seg_data)


def write_ptd(path, named):
    seg_tables, seg_data = [], b""
    for _, data in named:
        seg_data = _pad(seg_data, 128)
        seg_tables.append(Table((0, "ulong", len(seg_data)), (1, "ulong", len(data))))
        seg_data += data
    root = Table((0, "uint", 0), (1, "vec:table", seg_tables),
                 (2, "vec:table", [Table((0, "str", k), (1, "uint", i))
                                   for i, (k, _) in enumerate(named)]))
    fb = Writer().finish(root, b"FT01")
    fb_off = 48
    seg_base = (fb_off + len(fb) + 127) // 128 * 128
    root_off = struct.unpack_from("<I", fb, 0)[0]
    hdr = struct.pack("<I", root_off + fb_off) + b"FT01" + b"FH01" + struct.pack(
        "<IQQQQ", 40, fb_off, len(fb), seg_base, len(seg_data))
    hdr = _pad(hdr, fb_off)
    with open(path, "wb") as f:
        f.write(hdr)
        f.write(fb)
        f.write(bytes(seg_base - fb_off - len(fb)))
        f.write(seg_data)


# ---------------------------------------------------------------- models
def build(name):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    torch.manual_seed(0)
    if name == "mlp":
        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1, self.fc2 = nn.Linear(64, 128), nn.Linear(128, 32)

            def forward(self, x):
                return torch.softmax(self.fc2(F.gelu(self.fc1(x))), dim=-1)
        return MLP(), (torch.randn(8, 64),), torch.float32
    if name == "conv":
        class ConvNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.c1 = nn.Conv2d(3, 8, 3, padding=1)
                self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
                self.fc = nn.Linear(16, 10)

            def forward(self, x):
                y = F.relu(self.c2(F.relu(self.c1(x))))
                return self.fc(y.mean(dim=(2, 3)))
        return ConvNet(), (torch.randn(2, 3, 16, 16),), torch.float32
    if name == "transformer":
        class Block(nn.Module):
            def __init__(self, d=128, h=4):
                super().__init__()
                self.h = h
                self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
                self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
                self.ff1, self.ff2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

            def forward(self, x):
                b, t, d = x.shape
                q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
                q, k, v = (z.view(b, t, self.h, d // self.h).transpose(1, 2) for z in (q, k, v))
                a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
                return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        return Block(), (torch.randn(2, 16, 128),), torch.bfloat16
    raise SystemExit(f"unknown model {name}")


def export_one(name, out_dir, keys):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    model, args, dtype = build(name)
    model = model.to("cuda", dtype).eval()
    args = tuple(a.to("cuda", dtype) for a in args)
    with torch.no_grad(), sdpa_kernel([SDPBackend.MATH]):
        ref = model(*args)
        refs = ref if isinstance(ref, (tuple, list)) else (ref,)
        log(f"{name}: torch.export")
        ep = torch.export.export(model, args)
        opts = {
            "aot_inductor.embed_kernel_binary": True,
            "aot_inductor.link_libtorch": False,
            "aot_inductor.package": True,
            "aot_inductor.package_constants_in_so": False,
            "aot_inductor.package_constants_on_disk_format": "binary_blob",
            "aot_inductor.emit_multi_arch_kernel": True,
        }
        if name == "conv":
            # Triton convolutions (this backend has no ATen conv fallback).
            opts.update({"max_autotune": True, "max_autotune_conv_backends": "TRITON",
                         "max_autotune_gemm_backends": "TRITON"})
        # mlp/transformer: no autotune, so matmuls go through the shim's
        # cuBLAS fallbacks (aoti_torch_cuda_mm_out/addmm_out/bmm_out).
        log(f"{name}: aot_compile {sorted(k for k in opts)}")
        res = torch._inductor.aot_compile(ep.module(), args, options=opts)
    paths = res if isinstance(res, (list, tuple)) else [res]
    files = []
    for p in paths:
        p = str(p)
        if os.path.isdir(p):
            for root, _, fs in os.walk(p):
                files += [os.path.join(root, f) for f in fs]
        else:
            files.append(p)
            d = os.path.dirname(p)
            files += [os.path.join(d, f) for f in os.listdir(d)]
    so = [f for f in files if f.endswith(".so")]
    blob = [f for f in files if f.endswith("weights.blob")]
    log(f"{name}: outputs so={so} blob={blob}")
    so_bytes = open(so[0], "rb").read()
    blob_bytes = open(blob[0], "rb").read() if blob else b""
    mdir = os.path.join(out_dir, name)
    os.makedirs(mdir, exist_ok=True)
    with open(os.path.join(mdir, "imports.txt"), "w") as f:
        subprocess.run(["nm", "-D", "--undefined-only", so[0]], stdout=f, check=False)
    method = "forward"
    if keys == "legacy":
        so_key, w_key, processed = f"{method}_so_blob", f"{method}_weights_blob", b""
    else:
        so_key = hashlib.sha256(so_bytes).hexdigest() + "_so_blob"
        w_key = hashlib.sha256(blob_bytes).hexdigest() + "_weights_blob"
        processed = (so_key + "\n" + w_key).encode()
    dname = lambda t: str(t).replace("torch.", "")  # noqa: E731
    in_specs = [(dname(a.dtype), list(a.shape)) for a in args]
    out_specs = [(dname(r.dtype), list(r.shape)) for r in refs]
    write_pte(os.path.join(mdir, "model.pte"), method, in_specs, out_specs, processed,
              [("method_name", method.encode()), ("target_device", b"cuda:0")],
              [(so_key, so_bytes)])
    write_ptd(os.path.join(mdir, "aoti_cuda_blob.ptd"), [(w_key, blob_bytes)] if blob_bytes else [])
    meta = {"model": name, "method": method, "keys": keys, "so_key": so_key,
            "weights_key": w_key, "tolerance": 2e-2 if dtype == torch.bfloat16 else 1e-4,
            "inputs": [], "outputs": []}
    for i, a in enumerate(args):
        fn = f"input{i}.bin"
        a.detach().contiguous().cpu().view(torch.uint8).numpy().tofile(os.path.join(mdir, fn))
        meta["inputs"].append({"file": fn, "dtype": dname(a.dtype), "sizes": list(a.shape)})
    for i, r in enumerate(refs):
        fn = f"output{i}.bin"
        r.detach().float().contiguous().cpu().numpy().astype("<f4").tofile(os.path.join(mdir, fn))
        meta["outputs"].append({"file": fn, "dtype": dname(r.dtype), "sizes": list(r.shape),
                                "reference_dtype": "float32"})
    with open(os.path.join(mdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    with tarfile.open(os.path.join(out_dir, name + ".tar"), "w") as t:
        t.add(mdir, arcname=name)
    log(f"{name}: wrote {mdir} (.so {len(so_bytes)} B, weights {len(blob_bytes)} B)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default="mlp,conv,transformer")
    ap.add_argument("--keys", default="1.4", choices=["1.4", "legacy"])
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.one:
        export_one(a.one, a.out, a.keys)
        return
    # One process per model, in parallel: compile time dominates.
    procs = {m: subprocess.Popen([sys.executable, __file__, "--out", a.out, "--keys", a.keys,
                                  "--one", m]) for m in a.models.split(",")}
    failed = [m for m, p in procs.items() if p.wait() != 0]
    log(f"done; failed: {failed or 'none'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
