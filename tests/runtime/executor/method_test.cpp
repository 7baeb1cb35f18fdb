// executorch/runtime/executor/method.h: running a method one instruction at
// a time (step / in_progress / reset_execution) next to execute().
#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "executor_test_util.h"

using namespace et_test;
using ::executorch::extension::BufferDataLoader;

namespace {

// linear_constant_buffer.pte: forward(x) = mul.out(c, x) then add.out(.., d):
// two instructions, 3x + 2 (tests/data/README.md).
class MethodStepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    bytes_ = read_file(conformance_path("linear_constant_buffer.pte"));
    loader_ = std::make_unique<BufferDataLoader>(bytes_.data(), bytes_.size());
    auto program = Program::load(loader_.get());
    ASSERT_EQ(program.error(), Error::Ok);
    program_ = std::make_unique<Program>(std::move(*program));
    auto meta = program_->method_meta("forward");
    ASSERT_TRUE(meta.ok());
    memory_ = std::make_unique<MethodMemory>(*meta);
    auto method = program_->load_method("forward", memory_->manager.get(), nullptr, nullptr,
                                        nullptr, test_kernel_span());
    ASSERT_EQ(method.error(), Error::Ok);
    method_ = std::make_unique<Method>(std::move(*method));
  }

  void set_input(float value) {
    for (float& v : x_) v = value;
    ASSERT_EQ(method_->set_input(EValue(Tensor(&x_impl_)), 0), Error::Ok);
  }
  float output(size_t i) const {
    return method_->get_output(0).toTensor().const_data_ptr<float>()[i];
  }

  std::vector<uint8_t> bytes_;
  std::unique_ptr<BufferDataLoader> loader_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<MethodMemory> memory_;
  std::unique_ptr<Method> method_;
  float x_[4] = {};
  int32_t sizes_[2] = {2, 2};
  TensorImpl x_impl_{ScalarType::Float, 2, sizes_, x_};
};

} // namespace

TEST_F(MethodStepTest, StepsThroughEachInstruction) {
  set_input(1.0f);
  EXPECT_FALSE(method_->in_progress());
  ASSERT_EQ(method_->step(), Error::Ok); // mul
  EXPECT_TRUE(method_->in_progress());
  ASSERT_EQ(method_->step(), Error::Ok); // add
  EXPECT_FALSE(method_->in_progress());
  EXPECT_EQ(method_->step(), Error::EndOfMethod);
  EXPECT_EQ(method_->step(), Error::EndOfMethod);
  EXPECT_FLOAT_EQ(output(0), 5.0f);
  ASSERT_EQ(method_->reset_execution(), Error::Ok);
  EXPECT_FALSE(method_->in_progress());
}

TEST_F(MethodStepTest, StepRunsAgainAfterReset) {
  set_input(1.0f);
  while (method_->step() == Error::Ok) {
  }
  ASSERT_EQ(method_->reset_execution(), Error::Ok);
  set_input(2.0f);
  ASSERT_EQ(method_->step(), Error::Ok);
  ASSERT_EQ(method_->step(), Error::Ok);
  EXPECT_EQ(method_->step(), Error::EndOfMethod);
  EXPECT_FLOAT_EQ(output(3), 8.0f);
}

TEST_F(MethodStepTest, ResetBeforeTheEndIsRefused) {
  set_input(1.0f);
  ASSERT_EQ(method_->step(), Error::Ok);
  EXPECT_EQ(method_->reset_execution(), Error::InvalidState);
  EXPECT_TRUE(method_->in_progress());
}

TEST_F(MethodStepTest, ExecuteIsRefusedWhileSteppingAndWorksAfter) {
  set_input(1.0f);
  ASSERT_EQ(method_->step(), Error::Ok);
  EXPECT_EQ(method_->execute(), Error::InvalidState);
  ASSERT_EQ(method_->step(), Error::Ok);
  EXPECT_EQ(method_->step(), Error::EndOfMethod);
  // At the end, execute() may run again without a reset (as upstream's).
  set_input(3.0f);
  ASSERT_EQ(method_->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(output(0), 11.0f);
  ASSERT_EQ(method_->reset_execution(), Error::Ok);
}

TEST_F(MethodStepTest, ExecuteDoesNotLeaveAStepInProgress) {
  set_input(1.0f);
  ASSERT_EQ(method_->execute(), Error::Ok);
  EXPECT_FALSE(method_->in_progress());
  ASSERT_EQ(method_->step(), Error::Ok);
  EXPECT_TRUE(method_->in_progress());
}

TEST_F(MethodStepTest, DeprecatedSpellingsForward) {
  set_input(1.0f);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_EQ(method_->experimental_step(), Error::Ok);
  ASSERT_EQ(method_->experimental_step(), Error::Ok);
  EXPECT_EQ(method_->experimental_step(), Error::EndOfMethod);
  EXPECT_EQ(method_->experimental_reset_execution(), Error::Ok);
#pragma GCC diagnostic pop
}
