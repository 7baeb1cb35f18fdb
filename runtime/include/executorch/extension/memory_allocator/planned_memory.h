// Memory a host allocates for a method, checked against a MemoryBudget
// before it is allocated and never touched by the allocation itself.
//
// HostBuffer: bytes on the host. Small ones come from the heap (zeroed);
// large ones from an anonymous mapping, whose pages read as zero and cost
// nothing until a kernel first writes them. A program that declares a huge
// buffer and uses little of it therefore uses little memory.
//
// PlannedMemory: the memory-planned buffers of a method (as its MethodMeta
// lists them), host buffers as above and device buffers from the device's
// registered DeviceAllocator, behind one HierarchicalAllocator. Used by
// Module, executorch-run and the benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <executorch/extension/memory_allocator/memory_budget.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

class EXECUTORCH_API HostBuffer final {
 public:
  // Requests from this size up are mapped, below it taken from the heap.
  static constexpr size_t kMapThreshold = size_t(64) << 10;

  // n bytes, 64-byte aligned, reading as zero; charged to budget (when not
  // null) under `what` first, and refunded when the buffer goes.
  static ::executorch::runtime::Result<HostBuffer> allocate(size_t n, MemoryBudget* budget,
                                                            const char* what);

  HostBuffer() = default;
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void release();

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0; // mapping length; 0 when from the heap
  MemoryBudget* budget_ = nullptr;
};

class EXECUTORCH_API PlannedMemory final {
 public:
  // Buffer i of sizes on devices[i] (the CPU when devices is shorter).
  static ::executorch::runtime::Result<std::unique_ptr<PlannedMemory>> allocate(
      ::executorch::runtime::Span<const size_t> sizes,
      ::executorch::runtime::Span<const ::executorch::runtime::etensor::Device> devices,
      MemoryBudget* budget);

  // The buffers `meta` asks for, each on the device the program names.
  static ::executorch::runtime::Result<std::unique_ptr<PlannedMemory>> for_method(
      const ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta& meta, MemoryBudget* budget);

  PlannedMemory(const PlannedMemory&) = delete;
  PlannedMemory& operator=(const PlannedMemory&) = delete;
  ~PlannedMemory();

  // Valid while this object lives.
  ::executorch::runtime::HierarchicalAllocator* allocator() { return allocator_.get(); }

 private:
  PlannedMemory() = default;
  ::executorch::runtime::Error add_buffer(size_t size,
                                          ::executorch::runtime::etensor::Device device,
                                          size_t index, MemoryBudget* budget);

  struct DeviceBlock {
    void* ptr;
    size_t size;
    ::executorch::runtime::etensor::Device device;
  };
  std::vector<HostBuffer> host_;
  std::vector<DeviceBlock> device_;
  MemoryBudget* budget_ = nullptr; // refunded for device blocks
  std::vector<::executorch::runtime::Span<uint8_t>> spans_;
  std::vector<::executorch::runtime::etensor::Device> devices_;
  std::unique_ptr<::executorch::runtime::HierarchicalAllocator> allocator_;
};

} // namespace extension
} // namespace executorch
