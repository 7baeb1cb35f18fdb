#include <executorch/extension/data_loader/file_descriptor_data_loader.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "extension/file_checks.h"
#include "extension/pread_io.h"

using ::executorch::runtime::Error;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::Result;

namespace executorch {
namespace extension {

namespace {

constexpr char kFdUriPrefix[] = "fd:///";

// The descriptor number of "fd:///<n>", or -1 when the text is not that.
int parse_fd_uri(const char* uri) {
  const size_t prefix_len = sizeof(kFdUriPrefix) - 1;
  if (uri == nullptr || std::strncmp(uri, kFdUriPrefix, prefix_len) != 0) {
    return -1;
  }
  const char* digits = uri + prefix_len;
  if (*digits < '0' || *digits > '9') {
    return -1;
  }
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(digits, &end, 10);
  if (errno != 0 || *end != '\0' || n > INT_MAX) {
    return -1;
  }
  return static_cast<int>(n);
}

} // namespace

Result<FileDescriptorDataLoader> FileDescriptorDataLoader::fromFileDescriptorUri(
    const char* file_descriptor_uri, size_t alignment) {
  ET_CHECK_OR_RETURN_ERROR(alignment != 0 && (alignment & (alignment - 1)) == 0, InvalidArgument,
                           "Alignment %zu is not a power of two", alignment);
  const int fd = parse_fd_uri(file_descriptor_uri);
  ET_CHECK_OR_RETURN_ERROR(fd >= 0, InvalidArgument,
                           "'%s' is not a file descriptor URI (fd:///<number>)",
                           file_descriptor_uri == nullptr ? "(null)" : file_descriptor_uri);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ET_LOG(Error, "Cannot stat %s: %s", file_descriptor_uri, std::strerror(errno));
    ::close(fd);
    return Error::AccessFailed;
  }
  auto size = internal::file_size_of(st, file_descriptor_uri);
  if (!size.ok()) {
    ::close(fd);
    return size.error();
  }
  char* uri_copy = ::strdup(file_descriptor_uri);
  if (uri_copy == nullptr) {
    ::close(fd);
    return Error::MemoryAllocationFailed;
  }
  return FileDescriptorDataLoader(fd, *size, alignment, uri_copy);
}

FileDescriptorDataLoader::FileDescriptorDataLoader(FileDescriptorDataLoader&& rhs) noexcept
    : uri_(rhs.uri_), file_size_(rhs.file_size_), alignment_(rhs.alignment_), fd_(rhs.fd_) {
  rhs.uri_ = nullptr;
  rhs.file_size_ = 0;
  rhs.fd_ = -1;
}

FileDescriptorDataLoader::~FileDescriptorDataLoader() {
  std::free(const_cast<char*>(uri_));
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Error FileDescriptorDataLoader::check_range(size_t offset, size_t size) const {
  return internal::check_load(fd_, uri_, file_size_, offset, size, "FileDescriptorDataLoader");
}

Result<size_t> FileDescriptorDataLoader::size() const {
  ET_CHECK_OR_RETURN_ERROR(fd_ >= 0, InvalidState,
                           "FileDescriptorDataLoader used after being moved from");
  return file_size_;
}

Result<FreeableBuffer> FileDescriptorDataLoader::load(
    size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(check_range(offset, size));
  return internal::pread_aligned(fd_, uri_, offset, size, alignment_);
}

Error FileDescriptorDataLoader::load_into(size_t offset, size_t size,
                                          const SegmentInfo& segment_info, void* buffer) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(check_range(offset, size));
  return internal::pread_exact(fd_, uri_, buffer, size, offset);
}

} // namespace extension
} // namespace executorch
