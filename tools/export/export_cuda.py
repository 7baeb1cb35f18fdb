#!/usr/bin/env python3
"""Export small PyTorch models for the CudaBackend delegate (runs where torch
with CUDA is installed). For each model: torch.export, AOTInductor compile
(libtorch-free .so + weights blob), then a .pte (one DelegateCall to
"CudaBackend") and a .ptd (FlatTensor holding the weights), in upstream's
1.4 layout, plus fixed inputs and eager reference outputs.

Layouts (--layout): "device" (default with 1.4 keys, upstream 1.4+): the
delegate's inputs and outputs live in a planned buffer on CUDA
(non_const_buffer_device, ExtraTensorInfo.device_type = CUDA) and the method
copies host input -> et_copy::_h2d_copy.out -> DelegateCall(s) ->
et_copy::_d2h_copy.out -> host output. "host": delegate I/O on the host, the
backend stages it to the GPU itself (1.1-1.3). "both": <model> in the device
layout plus <model>_host. Keys: sha256 keys (.so in the program's named data,
weights in the .ptd); --keys legacy writes 1.1-1.3 keys.
Models (VARIANTS): mlp, conv (conv2d + batch norm + pooling, Triton
autotuned), transformer (bf16, attention decomposed), conv_aten (the conv
net on the cuDNN convolution fallback), attn / attn32 (the transformer in
bf16 / fp32 calling the native SDPA fallbacks), mlp2 (the MLP split into two
AOTI .so files, two DelegateCalls chained in one method).

The writing half (program_table, write_pte, write_ptd, write_model_files)
needs no torch: tests/tools/test_export_writer.py runs it with fake blobs.

Usage: export_cuda.py --out DIR [--models mlp,conv,transformer,conv_aten,attn,attn32,mlp2]
                      [--keys 1.4|legacy] [--layout device|host|both]
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
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


ESIZE = {6: 4, 5: 2, 15: 2, 4: 8, 3: 4}
H2D_OP = ("et_copy::_h2d_copy", "out")
D2H_OP = ("et_copy::_d2h_copy", "out")


def _nbytes(dtype, sizes):
    n = 1
    for s in sizes:
        n *= s
    return n * ESIZE[SCALAR_TYPE[dtype]]


def program_table(method, partitions, layout="device"):
    """The Program table of a method made of CUDA delegate partitions chained
    one after the other (partition k's outputs are partition k+1's inputs).

    partitions: [{"processed": bytes, "compile_specs": [(key, bytes)],
                  "inputs": [(dtype, sizes)], "outputs": [(dtype, sizes)]}]
    layout "host": every tensor in planned buffer 1 on the host; the
    DelegateCalls take host tensors (1.1-1.3 behaviour).
    layout "device" (upstream 1.4+): method inputs/outputs in host buffer 1,
    every delegate input/output in buffer 2, which non_const_buffer_device
    puts on CUDA (ExtraTensorInfo.device_type = CUDA on those tensors), with
    et_copy::_h2d_copy.out before the first DelegateCall and
    et_copy::_d2h_copy.out after the last.
    Returns (program_table_without_segments_fields, n_delegates)."""
    if layout not in ("host", "device"):
        raise ValueError(f"unknown layout {layout!r}")
    if not partitions:
        raise ValueError("no partitions")
    for k in range(1, len(partitions)):
        if list(partitions[k - 1]["outputs"]) != list(partitions[k]["inputs"]):
            raise ValueError(f"partition {k - 1} outputs do not match partition {k} inputs")
    values = []
    offsets = {1: 0, 2: 0}

    def tensor(dtype, sizes, mem_id):
        off = offsets[mem_id]
        offsets[mem_id] += (_nbytes(dtype, sizes) + 63) // 64 * 64
        alloc = Table((0, "uint", mem_id), (1, "uint", off & 0xFFFFFFFF), (2, "uint", off >> 32))
        extra = None
        if layout == "device" and mem_id == 2:
            # device_type CUDA; location SEGMENT and device_index 0 are the
            # defaults, left out as FlatBuffers writers do
            extra = Table((3, "byte", 1))
        t = Table(
            (0, "byte", SCALAR_TYPE[dtype]), (1, "int", 0), (2, "vec:int", list(sizes)),
            (3, "vec:ubyte", list(range(len(sizes)))), (4, "bool", 0), (5, "uint", 0),
            (6, "table", alloc), (7, "byte", 0), (8, "byte", 0),
            (9, "table", extra))
        values.append(Table((0, "ubyte", 5), (1, "table", t)))
        return len(values) - 1

    dev_mem = 2 if layout == "device" else 1
    host_in = [tensor(d, s, 1) for d, s in partitions[0]["inputs"]]
    # Tensors between the steps: boundary[k] are partition k's inputs.
    boundary = [host_in if layout == "host" else
                [tensor(d, s, dev_mem) for d, s in partitions[0]["inputs"]]]
    for p in partitions:
        boundary.append([tensor(d, s, dev_mem) for d, s in p["outputs"]])
    if layout == "host":
        host_out = boundary[-1]
    else:
        host_out = [tensor(d, s, 1) for d, s in partitions[-1]["outputs"]]
    operators, instrs = [], []
    if layout == "device":
        operators = [Table((0, "str", H2D_OP[0]), (1, "str", H2D_OP[1])),
                     Table((0, "str", D2H_OP[0]), (1, "str", D2H_OP[1]))]
        for h, d in zip(host_in, boundary[0]):
            call = Table((0, "int", 0), (1, "vec:int", [h, d, d]))
            instrs.append(Table((0, "ubyte", 1), (1, "table", call)))
    delegates = []
    for k, p in enumerate(partitions):
        call = Table((0, "int", k), (1, "vec:int", boundary[k] + boundary[k + 1]))
        instrs.append(Table((0, "ubyte", 2), (1, "table", call)))
        delegates.append(Table(
            (0, "str", "CudaBackend"),
            (1, "table", Table((0, "ubyte", 0), (1, "uint", k))),
            (2, "vec:table", [Table((0, "str", key), (1, "bytes", v))
                              for key, v in p["compile_specs"]])))
    if layout == "device":
        for d, h in zip(boundary[-1], host_out):
            call = Table((0, "int", 1), (1, "vec:int", [d, h, h]))
            instrs.append(Table((0, "ubyte", 1), (1, "table", call)))
    chain = Table((0, "vec:int", host_in), (1, "vec:int", host_out), (2, "vec:table", instrs))
    sizes = [0, offsets[1]] + ([offsets[2]] if layout == "device" else [])
    devices = None
    if layout == "device":
        devices = [Table((0, "int", 2), (1, "byte", 1))]
    plan = Table(
        (0, "str", method), (1, "table", Table((0, "str", ""), (1, "str", ""))),
        (2, "vec:table", values), (3, "vec:int", host_in), (4, "vec:int", host_out),
        (5, "vec:table", [chain]), (6, "vec:table", operators), (7, "vec:table", delegates),
        (8, "vec:long", sizes), (9, "vec:table", devices))
    inline = [Table((0, "bytes", p["processed"])) for p in partitions]
    return plan, inline


def write_pte(path, method, partitions, named, layout="device"):
    """A .pte with one method of chained CudaBackend partitions (see
    program_table) and named data [(key, bytes)] in 128-aligned segments."""
    plan, inline = program_table(method, partitions, layout)
    seg_tables, seg_data = [], b""
    for _, data in named:
        seg_data = _pad(seg_data, 128)
        seg_tables.append(Table((0, "ulong", len(seg_data)), (1, "ulong", len(data))))
        seg_data += data
    program = Table(
        (0, "uint", 0), (1, "vec:table", [plan]),
        (3, "vec:table", inline),
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


def delegate_keys(so_bytes, blob_bytes, keys, method="forward", part=None):
    """(so_key, weights_key, processed) for one partition: 1.4 keys are
    sha256-based (processed names them); legacy keys are per method (a
    second partition cannot have its own legacy keys)."""
    if keys == "legacy":
        if part:
            raise ValueError("legacy keys allow one partition per method")
        return f"{method}_so_blob", f"{method}_weights_blob", b""
    so_key = hashlib.sha256(so_bytes).hexdigest() + "_so_blob"
    w_key = hashlib.sha256(blob_bytes).hexdigest() + "_weights_blob"
    return so_key, w_key, (so_key + "\n" + w_key).encode()


def write_model_files(mdir, method, parts, in_specs, out_specs, layout, keys="1.4"):
    """Writes model.pte and aoti_cuda_blob.ptd for compiled partitions.
    parts: [(so_bytes, blob_bytes, part_in_specs, part_out_specs)] chained;
    in_specs/out_specs: the method's [(dtype, sizes)]. Returns the keys."""
    os.makedirs(mdir, exist_ok=True)
    partitions, named, weights, all_keys = [], [], [], []
    for k, (so_bytes, blob_bytes, pin, pout) in enumerate(parts):
        so_key, w_key, processed = delegate_keys(so_bytes, blob_bytes, keys, method, k)
        all_keys.append((so_key, w_key))
        partitions.append({
            "processed": processed,
            "compile_specs": [("method_name", method.encode()), ("target_device", b"cuda:0")],
            "inputs": pin, "outputs": pout})
        if so_key not in [n for n, _ in named]:
            named.append((so_key, so_bytes))
        if blob_bytes and w_key not in [n for n, _ in weights]:
            weights.append((w_key, blob_bytes))
    if list(partitions[0]["inputs"]) != list(in_specs) or \
            list(partitions[-1]["outputs"]) != list(out_specs):
        raise ValueError("method I/O does not match the partitions")
    write_pte(os.path.join(mdir, "model.pte"), method, partitions, named, layout)
    write_ptd(os.path.join(mdir, "aoti_cuda_blob.ptd"), weights)
    return all_keys


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
                self.c1, self.bn1 = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
                self.c2, self.bn2 = nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16)
                self.fc = nn.Linear(16, 10)

            def forward(self, x):
                y = F.max_pool2d(F.relu(self.bn1(self.c1(x))), 2)
                y = F.relu(self.bn2(self.c2(y)))
                return self.fc(F.adaptive_avg_pool2d(y, 1).flatten(1))
        m = ConvNet()
        with torch.no_grad():
            # Non-trivial running statistics, so eval-mode batch norm is
            # not the identity.
            for bn in (m.bn1, m.bn2):
                bn.running_mean.uniform_(-0.5, 0.5)
                bn.running_var.uniform_(0.5, 2.0)
                bn.weight.uniform_(0.5, 1.5)
                bn.bias.uniform_(-0.2, 0.2)
        return m, (torch.randn(2, 3, 16, 16),), torch.float32
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


# Fixture name -> (model in build(), dtype override, Triton autotune,
# native SDPA). Without autotune Inductor leaves matmuls and convolutions to
# the ATen fallbacks the shim implements on cuBLAS/cuDNN
# (aoti_torch_cuda_mm_out/addmm_out/bmm_out, aoti_torch_cuda_convolution);
# with native SDPA it calls aoti_torch_cuda__scaled_dot_product_*_attention
# (flash for bf16, efficient for fp32) instead of decomposing attention.
VARIANTS = {
    "mlp": ("mlp", None, False, False),
    "conv": ("conv", None, True, False),
    "transformer": ("transformer", None, False, False),
    "conv_aten": ("conv", None, False, False),
    "attn": ("transformer", None, False, True),
    "attn32": ("transformer", "float32", False, True),
    "mlp2": ("mlp", None, False, False),
}


def _compile(module, args, name, autotune):
    """AOTInductor compile; returns (so_bytes, blob_bytes, so_path)."""
    import torch
    with torch.no_grad():
        log(f"{name}: torch.export")
        ep = torch.export.export(module, args)
        opts = {
            "aot_inductor.embed_kernel_binary": True,
            "aot_inductor.link_libtorch": False,
            "aot_inductor.package": True,
            "aot_inductor.package_constants_in_so": False,
            "aot_inductor.package_constants_on_disk_format": "binary_blob",
            "aot_inductor.emit_multi_arch_kernel": True,
        }
        if autotune:
            # Triton kernels for convolutions and gemms (no ATen fallback).
            opts.update({"max_autotune": True, "max_autotune_conv_backends": "TRITON",
                         "max_autotune_gemm_backends": "TRITON"})
        # otherwise matmuls go through the shim's cuBLAS fallbacks
        # (aoti_torch_cuda_mm_out/addmm_out/bmm_out).
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
    return so_bytes, blob_bytes, so[0]


def _dname(t):
    return str(t).replace("torch.", "")


def _write_fixture(mdir, name, method, parts, args, refs, dtype_tol, keys, layout, extra):
    import torch
    in_specs = [(_dname(a.dtype), list(a.shape)) for a in args]
    out_specs = [(_dname(r.dtype), list(r.shape)) for r in refs]
    all_keys = write_model_files(mdir, method, parts, in_specs, out_specs, layout, keys)
    meta = {"model": name, "method": method, "keys": keys, "layout": layout,
            "partitions": len(parts),
            "so_key": all_keys[0][0], "weights_key": all_keys[0][1],
            "tolerance": dtype_tol, "inputs": [], "outputs": []}
    meta.update(extra)
    for i, a in enumerate(args):
        fn = f"input{i}.bin"
        a.detach().contiguous().cpu().view(torch.uint8).numpy().tofile(os.path.join(mdir, fn))
        meta["inputs"].append({"file": fn, "dtype": _dname(a.dtype), "sizes": list(a.shape)})
    for i, r in enumerate(refs):
        fn = f"output{i}.bin"
        r.detach().float().contiguous().cpu().numpy().astype("<f4").tofile(os.path.join(mdir, fn))
        meta["outputs"].append({"file": fn, "dtype": _dname(r.dtype), "sizes": list(r.shape),
                                "reference_dtype": "float32"})
    with open(os.path.join(mdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    log(f"{name}: wrote {mdir} ({layout} layout, {len(parts)} partition(s), "
        f".pte {os.path.getsize(os.path.join(mdir, 'model.pte'))} B)")


def export_one(name, out_dir, keys, layouts):
    """Compiles `name` once and writes one fixture per layout: <name> for the
    first layout, <name>_<layout> for the others. name "mlp2": the MLP split
    into two AOTI .so (two DelegateCalls in one method)."""
    import contextlib
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    if name not in VARIANTS:
        raise SystemExit(f"unknown model {name}; known: {', '.join(VARIANTS)}")
    base, dtype_name, autotune, native_sdpa = VARIANTS[name]
    # fp32 references in true fp32: the shim's cuDNN convolution does not use
    # TF32 (cuBLAS matmuls already default to no TF32).
    torch.backends.cudnn.allow_tf32 = False
    model, args, dtype = build(base)
    if dtype_name:
        dtype = getattr(torch, dtype_name)
    model = model.to("cuda", dtype).eval()
    args = tuple(a.to("cuda", dtype) for a in args)
    tol = 2e-2 if dtype == torch.bfloat16 else 1e-4
    # MATH makes Inductor decompose attention into matmuls and a softmax;
    # the native-SDPA variants keep PyTorch's default backend choice for
    # both the reference and the compile.
    attention = contextlib.nullcontext() if native_sdpa else sdpa_kernel([SDPBackend.MATH])
    with torch.no_grad(), attention:
        ref = model(*args)
        refs = ref if isinstance(ref, (tuple, list)) else (ref,)
        if name == "mlp2":
            import torch.nn as nn
            import torch.nn.functional as F

            class Part1(nn.Module):
                def __init__(self, fc1):
                    super().__init__()
                    self.fc1 = fc1

                def forward(self, x):
                    return F.gelu(self.fc1(x))

            class Part2(nn.Module):
                def __init__(self, fc2):
                    super().__init__()
                    self.fc2 = fc2

                def forward(self, h):
                    return torch.softmax(self.fc2(h), dim=-1)
            p1, p2 = Part1(model.fc1).eval(), Part2(model.fc2).eval()
            mid = p1(*args)
            so1, blob1, path1 = _compile(p1, args, name + "/part1", False)
            so2, blob2, path2 = _compile(p2, (mid,), name + "/part2", False)
            spec = lambda ts: [(_dname(t.dtype), list(t.shape)) for t in ts]  # noqa: E731
            parts = [(so1, blob1, spec(args), spec((mid,))),
                     (so2, blob2, spec((mid,)), spec(refs))]
            so_paths = [path1, path2]
        else:
            so_bytes, blob_bytes, so_path = _compile(model, args, name, autotune)
            parts = [(so_bytes, blob_bytes, [(_dname(a.dtype), list(a.shape)) for a in args],
                      [(_dname(r.dtype), list(r.shape)) for r in refs])]
            so_paths = [so_path]
    for i, layout in enumerate(layouts):
        mdir = os.path.join(out_dir, name if i == 0 else f"{name}_{layout}")
        os.makedirs(mdir, exist_ok=True)
        with open(os.path.join(mdir, "imports.txt"), "w") as f:
            for sp in so_paths:
                subprocess.run(["nm", "-D", "--undefined-only", sp], stdout=f, check=False)
        _write_fixture(mdir, name, "forward", parts, args, refs, tol, keys, layout, {})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default=",".join(VARIANTS),
                    help="comma-separated, from: " + ", ".join(VARIANTS))
    ap.add_argument("--keys", default="1.4", choices=["1.4", "legacy"])
    ap.add_argument("--layout", default=None, choices=["device", "host", "both"],
                    help="device: upstream 1.4+ (delegate I/O on CUDA, et_copy kernels; "
                         "default for --keys 1.4); host: 1.1-1.3 host I/O (default for "
                         "--keys legacy); both: <model> in device layout plus "
                         "<model>_host")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    layout = a.layout or ("device" if a.keys == "1.4" else "host")
    layouts = ["device", "host"] if layout == "both" else [layout]
    os.makedirs(a.out, exist_ok=True)
    if a.one:
        export_one(a.one, a.out, a.keys, layouts)
        return
    # One process per model, in parallel: compile time dominates. Each gets
    # its own Inductor cache directory: models that share a graph (conv and
    # conv_aten, attn and attn32) would otherwise find each other's outputs
    # in a shared one.
    import shutil
    import tempfile
    cache_root = tempfile.mkdtemp(prefix="export-cuda-")
    procs = {}
    for m in a.models.split(","):
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(cache_root, m))
        procs[m] = subprocess.Popen([sys.executable, __file__, "--out", a.out, "--keys", a.keys,
                                     "--layout", layout, "--one", m], env=env)
    failed = [m for m, p in procs.items() if p.wait() != 0]
    shutil.rmtree(cache_root, ignore_errors=True)
    log(f"done; failed: {failed or 'none'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
