// MallocMemoryAllocator: a MemoryAllocator that mallocs every request and
// frees them all on reset() or destruction. For hosts where a fixed arena
// is not worth sizing up front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

class EXECUTORCH_API MallocMemoryAllocator final : public ::executorch::runtime::MemoryAllocator {
 public:
  MallocMemoryAllocator();
  MallocMemoryAllocator(const MallocMemoryAllocator&) = delete;
  MallocMemoryAllocator& operator=(const MallocMemoryAllocator&) = delete;
  MallocMemoryAllocator(MallocMemoryAllocator&&) = delete;
  MallocMemoryAllocator& operator=(MallocMemoryAllocator&&) = delete;
  ~MallocMemoryAllocator() override;

  // nullptr when alignment is not a power of two or malloc fails.
  void* allocate(size_t size, size_t alignment = kDefaultAlignment) override;
  // Frees every allocation made so far.
  void reset() override;

 private:
  std::vector<void*> mem_ptrs_;
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::MallocMemoryAllocator;
} // namespace util
} // namespace executor
} // namespace torch
