#include <executorch/extension/data_loader/mmap_data_loader.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"
#include "extension/file_checks.h"

using ::executorch::runtime::Error;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::Result;

namespace executorch {
namespace extension {

namespace {

// Loaded ranges were mlocked page-wise; undo exactly that range. The mapping
// itself stays until the loader goes away.
void munlock_range(void* context, void* data, size_t size) {
  const size_t page_size = reinterpret_cast<size_t>(context);
  const uintptr_t start = reinterpret_cast<uintptr_t>(data) & ~(page_size - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(data) + size;
  ::munlock(reinterpret_cast<void*>(start), end - start);
}

// One private mapping of the whole file; every load points into it, so
// nothing is copied. Writable (copy-on-write, never written back): a
// program whose kernel writes into one of its own constants then changes
// this process's copy of that page instead of faulting on a read-only one.
Error map_whole_file(int fd, const char* file_name, size_t file_size, size_t page_size,
                     void** mapping, size_t* mapping_size) {
  // Rounding up to whole pages must not wrap (a file near 4 GiB on i386).
  size_t rounded = 0;
  if (!::executorch::runtime::internal::checked_add(file_size, page_size - 1, &rounded)) {
    ET_LOG(Error, "%s: %zu bytes cannot be mapped on this host", file_name, file_size);
    return Error::InvalidArgument;
  }
  rounded &= ~(page_size - 1);
  void* m = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED) {
    ET_LOG(Error, "Failed to mmap %s (%zu bytes): %s", file_name, file_size, std::strerror(errno));
    return Error::AccessFailed;
  }
  *mapping = m;
  *mapping_size = rounded;
  return Error::Ok;
}

} // namespace

Result<MmapDataLoader> MmapDataLoader::from(const char* file_name, MlockConfig mlock_config) {
  switch (mlock_config) {
    case MlockConfig::NoMlock:
    case MlockConfig::UseMlock:
    case MlockConfig::UseMlockIgnoreErrors:
    case MlockConfig::UseMadvise:
      break;
    default:
      ET_LOG(Error, "MmapDataLoader: unknown MlockConfig %d for %s", static_cast<int>(mlock_config),
             file_name != nullptr ? file_name : "(null)");
      return Error::InvalidArgument;
  }
  const long page = ::sysconf(_SC_PAGESIZE);
  const size_t page_size = page > 0 ? static_cast<size_t>(page) : 4096;

  auto file = internal::open_regular_file(file_name, "MmapDataLoader");
  if (!file.ok()) {
    return file.error();
  }
  const int fd = file->fd;
  const size_t file_size = file->size;
  void* mapping = nullptr;
  size_t mapping_size = 0;
  if (file_size > 0) {
    const Error err = map_whole_file(fd, file_name, file_size, page_size, &mapping, &mapping_size);
    if (err != Error::Ok) {
      ::close(fd);
      return err;
    }
  }
  char* name_copy = ::strdup(file_name);
  if (name_copy == nullptr) {
    if (mapping != nullptr) {
      ::munmap(mapping, mapping_size);
    }
    ::close(fd);
    return Error::MemoryAllocationFailed;
  }
  return MmapDataLoader(fd, file_size, mapping, mapping_size, name_copy, page_size, mlock_config);
}

MmapDataLoader::MmapDataLoader(MmapDataLoader&& rhs) noexcept
    : file_name_(rhs.file_name_),
      file_size_(rhs.file_size_),
      mapping_(rhs.mapping_),
      mapping_size_(rhs.mapping_size_),
      page_size_(rhs.page_size_),
      fd_(rhs.fd_),
      mlock_config_(rhs.mlock_config_) {
  rhs.file_name_ = nullptr;
  rhs.file_size_ = 0;
  rhs.mapping_ = nullptr;
  rhs.mapping_size_ = 0;
  rhs.fd_ = -1;
}

MmapDataLoader::~MmapDataLoader() {
  if (mapping_ != nullptr) {
    ::munmap(mapping_, mapping_size_);
  }
  std::free(const_cast<char*>(file_name_));
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Result<size_t> MmapDataLoader::size() const {
  ET_CHECK_OR_RETURN_ERROR(fd_ >= 0, InvalidState, "MmapDataLoader used after being moved from");
  return file_size_;
}

Result<FreeableBuffer> MmapDataLoader::load(size_t offset, size_t size,
                                            const DataLoader::SegmentInfo& segment_info) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "MmapDataLoader"));
  if (size == 0) {
    return FreeableBuffer(nullptr, 0, /*free_fn=*/nullptr);
  }
  uint8_t* data = static_cast<uint8_t*>(mapping_) + offset;
  const uintptr_t page_start = reinterpret_cast<uintptr_t>(data) & ~(page_size_ - 1);
  const size_t span = reinterpret_cast<uintptr_t>(data) + size - page_start;

  switch (mlock_config_) {
    case MlockConfig::UseMlock:
    case MlockConfig::UseMlockIgnoreErrors:
      if (::mlock(reinterpret_cast<void*>(page_start), span) != 0) {
        if (mlock_config_ == MlockConfig::UseMlock) {
          ET_LOG(Error, "mlock of [%zu, +%zu) in %s failed: %s", offset, size, file_name_,
                 std::strerror(errno));
          return Error::NotSupported;
        }
        // Locking is an optimization here; run unlocked.
        return FreeableBuffer(data, size, /*free_fn=*/nullptr);
      }
      return FreeableBuffer(data, size, munlock_range, reinterpret_cast<void*>(page_size_));
    case MlockConfig::UseMadvise:
      (void)::madvise(reinterpret_cast<void*>(page_start), span, MADV_WILLNEED);
      return FreeableBuffer(data, size, /*free_fn=*/nullptr);
    case MlockConfig::NoMlock:
    default:
      return FreeableBuffer(data, size, /*free_fn=*/nullptr);
  }
}

Error MmapDataLoader::load_into(size_t offset, size_t size, const SegmentInfo& segment_info,
                                void* buffer) const {
  (void)segment_info;
  ET_CHECK_OK_OR_RETURN_ERROR(
      internal::check_load(fd_, file_name_, file_size_, offset, size, "MmapDataLoader"));
  if (size == 0) {
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(buffer != nullptr, InvalidArgument,
                           "load_into %s: null destination buffer", file_name_);
  std::memcpy(buffer, static_cast<const uint8_t*>(mapping_) + offset, size);
  return Error::Ok;
}

} // namespace extension
} // namespace executorch
