// The temp allocator a Method uses when its MemoryManager has none (as
// upstream's PlatformMemoryAllocator): each allocation comes from
// et_pal_allocate(), and reset() (after every instruction) gives them all
// back through et_pal_free().
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {
namespace internal {

class PlatformTempAllocator final : public MemoryAllocator {
 public:
  PlatformTempAllocator() : MemoryAllocator(0, nullptr) {}
  ~PlatformTempAllocator() override { release(); }
  PlatformTempAllocator(const PlatformTempAllocator&) = delete;
  PlatformTempAllocator& operator=(const PlatformTempAllocator&) = delete;

  void* allocate(size_t size, size_t alignment = kDefaultAlignment) override {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      return nullptr;
    }
    const size_t header = sizeof(Block);
    if (size > SIZE_MAX - header - alignment) {
      return nullptr;
    }
    void* raw = et_pal_allocate(header + alignment + size);
    if (raw == nullptr) {
      return nullptr;
    }
    Block* block = static_cast<Block*>(raw);
    block->next = head_;
    head_ = block;
    uintptr_t p = reinterpret_cast<uintptr_t>(raw) + header;
    p = (p + alignment - 1) & ~(static_cast<uintptr_t>(alignment) - 1);
    return reinterpret_cast<void*>(p);
  }

  void reset() override {
    release();
    MemoryAllocator::reset();
  }

 private:
  struct Block {
    Block* next;
  };
  void release() {
    while (head_ != nullptr) {
      Block* next = head_->next;
      et_pal_free(head_);
      head_ = next;
    }
  }
  Block* head_ = nullptr;
};

} // namespace internal
} // namespace runtime
} // namespace executorch
