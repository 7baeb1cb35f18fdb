// DeviceMemoryBuffer: one owned allocation from the DeviceAllocator
// registered for a device type, freed when the buffer is destroyed. Handy
// for the planned buffers of a HierarchicalAllocator on a device.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class EXECUTORCH_API DeviceMemoryBuffer final {
 public:
  // NotFound when no allocator is registered for `type`; otherwise what the
  // allocator returns.
  static Result<DeviceMemoryBuffer> create(size_t size, etensor::DeviceType type,
                                           etensor::DeviceIndex index = 0,
                                           size_t alignment = DeviceAllocator::kDefaultAlignment);

  DeviceMemoryBuffer() = default;
  ~DeviceMemoryBuffer() { release(); }

  DeviceMemoryBuffer(DeviceMemoryBuffer&& other) noexcept { take(other); }
  DeviceMemoryBuffer& operator=(DeviceMemoryBuffer&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  DeviceMemoryBuffer(const DeviceMemoryBuffer&) = delete;
  DeviceMemoryBuffer& operator=(const DeviceMemoryBuffer&) = delete;

  // The device pointer; nullptr when empty or moved from.
  void* data() const { return ptr_; }
  size_t size() const { return size_; }
  // The allocation as bytes, e.g. one entry of a HierarchicalAllocator's
  // buffer list (device memory: not for dereferencing on the host).
  Span<uint8_t> as_span() const { return Span<uint8_t>(static_cast<uint8_t*>(ptr_), size_); }

 private:
  DeviceMemoryBuffer(void* ptr, size_t size, DeviceAllocator* allocator, etensor::DeviceIndex index)
      : ptr_(ptr), size_(size), allocator_(allocator), device_index_(index) {}

  void release() noexcept {
    if (ptr_ != nullptr && allocator_ != nullptr) {
      allocator_->deallocate(ptr_, device_index_);
    }
    ptr_ = nullptr;
    size_ = 0;
    allocator_ = nullptr;
  }
  void take(DeviceMemoryBuffer& other) noexcept {
    ptr_ = other.ptr_;
    size_ = other.size_;
    allocator_ = other.allocator_;
    device_index_ = other.device_index_;
    other.ptr_ = nullptr;
    other.size_ = 0;
    other.allocator_ = nullptr;
  }

  void* ptr_ = nullptr;
  size_t size_ = 0;
  DeviceAllocator* allocator_ = nullptr;
  etensor::DeviceIndex device_index_ = 0;
};

} // namespace runtime
} // namespace executorch
