#pragma once

#include <cstddef>
#include <cstdint>

namespace executorch {
namespace runtime {
namespace etensor {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
// How many DeviceType values there are (size of per-type tables).
constexpr size_t kNumDeviceTypes = 2;
using DeviceIndex = int8_t;

struct Device final {
  using Type = DeviceType;
  /* implicit */ Device(DeviceType type, DeviceIndex index = 0) : type_(type), index_(index) {}
  DeviceType type() const noexcept { return type_; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  DeviceIndex index() const noexcept { return index_; }
  bool operator==(const Device& other) const noexcept {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

 private:
  DeviceType type_;
  DeviceIndex index_;
};

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::Device;
using ::executorch::runtime::etensor::DeviceType;
} // namespace executor
} // namespace torch
