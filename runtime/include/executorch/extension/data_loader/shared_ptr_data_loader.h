// SharedPtrDataLoader: serves loads from memory kept alive by a
// shared_ptr; loads are zero-copy views into it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

class SharedPtrDataLoader final : public ::executorch::runtime::DataLoader {
 public:
  SharedPtrDataLoader(std::shared_ptr<void> data, size_t size)
      : data_(std::move(data)), size_(size) {}

  // InvalidArgument for a range outside the data.
  ET_NODISCARD ::executorch::runtime::Result<::executorch::runtime::FreeableBuffer> load(
      size_t offset, size_t size, const DataLoader::SegmentInfo& segment_info) const override {
    (void)segment_info;
    ET_CHECK_OR_RETURN_ERROR(offset <= size_ && size <= size_ - offset, InvalidArgument,
                             "Range [%zu, +%zu) is outside the %zu bytes of data", offset, size,
                             size_);
    return ::executorch::runtime::FreeableBuffer(static_cast<uint8_t*>(data_.get()) + offset, size,
                                                 /*free_fn=*/nullptr);
  }

  ET_NODISCARD ::executorch::runtime::Result<size_t> size() const override { return size_; }

 private:
  const std::shared_ptr<void> data_;
  const size_t size_;
};

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::SharedPtrDataLoader;
} // namespace util
} // namespace executor
} // namespace torch
