// relu, clamp, hardtanh, sigmoid, tanh, gelu, silu, exp, sqrt, rsqrt and neg
// in fp32 over contiguous tensors; the portable kernels check the arguments
// (prepare_*) and compute every other case.
#include <cmath>
#include <cstring>
#include <limits>

#include "../../portable/unary.h"
#include "../parallel.h"
#include "../fast_math.h"
#include "../simd.h"
#include "ew_kernels.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::UnaryCall;

// tanh without a libm call: an odd Taylor polynomial where |x| < 0.4 (its
// first dropped term is below 2e-9 there, so small inputs keep their
// relative accuracy), else 1 - 2 / (e^(2|x|) + 1) with the sign put back;
// within 3 ulp of libm's tanhf (measured over [-12, 12]). Both are
// computed and one picked, so loops vectorize.
inline float tanh_approx(float x) {
  const float a = std::fabs(x), x2 = x * x;
  float p = 21844.0f / 6081075.0f;
  p = p * x2 - 1382.0f / 155925.0f;
  p = p * x2 + 62.0f / 2835.0f;
  p = p * x2 - 17.0f / 315.0f;
  p = p * x2 + 2.0f / 15.0f;
  p = p * x2 - 1.0f / 3.0f;
  const float small = x + x * x2 * p;
  const float big = std::copysign(1.0f - 2.0f / (exp_approx(2.0f * a) + 1.0f), x);
  return a < 0.4f ? small : (x == x ? big : x);
}

// erf without a libm call (Abramowitz and Stegun 7.1.26), for the erf form
// of gelu: absolute error below 7e-7 in float (measured over [-12, 12]),
// small beside the 1 that gelu adds it to.
inline float erf_approx(float x) {
  const float a = std::fabs(x);
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  float p = 1.061405429f;
  p = p * t - 1.453152027f;
  p = p * t + 1.421413741f;
  p = p * t - 0.284496736f;
  p = p * t + 0.254829592f;
  const float r = 1.0f - p * t * exp_approx(-a * a);
  return x == x ? std::copysign(r, x) : x;
}

enum class Fn { Relu, Clamp, Sigmoid, Tanh, GeluErf, GeluTanh, Silu, Exp, Sqrt, Rsqrt, Neg };

// y[i] = fn(x[i]); lo/hi are clamp's bounds (-inf/inf when absent, never NaN).
ET_SIMD_CLONES void unary_run(Fn fn, const float* x, float* y, int64_t n, float lo, float hi) {
  switch (fn) {
    case Fn::Relu: // NaN stays NaN: NaN < 0 is false
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
      break;
    case Fn::Clamp: // NaN stays NaN: both compares are false
      for (int64_t i = 0; i < n; ++i) {
        const float v = x[i] < lo ? lo : x[i];
        y[i] = v > hi ? hi : v;
      }
      break;
    case Fn::Sigmoid:
      for (int64_t i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + exp_approx(-x[i]));
      break;
    case Fn::Tanh:
      for (int64_t i = 0; i < n; ++i) y[i] = tanh_approx(x[i]);
      break;
    case Fn::GeluErf:
      for (int64_t i = 0; i < n; ++i) {
        y[i] = 0.5f * x[i] * (1.0f + erf_approx(x[i] * 0.70710678118654752f));
      }
      break;
    case Fn::GeluTanh: // 0.5 x (1 + tanh(u)) == x / (1 + e^(-2u))
      for (int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
        y[i] = v / (1.0f + exp_approx(-2.0f * u));
      }
      break;
    case Fn::Silu:
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] / (1.0f + exp_approx(-x[i]));
      break;
    case Fn::Exp:
      for (int64_t i = 0; i < n; ++i) y[i] = exp_approx(x[i]);
      break;
    case Fn::Sqrt:
      for (int64_t i = 0; i < n; ++i) y[i] = std::sqrt(x[i]);
      break;
    case Fn::Rsqrt: // in double, as the portable kernel rounds it
      for (int64_t i = 0; i < n; ++i) {
        y[i] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x[i])));
      }
      break;
    case Fn::Neg:
      for (int64_t i = 0; i < n; ++i) y[i] = -x[i];
      break;
  }
}

// True when in and out are contiguous fp32 (prepare_* gave them one shape).
bool contiguous_fp32(const UnaryCall& c) {
  return c.in->scalar_type() == ScalarType::Float && c.out->scalar_type() == ScalarType::Float &&
         portable::is_default_dim_order(*c.in) && portable::is_default_dim_order(*c.out);
}

void map_fp32(const UnaryCall& c, Fn fn, float lo = 0, float hi = 0) {
  const float* x = c.in->const_data_ptr<float>();
  float* y = c.out->mutable_data_ptr<float>();
  parallel_for(c.out->numel(), kElementwiseGrain,
               [&](int64_t b, int64_t e) { unary_run(fn, x + b, y + b, e - b, lo, hi); });
}

// prepare, then the fast loop for contiguous fp32 or the portable run.
template <bool (*Prepare)(KernelRuntimeContext&, Args, UnaryCall*), void (*Run)(const UnaryCall&)>
void unary(KernelRuntimeContext& ctx, Args args, Fn fn) {
  UnaryCall c;
  if (!Prepare(ctx, args, &c)) return;
  if (contiguous_fp32(c)) {
    map_fp32(c, fn);
  } else {
    Run(c);
  }
}

// clamp/hardtanh: bounds read as the portable kernel reads them (rounded to
// float); a NaN bound makes every element NaN there, so leave it to it.
void clamp_fp32_or_portable(const UnaryCall& c) {
  if (c.common != ScalarType::Float || !contiguous_fp32(c)) return portable::run_clamp(c);
  const float inf = std::numeric_limits<float>::infinity();
  const float lo = c.has_lo ? static_cast<float>(portable::ValueReader(c.lo, c.common).d(0)) : -inf;
  const float hi = c.has_hi ? static_cast<float>(portable::ValueReader(c.hi, c.common).d(0)) : inf;
  if (std::isnan(lo) || std::isnan(hi)) return portable::run_clamp(c);
  map_fp32(c, Fn::Clamp, lo, hi);
}

template <void (*Run)(const UnaryCall&)>
void named_unary(KernelRuntimeContext& ctx, Args args, const char* name, Fn fn, bool to_float) {
  UnaryCall c;
  const bool ok = to_float ? portable::prepare_to_float_unary(ctx, args, name, &c)
                           : portable::prepare_same_dtype_unary(ctx, args, name, false, &c);
  if (!ok) return;
  if (contiguous_fp32(c)) {
    map_fp32(c, fn);
  } else {
    Run(c);
  }
}

} // namespace

void relu_out(KernelRuntimeContext& ctx, Args args) {
  unary<portable::prepare_relu, portable::run_relu>(ctx, args, Fn::Relu);
}

void clamp_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (portable::prepare_clamp(ctx, args, &c)) clamp_fp32_or_portable(c);
}

void hardtanh_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (portable::prepare_hardtanh(ctx, args, &c)) clamp_fp32_or_portable(c);
}

void sigmoid_out(KernelRuntimeContext& ctx, Args args) {
  unary<portable::prepare_sigmoid, portable::run_sigmoid>(ctx, args, Fn::Sigmoid);
}

void tanh_out(KernelRuntimeContext& ctx, Args args) {
  unary<portable::prepare_tanh, portable::run_tanh>(ctx, args, Fn::Tanh);
}

void gelu_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (!portable::prepare_gelu(ctx, args, &c)) return;
  if (contiguous_fp32(c)) {
    map_fp32(c, c.tanh_approx ? Fn::GeluTanh : Fn::GeluErf);
  } else {
    portable::run_gelu(c);
  }
}

void silu_out(KernelRuntimeContext& ctx, Args args) {
  unary<portable::prepare_silu, portable::run_silu>(ctx, args, Fn::Silu);
}

void exp_out(KernelRuntimeContext& ctx, Args args) {
  named_unary<portable::run_exp>(ctx, args, "aten::exp.out", Fn::Exp, true);
}

void sqrt_out(KernelRuntimeContext& ctx, Args args) {
  named_unary<portable::run_sqrt>(ctx, args, "aten::sqrt.out", Fn::Sqrt, true);
}

void rsqrt_out(KernelRuntimeContext& ctx, Args args) {
  named_unary<portable::run_rsqrt>(ctx, args, "aten::rsqrt.out", Fn::Rsqrt, true);
}

void neg_out(KernelRuntimeContext& ctx, Args args) {
  named_unary<portable::run_neg>(ctx, args, "aten::neg.out", Fn::Neg, false);
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
