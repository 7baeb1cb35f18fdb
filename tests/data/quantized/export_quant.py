# Makes a small program whose graph keeps quantized_decomposed ops outside
# any delegate: a 4-bit grouped embedding, then a quantize/dequantize pair.
import os, sys, struct
import torch
import executorch.exir.passes._quant_patterns_and_replacements  # noqa: F401 (defines the ops)
from executorch.exir import EdgeCompileConfig, to_edge

# The out variants upstream's AOT library (not shipped in the Python kit)
# registers, with quantized.yaml's schemas: the emitter only needs them.
_lib = torch.library.Library("quantized_decomposed", "FRAGMENT")
_lib.define("quantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, "
            "int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)")
_lib.define("dequantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, "
            "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out) -> Tensor(a!)")

torch.manual_seed(0)
rows, dim, groups = 10, 8, 2
vals = torch.randint(-8, 8, (rows, dim), dtype=torch.int32)
u = (vals + 8).to(torch.uint8)
packed = (u[:, 0::2] << 4) | u[:, 1::2]
scales = (torch.rand(rows, groups) * 0.2 + 0.01).to(torch.float32)

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("w", packed)
        self.register_buffer("s", scales)
    def forward(self, idx):
        e = torch.ops.quantized_decomposed.embedding_4bit.default(self.w, self.s, None, -8, 7, idx)
        q = torch.ops.quantized_decomposed.quantize_per_tensor.default(e, 0.01, 3, -128, 127, torch.int8)
        return torch.ops.quantized_decomposed.dequantize_per_tensor.default(q, 0.01, 3, -128, 127, torch.int8)

idx = torch.tensor([[0, 3, 9], [7, 7, 1]], dtype=torch.int64)
m = M().eval()
ref = m(idx)
ep = torch.export.export(m, (idx,))
prog = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False)).to_executorch()
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "embedding_4bit_qdq.pte"), "wb") as f:
    prog.write_to_file(f)
with open(os.path.join(out, "embedding_4bit_qdq.expected.bin"), "wb") as f:
    f.write(ref.contiguous().numpy().tobytes())
print(prog.exported_program().graph_module.code)
print("ref shape", tuple(ref.shape), ref.dtype)
print("ref", ref.flatten()[:8])
