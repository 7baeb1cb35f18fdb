// FileDescriptorDataLoader: FileDataLoader for a file the caller already
// opened (e.g. handed over by Android's asset manager or a sandbox), named
// by a URI "fd:///<number>". The loader owns the descriptor from then on and
// closes it when destroyed. Every load returns an aligned heap copy.
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

class EXECUTORCH_API FileDescriptorDataLoader final : public ::executorch::runtime::DataLoader {
 public:
  // InvalidArgument for a URI that is not "fd:///<non-negative number>" or an
  // alignment that is not a power of two; AccessFailed when the descriptor
  // cannot be stat'ed (it is closed then too).
  ET_NODISCARD static ::executorch::runtime::Result<FileDescriptorDataLoader> fromFileDescriptorUri(
      const char* file_descriptor_uri, size_t alignment = alignof(std::max_align_t));

  FileDescriptorDataLoader(FileDescriptorDataLoader&& rhs) noexcept;
  FileDescriptorDataLoader(const FileDescriptorDataLoader&) = delete;
  FileDescriptorDataLoader& operator=(const FileDescriptorDataLoader&) = delete;
  FileDescriptorDataLoader& operator=(FileDescriptorDataLoader&&) = delete;
  ~FileDescriptorDataLoader() override;

  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> load(
      size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const override;
  ET_NODISCARD ::executorch::runtime::Result<size_t> size() const override;
  ET_NODISCARD ::executorch::runtime::Error load_into(size_t offset, size_t size,
                                                      const SegmentInfo& segment_info,
                                                      void* buffer) const override;

 private:
  FileDescriptorDataLoader(int fd, size_t file_size, size_t alignment, const char* uri)
      : uri_(uri), file_size_(file_size), alignment_(alignment), fd_(fd) {}

  // Range and moved-from checks shared by load() and load_into().
  ::executorch::runtime::Error check_range(size_t offset, size_t size) const;

  const char* uri_; // owned copy, for log lines
  size_t file_size_;
  size_t alignment_;
  int fd_; // owned; -1 once moved from
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::FileDescriptorDataLoader;
} // namespace util
} // namespace executor
} // namespace torch
