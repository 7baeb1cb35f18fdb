// A program linked with libexecutorch_cuda_backend.so.1 (kept under
// --as-needed by --no-as-needed): the backend is registered exactly once
// before main, survives an extra dlopen/dlclose, shares the caller-stream
// state, reports no device on a machine without a GPU and fails init with an
// Error instead of aborting.
#include <dlfcn.h>

#include <array>
#include <cstring>
#include <variant>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>

#include <gtest/gtest.h>

#include "registry_probe.h"

using executorch::extension::cuda::CallerStreamGuard;
using executorch::runtime::ArrayRef;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::BackendInitContext;
using executorch::runtime::BackendInterface;
using executorch::runtime::CompileSpec;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Span;

namespace {

constexpr const char* kSoname = "libexecutorch_cuda_backend.so.1";
constexpr const char* kGetCallerStream = "_ZN10executorch9extension4cuda15getCallerStreamEv";

// Counted before any test touches the registry.
const size_t count_at_start = et_test::count_backends_named("CudaBackend");
executorch::runtime::DeviceAllocator* const allocator_at_start = et_test::cuda_allocator();

TEST(CudaBackendLinked, RegisteredOnceAtStart) {
  EXPECT_EQ(count_at_start, 1u);
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  EXPECT_NE(executorch::runtime::get_backend_class("CudaBackend"), nullptr);
}

TEST(CudaBackendLinked, CudaAllocatorRegisteredOnce) {
  ASSERT_NE(allocator_at_start, nullptr);
  EXPECT_EQ(et_test::cuda_allocator(), allocator_at_start);
  EXPECT_EQ(allocator_at_start->device_type(), executorch::runtime::etensor::DeviceType::CUDA);
  // A second CUDA allocator is refused with an Error, not an abort.
  et_test::DummyCudaAllocator dup;
  EXPECT_EQ(executorch::runtime::register_device_allocator(&dup), Error::InvalidArgument);
  EXPECT_EQ(et_test::cuda_allocator(), allocator_at_start);
  if (et_test::no_gpu_node()) {
    // Without a GPU the allocator fails with an Error (CUDA is touched only now).
    auto p = allocator_at_start->allocate(16, 0);
    EXPECT_FALSE(p.ok());
    int host = 0;
    EXPECT_NE(allocator_at_start->copy_device_to_host(&host, &host, sizeof(host), 0), Error::Ok);
  }
}

TEST(CudaBackendLinked, NoDeviceHereMeansUnavailable) {
  BackendInterface* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  const bool available = backend->is_available();
  if (et_test::no_gpu_node()) {
    EXPECT_FALSE(available);
  }
  // Asking twice gives the same answer (cached, no abort).
  EXPECT_EQ(backend->is_available(), available);
}

TEST(CudaBackendLinked, InitFailsCleanly) {
  BackendInterface* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  BackendInitContext context(nullptr, nullptr, "forward");

  // A 1.4+ payload: "<so key>\n<weights key>".
  static const char good[] = "abc_so_blob\ndef_weights_blob";
  FreeableBuffer processed(good, sizeof(good) - 1, nullptr);
  auto handle = backend->init(context, &processed, ArrayRef<CompileSpec>());
  EXPECT_FALSE(handle.ok());
  if (et_test::no_gpu_node()) {
    EXPECT_EQ(handle.error(), Error::DelegateInvalidCompatibility);
  }

  // 1.1-1.3: empty processed bytes, keys follow the method name.
  FreeableBuffer empty(nullptr, 0, nullptr);
  auto legacy = backend->init(context, &empty, ArrayRef<CompileSpec>());
  EXPECT_FALSE(legacy.ok());
  if (et_test::no_gpu_node()) {
    EXPECT_EQ(legacy.error(), Error::DelegateInvalidCompatibility);
  }

  // Malformed payloads are rejected before any device question.
  static const char one_key[] = "only_one_key";
  FreeableBuffer bad(one_key, sizeof(one_key) - 1, nullptr);
  auto r1 = backend->init(context, &bad, ArrayRef<CompileSpec>());
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error(), Error::InvalidProgram);

  static const char empty_key[] = "\nweights";
  FreeableBuffer bad2(empty_key, sizeof(empty_key) - 1, nullptr);
  auto r2 = backend->init(context, &bad2, ArrayRef<CompileSpec>());
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error(), Error::InvalidProgram);

  static const char three_lines[] = "a\nb\nc";
  FreeableBuffer bad3(three_lines, sizeof(three_lines) - 1, nullptr);
  auto r3 = backend->init(context, &bad3, ArrayRef<CompileSpec>());
  ASSERT_FALSE(r3.ok());
  EXPECT_EQ(r3.error(), Error::InvalidProgram);

  // No failed init leaves a delegate counted; destroy(nullptr) is harmless.
  EXPECT_EQ(et_test::backend_int_option("live_delegates"), 0);
  backend->destroy(nullptr);
  EXPECT_EQ(et_test::backend_int_option("live_delegates"), 0);
}

TEST(CudaBackendLinked, BadCudaGraphOptionIsRejectedBeforeTheDevice) {
  BackendInterface* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  static const char keys[] = "abc_so_blob\ndef_weights_blob";
  // Runtime option: a string that is not a boolean.
  executorch::runtime::BackendOption opt{};
  std::strcpy(opt.key, "use_cuda_graph");
  std::array<char, executorch::runtime::kMaxOptionValueLength> text{};
  std::strcpy(text.data(), "sometimes");
  opt.value = text;
  BackendInitContext with_option(nullptr, nullptr, "forward", nullptr, {&opt, 1});
  FreeableBuffer p1(keys, sizeof(keys) - 1, nullptr);
  auto r1 = backend->init(with_option, &p1, ArrayRef<CompileSpec>());
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error(), Error::InvalidArgument);
  // Compile spec: bytes that are not a boolean.
  static char junk[] = "yes please";
  CompileSpec spec{"use_cuda_graph", {junk, sizeof(junk) - 1}};
  BackendInitContext plain(nullptr, nullptr, "forward");
  FreeableBuffer p2(keys, sizeof(keys) - 1, nullptr);
  auto r2 = backend->init(plain, &p2, ArrayRef<CompileSpec>(&spec, 1));
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error(), Error::InvalidProgram);
  // A valid value gets as far as the device question.
  opt.value = true;
  FreeableBuffer p3(keys, sizeof(keys) - 1, nullptr);
  auto r3 = backend->init(with_option, &p3, ArrayRef<CompileSpec>());
  EXPECT_FALSE(r3.ok());
  if (et_test::no_gpu_node()) {
    EXPECT_EQ(r3.error(), Error::DelegateInvalidCompatibility);
  }
}

TEST(CudaBackendLinked, WeightSharingOption) {
  // Backend-wide default through set_option (as upstream's LLM runners do).
  executorch::runtime::BackendOptions<1> on;
  ASSERT_EQ(on.set_option("weight_sharing_across_methods", true), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option("CudaBackend", on.view()), Error::Ok);
  executorch::runtime::BackendOption probe{};
  std::strcpy(probe.key, "weight_sharing_across_methods");
  Span<executorch::runtime::BackendOption> view(&probe, 1);
  ASSERT_EQ(executorch::runtime::get_option("CudaBackend", view), Error::Ok);
  ASSERT_NE(std::get_if<bool>(&probe.value), nullptr);
  EXPECT_TRUE(*std::get_if<bool>(&probe.value));
  // Not a boolean: refused, the default stays.
  executorch::runtime::BackendOptions<1> bad;
  ASSERT_EQ(bad.set_option("weight_sharing_across_methods", 1), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option("CudaBackend", bad.view()), Error::InvalidArgument);
  ASSERT_EQ(executorch::runtime::get_option("CudaBackend", view), Error::Ok);
  EXPECT_TRUE(*std::get_if<bool>(&probe.value));
  executorch::runtime::BackendOptions<1> off;
  ASSERT_EQ(off.set_option("weight_sharing_across_methods", false), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option("CudaBackend", off.view()), Error::Ok);
  ASSERT_EQ(executorch::runtime::get_option("CudaBackend", view), Error::Ok);
  EXPECT_FALSE(*std::get_if<bool>(&probe.value));

  // A runtime option that is not a boolean fails init before the device.
  BackendInterface* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  static const char keys[] = "abc_so_blob\ndef_weights_blob";
  executorch::runtime::BackendOption opt{};
  std::strcpy(opt.key, "weight_sharing_across_methods");
  std::array<char, executorch::runtime::kMaxOptionValueLength> text{};
  std::strcpy(text.data(), "maybe");
  opt.value = text;
  BackendInitContext with_option(nullptr, nullptr, "prefill", nullptr, {&opt, 1});
  FreeableBuffer p(keys, sizeof(keys) - 1, nullptr);
  auto r = backend->init(with_option, &p, ArrayRef<CompileSpec>());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::InvalidArgument);
}

TEST(CudaBackendLinked, ExecuteWithoutHandleIsAnError) {
  BackendInterface* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  BackendExecutionContext context;
  EXPECT_NE(backend->execute(context, nullptr, Span<EValue*>()), Error::Ok);
}

TEST(CudaBackendLinked, SharesCallerStreamState) {
  EXPECT_EQ(et_test::backend_caller_stream(), "none");
  {
    CallerStreamGuard guard(reinterpret_cast<cudaStream_t>(0x5eed));
    EXPECT_EQ(et_test::backend_caller_stream(), "0x5eed");
    {
      CallerStreamGuard null_guard(nullptr);
      EXPECT_EQ(et_test::backend_caller_stream(), "0x0");
    }
    EXPECT_EQ(et_test::backend_caller_stream(), "0x5eed");
  }
  EXPECT_EQ(et_test::backend_caller_stream(), "none");
}

TEST(CudaBackendLinked, AlsoDlopenedStaysOnce) {
  void* local = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(local, nullptr) << dlerror();
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  void* global = dlopen(kSoname, RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(global, nullptr) << dlerror();
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);

  // One caller-stream implementation in the process, whichever handle asks.
  void* ext = dlopen("libexecutorch_extension_cuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(ext, nullptr) << dlerror();
  void* from_backend = dlsym(local, kGetCallerStream);
  void* from_ext = dlsym(ext, kGetCallerStream);
  ASSERT_NE(from_backend, nullptr);
  EXPECT_EQ(from_backend, from_ext);
  EXPECT_EQ(from_ext, reinterpret_cast<void*>(&executorch::extension::cuda::getCallerStream));
  dlclose(ext);

  EXPECT_EQ(et_test::cuda_allocator(), allocator_at_start);
  EXPECT_EQ(dlclose(global), 0);
  EXPECT_EQ(dlclose(local), 0);
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  EXPECT_EQ(et_test::cuda_allocator(), allocator_at_start);
  EXPECT_NE(executorch::runtime::get_backend_class("CudaBackend"), nullptr);
}

} // namespace
