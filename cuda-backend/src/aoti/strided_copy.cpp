#include "aoti/strided_copy.h"

#include <vector>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

cudaError_t strided_copy(char* dst, const int64_t* ds, const char* src,
                         const int64_t* ss, const int64_t* sizes, int64_t ndim,
                         size_t elem, cudaStream_t stream) {
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 0) return cudaSuccess;
  }
  if (ndim == 0) return cudaMemcpyAsync(dst, src, elem, cudaMemcpyDefault, stream);
  // Innermost dim: a 2D copy of `n` elements (rows of one element when the
  // strides are not 1; one contiguous row when both are).
  const int64_t last = ndim - 1;
  const int64_t n = sizes[last];
  const bool rows_contig = ds[last] == 1 && ss[last] == 1;
  // Outer index iteration.
  std::vector<int64_t> idx(static_cast<size_t>(last), 0);
  int64_t outer = 1;
  for (int64_t i = 0; i < last; ++i) outer *= sizes[i];
  // Merge the second-to-last dim into a 2D copy when rows are contiguous.
  const bool merge2 = rows_contig && last >= 1;
  const int64_t steps = merge2 ? outer / sizes[last - 1] : outer;
  const int64_t iter_dims = merge2 ? last - 1 : last;
  for (int64_t step = 0; step < steps; ++step) {
    int64_t doff = 0, soff = 0;
    for (int64_t i = 0; i < iter_dims; ++i) {
      doff += idx[static_cast<size_t>(i)] * ds[i];
      soff += idx[static_cast<size_t>(i)] * ss[i];
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
        e = cudaMemcpy2DAsync(d, dp, s, sp, width, static_cast<size_t>(h),
                              cudaMemcpyDefault, stream);
      } else {
        e = cudaSuccess;
        for (int64_t r = 0; r < h && e == cudaSuccess; ++r) {
          e = cudaMemcpyAsync(d + r * ds[last - 1] * static_cast<int64_t>(elem),
                              s + r * ss[last - 1] * static_cast<int64_t>(elem), width,
                              cudaMemcpyDefault, stream);
        }
      }
    } else if (rows_contig) {
      e = cudaMemcpyAsync(d, s, static_cast<size_t>(n) * elem, cudaMemcpyDefault,
                          stream);
    } else {
      e = cudaMemcpy2DAsync(d, static_cast<size_t>(ds[last]) * elem, s,
                            static_cast<size_t>(ss[last]) * elem, elem,
                            static_cast<size_t>(n), cudaMemcpyDefault, stream);
    }
    if (e != cudaSuccess) return e;
    for (int64_t i = iter_dims; i-- > 0;) {
      if (++idx[static_cast<size_t>(i)] < sizes[i]) break;
      idx[static_cast<size_t>(i)] = 0;
    }
  }
  return cudaSuccess;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
