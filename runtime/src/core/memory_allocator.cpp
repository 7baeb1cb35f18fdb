#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

MemoryAllocator::~MemoryAllocator() = default;

void* MemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    ET_LOG(Error, "Alignment %zu is not a power of two", alignment);
    return nullptr;
  }
  const uintptr_t cur = reinterpret_cast<uintptr_t>(cur_);
  const uintptr_t aligned = (cur + alignment - 1) & ~(uintptr_t(alignment) - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(end_);
  if (aligned < cur || aligned > end || size > end - aligned) {
    ET_LOG(Debug, "Allocator of %u bytes cannot fit %zu more bytes", size_, size);
    return nullptr;
  }
  cur_ = reinterpret_cast<uint8_t*>(aligned + size);
  return reinterpret_cast<void*>(aligned);
}

HierarchicalAllocator::HierarchicalAllocator(uint32_t n_allocators, MemoryAllocator* allocators) {
  const uint32_t n = n_allocators < 16 ? n_allocators : 16;
  for (uint32_t i = 0; i < n; ++i) {
    legacy_buffers_[i] = Span<uint8_t>(allocators[i].base_address(), allocators[i].size());
  }
  buffers_ = Span<Span<uint8_t>>(legacy_buffers_, n);
}

Result<void*> HierarchicalAllocator::get_offset_address(uint32_t memory_id, size_t offset_bytes,
                                                        size_t size_bytes) {
  if (memory_id >= buffers_.size()) {
    ET_LOG(Error, "Planned buffer id %u out of range (%zu buffers)", memory_id, buffers_.size());
    return Error::InvalidArgument;
  }
  const Span<uint8_t>& buffer = buffers_[memory_id];
  if (offset_bytes > buffer.size() || size_bytes > buffer.size() - offset_bytes) {
    ET_LOG(Error, "Planned range [%zu, +%zu) outside buffer %u of %zu bytes", offset_bytes,
           size_bytes, memory_id, buffer.size());
    return Error::InvalidArgument;
  }
  return static_cast<void*>(buffer.data() + offset_bytes);
}

} // namespace runtime
} // namespace executorch
