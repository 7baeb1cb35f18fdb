// Device-side strided copies (broadcast_kernels.cu, built by nvcc): one
// launch where a loop of cudaMemcpyAsync calls would cost one API call per
// row: the bias of addmm broadcast into its output, an output the model
// produced in another layout (channels-last) copied into the program's.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// dst[r * ds0 + c * ds1] = src[r * ss0 + c * ss1] for r < rows, c < cols,
// strides in elements (0 on a broadcast dimension), elements of `elem`
// bytes (1, 2, 4 or 8). Both pointers are device memory. Returns
// cudaErrorInvalidValue for another element size, else cudaGetLastError()
// after the launch.
cudaError_t launch_broadcast_copy_2d(void* dst, int64_t ds0, int64_t ds1, const void* src,
                                     int64_t ss0, int64_t ss1, int64_t rows, int64_t cols,
                                     size_t elem, cudaStream_t stream);

// An N-d copy (by value: it is a kernel argument).
struct StridedCopyShape {
  static constexpr int kMaxDims = 12;
  int ndim = 0;
  int64_t numel = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t dst_strides[kMaxDims] = {}; // in elements
  int64_t src_strides[kMaxDims] = {};
};

// dst[idx . dst_strides] = src[idx . src_strides] for every index of
// `sizes`; both pointers device memory; `elem` 1, 2, 4 or 8 bytes.
cudaError_t launch_strided_copy_nd(void* dst, const void* src, const StridedCopyShape& p,
                                   size_t elem, cudaStream_t stream);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
