#include <executorch/extension/memory_allocator/cpu_caching_malloc_allocator.h>

#include <cstdlib>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

CPUCachingAllocator::CPUCachingAllocator(uint32_t max_size)
    : MemoryAllocator(0, nullptr), max_size_(max_size) {}

CPUCachingAllocator::~CPUCachingAllocator() {
  std::lock_guard<std::mutex> guard(mutex_);
  free_everything();
}

void* CPUCachingAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    ET_LOG(Error, "CPUCachingAllocator: alignment %zu is not a power of two", alignment);
    return nullptr;
  }
  if (alignment < kCachingAllocatorDefaultAlignment) {
    alignment = kCachingAllocatorDefaultAlignment;
  }
  // Round up so that blocks of nearby sizes share a cache bucket.
  if (size > SIZE_MAX - (alignment - 1)) {
    ET_LOG(Error, "CPUCachingAllocator: %zu bytes is too large", size);
    return nullptr;
  }
  const size_t rounded = size == 0 ? alignment : (size + alignment - 1) / alignment * alignment;
  std::lock_guard<std::mutex> guard(mutex_);
  auto bucket = available_.find(rounded);
  if (bucket != available_.end()) {
    std::vector<Block>& blocks = bucket->second;
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].alignment >= alignment) {
        const Block b = blocks[i];
        blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(i));
        live_[b.ptr] = {rounded, b.alignment};
        return b.ptr;
      }
    }
  }
  void* ptr = nullptr;
  if (::posix_memalign(&ptr, alignment, rounded) != 0 || ptr == nullptr) {
    ET_LOG(Error, "CPUCachingAllocator: cannot allocate %zu bytes", rounded);
    return nullptr;
  }
  live_[ptr] = {rounded, alignment};
  current_size_ += rounded;
  return ptr;
}

void CPUCachingAllocator::reset() {
  std::lock_guard<std::mutex> guard(mutex_);
  if (current_size_ > max_size_) {
    free_everything();
    return;
  }
  for (const auto& entry : live_) {
    available_[entry.second.first].push_back(Block{entry.first, entry.second.second});
  }
  live_.clear();
}

void CPUCachingAllocator::free_everything() {
  for (auto& bucket : available_) {
    for (const Block& b : bucket.second) {
      std::free(b.ptr);
    }
  }
  available_.clear();
  for (const auto& entry : live_) {
    std::free(entry.first);
  }
  live_.clear();
  current_size_ = 0;
}

} // namespace extension
} // namespace executorch
