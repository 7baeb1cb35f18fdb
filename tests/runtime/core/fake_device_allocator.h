// A DeviceAllocator for tests: "CUDA" memory that is really host memory,
// with counters, so the registry and DeviceMemoryBuffer can be checked on a
// machine without a GPU.
#pragma once

#include <cstdlib>
#include <cstring>

#include <executorch/runtime/core/device_allocator.h>

namespace et_test {

class FakeCudaAllocator final : public executorch::runtime::DeviceAllocator {
 public:
  using DeviceIndex = executorch::runtime::etensor::DeviceIndex;
  using Error = executorch::runtime::Error;

  executorch::runtime::Result<void*> allocate(size_t nbytes, DeviceIndex index,
                                              size_t alignment) override {
    if (index != 0) {
      return Error::InvalidArgument;
    }
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      return Error::InvalidArgument;
    }
    const size_t rounded = (nbytes + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment < sizeof(void*) ? sizeof(void*) : alignment,
                                 rounded == 0 ? alignment : rounded);
    if (p == nullptr) {
      return Error::MemoryAllocationFailed;
    }
    ++allocations;
    last_alignment = alignment;
    return p;
  }
  void deallocate(void* ptr, DeviceIndex) override {
    ++deallocations;
    std::free(ptr);
  }
  Error copy_host_to_device(void* dst, const void* src, size_t nbytes, DeviceIndex) override {
    std::memcpy(dst, src, nbytes);
    return Error::Ok;
  }
  Error copy_device_to_host(void* dst, const void* src, size_t nbytes, DeviceIndex) override {
    std::memcpy(dst, src, nbytes);
    return Error::Ok;
  }
  executorch::runtime::etensor::DeviceType device_type() const override {
    return executorch::runtime::etensor::DeviceType::CUDA;
  }

  int allocations = 0;
  int deallocations = 0;
  size_t last_alignment = 0;
};

// Registers an allocator for the scope of a test.
class ScopedRegistration {
 public:
  explicit ScopedRegistration(executorch::runtime::DeviceAllocator* a) : a_(a) {
    ok_ = executorch::runtime::register_device_allocator(a) == executorch::runtime::Error::Ok;
  }
  ~ScopedRegistration() {
    if (ok_) {
      (void)executorch::runtime::unregister_device_allocator(a_);
    }
  }
  bool ok() const { return ok_; }

 private:
  executorch::runtime::DeviceAllocator* a_;
  bool ok_ = false;
};

} // namespace et_test
