#include "aoti/strided_copy.h"

#include <vector>

#include "aoti/broadcast_kernels.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

cudaError_t strided_copy(char* dst, const int64_t* ds, const char* src, const int64_t* ss,
                         const int64_t* sizes, int64_t ndim, size_t elem, cudaStream_t stream) {
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 0) return cudaSuccess;
  }
  if (ndim == 0) return cudaMemcpyAsync(dst, src, elem, cudaMemcpyDefault, stream);
  // Innermost dim: a 2D copy of `n` elements (rows of one element when the
  // strides are not 1; one contiguous row when both are).
  const int64_t last = ndim - 1;
  const int64_t n = sizes[last];
  const bool rows_contig = ds[last] == 1 && ss[last] == 1;
  // Outer index iteration (no allocation for the ranks models use).
  int64_t idx_inline[16] = {};
  std::vector<int64_t> idx_heap;
  int64_t* idx = idx_inline;
  if (last > 16) {
    idx_heap.assign(static_cast<size_t>(last), 0);
    idx = idx_heap.data();
  }
  int64_t outer = 1;
  for (int64_t i = 0; i < last; ++i) outer *= sizes[i];
  // Merge the second-to-last dim into a 2D copy when rows are contiguous.
  const bool merge2 = rows_contig && last >= 1;
  const int64_t steps = merge2 ? outer / sizes[last - 1] : outer;
  const int64_t iter_dims = merge2 ? last - 1 : last;
  for (int64_t step = 0; step < steps; ++step) {
    int64_t doff = 0, soff = 0;
    for (int64_t i = 0; i < iter_dims; ++i) {
      doff += idx[i] * ds[i];
      soff += idx[i] * ss[i];
    }
    char* d = dst + doff * static_cast<int64_t>(elem);
    const char* s = src + soff * static_cast<int64_t>(elem);
    cudaError_t e;
    if (merge2) {
      const size_t width = static_cast<size_t>(n) * elem;
      const size_t dp = static_cast<size_t>(ds[last - 1]) * elem;
      const size_t sp = static_cast<size_t>(ss[last - 1]) * elem;
      const int64_t h = sizes[last - 1];
      if (h > 1 && dp >= width && sp >= width && ds[last - 1] > 0 && ss[last - 1] > 0) {
        e = cudaMemcpy2DAsync(d, dp, s, sp, width, static_cast<size_t>(h), cudaMemcpyDefault,
                              stream);
      } else {
        e = cudaSuccess;
        for (int64_t r = 0; r < h && e == cudaSuccess; ++r) {
          e = cudaMemcpyAsync(d + r * ds[last - 1] * static_cast<int64_t>(elem),
                              s + r * ss[last - 1] * static_cast<int64_t>(elem), width,
                              cudaMemcpyDefault, stream);
        }
      }
    } else if (rows_contig) {
      e = cudaMemcpyAsync(d, s, static_cast<size_t>(n) * elem, cudaMemcpyDefault, stream);
    } else {
      e = cudaMemcpy2DAsync(d, static_cast<size_t>(ds[last]) * elem, s,
                            static_cast<size_t>(ss[last]) * elem, elem, static_cast<size_t>(n),
                            cudaMemcpyDefault, stream);
    }
    if (e != cudaSuccess) return e;
    for (int64_t i = iter_dims; i-- > 0;) {
      if (++idx[i] < sizes[i]) break;
      idx[i] = 0;
    }
  }
  return cudaSuccess;
}

namespace {

// Row-major contiguous, ignoring unit dims.
bool row_major(const int64_t* strides, const int64_t* sizes, int64_t ndim) {
  int64_t expect = 1;
  for (int64_t i = ndim; i-- > 0;) {
    if (sizes[i] != 1 && strides[i] != expect) return false;
    expect *= sizes[i];
  }
  return true;
}

} // namespace

cudaError_t device_strided_copy(char* dst, const int64_t* ds, const char* src, const int64_t* ss,
                                const int64_t* sizes, int64_t ndim, size_t elem,
                                cudaStream_t stream) {
  StridedCopyShape p;
  p.numel = 1;
  for (int64_t i = 0; i < ndim; ++i) p.numel *= sizes[i];
  if (p.numel == 0) return cudaSuccess;
  if (row_major(ds, sizes, ndim) && row_major(ss, sizes, ndim)) {
    return cudaMemcpyAsync(dst, src, static_cast<size_t>(p.numel) * elem, cudaMemcpyDeviceToDevice,
                           stream);
  }
  if (ndim > StridedCopyShape::kMaxDims) {
    return strided_copy(dst, ds, src, ss, sizes, ndim, elem, stream);
  }
  p.ndim = static_cast<int>(ndim);
  for (int64_t i = 0; i < ndim; ++i) {
    p.sizes[i] = sizes[i];
    p.dst_strides[i] = ds[i];
    p.src_strides[i] = ss[i];
  }
  return launch_strided_copy_nd(dst, src, p, elem, stream);
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
