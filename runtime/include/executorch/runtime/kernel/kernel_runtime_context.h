// KernelRuntimeContext: what a kernel can ask of the runtime while it runs:
// report failure, and allocate scratch memory from the temp allocator.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/compiler.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class KernelRuntimeContext {
 public:
  explicit KernelRuntimeContext(EventTracer* event_tracer = nullptr,
                                MemoryAllocator* temp_allocator = nullptr)
      : event_tracer_(event_tracer), temp_allocator_(temp_allocator) {}

  // Marks the kernel as failed; the method stops with this error.
  void fail(Error error) { failure_state_ = error; }
  ET_NODISCARD Error failure_state() const { return failure_state_; }

  EventTracer* internal_event_tracer() { return event_tracer_; }

  ET_NODISCARD Result<void*> allocate_temp(size_t size,
                                           size_t alignment = MemoryAllocator::kDefaultAlignment) {
    if (temp_allocator_ == nullptr) {
      return Error::NotFound;
    }
    void* p = temp_allocator_->allocate(size, alignment);
    if (p == nullptr) {
      return Error::MemoryAllocationFailed;
    }
    return p;
  }

 private:
  EventTracer* event_tracer_;
  MemoryAllocator* temp_allocator_;
  Error failure_state_ = Error::Ok;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::KernelRuntimeContext;
using RuntimeContext = ::executorch::ET_RUNTIME_NAMESPACE::KernelRuntimeContext;
} // namespace executor
} // namespace torch
