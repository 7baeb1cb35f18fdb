// DeviceAllocator: memory on a non-host device (CUDA) for memory-planned
// buffers and the host<->device copies the runtime needs (set_input into a
// device buffer, initial values of device buffers, printing device outputs).
// A backend library registers one allocator per DeviceType; the runtime and
// extension::Module look it up with get_device_allocator().
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class EXECUTORCH_API DeviceAllocator {
 public:
  virtual ~DeviceAllocator();
  // The device type this allocator serves (one allocator per type).
  virtual etensor::DeviceType type() const = 0;
  // nbytes of device memory on device `index`, or an Error.
  virtual Result<void*> allocate(size_t nbytes, etensor::DeviceIndex index) = 0;
  virtual void deallocate(void* ptr, etensor::DeviceIndex index) = 0;
  // Synchronous copies: the data is in place when they return Ok.
  virtual Error copy_host_to_device(void* dst, const void* src, size_t nbytes,
                                    etensor::DeviceIndex index) = 0;
  virtual Error copy_device_to_host(void* dst, const void* src, size_t nbytes,
                                    etensor::DeviceIndex index) = 0;
  // NotSupported unless overridden.
  virtual Error copy_device_to_device(void* dst, const void* src, size_t nbytes,
                                      etensor::DeviceIndex index);
};

// Registers `allocator` for allocator->type(). InvalidArgument for a null
// allocator, the CPU type, or a type that already has one (the first stays).
// Thread-safe. The allocator must outlive its registration.
ET_NODISCARD EXECUTORCH_API Error register_device_allocator(DeviceAllocator* allocator);
// Removes `allocator` if it is the one registered for its type (NotFound
// otherwise). For libraries that are unloaded.
EXECUTORCH_API Error unregister_device_allocator(DeviceAllocator* allocator);
// The allocator registered for `type`, or nullptr.
EXECUTORCH_API DeviceAllocator* get_device_allocator(etensor::DeviceType type);
// "CPU", "CUDA" or "unknown".
EXECUTORCH_API const char* device_type_name(etensor::DeviceType type);

} // namespace runtime
} // namespace executorch
