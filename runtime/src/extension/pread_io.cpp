#include "extension/pread_io.h"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <executorch/runtime/platform/log.h>

using ::executorch::runtime::Error;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::Result;

namespace executorch {
namespace extension {
namespace internal {

namespace {
void free_aligned(void* /*context*/, void* data, size_t /*size*/) { std::free(data); }
} // namespace

Error pread_exact(int fd, const char* what, void* buffer, size_t size, size_t offset) {
  if (size > 0 && buffer == nullptr) {
    ET_LOG(Error, "Reading %zu bytes of %s into a null destination buffer", size, what);
    return Error::InvalidArgument;
  }
  auto* out = static_cast<uint8_t*>(buffer);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      ET_LOG(Error, "Reading %zu bytes at offset %zu of %s failed: %s", size, offset, what,
             std::strerror(errno));
      return Error::AccessFailed;
    }
    if (n == 0) {
      ET_LOG(Error, "Unexpected end of %s at offset %zu (wanted %zu bytes)", what, offset + done,
             size);
      return Error::AccessFailed;
    }
    done += static_cast<size_t>(n);
  }
  return Error::Ok;
}

Result<FreeableBuffer> pread_aligned(int fd, const char* what, size_t offset, size_t size,
                                     size_t alignment) {
  if (size == 0) {
    return FreeableBuffer(nullptr, 0, /*free_fn=*/nullptr);
  }
  // posix_memalign needs at least pointer alignment.
  const size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  void* buffer = nullptr;
  if (::posix_memalign(&buffer, align, size) != 0 || buffer == nullptr) {
    ET_LOG(Error, "Cannot allocate %zu bytes (alignment %zu) to load %s", size, align, what);
    return Error::MemoryAllocationFailed;
  }
  const Error err = pread_exact(fd, what, buffer, size, offset);
  if (err != Error::Ok) {
    std::free(buffer);
    return err;
  }
  return FreeableBuffer(buffer, size, free_aligned);
}

} // namespace internal
} // namespace extension
} // namespace executorch
