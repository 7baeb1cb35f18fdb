// A third-party backend written against upstream's backend headers: it
// registers itself, takes options at any time through set_option /
// get_option (BackendOptions), and reads load-time options from the
// LoadBackendOptionsMap as runtime specs in init(). Exits 0 when everything
// behaved as documented.
#include <cstdio>
#include <cstring>

#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/runtime.h>

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
using executorch::runtime::LoadBackendOptionsMap;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

struct Handle {
  int threads;
};

class ThreadPoolBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               ArrayRef<CompileSpec> compile_specs) const override {
    (void)compile_specs;
    processed->Free();
    Handle* handle = context.get_runtime_allocator()->allocateInstance<Handle>();
    if (handle == nullptr) {
      return Error::MemoryAllocationFailed;
    }
    Result<int> threads = context.get_runtime_spec<int>("num_threads");
    handle->threads = threads.ok() ? *threads : default_threads_;
    return handle;
  }

  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    (void)context;
    if (args.size() != 1 || !args[0]->isInt()) {
      return Error::InvalidArgument;
    }
    *args[0] = EValue(static_cast<int64_t>(static_cast<Handle*>(handle)->threads));
    return Error::Ok;
  }

  Error set_option(BackendOptionContext& context,
                   const Span<BackendOption>& backend_options) override {
    (void)context;
    for (const BackendOption& option : backend_options) {
      if (std::strcmp(option.key, "num_threads") == 0) {
        const int* n = std::get_if<int>(&option.value);
        if (n == nullptr || *n < 1) {
          return Error::InvalidArgument;
        }
        default_threads_ = *n;
      }
    }
    return Error::Ok;
  }

  Error get_option(BackendOptionContext& context, Span<BackendOption>& backend_options) override {
    (void)context;
    for (BackendOption& option : backend_options) {
      if (std::strcmp(option.key, "num_threads") == 0) {
        option.value = default_threads_;
      }
    }
    return Error::Ok;
  }

 private:
  int default_threads_ = 1;
};

ThreadPoolBackend backend_instance;
const auto registered =
    executorch::runtime::register_backend(Backend{"ThreadPoolBackend", &backend_instance});

// A backend's own typed options, accepted by LoadBackendOptionsMap::set_options.
class ThreadPoolOptions {
 public:
  ThreadPoolOptions& setNumThreads(int n) {
    (void)options_.set_option("num_threads", n);
    return *this;
  }
  const char* backend_id() const { return "ThreadPoolBackend"; }
  Span<BackendOption> view() { return options_.view(); }

 private:
  BackendOptions<1> options_;
};

int fail(const char* what) {
  std::fprintf(stderr, "custom_backend: %s\n", what);
  return 1;
}

// Runs init() + execute() the way a Method does for one delegate.
Result<int64_t> run_delegate(Span<const BackendOption> runtime_specs) {
  BackendInterface* backend = executorch::runtime::get_backend_class("ThreadPoolBackend");
  if (backend == nullptr) return Error::NotFound;
  static uint8_t pool[256];
  MemoryAllocator allocator(sizeof(pool), pool);
  BackendInitContext init_context(&allocator, nullptr, "forward", nullptr, runtime_specs);
  FreeableBuffer processed(nullptr, 0, nullptr);
  Result<DelegateHandle*> handle = backend->init(init_context, &processed, {});
  if (!handle.ok()) return handle.error();
  EValue out(int64_t(0));
  EValue* args[1] = {&out};
  BackendExecutionContext exec_context;
  const Error err = backend->execute(exec_context, *handle, Span<EValue*>(args, 1));
  backend->destroy(*handle);
  if (err != Error::Ok) return err;
  return out.toInt();
}

} // namespace

int main() {
  executorch::runtime::runtime_init();
  if (registered != Error::Ok) return fail("registration failed");

  // Options at any time, through the registry.
  BackendOptions<2> options;
  if (options.set_option("num_threads", 4) != Error::Ok) return fail("set_option");
  if (executorch::runtime::set_option("ThreadPoolBackend", options.view()) != Error::Ok) {
    return fail("registry set_option");
  }
  BackendOptions<1> query;
  (void)query.set_option("num_threads", 0);
  if (executorch::runtime::get_option("ThreadPoolBackend", query.view()) != Error::Ok) {
    return fail("registry get_option");
  }
  int threads = 0;
  if (query.get_option("num_threads", threads) != Error::Ok || threads != 4) {
    return fail("get_option did not report 4 threads");
  }
  if (executorch::runtime::set_option("NoSuchBackend", options.view()) != Error::NotFound) {
    return fail("unknown backend accepted");
  }

  // Load-time options: per backend, seen by init() as runtime specs.
  ThreadPoolOptions load_options;
  load_options.setNumThreads(8);
  LoadBackendOptionsMap map;
  if (map.set_options(load_options) != Error::Ok) return fail("map.set_options(builder)");
  if (!map.has_options("ThreadPoolBackend") || map.size() != 1) return fail("has_options");
  const auto entry = map.entry_at(0);
  if (std::strcmp(entry.backend_id, "ThreadPoolBackend") != 0 || entry.options.size() != 1) {
    return fail("entry_at");
  }
  Result<int64_t> with_specs = run_delegate(map.get_options("ThreadPoolBackend"));
  if (!with_specs.ok() || *with_specs != 8) return fail("init did not see num_threads=8");
  Result<int64_t> without = run_delegate({});
  if (!without.ok() || *without != 4) return fail("init did not fall back to 4 threads");

  std::printf("custom_backend: ok\n");
  return 0;
}
