#pragma once

#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/memory_allocator.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class BackendExecutionContext final {
 public:
  BackendExecutionContext(EventTracer* event_tracer = nullptr,
                          MemoryAllocator* temp_allocator = nullptr,
                          const char* method_name = nullptr)
      : event_tracer_(event_tracer), temp_allocator_(temp_allocator), method_name_(method_name) {}

  EventTracer* event_tracer() { return event_tracer_; }
  void* allocate(size_t size, size_t alignment = MemoryAllocator::kDefaultAlignment) {
    return temp_allocator_ == nullptr ? nullptr : temp_allocator_->allocate(size, alignment);
  }
  MemoryAllocator* get_temp_allocator() { return temp_allocator_; }
  const char* get_method_name() const { return method_name_; }

 private:
  EventTracer* event_tracer_;
  MemoryAllocator* temp_allocator_;
  const char* method_name_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
