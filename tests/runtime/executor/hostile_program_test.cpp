// Programs written the way an attacker would (issue 15), one test per class
// of defect: each must end in an Error, never in undefined behaviour, an
// abort or unbounded memory or time. The files come from the test .pte
// writer; this suite also runs under ASan/UBSan in CI.
#include <chrono>
#include <cstring>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <executorch/extension/evalue_util/print_evalue.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>

#include "executor_test_util.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;

namespace {

class Hostile : public ::testing::Test {
 protected:
  void SetUp() override { runtime_init(); }
};

struct Loaded {
  explicit Loaded(const ProgramDesc& desc)
      : bytes(serialize(desc)), loader(bytes.data(), bytes.size()) {}
  std::vector<uint8_t> bytes;
  BufferDataLoader loader;
};

TensorDesc planned(Dtype dtype, std::vector<int32_t> sizes, uint64_t offset,
                   std::vector<uint8_t> dim_order = {}) {
  TensorDesc t;
  t.scalar_type = int8_t(dtype);
  t.sizes = std::move(sizes);
  t.dim_order = std::move(dim_order);
  t.mem_id = 1;
  t.mem_offset = offset;
  return t;
}

// The .pte of issue 15 item 1: clone.out from a [32768, 65536, 2] float
// tensor at 2^34 into one laid out with dim order (2, 0, 1) at 0. Dim 2's
// stride in that order is 2^31, which the 32-bit stride type cannot hold.
ProgramDesc clone_with_wide_strides(std::vector<int32_t> sizes) {
  MethodDesc m;
  const uint64_t in_offset = uint64_t(1) << 34;
  int32_t in = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, sizes, in_offset)));
  int32_t none = m.add_value(ValueDesc::Null());
  int32_t out = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, sizes, 0, {2, 0, 1})));
  m.inputs = {in};
  m.outputs = {out};
  m.non_const_buffer_sizes = {0, int64_t(1) << 36};
  m.add_operator("aten::clone", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {in, none, out, out})};
  ProgramDesc p;
  p.methods = {m};
  return p;
}

// Item 1: strides and offsets that do not fit the kernels' index types are
// rejected when the program loads, before any memory is asked for.
TEST_F(Hostile, StridesOverflowingInt32AreRejectedAtLoad) {
  Loaded wide(clone_with_wide_strides({32768, 65536, 2}));
  EXPECT_EQ(Program::load(&wide.loader).error(), Error::InvalidProgram);
  // One less along dim 0: the largest stride is 2^31 - 2^16, which fits.
  Loaded fits(clone_with_wide_strides({32767, 65536, 2}));
  EXPECT_EQ(Program::load(&fits.loader).error(), Error::Ok);
  // No elements at all, but a size of 0 counts as 1 in the strides: dim 0's
  // stride would be 2^40.
  Loaded empty(clone_with_wide_strides({0, int32_t(1) << 20, int32_t(1) << 20}));
  EXPECT_EQ(Program::load(&empty.loader).error(), Error::InvalidProgram);
}

TEST_F(Hostile, TensorBytesOverflowIsRejectedAtLoad) {
  MethodDesc m;
  // 2^31 * 2^31 * 2 floats: 2^65 bytes.
  TensorDesc t = planned(Dtype::Float, {INT32_MAX, INT32_MAX, 2}, 0);
  m.add_value(ValueDesc::Tensor(t));
  m.non_const_buffer_sizes = {0, 16};
  ProgramDesc p;
  p.methods = {m};
  Loaded l(p);
  EXPECT_EQ(Program::load(&l.loader).error(), Error::InvalidProgram);
}

// Item 6: an extended header length near 2^32 used to wrap `8 + length` to
// a small number and pass.
TEST_F(Hostile, ExtendedHeaderLengthNear4GiBIsRejected) {
  ProgramDesc p;
  p.methods = {MethodDesc{}};
  Loaded l(p);
  ASSERT_EQ(Program::load(&l.loader).error(), Error::Ok);
  for (uint32_t length : {0xffffffffu, 0xfffffff9u, 0xfffffff8u}) {
    std::vector<uint8_t> bytes = l.bytes;
    std::memcpy(bytes.data() + 12, &length, 4);
    BufferDataLoader loader(bytes.data(), bytes.size());
    EXPECT_EQ(Program::load(&loader).error(), Error::InvalidProgram) << length;
  }
}

// Item 6: bool tensor bytes from the file other than 0 and 1 are read as
// bytes (true when non-zero), not as C++ bool (UBSan: invalid bool load).
TEST_F(Hostile, BoolBytesOtherThanZeroAndOneReadAsTrue) {
  ProgramDesc p;
  p.add_constant_segment({{0x40, 0x00, 0xff, 0x01}});
  MethodDesc m;
  TensorDesc flags;
  flags.scalar_type = int8_t(Dtype::Bool);
  flags.sizes = {4};
  flags.data_buffer_idx = 1;
  int32_t cond = m.add_value(ValueDesc::Tensor(flags));
  TensorDesc all_true = flags;
  all_true.sizes = {1};
  int32_t first = m.add_value(ValueDesc::Tensor(all_true));
  int32_t no = m.add_value(ValueDesc::Bool(false));
  int32_t none = m.add_value(ValueDesc::Null());
  int32_t out = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {4}, 0)));
  int32_t taken = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {1}, 16)));
  int32_t scratch = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {1}, 20)));
  m.non_const_buffer_sizes = {0, 32};
  m.outputs = {cond, out, taken};
  m.add_operator("aten::_to_copy", "out");
  // 0: out = float(cond); 1: jump to 3 unless `first` (0x40) is true;
  // 2: taken = float(first); 3: free scratch (a jump target).
  m.chains[0] = {
      InstructionDesc::Kernel(0, {cond, no, none, out, out}), InstructionDesc::JumpFalse(first, 3),
      InstructionDesc::Kernel(0, {first, no, none, taken, taken}), InstructionDesc::Free(scratch)};
  p.methods = {m};
  Loaded l(p);
  auto program = Program::load(&l.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  if (method.error() == Error::OperatorMissing) {
    GTEST_SKIP() << "portable kernels not registered";
  }
  ASSERT_EQ(method.error(), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);
  const float* converted = method->get_output(1).toTensor().const_data_ptr<float>();
  EXPECT_EQ(std::vector<float>(converted, converted + 4), (std::vector<float>{1, 0, 1, 1}));
  EXPECT_EQ(method->get_output(2).toTensor().const_data_ptr<float>()[0], 1.0f);
  std::ostringstream printed;
  printed << method->get_output(0);
  EXPECT_EQ(printed.str(), "tensor(sizes=[4], [True, False, True, True])");
}

// Item 2: a MoveCall may not change a value's type (upstream's emitter only
// moves between values of one type); the retyped input slot and list item
// of the issue are rejected when the program loads.
TEST_F(Hostile, MoveCallThatRetypesIsRejectedAtLoad) {
  for (bool input_slot : {true, false}) {
    MethodDesc m;
    int32_t t = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {2}, 0)));
    int32_t n = m.add_value(ValueDesc::Int(3));
    int32_t list = m.add_value(ValueDesc::IntList({n}));
    m.non_const_buffer_sizes = {0, 16};
    // The Int is a method input, or only an item of the returned IntList.
    if (input_slot) m.inputs = {n};
    m.outputs = {list};
    m.chains[0] = {InstructionDesc::Move(t, n)};
    ProgramDesc p;
    p.methods = {m};
    Loaded l(p);
    EXPECT_EQ(Program::load(&l.loader).error(), Error::InvalidProgram) << input_slot;
  }
}

// x (planned input) is overwritten by a move from the constant c, then
// out = x + x. Setting x again must write x's own planned memory, never the
// constant that the move left in its slot.
TEST_F(Hostile, SettingAnInputAgainAfterAMoveLeavesTheMovedValueAlone) {
  ProgramDesc p;
  p.add_constant_segment({bytes_of(std::vector<float>{3, 4})});
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {2}, 0)));
  TensorDesc constant;
  constant.sizes = {2};
  constant.data_buffer_idx = 1;
  int32_t c = m.add_value(ValueDesc::Tensor(constant));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  int32_t out = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {2}, 16)));
  m.non_const_buffer_sizes = {0, 32};
  m.inputs = {x};
  m.outputs = {out, c};
  m.add_operator("aten::add", "out");
  m.chains[0] = {InstructionDesc::Move(c, x), InstructionDesc::Kernel(0, {x, x, alpha, out, out})};
  p.methods = {m};
  Loaded l(p);
  auto program = Program::load(&l.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  for (int run = 0; run < 3; ++run) {
    std::vector<float> input{10.0f * run, 1};
    int32_t sizes[1] = {2};
    TensorImpl impl(ScalarType::Float, 1, sizes, input.data());
    ASSERT_EQ(method->set_input(EValue(Tensor(&impl)), 0), Error::Ok) << run;
    ASSERT_EQ(method->execute(), Error::Ok);
    const float* sum = method->get_output(0).toTensor().const_data_ptr<float>();
    EXPECT_EQ(std::vector<float>(sum, sum + 2), (std::vector<float>{6, 8})) << run;
    const float* kept = method->get_output(1).toTensor().const_data_ptr<float>();
    EXPECT_EQ(std::vector<float>(kept, kept + 2), (std::vector<float>{3, 4})) << run;
  }
}

// List outputs read back (and print) through the checked list accessors.
TEST_F(Hostile, ListOutputsReadAndPrint) {
  MethodDesc m;
  int32_t x = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {2}, 0)));
  int32_t y = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {2}, 16)));
  int32_t a = m.add_value(ValueDesc::Int(7));
  int32_t b = m.add_value(ValueDesc::Int(-1));
  int32_t tensors = m.add_value(ValueDesc::TensorList({x, y}));
  int32_t ints = m.add_value(ValueDesc::IntList({a, b}));
  int32_t optional = m.add_value(ValueDesc::OptionalTensorList({y, -1}));
  m.non_const_buffer_sizes = {0, 32};
  m.inputs = {x};
  m.outputs = {tensors, ints, optional};
  m.chains[0] = {InstructionDesc::Move(y, x), InstructionDesc::Move(b, a)};
  ProgramDesc p;
  p.methods = {m};
  Loaded l(p);
  auto program = Program::load(&l.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get());
  ASSERT_EQ(method.error(), Error::Ok);
  EValue input;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_EQ(method->get_inputs(&input, 1), Error::Ok); // x keeps its planned zeros
#pragma GCC diagnostic pop
  ASSERT_EQ(method->execute(), Error::Ok);
  auto list = method->get_output(0).toTensorList();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].numel(), 2);
  auto int_list = method->get_output(1).toIntList();
  ASSERT_EQ(int_list.size(), 2u);
  EXPECT_EQ(int_list[0], -1); // moved from b
  auto opt = method->get_output(2).toListOptionalTensor();
  ASSERT_EQ(opt.size(), 2u);
  EXPECT_TRUE(opt[0].has_value());
  EXPECT_FALSE(opt[1].has_value());
  std::ostringstream printed;
  printed << method->get_output(1);
  EXPECT_EQ(printed.str(), "(len=2)[-1, -1]");
}

// Item 5: a jump loop around a kernel stops after a bounded amount of
// element work (a multiple of what the method does without looping), not
// after 10M instructions, which around a 64 KiB add would take hours.
TEST_F(Hostile, JumpLoopAroundAKernelStopsAfterBoundedWork) {
  MethodDesc m;
  const int32_t n = 1 << 14;
  int32_t x = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {n}, 0)));
  int32_t alpha = m.add_value(ValueDesc::Int(1));
  int32_t out = m.add_value(ValueDesc::Tensor(planned(Dtype::Float, {n}, 4 * n)));
  int32_t no = m.add_value(ValueDesc::Bool(false));
  m.non_const_buffer_sizes = {0, 8 * n};
  m.outputs = {out};
  m.add_operator("aten::add", "out");
  m.chains[0] = {InstructionDesc::Kernel(0, {x, x, alpha, out, out}),
                 InstructionDesc::JumpFalse(no, 0)};
  ProgramDesc p;
  p.methods = {m};
  Loaded l(p);
  auto program = Program::load(&l.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"));
  auto method = program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr,
                                     test_kernel_span());
  ASSERT_EQ(method.error(), Error::Ok);
  for (int run = 0; run < 2; ++run) { // the budget is per run
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(method->execute(), Error::InvalidState);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  }
}

// Item 5: looking up external tensors is O(log n) per key, so loading a
// method with 40k of them takes well under a second, not a minute.
TEST_F(Hostile, ManyExternalTensorsLoadInLinearithmicTime) {
  const int kTensors = 40000;
  std::vector<NamedTensorDesc> named;
  MethodDesc m;
  for (int i = 0; i < kTensors; ++i) {
    // Keys in an order unrelated to the file order.
    const std::string key = "w." + std::to_string((i * 7919) % kTensors);
    named.push_back({key, int8_t(Dtype::Float), {1}, {}, bytes_of(std::vector<float>{1})});
    TensorDesc ext;
    ext.sizes = {1};
    ext.has_extra_info = true;
    ext.external = true;
    ext.fqn = key;
    m.add_value(ValueDesc::Tensor(ext));
  }
  ProgramDesc p;
  p.methods = {m};
  Loaded l(p);
  auto ptd = serialize_flat_tensor(named);
  BufferDataLoader ptd_loader(ptd.data(), ptd.size());
  const auto t0 = std::chrono::steady_clock::now();
  auto map = ::executorch::extension::FlatTensorDataMap::load(&ptd_loader);
  ASSERT_EQ(map.error(), Error::Ok);
  auto program = Program::load(&l.loader);
  ASSERT_EQ(program.error(), Error::Ok);
  MethodMemory mem(*program->method_meta("forward"), size_t(64) << 20);
  auto method = program->load_method("forward", mem.manager.get(), nullptr, &*map);
  ASSERT_EQ(method.error(), Error::Ok);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

} // namespace
