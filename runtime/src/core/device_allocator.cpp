// The device allocator registry: one slot per DeviceType, guarded by a mutex.
#include <executorch/runtime/core/device_allocator.h>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

namespace {

bool slot_index(etensor::DeviceType type, size_t* out) {
  const auto i = static_cast<int>(type);
  if (i < 0 || static_cast<size_t>(i) >= etensor::kNumDeviceTypes) {
    return false;
  }
  *out = static_cast<size_t>(i);
  return true;
}

} // namespace

DeviceAllocator::~DeviceAllocator() = default;

Error DeviceAllocator::copy_device_to_device(void*, const void*, size_t, etensor::DeviceIndex) {
  return Error::NotSupported;
}

const char* device_type_name(etensor::DeviceType type) {
  switch (type) {
    case etensor::DeviceType::CPU:
      return "CPU";
    case etensor::DeviceType::CUDA:
      return "CUDA";
  }
  return "unknown";
}

DeviceAllocatorRegistry& DeviceAllocatorRegistry::instance() {
  // Never destroyed: backend libraries unregister from their own static
  // destructors, which may run after this library's.
  static DeviceAllocatorRegistry* registry = new DeviceAllocatorRegistry();
  return *registry;
}

Error DeviceAllocatorRegistry::register_allocator(DeviceAllocator* alloc) {
  ET_CHECK_OR_RETURN_ERROR(alloc != nullptr, InvalidArgument,
                           "register_device_allocator: null allocator");
  const etensor::DeviceType type = alloc->device_type();
  size_t i = 0;
  ET_CHECK_OR_RETURN_ERROR(slot_index(type, &i) && type != etensor::DeviceType::CPU,
                           InvalidArgument,
                           "register_device_allocator: device type %d cannot have an "
                           "allocator",
                           static_cast<int>(type));
  std::lock_guard<std::mutex> lock(mutex_);
  if (allocators_[i] != nullptr) {
    ET_LOG(Error, "register_device_allocator: %s already has an allocator; keeping it",
           device_type_name(type));
    return Error::InvalidArgument;
  }
  allocators_[i] = alloc;
  return Error::Ok;
}

Error DeviceAllocatorRegistry::unregister_allocator(DeviceAllocator* alloc) {
  size_t i = 0;
  if (alloc == nullptr || !slot_index(alloc->device_type(), &i)) {
    return Error::InvalidArgument;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (allocators_[i] != alloc) {
    return Error::NotFound;
  }
  allocators_[i] = nullptr;
  return Error::Ok;
}

DeviceAllocator* DeviceAllocatorRegistry::get_allocator(etensor::DeviceType type) {
  size_t i = 0;
  if (!slot_index(type, &i)) {
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return allocators_[i];
}

Error register_device_allocator(DeviceAllocator* alloc) {
  return DeviceAllocatorRegistry::instance().register_allocator(alloc);
}

Error unregister_device_allocator(DeviceAllocator* alloc) {
  return DeviceAllocatorRegistry::instance().unregister_allocator(alloc);
}

DeviceAllocator* get_device_allocator(etensor::DeviceType type) {
  return DeviceAllocatorRegistry::instance().get_allocator(type);
}

} // namespace runtime
} // namespace executorch
