// Row statistics in double over fp32 data, shared by the optimized norms and
// reductions (the portable kernels accumulate in double too).
#pragma once

#include <cstdint>

namespace executorch {
namespace runtime {
namespace optimized {

// The sum of x[0..n), in eight independent partial sums so the adds
// pipeline and vectorize.
double sum_f64(const float* x, int64_t n);

// The sum of (x[i] - mean)^2 over [0, n), likewise.
double sq_dev_f64(const float* x, int64_t n, double mean);

// y[i] = x[i] * scale + shift (batch and group norm's per-channel affine).
void scale_shift(const float* x, int64_t n, float scale, float shift, float* y);

} // namespace optimized
} // namespace runtime
} // namespace executorch
