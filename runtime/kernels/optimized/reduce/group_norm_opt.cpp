// fp32 group norm over contiguous (N, C, *) input: each (n, group) is one
// contiguous block; statistics in double (two passes, as the portable
// kernel), then a per-channel scale and shift. Groups split over the thread
// pool. The portable kernel checks the arguments (prepare_group_norm) and
// computes every other case.
#include <cmath>

#include "../../portable/reduce.h"
#include "../parallel.h"
#include "../row_math.h"
#include "../simd.h"
#include "reduce_opt.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

constexpr int64_t kGrainElems = kMinTaskElems;

bool per_channel_ok(const Tensor* t) {
  return t == nullptr || t->scalar_type() == ScalarType::Float;
}

bool fits_fp32(const portable::GroupNormCall& c) {
  return c.in->scalar_type() == ScalarType::Float && portable::is_default_dim_order(*c.in) &&
         portable::is_default_dim_order(*c.out) && per_channel_ok(c.w) && per_channel_ok(c.b);
}

// One (n, g) block: statistics, then each channel's plane.
void group_block(const portable::GroupNormCall& c, int64_t n, int64_t g) {
  const int64_t per = c.C / c.group, len = per * c.HxW;
  const int64_t off = (n * c.C + g * per) * c.HxW;
  const float* x = c.in->const_data_ptr<float>() + off;
  float* y = c.out->mutable_data_ptr<float>() + off;
  const double mean = len > 0 ? sum_f64(x, len) / static_cast<double>(len) : 0.0;
  const double var = len > 0 ? sq_dev_f64(x, len, mean) / static_cast<double>(len) : 0.0;
  const double rstd = 1.0 / std::sqrt(var + c.eps);
  const float* w = c.w != nullptr ? c.w->const_data_ptr<float>() : nullptr;
  const float* b = c.b != nullptr ? c.b->const_data_ptr<float>() : nullptr;
  for (int64_t k = 0; k < per; ++k) {
    const int64_t ch = g * per + k;
    const double scale = rstd * (w != nullptr ? w[ch] : 1.0);
    const double shift = (b != nullptr ? b[ch] : 0.0) - mean * scale;
    scale_shift(x + k * c.HxW, c.HxW, static_cast<float>(scale), static_cast<float>(shift),
                y + k * c.HxW);
  }
  c.mean_out->mutable_data_ptr<float>()[n * c.group + g] = static_cast<float>(mean);
  c.rstd_out->mutable_data_ptr<float>()[n * c.group + g] = static_cast<float>(rstd);
}

void group_norm_fp32(const portable::GroupNormCall& c) {
  const int64_t len = (c.C / c.group) * c.HxW;
  const int64_t grain = kGrainElems / (len > 0 ? len : 1) + 1;
  parallel_for(c.N * c.group, grain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) group_block(c, t / c.group, t % c.group);
  });
}

} // namespace

void native_group_norm_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::GroupNormCall c;
  if (!portable::prepare_group_norm(ctx, args, &c)) return;
  if (fits_fp32(c)) {
    group_norm_fp32(c);
  } else {
    portable::group_norm_compute(c);
  }
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
