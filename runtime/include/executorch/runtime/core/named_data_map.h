// NamedDataMap: tensors and blobs looked up by key (a .ptd file, or the
// named data inside a program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/core/tensor_layout.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

class NamedDataMap {
 public:
  virtual ~NamedDataMap() = default;
  // Layout of the tensor under key; NotFound if absent, NotSupported for a
  // blob without a layout.
  ET_NODISCARD virtual Result<const TensorLayout> get_tensor_layout(std::string_view key) const = 0;
  // The bytes under key (zero-copy where the loader allows).
  ET_NODISCARD virtual Result<FreeableBuffer> get_data(std::string_view key) const = 0;
  ET_NODISCARD virtual Error load_data_into(std::string_view key, void* buffer,
                                            size_t size) const = 0;
  ET_NODISCARD virtual Result<uint32_t> get_num_keys() const = 0;
  ET_NODISCARD virtual Result<const char*> get_key(uint32_t index) const = 0;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::NamedDataMap;
} // namespace executor
} // namespace torch
