// MemoryManager: the allocators a Method is loaded with.
#pragma once

#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class MemoryManager final {
 public:
  // method_allocator: the Method's own structures (values, tensors, kernel
  // table). planned_memory: the arenas for memory-planned tensors.
  // temp_allocator: scratch for kernels and delegates, reset after each run.
  explicit MemoryManager(MemoryAllocator* method_allocator,
                         HierarchicalAllocator* planned_memory = nullptr,
                         MemoryAllocator* temp_allocator = nullptr)
      : method_allocator_(method_allocator),
        planned_memory_(planned_memory),
        temp_allocator_(temp_allocator) {
    ET_CHECK_MSG(method_allocator != temp_allocator,
                 "method allocator cannot be the same as the temp allocator");
  }
  ET_DEPRECATED MemoryManager(MemoryAllocator* constant_allocator,
                              HierarchicalAllocator* non_constant_allocator,
                              MemoryAllocator* runtime_allocator,
                              MemoryAllocator* temporary_allocator)
      : MemoryManager(runtime_allocator, non_constant_allocator, temporary_allocator) {
    (void)constant_allocator;
  }

  MemoryAllocator* method_allocator() const { return method_allocator_; }
  HierarchicalAllocator* planned_memory() const { return planned_memory_; }
  MemoryAllocator* temp_allocator() const { return temp_allocator_; }

  // The planned buffers' devices (see HierarchicalAllocator); empty without
  // planned memory or device information.
  Span<const etensor::Device> planned_buffer_devices() const {
    if (planned_memory_ == nullptr) {
      return Span<const etensor::Device>();
    }
    return planned_memory_->planned_buffer_devices();
  }
  // True when device information was given for the planned buffers.
  bool has_device_memory() const { return planned_buffer_devices().size() > 0; }

 private:
  MemoryAllocator* method_allocator_;
  HierarchicalAllocator* planned_memory_;
  MemoryAllocator* temp_allocator_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::MemoryManager;
} // namespace executor
} // namespace torch
