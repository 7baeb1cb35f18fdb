// make_demo: writes the demo program that executorch-run runs when given no
// model. Run at build time: `make_demo OUTPUT.pte`.
//
// The program has one method,
//   forward(x: float32[2,2], y: float32[2,2]) = x * c + y,  c = 2.0 everywhere
// computed with aten::mul.out and aten::add.out (alpha 1). Inputs and the
// intermediate live in one 64-byte planned buffer; c is a constant in
// Program.constant_buffer. Ones in give 3.0 everywhere.

#include <cstdio>
#include <cstring>
#include <vector>

#include "program_generated.h"

namespace fb = executorch_flatbuffer;

namespace {

flatbuffers::Offset<fb::EValue> planned_tensor(flatbuffers::FlatBufferBuilder& b,
                                               uint32_t offset) {
  const std::vector<int32_t> sizes{2, 2};
  const std::vector<uint8_t> dim_order{0, 1};
  auto alloc = fb::CreateAllocationDetails(b, /*memory_id=*/1, offset, 0);
  auto t = fb::CreateTensorDirect(b, fb::ScalarType::FLOAT, 0, &sizes, &dim_order,
                                  false, /*data_buffer_idx=*/0, alloc);
  return fb::CreateEValue(b, fb::KernelTypes::Tensor, t.Union());
}

flatbuffers::Offset<fb::EValue> constant_tensor(flatbuffers::FlatBufferBuilder& b,
                                                uint32_t buffer_idx) {
  const std::vector<int32_t> sizes{2, 2};
  const std::vector<uint8_t> dim_order{0, 1};
  auto t = fb::CreateTensorDirect(b, fb::ScalarType::FLOAT, 0, &sizes, &dim_order,
                                  false, buffer_idx);
  return fb::CreateEValue(b, fb::KernelTypes::Tensor, t.Union());
}

flatbuffers::Offset<fb::Instruction> kernel_call(flatbuffers::FlatBufferBuilder& b,
                                                 int op, const std::vector<int32_t>& args) {
  auto call = fb::CreateKernelCallDirect(b, op, &args);
  return fb::CreateInstruction(b, fb::InstructionArguments::KernelCall, call.Union());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.pte\n", argv[0]);
    return 2;
  }
  flatbuffers::FlatBufferBuilder b;

  // Values: 0 x, 1 y, 2 c (constant), 3 tmp, 4 alpha, 5 out.
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  values.push_back(planned_tensor(b, 0));
  values.push_back(planned_tensor(b, 16));
  values.push_back(constant_tensor(b, 1));
  values.push_back(planned_tensor(b, 32));
  values.push_back(fb::CreateEValue(b, fb::KernelTypes::Int, fb::CreateInt(b, 1).Union()));
  values.push_back(planned_tensor(b, 48));

  std::vector<flatbuffers::Offset<fb::Operator>> ops{
      fb::CreateOperatorDirect(b, "aten::mul", "out"),
      fb::CreateOperatorDirect(b, "aten::add", "out"),
  };
  // Schema arguments in order, out included, then the returned value.
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions{
      kernel_call(b, 0, {0, 2, 3, 3}),     // mul.out(x, c, out=tmp) -> tmp
      kernel_call(b, 1, {3, 1, 4, 5, 5}),  // add.out(tmp, y, alpha, out) -> out
  };
  const std::vector<int32_t> inputs{0, 1};
  const std::vector<int32_t> outputs{5};
  std::vector<flatbuffers::Offset<fb::Chain>> chains{
      fb::CreateChainDirect(b, &inputs, &outputs, &instructions),
  };
  const std::vector<int64_t> buffer_sizes{0, 64};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans{
      fb::CreateExecutionPlanDirect(b, "forward", 0, &values, &inputs, &outputs,
                                    &chains, &ops, nullptr, &buffer_sizes),
  };

  const float two[4] = {2.0f, 2.0f, 2.0f, 2.0f};
  std::vector<uint8_t> c_bytes(sizeof(two));
  std::memcpy(c_bytes.data(), two, sizeof(two));
  const std::vector<uint8_t> empty;
  std::vector<flatbuffers::Offset<fb::Buffer>> constants{
      fb::CreateBufferDirect(b, &empty),
      fb::CreateBufferDirect(b, &c_bytes),
  };

  auto program = fb::CreateProgramDirect(b, 0, &plans, &constants);
  b.Finish(program, fb::ProgramIdentifier());

  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  const bool ok = std::fwrite(b.GetBufferPointer(), 1, b.GetSize(), f) == b.GetSize();
  if (std::fclose(f) != 0 || !ok) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
