// Row statistics shared by the optimized norms and reductions (row_math.h).
#include "row_math.h"

#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {

ET_SIMD_CLONES double sum_f64(const float* x, int64_t n) {
  double p[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) p[k] += x[i + k];
  }
  double s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
  for (; i < n; ++i) s += x[i];
  return s;
}

ET_SIMD_CLONES double sq_dev_f64(const float* x, int64_t n, double mean) {
  double p[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) {
      const double d = x[i + k] - mean;
      p[k] += d * d;
    }
  }
  double s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
  for (; i < n; ++i) {
    const double d = x[i] - mean;
    s += d * d;
  }
  return s;
}

ET_SIMD_CLONES void scale_shift(const float* x, int64_t n, float scale, float shift, float* y) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * scale + shift;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
