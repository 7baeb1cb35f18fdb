// The process-wide backend table. It lives only in libexecutorch.so.1, so
// every backend library, however loaded, registers into this one table.
#include <executorch/runtime/backend/interface.h>

#include <cstring>
#include <mutex>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

BackendInterface::~BackendInterface() = default;

Error BackendInterface::set_option(BackendOptionContext& context,
                                   const Span<BackendOption>& backend_options) {
  (void)context;
  (void)backend_options;
  return Error::Ok;
}

Error BackendInterface::get_option(BackendOptionContext& context,
                                   Span<BackendOption>& backend_options) {
  (void)context;
  (void)backend_options;
  return Error::Ok;
}

void BackendInterface::destroy(DelegateHandle* handle) const { (void)handle; }

namespace {

// Plain data with constant initialization: usable from any library's static
// initializer, and never destroyed before them.
struct Registry {
  std::mutex mutex;
  Backend entries[kMaxRegisteredBackends];
  size_t count;
};
Registry g_registry{};

} // namespace

Error register_backend(const Backend& backend) {
  if (backend.name == nullptr || backend.backend == nullptr) {
    ET_LOG(Error, "register_backend: null name or interface");
    return Error::InvalidArgument;
  }
  std::lock_guard<std::mutex> lock(g_registry.mutex);
  for (size_t i = 0; i < g_registry.count; ++i) {
    if (std::strcmp(g_registry.entries[i].name, backend.name) == 0) {
      ET_LOG(Error, "Backend '%s' is already registered; keeping the first", backend.name);
      return Error::InvalidArgument;
    }
  }
  if (g_registry.count >= kMaxRegisteredBackends) {
    ET_LOG(Error, "Backend table full (%zu entries); cannot register '%s'", kMaxRegisteredBackends,
           backend.name);
    return Error::Internal;
  }
  g_registry.entries[g_registry.count++] = backend;
  return Error::Ok;
}

Error unregister_backend(const Backend& backend) {
  if (backend.name == nullptr) {
    return Error::InvalidArgument;
  }
  std::lock_guard<std::mutex> lock(g_registry.mutex);
  for (size_t i = 0; i < g_registry.count; ++i) {
    const Backend& e = g_registry.entries[i];
    if (e.backend == backend.backend && std::strcmp(e.name, backend.name) == 0) {
      for (size_t j = i + 1; j < g_registry.count; ++j) {
        g_registry.entries[j - 1] = g_registry.entries[j];
      }
      --g_registry.count;
      return Error::Ok;
    }
  }
  return Error::NotFound;
}

BackendInterface* get_backend_class(const char* name) {
  if (name == nullptr) {
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(g_registry.mutex);
  for (size_t i = 0; i < g_registry.count; ++i) {
    if (std::strcmp(g_registry.entries[i].name, name) == 0) {
      return g_registry.entries[i].backend;
    }
  }
  return nullptr;
}

size_t get_num_registered_backends() {
  std::lock_guard<std::mutex> lock(g_registry.mutex);
  return g_registry.count;
}

Result<const char*> get_backend_name(size_t index) {
  std::lock_guard<std::mutex> lock(g_registry.mutex);
  if (index >= g_registry.count) {
    return Error::InvalidArgument;
  }
  return g_registry.entries[index].name;
}

Error set_option(const char* backend_name, const Span<BackendOption> backend_options) {
  BackendInterface* backend = get_backend_class(backend_name);
  if (backend == nullptr) {
    return Error::NotFound;
  }
  BackendOptionContext context;
  return backend->set_option(context, backend_options);
}

Error get_option(const char* backend_name, Span<BackendOption> backend_options) {
  BackendInterface* backend = get_backend_class(backend_name);
  if (backend == nullptr) {
    return Error::NotFound;
  }
  BackendOptionContext context;
  return backend->get_option(context, backend_options);
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
