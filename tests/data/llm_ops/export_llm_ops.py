# Makes a small program whose graph keeps upstream's llama:: custom ops:
# a KV cache in two mutable buffers written by llama::update_cache, then
# llama::custom_sdpa (causal, grouped-query heads) over the caches at
# start_pos = input_pos[0]. Two calls (prefill at 0, then at 3) give the
# expected outputs from PyTorch eager, which runs upstream's own CPU kernels
# of these ops (the AOT library of executorch.extension.llm.custom_ops).
import os, sys
import torch
import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401 (registers llama::)
from executorch.exir import EdgeCompileConfig, to_edge

torch.manual_seed(0)
B, L, H, HKV, D, S = 1, 12, 4, 2, 8, 3

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, L, HKV, D))
        self.register_buffer("v_cache", torch.zeros(B, L, HKV, D))
    def forward(self, q, k, v, input_pos):
        start_pos = input_pos[0].item()
        torch._check_is_size(start_pos)
        torch._check(start_pos + S <= L)
        torch.ops.llama.update_cache(k, self.k_cache, start_pos)
        torch.ops.llama.update_cache(v, self.v_cache, start_pos)
        return torch.ops.llama.custom_sdpa(q, self.k_cache, self.v_cache, start_pos, None, 0, True)

inputs = []
for pos in (0, 3):
    inputs.append((torch.randn(B, S, H, D), torch.randn(B, S, HKV, D), torch.randn(B, S, HKV, D),
                   torch.tensor([pos], dtype=torch.int64)))

ref_model = M().eval()
refs = [ref_model(*x).detach().clone() for x in inputs]

ep = torch.export.export(M().eval(), inputs[0], strict=False)
prog = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False)).to_executorch()
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "kv_cache_sdpa.pte"), "wb") as f:
    prog.write_to_file(f)
# Inputs then expected outputs, raw little-endian float32, row-major, call
# by call: q, k, v (float32), then the output [1, 3, 4, 8].
with open(os.path.join(out, "kv_cache_sdpa.inputs.bin"), "wb") as f:
    for q, k, v, _ in inputs:
        for t in (q, k, v):
            f.write(t.contiguous().numpy().tobytes())
with open(os.path.join(out, "kv_cache_sdpa.expected.bin"), "wb") as f:
    for r in refs:
        f.write(r.contiguous().numpy().tobytes())
print(prog.exported_program().graph_module.code)
import executorch, torch as _t
print("executorch", getattr(executorch, "__version__", "?"), "torch", _t.__version__)
