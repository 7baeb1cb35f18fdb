// MemoryAllocator: a bump allocator over a caller-supplied buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class EXECUTORCH_API MemoryAllocator {
 public:
  static constexpr size_t kDefaultAlignment = alignof(void*);

  MemoryAllocator(uint32_t size, uint8_t* base_address)
      : begin_(base_address), end_(base_address + size), cur_(base_address), size_(size) {}
  virtual ~MemoryAllocator();

  // Returns nullptr when the request does not fit or alignment is not a
  // power of two.
  virtual void* allocate(size_t size, size_t alignment = kDefaultAlignment);

  template <typename T>
  T* allocateInstance(size_t alignment = alignof(T)) {
    return static_cast<T*>(allocate(sizeof(T), alignment));
  }

  // Space for n default-uninitialized T; nullptr on overflow or exhaustion.
  template <typename T>
  T* allocateList(size_t n, size_t alignment = alignof(T)) {
    if (n != 0 && sizeof(T) > SIZE_MAX / n) {
      return nullptr;
    }
    return static_cast<T*>(allocate(n * sizeof(T), alignment));
  }

  virtual uint8_t* base_address() const { return begin_; }
  virtual uint32_t size() const { return size_; }
  virtual size_t used_size() const { return static_cast<size_t>(cur_ - begin_); }
  virtual size_t free_size() const { return static_cast<size_t>(end_ - cur_); }
  virtual void reset() { cur_ = begin_; }
  void enable_profiling(const char* name) { (void)name; }

 private:
  uint8_t* begin_;
  uint8_t* end_;
  uint8_t* cur_;
  uint32_t size_;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::MemoryAllocator;
} // namespace executor
} // namespace torch
