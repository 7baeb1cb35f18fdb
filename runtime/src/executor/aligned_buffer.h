// Makes sure FlatBuffer bytes sit at an alignof(max_align_t) address:
// keeps the loader's buffer when it already does, else copies it.
#pragma once

#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace runtime {
namespace internal {

Result<FreeableBuffer> ensure_aligned(FreeableBuffer buffer);

} // namespace internal
} // namespace runtime
} // namespace executorch
