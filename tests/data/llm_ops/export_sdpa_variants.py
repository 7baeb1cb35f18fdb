# Makes a small program with three attention calls over caller-given caches,
# compared against PyTorch eager (upstream's own CPU kernels of the llama::
# ops, from executorch.extension.llm.custom_ops):
#   out0 = custom_sdpa(q, k, v, start_pos=2, is_causal=False)   (keys 0..4)
#   out1 = custom_sdpa(q, k, v, start_pos=0, attn_mask=mask)    (all 10 keys)
#   out2 = custom_quantized_sdpa(int8 q/k/v with per-token zero points and
#          scales, start_pos=4, is_causal=True, scale=0.3)
# q [1, 3, 6, 8] (6 query heads), k/v [1, 10, 2, 8] (2 cache heads).
import os, sys
import torch
import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401 (registers llama::)
from executorch.exir import EdgeCompileConfig, to_edge

torch.manual_seed(1)
B, L, H, HKV, D, S = 1, 10, 6, 2, 8, 3

class M(torch.nn.Module):
    def forward(self, q, k, v, mask, qi, ki, vi, qz, qs, kz, ks, vz, vs):
        a = torch.ops.llama.custom_sdpa(q, k, v, 2, None, 0, False)
        b = torch.ops.llama.custom_sdpa(q, k, v, 0, mask, 0, False)
        c = torch.ops.llama.custom_quantized_sdpa(qi, ki, vi, 4, None, 0, True, 0.3,
                                                  qz, qs, kz, ks, vz, vs, False)
        return a, b, c

def per_token(shape):
    x = torch.randint(-128, 128, shape, dtype=torch.int8)
    z = torch.randint(-20, 20, shape[:-1] + (1,), dtype=torch.int8)
    s = torch.rand(shape[:-1] + (1,)) * 0.03 + 0.005
    return x, z, s

q, k, v = torch.randn(B, S, H, D), torch.randn(B, L, HKV, D), torch.randn(B, L, HKV, D)
mask = torch.randn(S, L)
mask[0, 7:] = float("-inf")
qi, qz, qs = per_token((B, S, H, D))
ki, kz, ks = per_token((B, L, HKV, D))
vi, vz, vs = per_token((B, L, HKV, D))
inputs = (q, k, v, mask, qi, ki, vi, qz, qs, kz, ks, vz, vs)
refs = M()(*inputs)

ep = torch.export.export(M(), inputs, strict=False)
prog = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False)).to_executorch()
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "sdpa_variants.pte"), "wb") as f:
    prog.write_to_file(f)
# The 13 inputs in order, then the 3 outputs, raw little-endian row-major
# bytes in each tensor's dtype (float32 or int8).
with open(os.path.join(out, "sdpa_variants.inputs.bin"), "wb") as f:
    for t in inputs:
        f.write(t.contiguous().numpy().tobytes())
with open(os.path.join(out, "sdpa_variants.expected.bin"), "wb") as f:
    for r in refs:
        f.write(r.contiguous().numpy().tobytes())
print(prog.exported_program().graph_module.code)
