// Which output positions of a sliding window read inside the input.
#pragma once

#include <algorithm>
#include <cstdint>

namespace executorch {
namespace runtime {
namespace optimized {

// The output positions [lo, hi) of out_size whose input position
// o * stride - pad + off lies in [0, size).
inline void valid_range(int64_t out_size, int64_t size, int64_t stride, int64_t pad, int64_t off,
                        int64_t* lo, int64_t* hi) {
  const int64_t shift = off - pad; // input position o * stride + shift
  *lo = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
  *hi = size - shift <= 0 ? 0 : std::min(out_size, (size - 1 - shift) / stride + 1);
  if (*hi < *lo) *hi = *lo;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
