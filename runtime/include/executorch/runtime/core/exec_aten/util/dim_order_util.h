// Dim order <-> strides: a tensor's strides follow from its sizes and the
// order its dimensions are laid out in memory (outermost first).
#pragma once

#include <cstddef>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>

namespace executorch {
namespace runtime {

// Writes the dense strides of `sizes` laid out in `dim_order` into
// `strides`. InvalidArgument when dim_order is not a permutation of
// [0, dims). A size of 0 counts as 1, so strides stay meaningful.
inline Error dim_order_to_stride(const ::executorch::aten::SizesType* sizes,
                                 const ::executorch::aten::DimOrderType* dim_order,
                                 size_t dims,
                                 ::executorch::aten::StridesType* strides) {
  bool seen[256] = {};
  for (size_t i = 0; i < dims; ++i) {
    if (dim_order[i] >= dims || seen[dim_order[i]]) {
      return Error::InvalidArgument;
    }
    seen[dim_order[i]] = true;
  }
  ::executorch::aten::StridesType running = 1;
  for (size_t i = dims; i-- > 0;) {
    const auto d = dim_order[i];
    strides[d] = running;
    running *= sizes[d] == 0 ? 1 : sizes[d];
  }
  return Error::Ok;
}

} // namespace runtime
} // namespace executorch
