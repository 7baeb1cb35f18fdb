// DeviceAllocator: memory on a non-host device (CUDA) for memory-planned
// buffers and the host<->device copies the runtime needs (set_input into a
// device buffer, initial values of device buffers, printing device outputs).
// A backend library registers one allocator per DeviceType; the runtime and
// extension::Module look it up with get_device_allocator(). The registry
// lives in libexecutorch.so.1 only, so every library sees the same one.
#pragma once

#include <cstddef>
#include <mutex>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class EXECUTORCH_API DeviceAllocator {
 public:
  static constexpr size_t kDefaultAlignment = MemoryAllocator::kDefaultAlignment;

  virtual ~DeviceAllocator();
  // nbytes of device memory on device `index`, aligned to `alignment` (a
  // power of two), or an Error.
  virtual Result<void*> allocate(size_t nbytes, etensor::DeviceIndex index,
                                 size_t alignment = kDefaultAlignment) = 0;
  virtual void deallocate(void* ptr, etensor::DeviceIndex index) = 0;
  // Synchronous copies: the data is in place when they return Ok.
  virtual Error copy_host_to_device(void* dst, const void* src, size_t nbytes,
                                    etensor::DeviceIndex index) = 0;
  virtual Error copy_device_to_host(void* dst, const void* src, size_t nbytes,
                                    etensor::DeviceIndex index) = 0;
  // The device type this allocator serves (one allocator per type).
  virtual etensor::DeviceType device_type() const = 0;
  // Not in upstream's interface; NotSupported unless overridden.
  virtual Error copy_device_to_device(void* dst, const void* src, size_t nbytes,
                                      etensor::DeviceIndex index);
};

// One slot per DeviceType. Upstream aborts on a bad or duplicate
// registration; this one refuses it with an Error (and logs why).
class EXECUTORCH_API DeviceAllocatorRegistry {
 public:
  static DeviceAllocatorRegistry& instance();

  // InvalidArgument for a null allocator, the CPU type, an unknown type, or
  // a type that already has one (the first stays). Thread-safe. The
  // allocator must outlive its registration.
  Error register_allocator(DeviceAllocator* alloc);
  // Removes `alloc` if it is the one registered for its type (NotFound
  // otherwise). For libraries that are unloaded.
  Error unregister_allocator(DeviceAllocator* alloc);
  // The allocator registered for `type`, or nullptr.
  DeviceAllocator* get_allocator(etensor::DeviceType type);

  DeviceAllocatorRegistry(const DeviceAllocatorRegistry&) = delete;
  DeviceAllocatorRegistry& operator=(const DeviceAllocatorRegistry&) = delete;

 private:
  DeviceAllocatorRegistry() = default;

  std::mutex mutex_;
  DeviceAllocator* allocators_[etensor::kNumDeviceTypes] = {};
};

// The same, on DeviceAllocatorRegistry::instance().
EXECUTORCH_API Error register_device_allocator(DeviceAllocator* alloc);
EXECUTORCH_API Error unregister_device_allocator(DeviceAllocator* alloc);
EXECUTORCH_API DeviceAllocator* get_device_allocator(etensor::DeviceType type);
// "CPU", "CUDA" or "unknown".
EXECUTORCH_API const char* device_type_name(etensor::DeviceType type);

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::DeviceAllocator;
using ::executorch::runtime::DeviceAllocatorRegistry;
using ::executorch::runtime::get_device_allocator;
using ::executorch::runtime::register_device_allocator;
} // namespace executor
} // namespace torch
