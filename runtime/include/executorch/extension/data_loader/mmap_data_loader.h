// MmapDataLoader: maps the whole file privately (copy-on-write, never written
// back); loads are zero-copy views into the mapping, which lives as long as
// the loader.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

class EXECUTORCH_API MmapDataLoader final : public ::executorch::runtime::DataLoader {
 public:
  enum class MlockConfig {
    NoMlock,              // plain mapping
    UseMlock,             // mlock each loaded range; failure fails the load
    UseMlockIgnoreErrors, // mlock each loaded range; failure is ignored
    UseMadvise,           // madvise(WILLNEED) instead of locking
  };

  ET_NODISCARD static ::executorch::runtime::Result<MmapDataLoader> from(
      const char* file_name, MlockConfig mlock_config = MlockConfig::UseMlock);

  ET_DEPRECATED ET_NODISCARD static ::executorch::runtime::Result<MmapDataLoader> From(
      const char* file_name, MlockConfig mlock_config = MlockConfig::UseMlock) {
    return from(file_name, mlock_config);
  }
  ET_DEPRECATED ET_NODISCARD static ::executorch::runtime::Result<MmapDataLoader> From(
      const char* file_name, bool use_mlock) {
    return from(file_name, use_mlock ? MlockConfig::UseMlock : MlockConfig::NoMlock);
  }

  MmapDataLoader(MmapDataLoader&& rhs) noexcept;
  MmapDataLoader(const MmapDataLoader&) = delete;
  MmapDataLoader& operator=(const MmapDataLoader&) = delete;
  MmapDataLoader& operator=(MmapDataLoader&&) = delete;
  ~MmapDataLoader() override;

  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> load(
      size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const override;

  ET_NODISCARD ::executorch::runtime::Result<size_t> size() const override;

  ET_NODISCARD ::executorch::runtime::Error load_into(size_t offset, size_t size,
                                                      const SegmentInfo& segment_info,
                                                      void* buffer) const override;

 private:
  MmapDataLoader(int fd, size_t file_size, void* mapping, size_t mapping_size,
                 const char* file_name, size_t page_size, MlockConfig mlock_config)
      : file_name_(file_name),
        file_size_(file_size),
        mapping_(mapping),
        mapping_size_(mapping_size),
        page_size_(page_size),
        fd_(fd),
        mlock_config_(mlock_config) {}

  const char* file_name_; // owned (strdup'd) copy, for log lines
  size_t file_size_;
  void* mapping_;       // nullptr for an empty file or once moved from
  size_t mapping_size_; // page-rounded length passed to munmap
  size_t page_size_;
  int fd_;
  MlockConfig mlock_config_;
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::MmapDataLoader;
} // namespace util
} // namespace executor
} // namespace torch
