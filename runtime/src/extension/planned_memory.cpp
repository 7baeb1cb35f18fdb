#include <executorch/extension/memory_allocator/planned_memory.h>

#include <cstdio>
#include <new>

#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"

namespace executorch {
namespace extension {

using ::executorch::runtime::DeviceAllocator;
using ::executorch::runtime::Error;
using ::executorch::runtime::HierarchicalAllocator;
using ::executorch::runtime::Result;
using ::executorch::runtime::Span;
using ::executorch::runtime::device_type_name;
using ::executorch::runtime::etensor::Device;

namespace {

// A 64-bit size from the program; on a 32-bit host it may not fit size_t.
Error planned_size(int64_t size, size_t index, size_t* out) {
  ET_CHECK_OR_RETURN_ERROR(::executorch::runtime::internal::to_size_signed(size, out),
                           MemoryAllocationFailed,
                           "Planned buffer %zu of %lld bytes does not fit this host's size_t",
                           index, static_cast<long long>(size));
  return Error::Ok;
}

} // namespace

Error PlannedMemory::add_buffer(size_t size, Device device, size_t index, MemoryBudget* budget) {
  char what[64];
  std::snprintf(what, sizeof(what), "planned buffer %zu", index);
  if (device.is_cpu()) {
    auto buffer = HostBuffer::allocate(size, budget, what);
    if (!buffer.ok()) {
      return buffer.error();
    }
    host_.push_back(std::move(*buffer));
    spans_.emplace_back(host_.back().data(), size);
    devices_.push_back(device);
    return Error::Ok;
  }
  DeviceAllocator* a = ::executorch::runtime::get_device_allocator(device.type());
  ET_CHECK_OR_RETURN_ERROR(a != nullptr, NotFound,
                           "%s is on %s, which has no allocator: is the %s backend "
                           "installed?",
                           what, device_type_name(device.type()), device_type_name(device.type()));
  if (budget != nullptr) {
    ET_CHECK_OK_OR_RETURN_ERROR(budget->charge(size, what));
  }
  auto p = a->allocate(size == 0 ? 1 : size, device.index());
  if (!p.ok()) {
    if (budget != nullptr) {
      budget->refund(size);
    }
    ET_LOG(Error, "Cannot allocate %zu bytes on %s:%d for %s", size,
           device_type_name(device.type()), int(device.index()), what);
    return p.error();
  }
  device_.push_back(DeviceBlock{*p, size, device});
  spans_.emplace_back(static_cast<uint8_t*>(*p), size);
  devices_.push_back(device);
  return Error::Ok;
}

Result<std::unique_ptr<PlannedMemory>> PlannedMemory::allocate(Span<const size_t> sizes,
                                                               Span<const Device> devices,
                                                               MemoryBudget* budget) {
  std::unique_ptr<PlannedMemory> m(new (std::nothrow) PlannedMemory());
  ET_CHECK_OR_RETURN_ERROR(m != nullptr, MemoryAllocationFailed,
                           "Cannot allocate the planned memory table");
  m->budget_ = budget;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Device dev = i < devices.size() ? devices[i] : Device(Device::Type::CPU);
    ET_CHECK_OK_OR_RETURN_ERROR(m->add_buffer(sizes[i], dev, i, budget));
  }
  m->allocator_ = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(m->spans_.data(), m->spans_.size()),
      Span<const Device>(m->devices_.data(), m->devices_.size()));
  return m;
}

Result<std::unique_ptr<PlannedMemory>> PlannedMemory::for_method(
    const ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta& meta, MemoryBudget* budget) {
  std::vector<size_t> sizes;
  std::vector<Device> devices;
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    auto size = meta.memory_planned_buffer_size(i);
    ET_CHECK_OK_OR_RETURN_ERROR(size.error());
    ET_CHECK_OR_RETURN_ERROR(*size >= 0, InvalidProgram,
                             "Planned buffer %zu has negative size %lld", i,
                             static_cast<long long>(*size));
    size_t bytes = 0;
    ET_CHECK_OK_OR_RETURN_ERROR(planned_size(*size, i, &bytes));
    auto device = meta.memory_planned_buffer_device(i);
    ET_CHECK_OK_OR_RETURN_ERROR(device.error());
    sizes.push_back(bytes);
    devices.push_back(*device);
  }
  return allocate(Span<const size_t>(sizes.data(), sizes.size()),
                  Span<const Device>(devices.data(), devices.size()), budget);
}

PlannedMemory::~PlannedMemory() {
  for (const DeviceBlock& b : device_) {
    DeviceAllocator* a = ::executorch::runtime::get_device_allocator(b.device.type());
    if (a != nullptr) {
      a->deallocate(b.ptr, b.device.index());
    }
    if (budget_ != nullptr) {
      budget_->refund(b.size);
    }
  }
}

} // namespace extension
} // namespace executorch
