// Calls whose unread outputs a variant kernel skips (method_rewrite.cpp): a
// max pooling whose indices nothing reads runs the values-only kernel; one
// whose indices are a method output, or that the application serves with
// its own kernel, runs as written. The indices' planned bytes are also the
// bytes of a method output nothing writes (`probe`), so whether they were
// written shows there.
#include <gtest/gtest.h>

#include <executorch/runtime/kernel/builtin_kernels.h>

#include "executor_test_util.h"
#include "planned_tensor.h"
#include "kernel/internal_ops.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;

namespace {

// out, ind = max_pool2d_with_indices(x, 2, 2) over a 4x4 plane; probe is
// int64 [4] over ind's bytes. Outputs: out and probe, and ind when asked.
ProgramDesc pool_program(bool ind_is_output) {
  MethodDesc m;
  m.name = "forward";
  const int32_t x = m.add_value(ValueDesc::Tensor(planned({1, 1, 4, 4}, 0, Dtype::Float)));
  const int32_t two = m.add_value(ValueDesc::Int(2)), zero = m.add_value(ValueDesc::Int(0));
  const int32_t one = m.add_value(ValueDesc::Int(1));
  const int32_t k = m.add_value(ValueDesc::IntList({two, two}));
  const int32_t s = m.add_value(ValueDesc::IntList({two, two}));
  const int32_t p = m.add_value(ValueDesc::IntList({zero, zero}));
  const int32_t d = m.add_value(ValueDesc::IntList({one, one}));
  const int32_t ceil = m.add_value(ValueDesc::Bool(false));
  const int32_t out = m.add_value(ValueDesc::Tensor(planned({1, 1, 2, 2}, 64, Dtype::Float)));
  const int32_t ind = m.add_value(ValueDesc::Tensor(planned({1, 1, 2, 2}, 128, Dtype::Long)));
  const int32_t ret = m.add_value(ValueDesc::TensorList({out, ind}));
  const int32_t probe = m.add_value(ValueDesc::Tensor(planned({4}, 128, Dtype::Long)));
  m.inputs = {x};
  m.outputs =
      ind_is_output ? std::vector<int32_t>{out, probe, ind} : std::vector<int32_t>{out, probe};
  m.non_const_buffer_sizes = {0, 160};
  m.add_operator("aten::max_pool2d_with_indices", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(0, {x, k, s, p, d, ceil, out, ind, ret}));
  ProgramDesc prog;
  prog.methods = {m};
  return prog;
}

struct Outcome {
  std::vector<float> out;
  std::vector<int64_t> probe;
};

constexpr int64_t kSentinel = -7;

Outcome run(const ProgramDesc& desc, Span<const Kernel> kernels) {
  Outcome r;
  std::vector<uint8_t> bytes = serialize(desc);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  EXPECT_EQ(program.error(), Error::Ok);
  if (!program.ok()) return r;
  MethodMemory mem(*program->method_meta("forward"));
  auto method =
      program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr, kernels);
  EXPECT_EQ(method.error(), Error::Ok);
  if (!method.ok()) return r;
  std::vector<float> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float((i * 7) % 16); // maxima at varied taps
  int32_t xs[4] = {1, 1, 4, 4};
  TensorImpl xi(ScalarType::Float, 4, xs, x.data());
  EXPECT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  // buffers[0] is memory id 1, where ind and probe are planned.
  int64_t* probe = reinterpret_cast<int64_t*>(mem.buffers[0].data() + 128);
  std::fill(probe, probe + 4, kSentinel);
  EXPECT_EQ(method->execute(), Error::Ok);
  const Tensor& out = method->get_output(0).toTensor();
  r.out.assign(out.const_data_ptr<float>(), out.const_data_ptr<float>() + out.numel());
  const Tensor& pr = method->get_output(1).toTensor();
  r.probe.assign(pr.const_data_ptr<int64_t>(), pr.const_data_ptr<int64_t>() + pr.numel());
  return r;
}

bool variant_built_in() {
  return get_builtin_kernel(::executorch::runtime::internal::kMaxPool2dValuesOp,
                            BuiltinKernelSet::Optimized) != nullptr;
}

// x = (7i mod 16): windows {0,7,12,3}, {14,5,10,1}, {8,15,4,11}, {6,13,2,9}.
const std::vector<float> kMax{12, 14, 15, 13};
const std::vector<int64_t> kIndices{4, 2, 9, 11};
const std::vector<int64_t> kUntouched(4, kSentinel);

TEST(MethodRewrite, UnreadIndicesAreNotComputed) {
  if (!variant_built_in()) GTEST_SKIP() << "no optimized kernels in this build";
  const Outcome r = run(pool_program(false), {});
  EXPECT_EQ(r.out, kMax);
  EXPECT_EQ(r.probe, kUntouched);
}

TEST(MethodRewrite, IndicesThatAreAnOutputAreComputed) {
  const Outcome r = run(pool_program(true), {});
  EXPECT_EQ(r.out, kMax);
  EXPECT_EQ(r.probe, kIndices);
}

TEST(MethodRewrite, AnApplicationKernelRunsAsWritten) {
  const OpFunction portable =
      get_builtin_kernel("aten::max_pool2d_with_indices.out", BuiltinKernelSet::Portable);
  if (portable == nullptr) GTEST_SKIP() << "no portable kernels in this build";
  const Kernel own[] = {Kernel("aten::max_pool2d_with_indices.out", portable)};
  const Outcome r = run(pool_program(false), Span<const Kernel>(own, 1));
  EXPECT_EQ(r.out, kMax);
  EXPECT_EQ(r.probe, kIndices);
}

} // namespace
