// Strided copies on the device: the 2-D broadcast copy and the N-d strided
// copy, grid-stride loops copying raw integers of the element's size (no
// arithmetic on values).
#include "broadcast_kernels.h"

#include <cuda_runtime.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// A named namespace, not an anonymous one: nvcc names anonymous namespaces
// after the absolute source path, so the object would differ per build tree.
namespace broadcast_device {

template <typename T>
__global__ void broadcast_copy_2d(T* dst, int64_t ds0, int64_t ds1, const T* src, int64_t ss0,
                                  int64_t ss1, int64_t rows, int64_t cols) {
  const int64_t total = rows * cols;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t r = i / cols, c = i % cols;
    dst[r * ds0 + c * ds1] = src[r * ss0 + c * ss1];
  }
}

template <typename T>
cudaError_t launch(void* dst, int64_t ds0, int64_t ds1, const void* src, int64_t ss0, int64_t ss1,
                   int64_t rows, int64_t cols, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t total = rows * cols;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  const unsigned grid = static_cast<unsigned>(blocks < 65535 ? blocks : 65535);
  broadcast_copy_2d<T><<<grid, kThreads, 0, stream>>>(
      static_cast<T*>(dst), ds0, ds1, static_cast<const T*>(src), ss0, ss1, rows, cols);
  return cudaGetLastError();
}

template <typename T>
__global__ void strided_copy_nd(T* dst, const T* src, StridedCopyShape p) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < p.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rest = i, d = 0, s = 0;
    for (int k = p.ndim - 1; k >= 0; --k) {
      const int64_t idx = rest % p.sizes[k];
      rest /= p.sizes[k];
      d += idx * p.dst_strides[k];
      s += idx * p.src_strides[k];
    }
    dst[d] = src[s];
  }
}

template <typename T>
cudaError_t launch_nd(void* dst, const void* src, const StridedCopyShape& p, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t blocks = (p.numel + kThreads - 1) / kThreads;
  const unsigned grid = static_cast<unsigned>(blocks < 65535 ? blocks : 65535);
  strided_copy_nd<T>
      <<<grid, kThreads, 0, stream>>>(static_cast<T*>(dst), static_cast<const T*>(src), p);
  return cudaGetLastError();
}

} // namespace broadcast_device
using namespace broadcast_device;

cudaError_t launch_strided_copy_nd(void* dst, const void* src, const StridedCopyShape& p,
                                   size_t elem, cudaStream_t stream) {
  if (p.numel <= 0) return cudaSuccess;
  if (p.ndim < 1 || p.ndim > StridedCopyShape::kMaxDims) return cudaErrorInvalidValue;
  switch (elem) {
    case 1:
      return launch_nd<uint8_t>(dst, src, p, stream);
    case 2:
      return launch_nd<uint16_t>(dst, src, p, stream);
    case 4:
      return launch_nd<uint32_t>(dst, src, p, stream);
    case 8:
      return launch_nd<uint64_t>(dst, src, p, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t launch_broadcast_copy_2d(void* dst, int64_t ds0, int64_t ds1, const void* src,
                                     int64_t ss0, int64_t ss1, int64_t rows, int64_t cols,
                                     size_t elem, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  switch (elem) {
    case 1:
      return launch<uint8_t>(dst, ds0, ds1, src, ss0, ss1, rows, cols, stream);
    case 2:
      return launch<uint16_t>(dst, ds0, ds1, src, ss0, ss1, rows, cols, stream);
    case 4:
      return launch<uint32_t>(dst, ds0, ds1, src, ss0, ss1, rows, cols, stream);
    case 8:
      return launch<uint64_t>(dst, ds0, ds1, src, ss0, ss1, rows, cols, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
