// extension/kernel_util/make_boxed_from_unboxed_functor.h: plain C++ kernel
// functions registered with EXECUTORCH_LIBRARY and called boxed.
#include <executorch/extension/kernel_util/make_boxed_from_unboxed_functor.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include <optional>

using executorch::aten::ArrayRef;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::runtime::BoxedEvalueList;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::get_op_function_from_registry;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::registry_has_op_function;
using executorch::runtime::Span;

namespace {

Tensor& fill_seven_out(KernelRuntimeContext& ctx, Tensor& out) {
  (void)ctx;
  for (ssize_t i = 0; i < out.numel(); ++i) out.mutable_data_ptr<int32_t>()[i] = 7;
  return out;
}

// No context parameter; a scalar, an optional scalar and a tensor list.
Tensor& weighted_sum_out(ArrayRef<Tensor> xs, int64_t w, std::optional<int64_t> bias, Tensor& out) {
  for (ssize_t i = 0; i < out.numel(); ++i) {
    int64_t s = bias.value_or(0);
    for (const Tensor& x : xs) s += w * x.const_data_ptr<int32_t>()[i];
    out.mutable_data_ptr<int32_t>()[i] = static_cast<int32_t>(s);
  }
  return out;
}

Tensor& count_present_out(KernelRuntimeContext&, ArrayRef<std::optional<Tensor>> xs,
                          const Tensor& unused, Tensor& out) {
  (void)unused;
  int32_t n = 0;
  for (const auto& x : xs) n += x.has_value() ? 1 : 0;
  out.mutable_data_ptr<int32_t>()[0] = n;
  return out;
}

struct IntTensor {
  explicit IntTensor(int32_t v) {
    for (auto& d : data) d = v;
  }
  int32_t data[3];
  TensorImpl::SizesType sizes[1] = {3};
  TensorImpl impl{ScalarType::Int, 1, sizes, data};
  Tensor tensor() { return Tensor(&impl); }
};

class MakeBoxedTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(MakeBoxedTest, RegistersAndUnboxesATensor) {
  EXECUTORCH_LIBRARY(boxtest, "fill_seven.out", fill_seven_out);
  ASSERT_TRUE(registry_has_op_function("boxtest::fill_seven.out"));
  IntTensor out(0);
  EValue v(out.tensor());
  EValue* stack[1] = {&v};
  KernelRuntimeContext ctx;
  auto fn = get_op_function_from_registry("boxtest::fill_seven.out");
  ASSERT_EQ(fn.error(), Error::Ok);
  (*fn)(ctx, Span<EValue*>(stack, 1));
  EXPECT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(out.data[0], 7);
  EXPECT_EQ(out.data[2], 7);
}

TEST_F(MakeBoxedTest, ListsScalarsAndOptionals) {
  auto kernel = executorch::extension::make_boxed_kernel("boxtest::weighted_sum.out",
                                                         EXECUTORCH_FN(weighted_sum_out));
  IntTensor a(1), b(2), out(0);
  Tensor storage[2] = {a.tensor(), b.tensor()};
  EValue items[2] = {EValue(storage[0]), EValue(storage[1])};
  EValue* item_ptrs[2] = {&items[0], &items[1]};
  BoxedEvalueList<Tensor> list(item_ptrs, storage, 2);
  EValue args[4] = {EValue(&list), EValue(int64_t{10}), EValue(), EValue(out.tensor())};
  EValue* stack[4] = {&args[0], &args[1], &args[2], &args[3]};
  KernelRuntimeContext ctx;
  kernel.op_(ctx, Span<EValue*>(stack, 4));
  EXPECT_EQ(out.data[1], 30); // 10 * (1 + 2), no bias
  args[2] = EValue(int64_t{5});
  kernel.op_(ctx, Span<EValue*>(stack, 4));
  EXPECT_EQ(out.data[1], 35);
  EXPECT_EQ(ctx.failure_state(), Error::Ok);
}

TEST_F(MakeBoxedTest, OptionalTensorList) {
  auto kernel = executorch::extension::make_boxed_kernel("boxtest::count_present.out",
                                                         EXECUTORCH_FN(count_present_out));
  IntTensor a(1), out(0);
  std::optional<Tensor> storage[3];
  EValue items[3] = {EValue(a.tensor()), EValue(), EValue(a.tensor())};
  EValue* item_ptrs[3] = {&items[0], &items[1], &items[2]};
  BoxedEvalueList<std::optional<Tensor>> list(item_ptrs, storage, 3);
  EValue args[3] = {EValue(&list), EValue(a.tensor()), EValue(out.tensor())};
  EValue* stack[3] = {&args[0], &args[1], &args[2]};
  KernelRuntimeContext ctx;
  kernel.op_(ctx, Span<EValue*>(stack, 3));
  EXPECT_EQ(out.data[0], 2);
}

// Ours: too few arguments fail the context instead of reading past the span.
TEST_F(MakeBoxedTest, TooFewArgumentsFailTheContext) {
  auto kernel = executorch::extension::make_boxed_kernel("boxtest::count_present.out",
                                                         EXECUTORCH_FN(count_present_out));
  IntTensor out(0);
  EValue arg(out.tensor());
  EValue* stack[1] = {&arg};
  KernelRuntimeContext ctx;
  kernel.op_(ctx, Span<EValue*>(stack, 1));
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  EXPECT_EQ(out.data[0], 0);
}

TEST_F(MakeBoxedTest, LegacyNames) {
  auto kernel =
      torch::executor::make_boxed_kernel("boxtest::legacy.out", EXECUTORCH_FN(fill_seven_out));
  EXPECT_STREQ(kernel.name_, "boxtest::legacy.out");
  EXPECT_TRUE((torch::executor::WrapUnboxedIntoFunctor<EXECUTORCH_FN_TYPE(
                   fill_seven_out)>::first_arg_is_context));
}

} // namespace
