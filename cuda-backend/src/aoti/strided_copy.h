// A strided block copy on a stream, between any of host and device memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// Copies the `sizes` elements of a strided view at src (element strides
// `src_strides`) into the view at dst on `stream`, as few memcpy calls as
// the layouts allow. Returns the first CUDA error.
cudaError_t strided_copy(char* dst, const int64_t* dst_strides, const char* src,
                         const int64_t* src_strides, const int64_t* sizes, int64_t ndim,
                         size_t elem, cudaStream_t stream);

// The same between two device views, as one cudaMemcpyAsync when both are
// row-major, else as one kernel launch (not one memcpy per row: a
// channels-last output copied into a contiguous tensor took hundreds).
cudaError_t device_strided_copy(char* dst, const int64_t* dst_strides, const char* src,
                                const int64_t* src_strides, const int64_t* sizes, int64_t ndim,
                                size_t elem, cudaStream_t stream);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
