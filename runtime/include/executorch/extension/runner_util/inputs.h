// prepare_input_tensors: gives every tensor input of a method storage filled
// with ones (or with caller bytes), for runners that have no real inputs.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

// Frees the input buffers prepare_input_tensors allocated. Each buffer was
// malloc'd; the span's array itself was new[]'d. Move-only.
class EXECUTORCH_API BufferCleanup final {
 public:
  explicit BufferCleanup(::executorch::runtime::Span<void*> buffers) : buffers_(buffers) {}
  BufferCleanup(BufferCleanup&& rhs) noexcept : buffers_(rhs.buffers_) {
    rhs.buffers_ = ::executorch::runtime::Span<void*>();
  }
  BufferCleanup(const BufferCleanup&) = delete;
  BufferCleanup& operator=(const BufferCleanup&) = delete;
  BufferCleanup& operator=(BufferCleanup&&) = delete;
  ~BufferCleanup();

 private:
  ::executorch::runtime::Span<void*> buffers_;
};

struct PrepareInputTensorsOptions {
  // Refuse methods whose tensor inputs need more bytes than this in total.
  size_t max_total_allocation_size = static_cast<size_t>(1) << 30;
  // Refuse methods with more inputs than this.
  size_t max_inputs = 1024;
};

// input_buffers[i], when given, supplies the bytes of input i (its size must
// equal the input's nbytes); other tensor inputs are filled with ones.
// Non-tensor inputs keep their traced values. Keep the returned cleanup
// alive while the method runs: unplanned inputs alias these buffers.
ET_NODISCARD EXECUTORCH_API ::executorch::runtime::Result<BufferCleanup> prepare_input_tensors(
    ::executorch::ET_RUNTIME_NAMESPACE::Method& method, PrepareInputTensorsOptions options = {},
    const std::vector<std::pair<char*, size_t>>& input_buffers = {});

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
namespace util {
using ::executorch::extension::BufferCleanup;
using ::executorch::extension::prepare_input_tensors;
} // namespace util
} // namespace executor
} // namespace torch
