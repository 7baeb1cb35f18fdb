// executorch/runtime/kernel/builtin_kernels.h: both built-in sets stay
// callable, and kernel_origin() says which one the registry serves.
#include <executorch/runtime/kernel/builtin_kernels.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using executorch::runtime::BuiltinKernelSet;
using executorch::runtime::get_builtin_kernel;
using executorch::runtime::get_op_function_from_registry;
using executorch::runtime::Kernel;
using executorch::runtime::kernel_origin;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::register_kernels;
using executorch::runtime::Span;

// meson runs this test once with EXECUTORCH_KERNELS=portable and once without;
// BUILT_WITH_OPTIMIZED says whether the build has the optimized set.
bool optimized_served() {
  const char* built = std::getenv("BUILT_WITH_OPTIMIZED");
  const char* env = std::getenv("EXECUTORCH_KERNELS");
  return built != nullptr && std::strcmp(built, "1") == 0 &&
         (env == nullptr || std::strcmp(env, "portable") != 0);
}

bool built_with_optimized() {
  const char* built = std::getenv("BUILT_WITH_OPTIMIZED");
  return built != nullptr && std::strcmp(built, "1") == 0;
}

TEST(BuiltinKernels, BothSetsStayCallable) {
  EXPECT_NE(get_builtin_kernel("aten::mm.out", BuiltinKernelSet::Portable), nullptr);
  if (built_with_optimized()) {
    auto fast = get_builtin_kernel("aten::mm.out", BuiltinKernelSet::Optimized);
    ASSERT_NE(fast, nullptr);
    EXPECT_NE(fast, get_builtin_kernel("aten::mm.out", BuiltinKernelSet::Portable));
  } else {
    EXPECT_EQ(get_builtin_kernel("aten::mm.out", BuiltinKernelSet::Optimized), nullptr);
  }
}

TEST(BuiltinKernels, UnknownNamesHaveNoKernel) {
  EXPECT_EQ(get_builtin_kernel("aten::no_such_op.out", BuiltinKernelSet::Portable), nullptr);
  EXPECT_EQ(get_builtin_kernel("aten::no_such_op.out", BuiltinKernelSet::Optimized), nullptr);
  EXPECT_EQ(get_builtin_kernel(nullptr, BuiltinKernelSet::Portable), nullptr);
  EXPECT_EQ(kernel_origin("aten::no_such_op.out"), nullptr);
  EXPECT_EQ(kernel_origin(nullptr), nullptr);
}

TEST(BuiltinKernels, OriginFollowsTheRegistry) {
  const std::string want = optimized_served() ? "optimized" : "portable";
  ASSERT_NE(kernel_origin("aten::mm.out"), nullptr);
  EXPECT_EQ(kernel_origin("aten::mm.out"), want);
  auto served = get_op_function_from_registry("aten::mm.out", {});
  ASSERT_TRUE(served.ok());
  EXPECT_EQ(served.get(),
            get_builtin_kernel("aten::mm.out", optimized_served() ? BuiltinKernelSet::Optimized
                                                                  : BuiltinKernelSet::Portable));
  // An operator without an optimized kernel is always the portable one.
  ASSERT_EQ(get_builtin_kernel("aten::cumsum.out", BuiltinKernelSet::Optimized), nullptr);
  EXPECT_STREQ(kernel_origin("aten::cumsum.out"), "portable");
}

void app_kernel(KernelRuntimeContext&, Span<executorch::runtime::EValue*>) {}

TEST(BuiltinKernels, ApplicationKernelsAreRegistered) {
  static const Kernel k[] = {Kernel("test_app::my_op.out", app_kernel)};
  ASSERT_EQ(register_kernels(Span<const Kernel>(k, 1)), executorch::runtime::Error::Ok);
  EXPECT_STREQ(kernel_origin("test_app::my_op.out"), "registered");
}

} // namespace
