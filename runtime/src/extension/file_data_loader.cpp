#include <executorch/extension/data_loader/file_data_loader.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "extension/file_checks.h"

using ::executorch::runtime::Error;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::Result;

namespace executorch {
namespace extension {

namespace {

bool is_power_of_2(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

void free_aligned(void* /*context*/, void* data, size_t /*size*/) {
  std::free(data);
}

// Reads exactly size bytes at offset, retrying short reads and EINTR.
Error pread_all(int fd, const char* file_name, void* buffer, size_t size,
                size_t offset) {
  auto* out = static_cast<uint8_t*>(buffer);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done,
                              static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      ET_LOG(Error, "Reading %zu bytes at offset %zu of %s failed: %s", size,
             offset, file_name, std::strerror(errno));
      return Error::AccessFailed;
    }
    if (n == 0) {
      ET_LOG(Error, "Unexpected end of %s at offset %zu (wanted %zu bytes)",
             file_name, offset + done, size);
      return Error::AccessFailed;
    }
    done += static_cast<size_t>(n);
  }
  return Error::Ok;
}

} // namespace

Result<FileDataLoader> FileDataLoader::from(const char* file_name,
                                            size_t alignment) {
  if (!is_power_of_2(alignment)) {
    ET_LOG(Error, "FileDataLoader: alignment %zu of %s is not a power of two",
           alignment, file_name != nullptr ? file_name : "(null)");
    return Error::InvalidArgument;
  }
  auto file = internal::open_regular_file(file_name, "FileDataLoader");
  if (!file.ok()) {
    return file.error();
  }
  char* name_copy = ::strdup(file_name);
  if (name_copy == nullptr) {
    ::close(file->fd);
    return Error::MemoryAllocationFailed;
  }
  return FileDataLoader(file->fd, file->size, alignment, name_copy);
}

FileDataLoader::FileDataLoader(FileDataLoader&& rhs) noexcept
    : file_name_(rhs.file_name_), file_size_(rhs.file_size_),
      alignment_(rhs.alignment_), fd_(rhs.fd_) {
  rhs.file_name_ = nullptr;
  rhs.file_size_ = 0;
  rhs.fd_ = -1;
}

FileDataLoader::~FileDataLoader() {
  std::free(const_cast<char*>(file_name_));
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Result<size_t> FileDataLoader::size() const {
  ET_CHECK_OR_RETURN_ERROR(fd_ >= 0, InvalidState,
                           "FileDataLoader used after being moved from");
  return file_size_;
}

Result<FreeableBuffer> FileDataLoader::load(
    size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "FileDataLoader"));
  if (size == 0) {
    return FreeableBuffer(nullptr, 0, /*free_fn=*/nullptr);
  }
  // aligned_alloc wants a size that is a multiple of the alignment, and at
  // least sizeof(void*) for the alignment itself.
  const size_t align = alignment_ < sizeof(void*) ? sizeof(void*) : alignment_;
  void* buffer = nullptr;
  if (::posix_memalign(&buffer, align, size) != 0 || buffer == nullptr) {
    ET_LOG(Error, "Cannot allocate %zu bytes (alignment %zu) to load %s", size,
           align, file_name_);
    return Error::MemoryAllocationFailed;
  }
  const Error err = pread_all(fd_, file_name_, buffer, size, offset);
  if (err != Error::Ok) {
    std::free(buffer);
    return err;
  }
  return FreeableBuffer(buffer, size, free_aligned);
}

Error FileDataLoader::load_into(size_t offset, size_t size,
                                const SegmentInfo& segment_info,
                                void* buffer) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "FileDataLoader"));
  if (size == 0) {
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(buffer != nullptr, InvalidArgument,
                           "load_into %s: null destination buffer", file_name_);
  return pread_all(fd_, file_name_, buffer, size, offset);
}

} // namespace extension
} // namespace executorch
