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
cudaError_t strided_copy(char* dst, const int64_t* dst_strides,
                         const char* src, const int64_t* src_strides,
                         const int64_t* sizes, int64_t ndim, size_t elem,
                         cudaStream_t stream);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
