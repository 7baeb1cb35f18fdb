// FileDataLoader: reads a file with pread(); every load returns a fresh,
// aligned heap copy of the requested bytes.
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

class EXECUTORCH_API FileDataLoader final : public ::executorch::runtime::DataLoader {
 public:
  // alignment must be a power of two; it applies to every returned buffer.
  ET_NODISCARD static ::executorch::runtime::Result<FileDataLoader> from(
      const char* file_name, size_t alignment = alignof(std::max_align_t));

  ET_DEPRECATED ET_NODISCARD static ::executorch::runtime::Result<FileDataLoader> From(
      const char* file_name, size_t alignment = alignof(std::max_align_t)) {
    return from(file_name, alignment);
  }

  FileDataLoader(FileDataLoader&& rhs) noexcept;
  FileDataLoader(const FileDataLoader&) = delete;
  FileDataLoader& operator=(const FileDataLoader&) = delete;
  FileDataLoader& operator=(FileDataLoader&&) = delete;
  ~FileDataLoader() override;

  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> load(
      size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const override;

  ET_NODISCARD ::executorch::runtime::Result<size_t> size() const override;

  ET_NODISCARD ::executorch::runtime::Error load_into(size_t offset, size_t size,
                                                      const SegmentInfo& segment_info,
                                                      void* buffer) const override;

 private:
  FileDataLoader(int fd, size_t file_size, size_t alignment, const char* file_name)
      : file_name_(file_name), file_size_(file_size), alignment_(alignment), fd_(fd) {}

  const char* file_name_; // owned (strdup'd) copy, for log lines
  size_t file_size_;
  size_t alignment_;
  int fd_; // -1 once moved from
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::FileDataLoader;
} // namespace util
} // namespace executor
} // namespace torch
