// executorch/runtime/executor/method.h: running a method one instruction at
// a time (step / in_progress / reset_execution) next to execute().
#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "executor_test_util.h"
#include "pte_writer.h"

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

// A moved-from Method answers every call with an Error (or an empty value),
// never a dereference of the state it gave away; the new one runs.
TEST_F(MethodStepTest, MovedFromMethodReturnsErrors) {
  set_input(1.0f);
  Method moved(std::move(*method_));
  Method& old = *method_;
  EXPECT_EQ(old.execute(), Error::InvalidState);
  EXPECT_EQ(old.step(), Error::InvalidState);
  EXPECT_FALSE(old.in_progress());
  EXPECT_EQ(old.reset_execution(), Error::InvalidState);
  EXPECT_EQ(old.set_input(EValue(Tensor(&x_impl_)), 0), Error::InvalidState);
  EValue in[1] = {EValue(Tensor(&x_impl_))};
  EXPECT_EQ(old.set_inputs(executorch::aten::ArrayRef<EValue>(in, 1)), Error::InvalidState);
  float buf[4];
  EXPECT_EQ(old.set_output_data_ptr(buf, sizeof(buf), 0), Error::InvalidState);
  EValue out[2];
  EXPECT_EQ(old.get_outputs(out, 2), Error::InvalidState);
  EXPECT_EQ(old.inputs_size(), 0u);
  EXPECT_EQ(old.outputs_size(), 0u);
  EXPECT_TRUE(old.get_output(0).isNone());
  EXPECT_EQ(old.get_attribute("c").error(), Error::InvalidState);
  EXPECT_EQ(old.get_event_tracer(), nullptr);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(old.get_inputs(out, 2), Error::InvalidState);
  EXPECT_TRUE(old.get_input(0).isNone());
  EXPECT_TRUE(old.mutable_input(0).isNone());
  EXPECT_TRUE(old.mutable_output(0).isNone());
#pragma GCC diagnostic pop
  const MethodMeta meta = old.method_meta();
  EXPECT_STREQ(meta.name(), "");
  EXPECT_EQ(meta.num_inputs(), 0u);
  EXPECT_EQ(meta.num_outputs(), 0u);
  EXPECT_EQ(meta.num_memory_planned_buffers(), 0u);
  EXPECT_EQ(meta.num_attributes(), 0u);
  EXPECT_EQ(meta.num_backends(), 0u);
  EXPECT_EQ(meta.num_instructions(), 0u);
  EXPECT_EQ(meta.num_operators(), 0u);
  EXPECT_FALSE(meta.uses_backend("XnnpackBackend"));
  EXPECT_EQ(meta.input_tensor_meta(0).error(), Error::InvalidArgument);
  EXPECT_EQ(meta.attribute_tensor_meta(0).error(), Error::InvalidState);
  EXPECT_EQ(meta.non_const_buffer_size(0).error(), Error::InvalidState);

  ASSERT_EQ(moved.execute(), Error::Ok);
  EXPECT_FLOAT_EQ(moved.get_output(0).toTensor().const_data_ptr<float>()[0], 5.0f);
}

namespace {

// forward(x) with x an unplanned input of 4 floats: add.out(x, x, 1, y),
// y unplanned. y is the method's output (the caller gives it data) or, with
// y_is_output false, an intermediate nothing ever gives data.
std::vector<uint8_t> unplanned_add(bool y_is_output) {
  using namespace ptewriter;
  MethodDesc m;
  m.name = "forward";
  TensorDesc t;
  t.sizes = {4};
  const int32_t x = m.add_value(ValueDesc::Tensor(t));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  const int32_t y = m.add_value(ValueDesc::Tensor(t));
  m.inputs = {x};
  m.outputs = {y_is_output ? y : x};
  m.add_operator("aten::add", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(0, {x, x, alpha, y, y}));
  ProgramDesc p;
  p.methods = {m};
  return serialize(p);
}

} // namespace

// A kernel argument that is neither planned, constant, external, nor given
// data by the caller would fail every run: load_method refuses it.
TEST(MethodUnplanned, DatalessIntermediateIsRefusedAtLoad) {
  executorch::runtime::runtime_init();
  const std::vector<uint8_t> bytes = unplanned_add(false);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  EXPECT_EQ(method.error(), Error::InvalidProgram);
}

// The same tensor as the method's output is fine: the caller gives it data.
TEST(MethodUnplanned, UnplannedInputAndOutputRun) {
  executorch::runtime::runtime_init();
  const std::vector<uint8_t> bytes = unplanned_add(true);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  float x[4] = {1, 2, 3, 4}, y[4] = {};
  int32_t sizes[1] = {4};
  TensorImpl xi(ScalarType::Float, 1, sizes, x);
  ASSERT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(method->set_output_data_ptr(y, sizeof(y), 0), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(y[3], 8.0f);
}

// An unplanned tensor that executorch_prim::et_view points at its input's
// data is not refused: the view gives it data at run time.
TEST(MethodUnplanned, ViewResultIsGivenData) {
  using namespace ptewriter;
  executorch::runtime::runtime_init();
  MethodDesc m;
  m.name = "forward";
  TensorDesc planned;
  planned.sizes = {4};
  planned.mem_id = 1;
  TensorDesc unplanned;
  unplanned.sizes = {4};
  const int32_t x = m.add_value(ValueDesc::Tensor(planned));
  const int32_t four = m.add_value(ValueDesc::Int(4));
  const int32_t size = m.add_value(ValueDesc::IntList({four}));
  const int32_t v = m.add_value(ValueDesc::Tensor(unplanned));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  planned.mem_offset = 16;
  const int32_t out = m.add_value(ValueDesc::Tensor(planned));
  m.inputs = {x};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, 32};
  m.add_operator("executorch_prim::et_view", "default");
  m.add_operator("aten::add", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(0, {x, size, v}));
  m.chains[0].push_back(InstructionDesc::Kernel(1, {v, v, alpha, out, out}));
  ProgramDesc p;
  p.methods = {m};
  const std::vector<uint8_t> bytes = serialize(p);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  float xs[4] = {1, 2, 3, 4};
  int32_t sizes[1] = {4};
  TensorImpl xi(ScalarType::Float, 1, sizes, xs);
  ASSERT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(method->get_output(0).toTensor().const_data_ptr<float>()[3], 8.0f);
}

// As upstream: execute() refuses to run (InvalidArgument) until every input
// was set, and runs once it is; a refused input does not count as set, and a
// failed execute() leaves no run in progress.
TEST_F(MethodStepTest, ExecuteRefusesUnsetInputs) {
  EXPECT_EQ(method_->execute(), Error::InvalidArgument);
  EXPECT_FALSE(method_->in_progress());
  int32_t bad_sizes[2] = {3, 3};
  float bad[9] = {};
  TensorImpl bad_impl{ScalarType::Float, 2, bad_sizes, bad};
  EXPECT_NE(method_->set_input(EValue(Tensor(&bad_impl)), 0), Error::Ok);
  EXPECT_EQ(method_->execute(), Error::InvalidArgument);
  set_input(1.0f);
  ASSERT_EQ(method_->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(output(0), 5.0f);
  // Once set, an input stays set for later runs.
  ASSERT_EQ(method_->execute(), Error::Ok);
}

// As upstream: handing an input out for the caller to fill (mutable_input,
// get_input, get_inputs) counts as setting it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(MethodStepTest, InputHandedOutCountsAsSet) {
  Tensor t = method_->mutable_input(0).toTensor();
  for (int i = 0; i < 4; ++i) t.mutable_data_ptr<float>()[i] = 2.0f;
  ASSERT_EQ(method_->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(output(0), 8.0f);
}

// An out-of-range index aborts with upstream's "i >= n" wording.
TEST_F(MethodStepTest, OutOfRangeInputIndexDies) {
  EXPECT_DEATH((void)method_->get_input(1), "1 >= 1");
  EXPECT_DEATH((void)method_->mutable_output(5), "5 >= 1");
}
#pragma GCC diagnostic pop

namespace {
// A temp allocator that counts its resets.
class CountingTempAllocator : public executorch::runtime::MemoryAllocator {
 public:
  CountingTempAllocator(uint32_t size, uint8_t* base) : MemoryAllocator(size, base) {}
  void reset() override {
    ++resets;
    MemoryAllocator::reset();
  }
  int resets = 0;
};
} // namespace

// As upstream: kernel scratch memory lives for one instruction. execute()
// resets the temp allocator before the run and after each instruction; step()
// after its instruction.
TEST(MethodTempMemory, ResetBeforeTheRunAndAfterEachInstruction) {
  executorch::runtime::runtime_init();
  const std::vector<uint8_t> bytes = read_file(conformance_path("linear_constant_buffer.pte"));
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  std::vector<uint8_t> temp_pool(1024);
  CountingTempAllocator temp(uint32_t(temp_pool.size()), temp_pool.data());
  executorch::runtime::MemoryManager manager(&mem.method_alloc, mem.planned.get(), &temp);
  auto method =
      program->load_method("forward", &manager, nullptr, nullptr, nullptr, test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  float x[4] = {1, 1, 1, 1};
  int32_t sizes[2] = {2, 2};
  TensorImpl xi(ScalarType::Float, 2, sizes, x);
  ASSERT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  const int before = temp.resets;
  ASSERT_EQ(method->execute(), Error::Ok); // two instructions
  EXPECT_EQ(temp.resets - before, 3);
  ASSERT_EQ(method->step(), Error::Ok);
  EXPECT_EQ(temp.resets - before, 4);
  ASSERT_EQ(method->step(), Error::Ok);
  EXPECT_EQ(temp.resets - before, 5);
}

// As upstream: a planned input given a tensor without data keeps what its
// planned buffer holds (and counts as set).
TEST_F(MethodStepTest, PlannedInputWithoutDataKeepsTheBuffer) {
  int32_t sizes[2] = {2, 2};
  TensorImpl no_data{ScalarType::Float, 2, sizes, nullptr};
  EXPECT_EQ(method_->execute(), Error::InvalidArgument);
  ASSERT_EQ(method_->set_input(EValue(Tensor(&no_data)), 0), Error::Ok);
  // What the planned buffer holds now is what the run reads.
  EValue in;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_EQ(method_->get_inputs(&in, 1), Error::Ok);
#pragma GCC diagnostic pop
  const float held = in.toTensor().const_data_ptr<float>()[0];
  ASSERT_EQ(method_->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(output(0), 3.0f * held + 2.0f);
}
