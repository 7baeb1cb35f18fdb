// Layout calls on constants run once, at load (method_fold.cpp): a
// permute_copy of a constant weight is not run again by execute(), and its
// result stays right; one on a method input, or whose output is a method
// output, runs every time.
#include <gtest/gtest.h>

#include "executor_test_util.h"
#include "planned_tensor.h"
#include "pte_writer.h"

using namespace et_test;
using namespace ptewriter;
using ::executorch::extension::BufferDataLoader;

namespace {

int g_permute_calls = 0;

// A 2-D transpose under permute_copy.out's argument layout (self, dims,
// out, out), counting its calls.
void counting_transpose(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ++g_permute_calls;
  if (args.size() != 4 || !args[0]->isTensor() || !args[2]->isTensor()) {
    return ctx.fail(Error::InvalidArgument);
  }
  const Tensor& in = args[0]->toTensor();
  Tensor& out = args[2]->toTensor();
  const ssize_t rows = in.size(0), cols = in.size(1);
  for (ssize_t r = 0; r < rows; ++r) {
    for (ssize_t c = 0; c < cols; ++c) {
      out.mutable_data_ptr<float>()[c * rows + r] = in.const_data_ptr<float>()[r * cols + c];
    }
  }
}

Span<const Kernel> kernels() {
  static const Kernel k[] = {Kernel("aten::add.out", test_add_out),
                             Kernel("aten::permute_copy.out", counting_transpose)};
  return Span<const Kernel>(k, 2);
}

// out = permute(w) + x, w a constant [2, 3] (or, with w_is_input, an input)
// and x, t = permute(w), out planned [3, 2]; t can be the method's output,
// and out can reuse t's planned bytes (as a planner does once t is dead).
ProgramDesc permute_add(bool w_is_input, bool t_is_output, bool out_over_t = false) {
  MethodDesc m;
  m.name = "forward";
  TensorDesc wd = w_is_input ? planned({2, 3}, 72) : TensorDesc{};
  if (!w_is_input) {
    wd.sizes = {2, 3};
    wd.data_buffer_idx = 1;
  }
  const int32_t w = m.add_value(ValueDesc::Tensor(wd));
  const int32_t one = m.add_value(ValueDesc::Int(1)), zero = m.add_value(ValueDesc::Int(0));
  const int32_t dims = m.add_value(ValueDesc::IntList({one, zero}));
  const int32_t t = m.add_value(ValueDesc::Tensor(planned({3, 2}, 0)));
  const int32_t x = m.add_value(ValueDesc::Tensor(planned({3, 2}, 24)));
  const int32_t alpha = m.add_value(ValueDesc::Int(1));
  const int32_t out = m.add_value(ValueDesc::Tensor(planned({3, 2}, out_over_t ? 0 : 48)));
  m.inputs = w_is_input ? std::vector<int32_t>{x, w} : std::vector<int32_t>{x};
  m.outputs = t_is_output ? std::vector<int32_t>{out, t} : std::vector<int32_t>{out};
  m.non_const_buffer_sizes = {0, 96};
  m.add_operator("aten::permute_copy", "out");
  m.add_operator("aten::add", "out");
  m.chains[0].push_back(InstructionDesc::Kernel(0, {w, dims, t, t}));
  m.chains[0].push_back(InstructionDesc::Kernel(1, {t, x, alpha, out, out}));
  ProgramDesc p;
  p.methods = {m};
  const std::vector<float> wv{1, 2, 3, 4, 5, 6};
  p.add_constant_segment({bytes_of(wv)});
  return p;
}

struct Outcome {
  int calls_at_load = 0, calls_after = 0;
  std::vector<float> out;
};

Outcome load_and_run(const ProgramDesc& desc, int executes) {
  Outcome r;
  std::vector<uint8_t> bytes = serialize(desc);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  EXPECT_EQ(program.error(), Error::Ok);
  if (!program.ok()) return r;
  MethodMemory mem(*program->method_meta("forward"));
  g_permute_calls = 0;
  auto method =
      program->load_method("forward", mem.manager.get(), nullptr, nullptr, nullptr, kernels());
  EXPECT_EQ(method.error(), Error::Ok);
  if (!method.ok()) return r;
  r.calls_at_load = g_permute_calls;
  std::vector<float> x{10, 20, 30, 40, 50, 60}, w{1, 2, 3, 4, 5, 6};
  int32_t xs[2] = {3, 2}, ws[2] = {2, 3};
  TensorImpl xi(ScalarType::Float, 2, xs, x.data()), wi(ScalarType::Float, 2, ws, w.data());
  EXPECT_EQ(method->set_input(EValue(Tensor(&xi)), 0), Error::Ok);
  if (method->inputs_size() > 1) {
    EXPECT_EQ(method->set_input(EValue(Tensor(&wi)), 1), Error::Ok);
  }
  for (int i = 0; i < executes; ++i) EXPECT_EQ(method->execute(), Error::Ok);
  r.calls_after = g_permute_calls;
  const Tensor& out = method->get_output(0).toTensor();
  r.out.assign(out.const_data_ptr<float>(), out.const_data_ptr<float>() + out.numel());
  return r;
}

const std::vector<float> kWant{11, 24, 32, 45, 53, 66}; // w^T + x

TEST(MethodFold, PermuteOfAConstantRunsOnceAtLoad) {
  const Outcome r = load_and_run(permute_add(false, false), 3);
  EXPECT_EQ(r.calls_at_load, 1);
  EXPECT_EQ(r.calls_after, 1);
  EXPECT_EQ(r.out, kWant);
}

TEST(MethodFold, FoldedResultHasMemoryOfItsOwn) {
  // out is written where t was planned: a folded t must not live there.
  const Outcome r = load_and_run(permute_add(false, false, true), 3);
  EXPECT_EQ(r.calls_at_load, 1);
  EXPECT_EQ(r.calls_after, 1);
  EXPECT_EQ(r.out, kWant);
}

TEST(MethodFold, PermuteOfAnInputRunsEveryTime) {
  const Outcome r = load_and_run(permute_add(true, false), 3);
  EXPECT_EQ(r.calls_at_load, 0);
  EXPECT_EQ(r.calls_after, 3);
  EXPECT_EQ(r.out, kWant);
}

TEST(MethodFold, PermuteWhoseResultIsAnOutputRunsEveryTime) {
  const Outcome r = load_and_run(permute_add(false, true), 2);
  EXPECT_EQ(r.calls_at_load, 0);
  EXPECT_EQ(r.calls_after, 2);
  EXPECT_EQ(r.out, kWant);
}

} // namespace
