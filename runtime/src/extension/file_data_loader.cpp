#include <executorch/extension/data_loader/file_data_loader.h>

#include <unistd.h>

#include <cerrno>
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

bool is_power_of_2(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

} // namespace

Result<FileDataLoader> FileDataLoader::from(const char* file_name, size_t alignment) {
  if (!is_power_of_2(alignment)) {
    ET_LOG(Error, "FileDataLoader: alignment %zu of %s is not a power of two", alignment,
           file_name != nullptr ? file_name : "(null)");
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
    : file_name_(rhs.file_name_),
      file_size_(rhs.file_size_),
      alignment_(rhs.alignment_),
      fd_(rhs.fd_) {
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
  ET_CHECK_OR_RETURN_ERROR(fd_ >= 0, InvalidState, "FileDataLoader used after being moved from");
  return file_size_;
}

Result<FreeableBuffer> FileDataLoader::load(size_t offset, size_t size,
                                            const DataLoader::SegmentInfo& segment_info) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "FileDataLoader"));
  return internal::pread_aligned(fd_, file_name_, offset, size, alignment_);
}

Error FileDataLoader::load_into(size_t offset, size_t size, const SegmentInfo& segment_info,
                                void* buffer) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "FileDataLoader"));
  return internal::pread_exact(fd_, file_name_, buffer, size, offset);
}

} // namespace extension
} // namespace executorch
