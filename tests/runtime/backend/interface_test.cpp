// executorch/runtime/backend/interface.h: a backend that takes options, the
// registry's set_option/get_option, and what init() sees as runtime specs.
#include <executorch/runtime/backend/interface.h>

#include <cstring>

#include <executorch/runtime/platform/runtime.h>
#include <gtest/gtest.h>

using executorch::runtime::ArrayRef;
using executorch::runtime::Backend;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::BackendInitContext;
using executorch::runtime::BackendInterface;
using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptionContext;
using executorch::runtime::BackendOptions;
using executorch::runtime::CompileSpec;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

// Keeps a thread count; set_option stores it, get_option reports it back.
class ThreadsBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               ArrayRef<CompileSpec> compile_specs) const override {
    (void)context;
    (void)processed;
    (void)compile_specs;
    return nullptr;
  }
  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    (void)context;
    (void)handle;
    (void)args;
    return Error::Ok;
  }
  Error set_option(BackendOptionContext& context,
                   const Span<BackendOption>& backend_options) override {
    (void)context;
    ++set_calls;
    for (const BackendOption& option : backend_options) {
      if (std::strcmp(option.key, "NumberOfThreads") != 0) {
        continue;
      }
      const int* n = std::get_if<int>(&option.value);
      if (n == nullptr || *n <= 0) {
        return Error::InvalidArgument;
      }
      threads = *n;
    }
    return Error::Ok;
  }
  Error get_option(BackendOptionContext& context, Span<BackendOption>& backend_options) override {
    (void)context;
    for (BackendOption& option : backend_options) {
      if (std::strcmp(option.key, "NumberOfThreads") == 0) {
        option.value = threads;
      }
    }
    return Error::Ok;
  }

  int threads = 1;
  int set_calls = 0;
};

ThreadsBackend& threads_backend() {
  static ThreadsBackend backend;
  static const Error registered =
      executorch::runtime::register_backend(Backend{"ApibThreadsBackend", &backend});
  EXPECT_EQ(registered, Error::Ok);
  return backend;
}

// A backend that keeps the defaults of the optional methods.
class MinimalBackend final : public BackendInterface {
 public:
  bool is_available() const override { return false; }
  Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                               ArrayRef<CompileSpec>) const override {
    return Error::NotSupported;
  }
  Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const override {
    return Error::NotSupported;
  }
};

} // namespace

class BackendInterfaceTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(BackendInterfaceTest, SetOptionThroughTheRegistry) {
  ThreadsBackend& backend = threads_backend();
  BackendOptions<1> options;
  ASSERT_EQ(options.set_option("NumberOfThreads", 4), Error::Ok);
  const int calls = backend.set_calls;
  EXPECT_EQ(executorch::runtime::set_option("ApibThreadsBackend", options.view()), Error::Ok);
  EXPECT_EQ(backend.set_calls, calls + 1);
  EXPECT_EQ(backend.threads, 4);

  BackendOptions<1> query;
  ASSERT_EQ(query.set_option("NumberOfThreads", 0), Error::Ok);
  EXPECT_EQ(executorch::runtime::get_option("ApibThreadsBackend", query.view()), Error::Ok);
  int threads = 0;
  EXPECT_EQ(query.get_option("NumberOfThreads", threads), Error::Ok);
  EXPECT_EQ(threads, 4);
}

TEST_F(BackendInterfaceTest, BackendErrorsReachTheCaller) {
  threads_backend();
  BackendOptions<1> options;
  ASSERT_EQ(options.set_option("NumberOfThreads", -2), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option("ApibThreadsBackend", options.view()),
            Error::InvalidArgument);
}

TEST_F(BackendInterfaceTest, UnknownBackendIsNotFound) {
  BackendOptions<1> options;
  ASSERT_EQ(options.set_option("NumberOfThreads", 2), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option("NoSuchBackend", options.view()), Error::NotFound);
  EXPECT_EQ(executorch::runtime::get_option("NoSuchBackend", options.view()), Error::NotFound);
}

TEST_F(BackendInterfaceTest, DefaultOptionMethodsAcceptAndLeaveOptionsAlone) {
  MinimalBackend backend;
  BackendOptionContext context;
  BackendOptions<1> options;
  ASSERT_EQ(options.set_option("anything", 3), Error::Ok);
  Span<BackendOption> view = options.view();
  EXPECT_EQ(backend.set_option(context, view), Error::Ok);
  EXPECT_EQ(backend.get_option(context, view), Error::Ok);
  EXPECT_EQ(std::get<int>(view[0].value), 3);
  backend.destroy(nullptr);
}

TEST_F(BackendInterfaceTest, InitContextReadsRuntimeSpecsByType) {
  BackendOptions<3> opts;
  ASSERT_EQ(opts.set_option("compute_unit", "cpu_and_gpu"), Error::Ok);
  ASSERT_EQ(opts.set_option("num_threads", 4), Error::Ok);
  ASSERT_EQ(opts.set_option("enable_profiling", true), Error::Ok);
  Span<BackendOption> view = opts.view();
  uint8_t pool[64];
  MemoryAllocator allocator(sizeof(pool), pool);
  BackendInitContext context(&allocator, nullptr, "forward", nullptr,
                             Span<const BackendOption>(view.data(), view.size()));

  EXPECT_EQ(context.get_runtime_allocator(), &allocator);
  EXPECT_STREQ(context.get_method_name(), "forward");
  EXPECT_EQ(context.runtime_specs().size(), 3u);
  Result<const char*> unit = context.get_runtime_spec<const char*>("compute_unit");
  ASSERT_TRUE(unit.ok());
  EXPECT_STREQ(*unit, "cpu_and_gpu");
  Result<int> threads = context.get_runtime_spec<int>("num_threads");
  ASSERT_TRUE(threads.ok());
  EXPECT_EQ(*threads, 4);
  Result<bool> profiling = context.get_runtime_spec<bool>("enable_profiling");
  ASSERT_TRUE(profiling.ok());
  EXPECT_TRUE(*profiling);
  EXPECT_EQ(context.get_runtime_spec<bool>("num_threads").error(), Error::InvalidArgument);
  EXPECT_EQ(context.get_runtime_spec<int>("missing").error(), Error::NotFound);
}

TEST_F(BackendInterfaceTest, ExecutionContextAllocatesFromTheTempAllocator) {
  uint8_t pool[64];
  MemoryAllocator temp(sizeof(pool), pool);
  BackendExecutionContext context(nullptr, &temp, "forward");
  void* p = context.allocate(16);
  ASSERT_NE(p, nullptr);
  EXPECT_GE(static_cast<uint8_t*>(p), pool);
  EXPECT_EQ(context.get_temp_allocator(), &temp);
  EXPECT_STREQ(context.get_method_name(), "forward");
  EXPECT_EQ(context.allocate(1024), nullptr);
}
