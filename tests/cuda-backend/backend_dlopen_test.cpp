// A program linked only with libexecutorch.so.1: no CudaBackend until it
// dlopens libexecutorch_cuda_backend.so.1 by SONAME; then exactly one, however
// often and with whatever flags it is opened, closed and reopened. The
// backend and the extension library share one caller-stream state.
//
// FIRST_OPEN_FLAGS picks the scope of the first dlopen (RTLD_LOCAL or
// RTLD_GLOBAL); the second open uses the other one.
#include <dlfcn.h>

#include <executorch/runtime/backend/interface.h>

#include <gtest/gtest.h>

#include "registry_probe.h"

#ifndef FIRST_OPEN_FLAGS
#define FIRST_OPEN_FLAGS RTLD_LOCAL
#endif

namespace {

constexpr const char* kSoname = "libexecutorch_cuda_backend.so.1";
constexpr const char* kExtSoname = "libexecutorch_extension_cuda.so.1";
constexpr int kFirst = FIRST_OPEN_FLAGS;
constexpr int kSecond = kFirst == RTLD_LOCAL ? RTLD_GLOBAL : RTLD_LOCAL;

// executorch::extension::cuda symbols, reached without linking the extension.
constexpr const char* kGetCallerStream = "_ZN10executorch9extension4cuda15getCallerStreamEv";
constexpr const char* kGuardCtor =
    "_ZN10executorch9extension4cuda17CallerStreamGuardC1EP11CUstream_st";
constexpr const char* kGuardDtor = "_ZN10executorch9extension4cuda17CallerStreamGuardD1Ev";

const size_t count_at_start = et_test::count_backends_named("CudaBackend");

TEST(CudaBackendDlopen, RegistersOncePerProcess) {
  EXPECT_EQ(count_at_start, 0u);
  EXPECT_EQ(executorch::runtime::get_backend_class("CudaBackend"), nullptr);
  // Not loaded yet.
  EXPECT_EQ(dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD), nullptr);

  EXPECT_EQ(et_test::cuda_allocator(), nullptr);
  void* first = dlopen(kSoname, RTLD_NOW | kFirst);
  ASSERT_NE(first, nullptr) << dlerror();
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  auto* const allocator = et_test::cuda_allocator();
  EXPECT_NE(allocator, nullptr);

  void* second = dlopen(kSoname, RTLD_NOW | kSecond);
  ASSERT_NE(second, nullptr) << dlerror();
  EXPECT_EQ(second, first);
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);

  EXPECT_EQ(dlclose(second), 0);
  EXPECT_EQ(dlclose(first), 0);
  // -z nodelete: still mapped, still registered, still callable.
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  auto* backend = executorch::runtime::get_backend_class("CudaBackend");
  ASSERT_NE(backend, nullptr);
  if (et_test::no_gpu_node()) {
    EXPECT_FALSE(backend->is_available());
  }

  void* again = dlopen(kSoname, RTLD_NOW | kFirst);
  ASSERT_NE(again, nullptr) << dlerror();
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  EXPECT_EQ(dlclose(again), 0);
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
  // The CUDA allocator: the same single registration throughout.
  EXPECT_EQ(et_test::cuda_allocator(), allocator);
}

TEST(CudaBackendDlopen, OneCallerStreamState) {
  void* backend = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(backend, nullptr) << dlerror();
  void* ext = dlopen(kExtSoname, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(ext, nullptr) << dlerror();

  void* get_from_backend = dlsym(backend, kGetCallerStream);
  void* get_from_ext = dlsym(ext, kGetCallerStream);
  ASSERT_NE(get_from_backend, nullptr) << dlerror();
  EXPECT_EQ(get_from_backend, get_from_ext);

  // Set a guard through the extension's own entry points (Itanium ABI:
  // complete-object ctor/dtor take `this` first) and read it back through
  // the backend.
  using Ctor = void (*)(void*, void*);
  using Dtor = void (*)(void*);
  auto ctor = reinterpret_cast<Ctor>(dlsym(ext, kGuardCtor));
  auto dtor = reinterpret_cast<Dtor>(dlsym(ext, kGuardDtor));
  ASSERT_NE(ctor, nullptr);
  ASSERT_NE(dtor, nullptr);
  alignas(16) unsigned char guard[64];
  EXPECT_EQ(et_test::backend_caller_stream(), "none");
  ctor(guard, reinterpret_cast<void*>(0xabc0));
  EXPECT_EQ(et_test::backend_caller_stream(), "0xabc0");
  dtor(guard);
  EXPECT_EQ(et_test::backend_caller_stream(), "none");

  EXPECT_EQ(dlclose(ext), 0);
  EXPECT_EQ(dlclose(backend), 0);
  EXPECT_EQ(et_test::count_backends_named("CudaBackend"), 1u);
}

} // namespace
