// HierarchicalAllocator: the planned memory arenas, indexed by mem_id.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class EXECUTORCH_API HierarchicalAllocator final {
 public:
  explicit HierarchicalAllocator(Span<Span<uint8_t>> buffers) : buffers_(buffers) {}
  // Devices per buffer (same length as buffers); CPU when not given.
  HierarchicalAllocator(Span<Span<uint8_t>> buffers,
                        Span<const etensor::Device> planned_buffer_devices)
      : buffers_(buffers), devices_(planned_buffer_devices) {}
  ET_DEPRECATED HierarchicalAllocator(uint32_t n_allocators, MemoryAllocator* allocators);

  // The address of [offset, offset + size) in buffer memory_id, or
  // InvalidArgument when memory_id is unknown or the range does not fit.
  ET_NODISCARD Result<void*> get_offset_address(uint32_t memory_id, size_t offset_bytes,
                                                size_t size_bytes);

  // The devices given with the buffers; empty for a CPU-only setup.
  Span<const etensor::Device> planned_buffer_devices() const { return devices_; }

  size_t num_buffers() const { return buffers_.size(); }
  Span<uint8_t> buffer(size_t i) const { return buffers_[i]; }
  etensor::Device buffer_device(size_t i) const {
    return i < devices_.size() ? devices_[i] : etensor::Device(etensor::DeviceType::CPU);
  }

 private:
  Span<Span<uint8_t>> buffers_;
  Span<const etensor::Device> devices_;
  Span<uint8_t> legacy_buffers_[16];
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::HierarchicalAllocator;
} // namespace executor
} // namespace torch
