// Dim order <-> strides. A dim order lists a tensor's dimensions from the
// outermost in memory to the innermost: sizes [2, 3, 4, 5] (NCHW) laid out
// channels-last have dim order [0, 2, 3, 1] and strides [60, 1, 15, 3].
// Templated over the element types so any of the integer types kernels and
// users keep sizes, dim orders and strides in can be passed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace runtime {

// The most dimensions stride_to_dim_order and dim-order validation handle.
constexpr size_t kMaxDimOrderDims = 256;

namespace internal {
// v < 0 without a -Wtype-limits warning for unsigned element types.
template <typename T>
constexpr bool is_negative(T v) {
  if constexpr (std::is_signed<T>::value) {
    return v < 0;
  } else {
    (void)v;
    return false;
  }
}
} // namespace internal

// Whether dim_order[0..dims) is a permutation of 0..dims-1 (no value out of
// range, none repeated).
template <typename DimOrderType>
bool validate_dim_order(const DimOrderType* dim_order, const size_t dims) {
  if (dims > kMaxDimOrderDims) {
    return false;
  }
  bool seen[kMaxDimOrderDims] = {};
  for (size_t i = 0; i < dims; ++i) {
    const auto d = dim_order[i];
    if (internal::is_negative(d) || static_cast<size_t>(d) >= dims ||
        seen[static_cast<size_t>(d)]) {
      return false;
    }
    seen[static_cast<size_t>(d)] = true;
  }
  return true;
}

// Whether dim_order is 0, 1, ..., dims-1 (the contiguous layout).
template <typename DimOrderType>
inline bool is_contiguous_dim_order(const DimOrderType* dim_order, const size_t dims) {
  for (size_t i = 0; i < dims; ++i) {
    if (static_cast<size_t>(dim_order[i]) != i) {
      return false;
    }
  }
  return true;
}

// Whether dim_order is channels-last: [0, 2, 3, 1] for a 4-D (NCHW) tensor,
// [0, 2, 3, 4, 1] for a 5-D (NCDHW) one. Other ranks never are.
template <typename DimOrderType>
bool is_channels_last_dim_order(const DimOrderType* dim_order, const size_t dims) {
  if (dims != 4 && dims != 5) {
    return false;
  }
  if (dim_order[0] != 0 || dim_order[dims - 1] != 1) {
    return false;
  }
  for (size_t i = 1; i + 1 < dims; ++i) {
    if (static_cast<size_t>(dim_order[i]) != i + 1) {
      return false;
    }
  }
  return true;
}

// The name older code uses for is_contiguous_dim_order.
template <typename DimOrderType>
inline bool is_default_dim_order(const DimOrderType* dim_order, const size_t dims) {
  return is_contiguous_dim_order(dim_order, dims);
}

// Writes the dense strides of `sizes` laid out in `dim_order` into
// `strides`, without checking dim_order or overflow: only for a dim order
// already validated and sizes already known to fit. A size of 0 counts as
// 1, so the strides of an empty tensor stay meaningful.
template <typename SizesType, typename DimOrderType, typename StridesType>
inline void dim_order_to_stride_nocheck(const SizesType* sizes, const DimOrderType* dim_order,
                                        const size_t dims, StridesType* strides) {
  if (dims == 0) {
    return;
  }
  StridesType running = 1;
  for (size_t i = dims - 1; i > 0; --i) {
    const auto d = static_cast<size_t>(dim_order[i]);
    strides[d] = running;
    running = static_cast<StridesType>(running * (sizes[d] == 0 ? 1 : sizes[d]));
  }
  // The outermost dim's stride; the product past it is never needed (and
  // may not fit StridesType even when every stride does).
  strides[static_cast<size_t>(dim_order[0])] = running;
}

// Writes the dense strides of `sizes` laid out in `dim_order` into
// `strides` (a size of 0 counts as 1). InvalidArgument, with `strides`
// untouched, when dims exceeds kTensorDimensionLimit, dim_order is not a
// permutation of 0..dims-1, a size is negative, or a stride does not fit in
// StridesType.
template <typename SizesType, typename DimOrderType, typename StridesType>
ET_NODISCARD inline Error dim_order_to_stride(const SizesType* sizes, const DimOrderType* dim_order,
                                              const size_t dims, StridesType* strides) {
  if (dims == 0) {
    return Error::Ok;
  }
  // As upstream: no tensor has more dims than kTensorDimensionLimit.
  if (dims > kTensorDimensionLimit) {
    ET_LOG(Error, "%zu dims, more than the limit of %zu", dims,
           static_cast<size_t>(kTensorDimensionLimit));
    return Error::InvalidArgument;
  }
  if (!validate_dim_order(dim_order, dims)) {
    ET_LOG(Error, "Dim order is not a permutation of %zu dims", dims);
    return Error::InvalidArgument;
  }
  // Check every product first, so a failure leaves `strides` untouched.
  StridesType running = 1;
  for (size_t i = dims; i-- > 1;) {
    const auto size = sizes[static_cast<size_t>(dim_order[i])];
    if (internal::is_negative(size)) {
      ET_LOG(Error, "Negative size %lld in dim %zu", static_cast<long long>(size),
             static_cast<size_t>(dim_order[i]));
      return Error::InvalidArgument;
    }
    if (__builtin_mul_overflow(running, size == 0 ? 1 : size, &running)) {
      ET_LOG(Error, "Strides of a %zu-dim tensor overflow the stride type", dims);
      return Error::InvalidArgument;
    }
  }
  if (internal::is_negative(sizes[static_cast<size_t>(dim_order[0])])) {
    ET_LOG(Error, "Negative size in dim %zu", static_cast<size_t>(dim_order[0]));
    return Error::InvalidArgument;
  }
  dim_order_to_stride_nocheck(sizes, dim_order, dims, strides);
  return Error::Ok;
}

// Writes into dim_order the order of the dimensions by decreasing stride
// (strides [5, 1, 15] give [2, 0, 1]). Equal strides (size-1 dimensions)
// keep their index order, so contiguous strides give the contiguous order.
// MemoryAllocationFailed for a null dim_order; NotSupported for more than
// 16 dimensions.
template <typename DimOrderType, typename StridesType>
ET_NODISCARD inline Error stride_to_dim_order(const StridesType* strides, const size_t dims,
                                              DimOrderType* dim_order) {
  constexpr size_t kMaxDims = 16;
  if (dim_order == nullptr) {
    ET_LOG(Error, "stride_to_dim_order needs an output array");
    return Error::MemoryAllocationFailed;
  }
  if (dims > kMaxDims) {
    ET_LOG(Error, "%zu dims exceed the maximum of %zu", dims, kMaxDims);
    return Error::NotSupported;
  }
  // Stable insertion sort of the dimension indices by decreasing stride.
  for (size_t i = 0; i < dims; ++i) {
    size_t j = i;
    while (j > 0 && strides[static_cast<size_t>(dim_order[j - 1])] < strides[i]) {
      dim_order[j] = dim_order[j - 1];
      --j;
    }
    dim_order[j] = static_cast<DimOrderType>(i);
  }
  return Error::Ok;
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::dim_order_to_stride;
using ::executorch::runtime::dim_order_to_stride_nocheck;
using ::executorch::runtime::is_channels_last_dim_order;
using ::executorch::runtime::is_contiguous_dim_order;
using ::executorch::runtime::is_default_dim_order;
using ::executorch::runtime::stride_to_dim_order;
} // namespace executor
} // namespace torch
