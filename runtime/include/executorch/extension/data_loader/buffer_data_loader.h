// BufferDataLoader: serves bytes from a caller-owned buffer without copying.
#pragma once

#include <cstddef>
#include <cstring>

#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

// Header-only: nothing to export, and it works against any runtime build.
class BufferDataLoader final : public ::executorch::runtime::DataLoader {
 public:
  // The buffer must outlive the loader and every buffer it hands out.
  BufferDataLoader(const void* data, size_t size)
      : data_(static_cast<const uint8_t*>(data)), size_(size) {}

  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> load(
      size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const override {
    (void)segment_info;
    if (!in_range(offset, size)) {
      return ::executorch::runtime::Error::InvalidArgument;
    }
    return ::executorch::runtime::FreeableBuffer(data_ + offset, size,
                                                 /*free_fn=*/nullptr);
  }

  ET_NODISCARD ::executorch::runtime::Result<size_t> size() const override { return size_; }

  ET_NODISCARD ::executorch::runtime::Error load_into(size_t offset, size_t size,
                                                      const SegmentInfo& segment_info,
                                                      void* buffer) const override {
    (void)segment_info;
    if (buffer == nullptr && size != 0) {
      ET_LOG(Error, "BufferDataLoader: null destination buffer");
      return ::executorch::runtime::Error::InvalidArgument;
    }
    if (!in_range(offset, size)) {
      return ::executorch::runtime::Error::InvalidArgument;
    }
    if (size != 0) {
      std::memcpy(buffer, data_ + offset, size);
    }
    return ::executorch::runtime::Error::Ok;
  }

 private:
  // Written so that offset + size cannot overflow.
  bool in_range(size_t offset, size_t size) const {
    if (offset > size_ || size > size_ - offset) {
      ET_LOG(Error, "BufferDataLoader: range [%zu, +%zu) is outside the %zu-byte buffer", offset,
             size, size_);
      return false;
    }
    return true;
  }

  const uint8_t* data_;
  size_t size_;
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::BufferDataLoader;
} // namespace util
} // namespace executor
} // namespace torch
