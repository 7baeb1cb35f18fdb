#include "executor/aligned_buffer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {
namespace internal {

namespace {
void free_copy(void* /*context*/, void* data, size_t /*size*/) { std::free(data); }
} // namespace

Result<FreeableBuffer> ensure_aligned(FreeableBuffer buffer) {
  constexpr size_t kAlign = alignof(std::max_align_t);
  const void* data = buffer.data();
  if (data == nullptr && buffer.size() != 0) {
    return Error::InvalidArgument;
  }
  if (reinterpret_cast<uintptr_t>(data) % kAlign == 0) {
    return buffer;
  }
  // aligned_alloc wants a multiple of the alignment.
  const size_t padded = (buffer.size() + kAlign - 1) / kAlign * kAlign;
  void* copy = std::aligned_alloc(kAlign, padded == 0 ? kAlign : padded);
  if (copy == nullptr) {
    ET_LOG(Error, "Cannot allocate %zu bytes for an aligned program copy", buffer.size());
    return Error::MemoryAllocationFailed;
  }
  std::memcpy(copy, data, buffer.size());
  const size_t size = buffer.size();
  buffer.Free();
  return FreeableBuffer(copy, size, free_copy);
}

} // namespace internal
} // namespace runtime
} // namespace executorch
