// TensorLayout: dtype, sizes and dim order of a named tensor (what a
// NamedDataMap reports for a key), and its size in bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class EXECUTORCH_API TensorLayout final {
 public:
  TensorLayout() = delete;
  // The spans are borrowed: they must outlive the layout and its copies.
  // InvalidArgument for mismatched lengths, a negative size, a dim order
  // entry out of range, an invalid dtype or a byte size that overflows.
  static Result<const TensorLayout> create(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                           ::executorch::aten::ScalarType scalar_type);
  Span<const int32_t> sizes() const { return sizes_; }
  Span<const uint8_t> dim_order() const { return dim_order_; }
  ::executorch::aten::ScalarType scalar_type() const { return scalar_type_; }
  size_t nbytes() const { return nbytes_; }

 private:
  TensorLayout(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
               ::executorch::aten::ScalarType scalar_type, size_t nbytes)
      : sizes_(sizes), dim_order_(dim_order), scalar_type_(scalar_type), nbytes_(nbytes) {}
  Span<const int32_t> sizes_;
  Span<const uint8_t> dim_order_;
  ::executorch::aten::ScalarType scalar_type_;
  size_t nbytes_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::TensorLayout;
} // namespace executor
} // namespace torch
