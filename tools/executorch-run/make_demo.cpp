// make_demo: writes the demo program that executorch-run runs when given no
// model. Run at build time: `make_demo OUTPUT.pte`.
//
// The program has one method,
//   forward(x: float32[2,2], y: float32[2,2]) = x * c + y,  c = 2.0 everywhere
// computed with aten::mul.out and aten::add.out (alpha 1). Inputs, the
// intermediate and the output live in one 64-byte planned buffer; c is a
// constant in the program's constant segment. Ones in give 3.0 everywhere.

#include <cstdio>
#include <vector>

#include "pte_writer.h"

using namespace ptewriter;

namespace {

TensorDesc float22() {
  TensorDesc t;
  t.scalar_type = int8_t(Dtype::Float);
  t.sizes = {2, 2};
  t.dim_order = {0, 1};
  return t;
}

TensorDesc planned(uint64_t offset) {
  TensorDesc t = float22();
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.pte\n", argv[0]);
    return 2;
  }
  ProgramDesc p;
  p.add_constant_segment({bytes_of(std::vector<float>{2.0f, 2.0f, 2.0f, 2.0f})});

  MethodDesc m;
  m.name = "forward";
  const int32_t x = m.add_value(ValueDesc::Tensor(planned(0)));
  const int32_t y = m.add_value(ValueDesc::Tensor(planned(16)));
  TensorDesc c = float22();
  c.data_buffer_idx = 1;
  const int32_t cv = m.add_value(ValueDesc::Tensor(c));
  const int32_t tmp = m.add_value(ValueDesc::Tensor(planned(32)));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  const int32_t out = m.add_value(ValueDesc::Tensor(planned(48)));
  const int32_t mul = m.add_operator("aten::mul", "out");
  const int32_t add = m.add_operator("aten::add", "out");
  // Schema arguments in order, out included, then the returned value.
  m.chains = {{
      InstructionDesc::Kernel(mul, {x, cv, tmp, tmp}),
      InstructionDesc::Kernel(add, {tmp, y, alpha, out, out}),
  }};
  m.inputs = {x, y};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 64};
  p.methods = {m};

  const std::vector<uint8_t> bytes = serialize(p);
  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
