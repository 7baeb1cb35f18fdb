// CPUCachingAllocator: a MemoryAllocator backed by the heap that keeps the
// blocks it handed out across reset(), so a method run again and again with
// the same requests reuses them instead of calling malloc each time. When
// more than max_size bytes are live at a reset(), everything is freed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

// Every block is aligned to at least this.
constexpr size_t kCachingAllocatorDefaultAlignment = 64;

class EXECUTORCH_API CPUCachingAllocator : public ::executorch::runtime::MemoryAllocator {
 public:
  // max_size: the most bytes kept for reuse.
  explicit CPUCachingAllocator(uint32_t max_size);
  CPUCachingAllocator(const CPUCachingAllocator&) = delete;
  CPUCachingAllocator& operator=(const CPUCachingAllocator&) = delete;
  CPUCachingAllocator(CPUCachingAllocator&&) = delete;
  CPUCachingAllocator& operator=(CPUCachingAllocator&&) = delete;
  ~CPUCachingAllocator() override;

  // A cached block of the same rounded size when one is free, else a new
  // one. nullptr when alignment is not a power of two or the heap is out.
  void* allocate(size_t size, size_t alignment = kCachingAllocatorDefaultAlignment) override;
  // Returns every block handed out to the cache (or frees them all when the
  // total is above max_size). Thread-safe, like allocate().
  void reset() override;

 private:
  struct Block {
    void* ptr;
    size_t alignment;
  };
  void free_everything();

  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<Block>> available_;  // by size
  std::unordered_map<void*, std::pair<size_t, size_t>> live_; // size, alignment
  size_t max_size_;
  size_t current_size_ = 0; // bytes of every block, live or cached
};

} // namespace extension
} // namespace executorch
