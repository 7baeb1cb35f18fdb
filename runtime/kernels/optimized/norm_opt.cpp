// fp32 layer norm, inference batch norm and (log-)softmax: typed loops over
// rows, rows split over the thread pool. The portable kernels check the
// arguments (prepare_*) and compute every other dtype.
#include <cmath>
#include <limits>

#include "../portable/norm.h"
#include "../portable/softmax.h"
#include "optimized_ops.h"
#include "fast_math.h"
#include "parallel.h"
#include "row_math.h"
#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

// Rows per task: a few operations per element.
int64_t rows_grain(int64_t row_len) { return grain_for(row_len, kMinTaskElems); }

// y = (x - mean) * rstd * w + b with w, b optional.
ET_SIMD_CLONES void row_affine(const float* x, int64_t n, float mean, float rstd, const float* w,
                               const float* b, float* y) {
  for (int64_t i = 0; i < n; ++i) {
    float v = (x[i] - mean) * rstd;
    if (w != nullptr) v *= w[i];
    if (b != nullptr) v += b[i];
    y[i] = v;
  }
}

void layer_norm_fp32(const portable::LayerNormCall& c) {
  const float* in = c.in->const_data_ptr<float>();
  const float* w = c.w != nullptr ? c.w->const_data_ptr<float>() : nullptr;
  const float* b = c.b != nullptr ? c.b->const_data_ptr<float>() : nullptr;
  float* out = c.out->mutable_data_ptr<float>();
  float* mean_out = c.mean_out->mutable_data_ptr<float>();
  float* rstd_out = c.rstd_out->mutable_data_ptr<float>();
  const int64_t n = c.inner;
  parallel_for(c.outer, rows_grain(n), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const float* x = in + r * n;
      const double mean = n == 0 ? 0.0 : sum_f64(x, n) / static_cast<double>(n);
      const double var = n == 0 ? 0.0 : sq_dev_f64(x, n, mean) / static_cast<double>(n);
      const double rstd = 1.0 / std::sqrt(var + c.eps);
      row_affine(x, n, static_cast<float>(mean), static_cast<float>(rstd), w, b, out + r * n);
      mean_out[r] = static_cast<float>(mean);
      rstd_out[r] = static_cast<float>(rstd);
    }
  });
}

double per_channel(const Tensor* t, int64_t c, double dflt) {
  if (t == nullptr) return dflt;
  return t->scalar_type() == ScalarType::Float ? t->const_data_ptr<float>()[c]
                                               : t->const_data_ptr<double>()[c];
}

bool per_channel_ok(const Tensor* t) {
  return t == nullptr || t->scalar_type() == ScalarType::Float ||
         t->scalar_type() == ScalarType::Double;
}

bool batch_norm_fp32(const portable::BatchNormCall& c) {
  if (!per_channel_ok(c.w) || !per_channel_ok(c.b) || !per_channel_ok(c.rm) ||
      !per_channel_ok(c.rv)) {
    return false;
  }
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  parallel_for(c.N * c.C, rows_grain(c.inner), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t ch = p % c.C;
      const double scale = per_channel(c.w, ch, 1.0) / std::sqrt(per_channel(c.rv, ch, 0) + c.eps);
      const double shift = per_channel(c.b, ch, 0.0) - per_channel(c.rm, ch, 0) * scale;
      scale_shift(in + p * c.inner, c.inner, static_cast<float>(scale), static_cast<float>(shift),
                  out + p * c.inner);
    }
  });
  return true;
}

// One softmax row of n contiguous elements. A NaN anywhere makes the whole
// row NaN, as in the portable kernel; the loops have no early exit so that
// they vectorize, and e^x is exp_approx (within 2 ulp).
ET_SIMD_CLONES void softmax_row(const float* x, int64_t n, bool log, float* y) {
  float mx = -INFINITY;
  bool nan = false;
  for (int64_t i = 0; i < n; ++i) {
    mx = x[i] > mx ? x[i] : mx;
    nan = nan || x[i] != x[i];
  }
  if (nan) mx = std::numeric_limits<float>::quiet_NaN();
  for (int64_t i = 0; i < n; ++i) y[i] = exp_approx(x[i] - mx);
  const double sum = sum_f64(y, n);
  if (log) {
    const float lse = static_cast<float>(std::log(sum));
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mx) - lse;
  } else {
    const float inv = static_cast<float>(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) y[i] *= inv;
  }
}

bool softmax_fp32(const portable::SoftmaxCall& c) {
  if (c.inner != 1) return false; // strided rows: the portable loop
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  parallel_for(c.outer, rows_grain(c.size), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) softmax_row(in + r * c.size, c.size, c.log, out + r * c.size);
  });
  return true;
}

void softmax_common(KernelRuntimeContext& ctx, Span<EValue*> args, bool log) {
  portable::SoftmaxCall c;
  if (!portable::prepare_softmax(ctx, args, log, &c)) return;
  if (c.in->scalar_type() != ScalarType::Float || !softmax_fp32(c)) portable::softmax_rows(c);
}

} // namespace

void native_layer_norm_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::LayerNormCall c;
  if (!portable::prepare_layer_norm(ctx, args, &c)) return;
  if (c.in->scalar_type() == ScalarType::Float) {
    layer_norm_fp32(c);
  } else {
    portable::layer_norm_rows(*c.in, c.w, c.b, c.eps, c.outer, c.inner, *c.out, *c.mean_out,
                              *c.rstd_out);
  }
}

void batch_norm_no_training_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::BatchNormCall c;
  if (!portable::prepare_batch_norm(ctx, args, &c)) return;
  if (c.in->scalar_type() != ScalarType::Float || !batch_norm_fp32(c)) {
    portable::batch_norm_rows(c);
  }
}

void softmax_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  softmax_common(ctx, args, false);
}

void log_softmax_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  softmax_common(ctx, args, true);
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
