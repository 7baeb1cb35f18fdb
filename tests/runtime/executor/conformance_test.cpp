// The upstream-written conformance programs run through the public API.
#include <gtest/gtest.h>

#include "executor_test_util.h"

using namespace et_test;
using ::executorch::extension::BufferDataLoader;

namespace {

struct Loaded {
  std::vector<uint8_t> bytes;
  std::unique_ptr<BufferDataLoader> loader;
};

Loaded open_conformance(const char* name) {
  Loaded l;
  l.bytes = read_file(conformance_path(name));
  l.loader = std::make_unique<BufferDataLoader>(l.bytes.data(), l.bytes.size());
  return l;
}

float run_add(Program& program, float x, float y, Span<const Kernel> kernels) {
  auto meta = program.method_meta("forward");
  EXPECT_TRUE(meta.ok());
  MethodMemory mem(*meta);
  auto method =
      program.load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr, kernels);
  EXPECT_EQ(method.error(), Error::Ok);
  if (!method.ok()) return -1000;
  int32_t sizes[1] = {1};
  TensorImpl xi(ScalarType::Float, 1, sizes, &x), yi(ScalarType::Float, 1, sizes, &y);
  EXPECT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  EXPECT_EQ(method->set_input(EValue(Tensor(&yi)), 1), Error::Ok);
  EXPECT_EQ(method->execute(), Error::Ok);
  const EValue& out = method->get_output(0);
  EXPECT_TRUE(out.isTensor());
  return out.toTensor().const_data_ptr<float>()[0];
}

TEST(Conformance, AddPteMetaMatchesReadme) {
  auto l = open_conformance("add.pte");
  ASSERT_EQ(l.bytes.size(), 728u);
  auto program = Program::load(l.loader.get());
  ASSERT_EQ(program.error(), Error::Ok);
  EXPECT_EQ(program->num_methods(), 1u);
  EXPECT_STREQ(program->get_method_name(0).get(), "forward");
  auto meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->num_inputs(), 2u);
  EXPECT_EQ(meta->num_outputs(), 1u);
  EXPECT_EQ(meta->input_tag(0).get(), Tag::Tensor);
  auto info = meta->input_tensor_meta(0);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->scalar_type(), ScalarType::Float);
  EXPECT_TRUE(info->is_memory_planned());
  EXPECT_EQ(info->nbytes(), 4u);
  EXPECT_EQ(meta->num_memory_planned_buffers(), 1u);
  EXPECT_EQ(meta->memory_planned_buffer_size(0).get(), 48);
  // The deprecated names are plain aliases, as upstream's.
  EXPECT_EQ(meta->non_const_buffer_size(0).get(), 48);
  EXPECT_EQ(meta->non_const_buffer_size(1).error(), Error::InvalidArgument);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(meta->num_non_const_buffers(), 1u);
#pragma GCC diagnostic pop
  EXPECT_EQ(meta->num_operators(), 1u);
  EXPECT_STREQ(meta->get_operator_name(0).get(), "aten::add");
  EXPECT_STREQ(meta->get_operator_overload(0).get(), "out");
  EXPECT_EQ(meta->num_backends(), 0u);
  EXPECT_EQ(program->method_meta("nope").error(), Error::InvalidArgument);
}

TEST(Conformance, AddPteComputesWithMethodScopedKernels) {
  auto l = open_conformance("add.pte");
  auto program = Program::load(l.loader.get(), Program::Verification::InternalConsistency);
  ASSERT_EQ(program.error(), Error::Ok);
  EXPECT_FLOAT_EQ(run_add(*program, 1.0f, 1.0f, test_kernel_span()), 2.0f);
  EXPECT_FLOAT_EQ(run_add(*program, 3.5f, -1.25f, test_kernel_span()), 2.25f);
}

TEST(Conformance, AddPteComputesWithRegisteredKernels) {
  if (!registry_has_op_function("aten::add.out")) {
    GTEST_SKIP() << "no aten::add.out registered (portable kernels disabled)";
  }
  auto l = open_conformance("add.pte");
  auto program = Program::load(l.loader.get());
  ASSERT_EQ(program.error(), Error::Ok);
  EXPECT_FLOAT_EQ(run_add(*program, 3.5f, -1.25f, {}), 2.25f);
}

void check_linear(Span<const Kernel> kernels) {
  auto l = open_conformance("linear_constant_buffer.pte");
  ASSERT_EQ(l.bytes.size(), 1040u);
  auto program = Program::load(l.loader.get());
  ASSERT_EQ(program.error(), Error::Ok);
  auto meta = program->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  MethodMemory mem(*meta);
  auto method =
      program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr, kernels);
  ASSERT_EQ(method.error(), Error::Ok);
  int32_t sizes[2] = {2, 2};
  for (const std::vector<float>& in :
       {std::vector<float>{1, 1, 1, 1}, std::vector<float>{0.5f, -2, 10, 3}}) {
    std::vector<float> x = in;
    TensorImpl xi(ScalarType::Float, 2, sizes, x.data());
    ASSERT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
    ASSERT_EQ(method->execute(), Error::Ok);
    const Tensor& out = method->get_output(0).toTensor();
    ASSERT_EQ(out.numel(), 4);
    // Strides follow from the program's sizes and dim order (delegates and
    // strided copies read them).
    ASSERT_EQ(out.strides().size(), 2u);
    EXPECT_EQ(out.strides()[0], 2);
    EXPECT_EQ(out.strides()[1], 1);
    for (int i = 0; i < 4; ++i) {
      EXPECT_FLOAT_EQ(out.const_data_ptr<float>()[i], 3 * in[i] + 2) << i;
    }
  }
}

TEST(Conformance, LinearConstantBufferWithMethodScopedKernels) { check_linear(test_kernel_span()); }

TEST(Conformance, LinearConstantBufferWithRegisteredKernels) {
  if (!registry_has_op_function("aten::add.out") || !registry_has_op_function("aten::mul.out")) {
    GTEST_SKIP() << "portable kernels not registered";
  }
  check_linear({});
}

TEST(Conformance, CheckHeader) {
  auto bytes = read_file(conformance_path("add.pte"));
  ASSERT_GE(bytes.size(), 16u) << "cannot read add.pte (is ET_CONFORMANCE_DIR tests/data?)";
  EXPECT_EQ(Program::check_header(bytes.data(), bytes.size()),
            Program::HeaderStatus::CompatibleVersion);
  EXPECT_EQ(Program::check_header(bytes.data(), 4), Program::HeaderStatus::ShortData);
  bytes[7] = '9';
  EXPECT_EQ(Program::check_header(bytes.data(), bytes.size()),
            Program::HeaderStatus::IncompatibleVersion);
}

} // namespace
