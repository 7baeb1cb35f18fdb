#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/tensor_layout.h>

#include "core/checked_math.h"

namespace executorch {
namespace runtime {

Result<const TensorLayout> TensorLayout::create(Span<const int32_t> sizes,
                                                Span<const uint8_t> dim_order,
                                                ::executorch::aten::ScalarType scalar_type) {
  ET_CHECK_OR_RETURN_ERROR(sizes.size() == dim_order.size(), InvalidArgument,
                           "TensorLayout: %zu sizes but %zu dim order entries", sizes.size(),
                           dim_order.size());
  const size_t elem = elementSizeOrZero(scalar_type);
  ET_CHECK_OR_RETURN_ERROR(elem != 0, InvalidArgument, "TensorLayout: invalid scalar type %d",
                           static_cast<int>(scalar_type));
  size_t nbytes = elem;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ET_CHECK_OR_RETURN_ERROR(sizes[i] >= 0, InvalidArgument, "TensorLayout: negative size %d",
                             sizes[i]);
    ET_CHECK_OR_RETURN_ERROR(dim_order[i] < sizes.size(), InvalidArgument,
                             "TensorLayout: dim order entry %u out of range",
                             static_cast<unsigned>(dim_order[i]));
    ET_CHECK_OR_RETURN_ERROR(
        internal::checked_mul<size_t>(nbytes, static_cast<size_t>(sizes[i]), &nbytes),
        InvalidArgument, "TensorLayout: byte size overflows");
  }
  return TensorLayout(sizes, dim_order, scalar_type, nbytes);
}

} // namespace runtime
} // namespace executorch
