// Resizing an ExecuTorch tensor to the shape data arrives in (dynamic
// shapes through the delegate and the et_copy kernels): within the bound
// its memory was planned for, never a new rank.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/portable_type/tensor.h>

namespace executorch {
namespace backends {
namespace cuda {

// Resizes `t` to `sizes` (`ndim` of them). Ok when they are its sizes or
// fit its planned bound (a DYNAMIC tensor of the same rank); otherwise an
// Error, with one log line naming `what` (e.g. "CudaBackend[forward]
// output 0"), both shapes and the bound.
runtime::Error resize_to(runtime::etensor::Tensor& t, const int64_t* sizes, size_t ndim,
                         const char* what);

// resize_to with `src`'s sizes.
runtime::Error resize_like(runtime::etensor::Tensor& dst, const runtime::etensor::Tensor& src,
                           const char* what);

} // namespace cuda
} // namespace backends
} // namespace executorch
