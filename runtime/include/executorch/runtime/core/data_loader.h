// DataLoader: where a program's bytes come from (file, mmap, memory).
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/compiler.h>

namespace executorch {
namespace runtime {

class DataLoader {
 public:
  struct SegmentInfo {
    enum class Type {
      Program,
      Constant,
      Backend,
      Mutable,
      External,
    };
    Type segment_type;
    size_t segment_index;
    const char* descriptor;

    SegmentInfo() = default;
    explicit SegmentInfo(Type segment_type, size_t segment_index = 0,
                         const char* descriptor = nullptr)
        : segment_type(segment_type), segment_index(segment_index), descriptor(descriptor) {}
  };

  virtual ~DataLoader() = default;

  // Bytes [offset, offset + size) of the data; fails with InvalidArgument
  // when the range is not inside it.
  ET_NODISCARD virtual Result<FreeableBuffer> load(size_t offset, size_t size,
                                                   const SegmentInfo& segment_info) const = 0;

  ET_NODISCARD virtual Error load_into(size_t offset, size_t size, const SegmentInfo& segment_info,
                                       void* buffer) const {
    (void)offset;
    (void)size;
    (void)segment_info;
    (void)buffer;
    return Error::NotImplemented;
  }

  ET_NODISCARD virtual Result<size_t> size() const = 0;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::DataLoader;
} // namespace executor
} // namespace torch
