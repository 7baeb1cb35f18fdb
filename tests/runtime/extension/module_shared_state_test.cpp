// Module with share_memory_arenas, on a program laid out the way upstream's
// exporter lays out an LLM exported with share_mutable_buffers=True: methods
// `prefill` and `decode` keep their activations in planned buffer mem_id 1
// (a different size in each method) and a state tensor (the "cache") at the
// same place in mem_id 2. With shared arenas a call to one method continues
// the state the other left; without, each method has its own.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"

namespace {

using executorch::extension::BufferDataLoader;
using executorch::extension::Module;
using executorch::extension::TensorPtr;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using ptewriter::InstructionDesc;
using ptewriter::MethodDesc;
using ptewriter::ProgramDesc;
using ptewriter::TensorDesc;
using ptewriter::ValueDesc;

constexpr int32_t kState = 4; // floats in the shared state

int32_t planned_float(MethodDesc& m, int32_t n, uint32_t mem_id, uint64_t offset) {
  TensorDesc t;
  t.sizes = {n};
  t.mem_id = mem_id;
  t.mem_offset = offset;
  return m.add_value(ValueDesc::Tensor(t));
}

// state += x * scale; returns a copy of the state (in mem_id 1, as logits
// are). `pad` makes the method's mem_id 1 arena a different size.
MethodDesc stateful_method(const std::string& name, double scale, uint64_t pad) {
  MethodDesc m;
  m.name = name;
  const int32_t x = planned_float(m, kState, 1, pad);
  const int32_t scaled = planned_float(m, kState, 1, pad + 64);
  const int32_t out = planned_float(m, kState, 1, pad + 128);
  const int32_t state = planned_float(m, kState, 2, 0);
  const int32_t s = m.add_value(ValueDesc::Double(scale));
  const int32_t one = m.add_value(ValueDesc::Int(1));
  const int32_t zero = m.add_value(ValueDesc::Int(0));
  const int32_t mul = m.add_operator("aten::mul", "Scalar_out");
  const int32_t add = m.add_operator("aten::add", "out");
  const int32_t add_scalar = m.add_operator("aten::add", "Scalar_out");
  m.chains[0] = {InstructionDesc::Kernel(mul, {x, s, scaled, scaled}),
                 InstructionDesc::Kernel(add, {state, scaled, one, state, state}),
                 InstructionDesc::Kernel(add_scalar, {state, zero, one, out, out})};
  m.inputs = {x};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, int64_t(pad + 192), 64};
  return m;
}

std::vector<uint8_t> two_method_program() {
  ProgramDesc p;
  p.methods = {stateful_method("prefill", 1.0, 0), stateful_method("decode", 10.0, 256)};
  return ptewriter::serialize(p);
}

class ModuleSharedStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    bytes_ = two_method_program();
  }
  std::unique_ptr<Module> make(bool share) {
    return std::make_unique<Module>(
        std::make_unique<BufferDataLoader>(bytes_.data(), bytes_.size()), nullptr, nullptr, nullptr,
        nullptr, share);
  }
  std::vector<uint8_t> bytes_;
};

// Runs `method` on a constant input and returns the state it reports.
std::vector<float> call(Module& m, const char* method, float x) {
  std::vector<float> in(kState, x);
  TensorPtr t = executorch::extension::make_tensor_ptr({kState}, in);
  auto out = m.execute(method, {EValue(*t)});
  EXPECT_TRUE(out.ok()) << method;
  if (!out.ok() || out->empty() || !(*out)[0].isTensor()) {
    return {};
  }
  const auto& o = (*out)[0].toTensor();
  const float* p = o.const_data_ptr<float>();
  return std::vector<float>(p, p + o.numel());
}

std::vector<float> filled(float v) { return std::vector<float>(kState, v); }

TEST_F(ModuleSharedStateTest, DecodeContinuesWhatPrefillLeft) {
  auto m = make(/*share=*/true);
  EXPECT_EQ(call(*m, "prefill", 1.f), filled(1.f));
  // decode is loaded only now: loading it must not reset the shared state.
  EXPECT_EQ(call(*m, "decode", 2.f), filled(21.f));
  EXPECT_EQ(call(*m, "decode", 3.f), filled(51.f));
  EXPECT_EQ(call(*m, "prefill", 4.f), filled(55.f));
}

TEST_F(ModuleSharedStateTest, WithoutSharingEachMethodKeepsItsOwnState) {
  auto m = make(/*share=*/false);
  EXPECT_EQ(call(*m, "prefill", 1.f), filled(1.f));
  EXPECT_EQ(call(*m, "decode", 2.f), filled(20.f));
  EXPECT_EQ(call(*m, "decode", 3.f), filled(50.f));
  EXPECT_EQ(call(*m, "prefill", 4.f), filled(5.f));
}

// Shared arenas are sized for the largest method, whichever loads first.
TEST_F(ModuleSharedStateTest, SmallerMethodLoadedFirst) {
  auto m = make(/*share=*/true);
  ASSERT_EQ(m->load_method("prefill"), Error::Ok);
  ASSERT_EQ(m->load_method("decode"), Error::Ok);
  EXPECT_EQ(call(*m, "decode", 1.f), filled(10.f));
  EXPECT_EQ(call(*m, "prefill", 1.f), filled(11.f));
}

// Unloading and reloading a method keeps the shared state (it belongs to
// the Module, not to the method).
TEST_F(ModuleSharedStateTest, ReloadKeepsState) {
  auto m = make(/*share=*/true);
  EXPECT_EQ(call(*m, "prefill", 2.f), filled(2.f));
  EXPECT_TRUE(m->unload_method("prefill"));
  EXPECT_EQ(call(*m, "prefill", 2.f), filled(4.f));
}

} // namespace
