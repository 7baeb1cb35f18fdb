// DeviceMemoryBuffer::create: an allocation from the registered allocator.
#include <executorch/runtime/core/device_memory_buffer.h>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

Result<DeviceMemoryBuffer> DeviceMemoryBuffer::create(size_t size, etensor::DeviceType type,
                                                      etensor::DeviceIndex index,
                                                      size_t alignment) {
  DeviceAllocator* allocator = get_device_allocator(type);
  if (allocator == nullptr) {
    ET_LOG(Error, "DeviceMemoryBuffer: no allocator registered for device type %s",
           device_type_name(type));
    return Error::NotFound;
  }
  Result<void*> ptr = allocator->allocate(size, index, alignment);
  if (!ptr.ok()) {
    return ptr.error();
  }
  return DeviceMemoryBuffer(*ptr, size, allocator, index);
}

} // namespace runtime
} // namespace executorch
