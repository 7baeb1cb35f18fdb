// Device-side 2-D broadcast copy (broadcast_kernels.cu, built by nvcc): one
// launch where a loop of cudaMemcpyAsync calls would cost one API call per
// row, e.g. the bias of addmm broadcast into its output.
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

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
