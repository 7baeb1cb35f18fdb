// The device allocator registry: one slot per DeviceType, guarded by a mutex.
#include <executorch/runtime/core/device_allocator.h>

#include <mutex>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

namespace {

constexpr size_t kNumDeviceTypes = 2; // CPU, CUDA

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

DeviceAllocator** slots() {
  static DeviceAllocator* s[kNumDeviceTypes] = {};
  return s;
}

bool slot_index(etensor::DeviceType type, size_t* out) {
  const auto i = static_cast<int>(type);
  if (i < 0 || static_cast<size_t>(i) >= kNumDeviceTypes) {
    return false;
  }
  *out = static_cast<size_t>(i);
  return true;
}

} // namespace

DeviceAllocator::~DeviceAllocator() = default;

Error DeviceAllocator::copy_device_to_device(void*, const void*, size_t,
                                             etensor::DeviceIndex) {
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

Error register_device_allocator(DeviceAllocator* allocator) {
  ET_CHECK_OR_RETURN_ERROR(allocator != nullptr, InvalidArgument,
                           "register_device_allocator: null allocator");
  const etensor::DeviceType type = allocator->type();
  size_t i = 0;
  ET_CHECK_OR_RETURN_ERROR(slot_index(type, &i) && type != etensor::DeviceType::CPU,
                           InvalidArgument,
                           "register_device_allocator: device type %d cannot have an "
                           "allocator", static_cast<int>(type));
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (slots()[i] != nullptr) {
    ET_LOG(Error, "register_device_allocator: %s already has an allocator; keeping it",
           device_type_name(type));
    return Error::InvalidArgument;
  }
  slots()[i] = allocator;
  return Error::Ok;
}

Error unregister_device_allocator(DeviceAllocator* allocator) {
  if (allocator == nullptr) {
    return Error::InvalidArgument;
  }
  size_t i = 0;
  if (!slot_index(allocator->type(), &i)) {
    return Error::InvalidArgument;
  }
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (slots()[i] != allocator) {
    return Error::NotFound;
  }
  slots()[i] = nullptr;
  return Error::Ok;
}

DeviceAllocator* get_device_allocator(etensor::DeviceType type) {
  size_t i = 0;
  if (!slot_index(type, &i)) {
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(registry_mutex());
  return slots()[i];
}

} // namespace runtime
} // namespace executorch
