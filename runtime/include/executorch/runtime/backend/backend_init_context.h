// What a backend's init() may use: the method's allocator, the named data
// map (e.g. a .ptd file), the method name and runtime specs.
#pragma once

#include <cstring>

#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class BackendInitContext final {
 public:
  explicit BackendInitContext(MemoryAllocator* runtime_allocator,
                              EventTracer* event_tracer = nullptr,
                              const char* method_name = nullptr,
                              const NamedDataMap* named_data_map = nullptr,
                              Span<const BackendOption> runtime_specs = {})
      : runtime_allocator_(runtime_allocator),
        event_tracer_(event_tracer),
        method_name_(method_name),
        named_data_map_(named_data_map),
        runtime_specs_(runtime_specs) {}

  MemoryAllocator* get_runtime_allocator() { return runtime_allocator_; }
  EventTracer* event_tracer() { return event_tracer_; }
  const char* get_method_name() const { return method_name_; }
  const NamedDataMap* get_named_data_map() const { return named_data_map_; }
  Span<const BackendOption> runtime_specs() const { return runtime_specs_; }

  template <typename T>
  Result<T> get_runtime_spec(const char* key) const {
    for (const auto& option : runtime_specs_) {
      if (std::strcmp(option.key, key) == 0) {
        if constexpr (std::is_same<T, const char*>::value) {
          if (auto* arr = std::get_if<std::array<char, kMaxOptionValueLength>>(&option.value)) {
            return static_cast<const char*>(arr->data());
          }
        } else {
          if (auto* v = std::get_if<T>(&option.value)) {
            return *v;
          }
        }
        return Error::InvalidArgument;
      }
    }
    return Error::NotFound;
  }

 private:
  MemoryAllocator* runtime_allocator_;
  EventTracer* event_tracer_;
  const char* method_name_;
  const NamedDataMap* named_data_map_;
  Span<const BackendOption> runtime_specs_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
