// executorch/runtime/kernel/operator_registry.h: kernels keyed by operator
// name and by the dtypes/dim orders of their tensor arguments.
#include <executorch/runtime/kernel/operator_registry.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::aten::DimOrderType;
using executorch::aten::ScalarType;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::get_op_function_from_registry;
using executorch::runtime::Kernel;
using executorch::runtime::KernelKey;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::OpFunction;
using executorch::runtime::register_kernels;
using executorch::runtime::registry_has_op_function;
using executorch::runtime::Result;
using executorch::runtime::Span;
using executorch::runtime::TensorMeta;
namespace internal = executorch::runtime::internal;

namespace {

int g_last = 0;
void kernel_one(KernelRuntimeContext&, Span<EValue*>) { g_last = 1; }
void kernel_two(KernelRuntimeContext&, Span<EValue*>) { g_last = 2; }
void kernel_three(KernelRuntimeContext&, Span<EValue*>) { g_last = 3; }

int call(OpFunction f) {
  KernelRuntimeContext ctx;
  f(ctx, Span<EValue*>());
  return g_last;
}

} // namespace

class OperatorRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(OperatorRegistryTest, KernelKeyFromAString) {
  // Implicit, as generated registration code writes it.
  Kernel keyed("apib::implicit.out", "v1/6;0,1", kernel_one);
  EXPECT_FALSE(keyed.kernel_key_.is_fallback());
  EXPECT_STREQ(keyed.kernel_key_.data(), "v1/6;0,1");
  KernelKey a = "v1/6;0";
  KernelKey b("v1/6;0");
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != KernelKey("v1/3;0"));
  EXPECT_TRUE(KernelKey().is_fallback());
  EXPECT_TRUE(KernelKey(nullptr) == KernelKey());
  EXPECT_FALSE(a == KernelKey());
}

TEST_F(OperatorRegistryTest, TensorMetaFromASpanAndEquality) {
  DimOrderType dims[] = {0, 1, 2, 3};
  DimOrderType other[] = {0, 2, 3, 1};
  TensorMeta m1(ScalarType::Float, Span<DimOrderType>(dims, 4));
  TensorMeta m2(ScalarType::Float, dims); // a plain array binds to the Span
  TensorMeta m3(ScalarType::Float, Span<DimOrderType>(other, 4));
  TensorMeta m4(ScalarType::Long, Span<DimOrderType>(dims, 4));
  EXPECT_TRUE(m1 == m2);
  EXPECT_TRUE(m1 != m3);
  EXPECT_TRUE(m1 != m4);
  EXPECT_EQ(m1.dim_order_.size(), 4u);
}

TEST_F(OperatorRegistryTest, KeyStringFormat) {
  DimOrderType dims[] = {0, 1, 2, 3};
  DimOrderType wide[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  TensorMeta metas[] = {TensorMeta(ScalarType::Float, Span<DimOrderType>(dims, 4)),
                        TensorMeta(ScalarType::Long, Span<DimOrderType>(dims, 2))};
  char buf[internal::kKernelKeyBufSize];
  ASSERT_EQ(internal::make_kernel_key_string({metas, 2}, buf, sizeof(buf)), Error::Ok);
  EXPECT_STREQ(buf, "v1/6;0,1,2,3|4;0,1");
  ASSERT_EQ(internal::make_kernel_key_string({}, buf, sizeof(buf)), Error::Ok);
  EXPECT_STREQ(buf, "");
  char small[8];
  EXPECT_EQ(internal::make_kernel_key_string({metas, 2}, small, sizeof(small)),
            Error::InvalidArgument);

  // kKernelKeyBufSize holds 16 tensors of rank 16 with the largest dtype code
  // in use (two digits).
  TensorMeta many[16];
  for (auto& m : many) {
    m = TensorMeta(ScalarType::UInt64, Span<DimOrderType>(wide, 16));
  }
  ASSERT_EQ(internal::make_kernel_key_string({many, 16}, buf, sizeof(buf)), Error::Ok);
  EXPECT_LT(std::strlen(buf), internal::kKernelKeyBufSize);
}

// As upstream: a key has no room for a negative or three-digit dtype code or
// dim order entry; those are InvalidArgument.
TEST_F(OperatorRegistryTest, KeyStringRefusesOutOfRangeCodes) {
  char buf[internal::kKernelKeyBufSize];
  DimOrderType three_digits[] = {0, 100, 2};
  TensorMeta wide_dim[] = {TensorMeta(ScalarType::Long, Span<DimOrderType>(three_digits, 3))};
  EXPECT_EQ(internal::make_kernel_key_string({wide_dim, 1}, buf, sizeof(buf)),
            Error::InvalidArgument);
  DimOrderType dims[] = {0, 1};
  TensorMeta negative[] = {TensorMeta(static_cast<ScalarType>(-1), Span<DimOrderType>(dims, 2))};
  EXPECT_EQ(internal::make_kernel_key_string({negative, 1}, buf, sizeof(buf)),
            Error::InvalidArgument);
  TensorMeta ok[] = {TensorMeta(ScalarType::Long, Span<DimOrderType>(dims, 2))};
  EXPECT_EQ(internal::make_kernel_key_string({ok, 1}, buf, sizeof(buf)), Error::Ok);
}

// As upstream: a lookup whose key cannot be built fails with that error, not
// OperatorMissing (and not a fallback kernel).
TEST_F(OperatorRegistryTest, LookupWithATooLongKeyFails) {
  const Kernel fallback[] = {Kernel("apib::longkey.out", kernel_one)};
  ASSERT_EQ(register_kernels({fallback, 1}), Error::Ok);
  DimOrderType wide[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  std::vector<TensorMeta> many(100, TensorMeta(ScalarType::Float, Span<DimOrderType>(wide, 16)));
  Span<const TensorMeta> metas(many.data(), many.size());
  EXPECT_EQ(get_op_function_from_registry("apib::longkey.out", metas).error(),
            Error::InvalidArgument);
  EXPECT_EQ(get_op_function_from_registry("apib::longkey.out", metas, {fallback, 1}).error(),
            Error::InvalidArgument);
  EXPECT_EQ(get_op_function_from_registry("test::not-real", metas).error(), Error::InvalidArgument);
  // Without tensor arguments the fallback is found.
  EXPECT_EQ(call(get_op_function_from_registry("apib::longkey.out", {}).get()), 1);
}

TEST_F(OperatorRegistryTest, LookupByKeyWithFallback) {
  DimOrderType dims[] = {0, 1};
  TensorMeta float_meta[] = {TensorMeta(ScalarType::Float, Span<DimOrderType>(dims, 2))};
  TensorMeta long_meta[] = {TensorMeta(ScalarType::Long, Span<DimOrderType>(dims, 2))};
  static char float_key[internal::kKernelKeyBufSize];
  ASSERT_EQ(internal::make_kernel_key_string({float_meta, 1}, float_key, sizeof(float_key)),
            Error::Ok);
  const Kernel keyed_only[] = {Kernel("apib::keyed.out", float_key, kernel_one)};
  ASSERT_EQ(register_kernels({keyed_only, 1}), Error::Ok);
  EXPECT_FALSE(registry_has_op_function("apib::keyed.out", {}));
  EXPECT_TRUE(registry_has_op_function("apib::keyed.out", {float_meta, 1}));
  EXPECT_FALSE(registry_has_op_function("apib::keyed.out", {long_meta, 1}));
  EXPECT_EQ(call(get_op_function_from_registry("apib::keyed.out", {float_meta, 1}).get()), 1);

  const Kernel fallback[] = {Kernel("apib::keyed.out", kernel_two)};
  ASSERT_EQ(register_kernels({fallback, 1}), Error::Ok);
  EXPECT_EQ(call(get_op_function_from_registry("apib::keyed.out", {long_meta, 1}).get()), 2);
  EXPECT_EQ(call(get_op_function_from_registry("apib::keyed.out", {float_meta, 1}).get()), 1);
  EXPECT_EQ(get_op_function_from_registry("apib::missing.out").error(), Error::OperatorMissing);
}

TEST_F(OperatorRegistryTest, LookupInAGivenKernelList) {
  DimOrderType dims[] = {0};
  TensorMeta meta[] = {TensorMeta(ScalarType::Int, Span<DimOrderType>(dims, 1))};
  const Kernel list[] = {Kernel("apib::listed.out", "v1/3;0", kernel_three),
                         Kernel("apib::listed.out", kernel_one)};
  EXPECT_EQ(call(get_op_function_from_registry("apib::listed.out", {meta, 1}, {list, 2}).get()), 3);
  EXPECT_EQ(call(get_op_function_from_registry("apib::listed.out", {}, {list, 2}).get()), 1);
  // Only the given list is searched, not the process-wide table.
  EXPECT_EQ(get_op_function_from_registry("apib::listed.out", {meta, 1}).error(),
            Error::OperatorMissing);
  EXPECT_EQ(get_op_function_from_registry("apib::listed.out", {meta, 1}, {}).error(),
            Error::OperatorMissing);
}

TEST_F(OperatorRegistryTest, DuplicateRegistrationFails) {
  const Kernel k[] = {Kernel("apib::dup.out", kernel_one)};
  ASSERT_EQ(register_kernels({k, 1}), Error::Ok);
  EXPECT_EQ(register_kernels({k, 1}), Error::RegistrationAlreadyRegistered);
}

TEST_F(OperatorRegistryTest, LegacyTorchExecutorSpellings) {
  const Kernel k[] = {Kernel("apib::legacy.out", kernel_two)};
  ASSERT_EQ(torch::executor::register_kernels(executorch::runtime::ArrayRef<Kernel>(k, 1)),
            Error::Ok);
  EXPECT_TRUE(torch::executor::hasOpsFn("apib::legacy.out"));
  EXPECT_EQ(call(torch::executor::getOpsFn("apib::legacy.out")), 2);
  bool found = false;
  for (const Kernel& kernel : torch::executor::get_kernels()) {
    found = found || std::strcmp(kernel.name_, "apib::legacy.out") == 0;
  }
  EXPECT_TRUE(found);
}
