#include "extension/file_checks.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"

namespace executorch {
namespace extension {
namespace internal {

using ::executorch::runtime::Error;
using ::executorch::runtime::Result;

Result<OpenedFile> open_regular_file(const char* file_name, const char* loader) {
  if (file_name == nullptr) {
    ET_LOG(Error, "%s: null file name", loader);
    return Error::InvalidArgument;
  }
  const int fd = ::open(file_name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ET_LOG(Error, "Failed to open %s: %s", file_name, std::strerror(errno));
    return Error::AccessFailed;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ET_LOG(Error, "Failed to stat %s: %s", file_name, std::strerror(errno));
    ::close(fd);
    return Error::AccessFailed;
  }
  if (!S_ISREG(st.st_mode)) {
    ET_LOG(Error, "%s is not a regular file", file_name);
    ::close(fd);
    return Error::InvalidArgument;
  }
  auto size = file_size_of(st, file_name);
  if (!size.ok()) {
    ::close(fd);
    return size.error();
  }
  return OpenedFile{fd, *size};
}

Result<size_t> file_size_of(const struct stat& st, const char* file_name) {
  size_t size = 0;
  // st_size is a 64-bit off_t even on i386/armhf: a file over 4 GiB there
  // would wrap to a small size_t.
  ET_CHECK_OR_RETURN_ERROR(::executorch::runtime::internal::to_size_signed(st.st_size, &size),
                           InvalidArgument, "%s: size %lld does not fit this host's size_t",
                           file_name, static_cast<long long>(st.st_size));
  return size;
}

Error check_load(int fd, const char* file_name, size_t file_size, size_t offset, size_t size,
                 const char* loader) {
  ET_CHECK_OR_RETURN_ERROR(fd >= 0, InvalidState, "%s used after being moved from", loader);
  ET_CHECK_OR_RETURN_ERROR(offset <= file_size && size <= file_size - offset, InvalidArgument,
                           "Range [%zu, +%zu) is outside %s (%zu bytes)", offset, size, file_name,
                           file_size);
  return Error::Ok;
}

} // namespace internal
} // namespace extension
} // namespace executorch
