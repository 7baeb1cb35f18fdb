// The process-wide backend and kernel registries.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/kernel/operator_registry.h>

using namespace ::executorch::runtime;
using ::executorch::aten::ScalarType;

namespace {

struct NullBackend final : BackendInterface {
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                               ArrayRef<CompileSpec>) const override {
    return nullptr;
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::Ok;
  }
};

NullBackend first_backend, second_backend;

TEST(BackendRegistry, DuplicateFullAndUnregister) {
  const size_t base = get_num_registered_backends();
  ASSERT_EQ(register_backend({"RegTestA", &first_backend}), Error::Ok);
  EXPECT_EQ(register_backend({"RegTestA", &second_backend}), Error::InvalidArgument);
  EXPECT_EQ(get_backend_class("RegTestA"), &first_backend); // the first one stays
  EXPECT_EQ(get_backend_class("Missing"), nullptr);
  static std::vector<std::string> names;
  names.clear();
  for (size_t i = 0; i < kMaxRegisteredBackends; ++i) names.push_back("Fill" + std::to_string(i));
  size_t added = 0;
  Error last = Error::Ok;
  for (const auto& n : names) {
    last = register_backend({n.c_str(), &second_backend});
    if (last != Error::Ok) break;
    ++added;
  }
  EXPECT_EQ(last, Error::Internal); // the 17th does not fit
  EXPECT_EQ(base + 1 + added, kMaxRegisteredBackends);
  EXPECT_EQ(get_backend_name(kMaxRegisteredBackends).error(), Error::InvalidArgument);
  for (size_t i = 0; i < added; ++i) {
    EXPECT_EQ(unregister_backend({names[i].c_str(), &second_backend}), Error::Ok);
  }
  // Name and interface must both match.
  EXPECT_EQ(unregister_backend({"RegTestA", &second_backend}), Error::NotFound);
  EXPECT_EQ(unregister_backend({"RegTestA", &first_backend}), Error::Ok);
  EXPECT_EQ(get_backend_class("RegTestA"), nullptr);
  EXPECT_EQ(get_num_registered_backends(), base);
}

TEST(BackendRegistry, ConcurrentRegistration) {
  static std::vector<std::string> names;
  names.clear();
  for (int i = 0; i < 8; ++i) names.push_back("Thread" + std::to_string(i));
  std::vector<std::thread> threads;
  std::vector<Error> results(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([i, &results] {
      results[i] = register_backend({names[i].c_str(), &first_backend});
      for (int k = 0; k < 1000; ++k) (void)get_backend_class(names[i].c_str());
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(results[i], Error::Ok);
    EXPECT_EQ(get_backend_class(names[i].c_str()), &first_backend);
    EXPECT_EQ(unregister_backend({names[i].c_str(), &first_backend}), Error::Ok);
  }
}

int which = 0;
void kernel_a(KernelRuntimeContext&, Span<EValue*>) { which = 1; }
void kernel_b(KernelRuntimeContext&, Span<EValue*>) { which = 2; }
void kernel_c(KernelRuntimeContext&, Span<EValue*>) { which = 3; }

void call(OpFunction f) {
  KernelRuntimeContext ctx;
  f(ctx, {});
}

TEST(KernelRegistry, DuplicatesKeysFallbackAndOverrides) {
  uint8_t order[1] = {0};
  TensorMeta float_meta(ScalarType::Float, ArrayRef<uint8_t>(order, 1));
  TensorMeta int_meta(ScalarType::Int, ArrayRef<uint8_t>(order, 1));
  static char key_buf[KernelKey::kMaxKeyLength];
  ASSERT_EQ(make_kernel_key({&float_meta, 1}, key_buf, sizeof(key_buf)), Error::Ok);
  const Kernel kernels[] = {Kernel("regtest::op.out", kernel_a),
                            Kernel("regtest::op.out", KernelKey(key_buf), kernel_b)};
  ASSERT_EQ(register_kernels({kernels, 2}), Error::Ok);
  EXPECT_EQ(register_kernel(kernels[0]), Error::RegistrationAlreadyRegistered);
  EXPECT_TRUE(registry_has_op_function("regtest::op.out"));
  // Exact key wins; otherwise the fallback.
  call(get_op_function_from_registry("regtest::op.out", {&float_meta, 1}).get());
  EXPECT_EQ(which, 2);
  call(get_op_function_from_registry("regtest::op.out", {&int_meta, 1}).get());
  EXPECT_EQ(which, 1);
  EXPECT_EQ(get_op_function_from_registry("regtest::nope.out").error(), Error::OperatorMissing);
  // A method-scoped override beats the table.
  const Kernel overrides[] = {Kernel("regtest::op.out", kernel_c)};
  call(get_op_function("regtest::op.out", {&int_meta, 1}, {overrides, 1}).get());
  EXPECT_EQ(which, 3);
}

} // namespace
