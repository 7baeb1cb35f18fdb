// Positional reads shared by the file-backed data loaders.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace extension {
namespace internal {

// Reads exactly size bytes at offset (retrying short reads and EINTR); a
// size of 0 reads nothing. AccessFailed, with a log line naming `what`, on
// an error or end of file; InvalidArgument for a null buffer.
::executorch::runtime::Error pread_exact(int fd, const char* what, void* buffer, size_t size,
                                         size_t offset);

// [offset, +size) of fd in a fresh heap buffer aligned to `alignment` (a
// power of two), freed by the FreeableBuffer. The range must be checked by
// the caller.
::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> pread_aligned(
    int fd, const char* what, size_t offset, size_t size, size_t alignment);

} // namespace internal
} // namespace extension
} // namespace executorch
