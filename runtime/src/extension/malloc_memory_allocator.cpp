#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>

#include <cstdlib>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

// The base class's arena is empty: every request goes to the heap instead.
MallocMemoryAllocator::MallocMemoryAllocator()
    : ::executorch::runtime::MemoryAllocator(0, nullptr) {}

MallocMemoryAllocator::~MallocMemoryAllocator() { reset(); }

void* MallocMemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    ET_LOG(Error, "MallocMemoryAllocator: alignment %zu is not a power of two", alignment);
    return nullptr;
  }
  // posix_memalign needs a multiple of sizeof(void*); smaller alignments are
  // met by that too.
  const size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  void* p = nullptr;
  if (::posix_memalign(&p, align, size == 0 ? 1 : size) != 0) {
    ET_LOG(Error, "MallocMemoryAllocator: failed to allocate %zu bytes", size);
    return nullptr;
  }
  // Allocation must not throw across the API: treat a failed bookkeeping
  // push as an allocation failure.
  try {
    mem_ptrs_.push_back(p);
  } catch (...) {
    std::free(p);
    return nullptr;
  }
  return p;
}

void MallocMemoryAllocator::reset() {
  for (void* p : mem_ptrs_) {
    std::free(p);
  }
  mem_ptrs_.clear();
}

} // namespace extension
} // namespace executorch
