// quantized_decomposed::choose_qparams.Tensor_out (one scale and zero point
// for a whole float32 tensor) and choose_qparams_per_token_asymmetric.out
// (one per token, the range [-128, 127]), with upstream's rule: the range
// [min(x, 0), max(x, 0)] mapped onto [quant_min, quant_max], a zero or
// overflowing scale replaced by 0.1, a scale below 6.1e-5 raised to it (the
// range widened to match), and the zero point taken from the end with the
// smaller error, clamped and rounded half to even. Scales are float64, zero
// points int64. An empty or non-finite input (or token) fails the call:
// upstream's result is undefined there.
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

constexpr float kSmallScale = 6.1e-5f;

// Min and max of n float32 values; false if n == 0 or one is not finite.
bool finite_min_max(const float* x, int64_t n, float* lo, float* hi) {
  if (n <= 0) return false;
  float mn = x[0], mx = x[0];
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return false;
    mn = x[i] < mn ? x[i] : mn;
    mx = x[i] > mx ? x[i] : mx;
  }
  *lo = mn;
  *hi = mx;
  return true;
}

// Upstream's scale and zero point for the range [mn, mx].
void scale_and_zero_point(float mn, float mx, int64_t qmin, int64_t qmax, double* scale_out,
                          int64_t* zp_out) {
  mn = std::min(mn, 0.0f);
  mx = std::max(mx, 0.0f);
  const double levels = static_cast<double>(qmax - qmin);
  double scale = (static_cast<double>(mx) - mn) / levels;
  if (static_cast<float>(scale) == 0.0f || std::isinf(1.0f / static_cast<float>(scale))) {
    scale = 0.1;
  }
  if (scale < kSmallScale) {
    const float original = static_cast<float>(scale);
    scale = kSmallScale;
    if (mn == 0.0f) {
      mx = kSmallScale * static_cast<float>(levels);
    } else if (mx == 0.0f) {
      mn = -kSmallScale * static_cast<float>(levels);
    } else {
      const float amplify = kSmallScale / original;
      mn *= amplify;
      mx *= amplify;
    }
  }
  const double from_min = static_cast<double>(qmin) - mn / scale;
  const double from_max = static_cast<double>(qmax) - mx / scale;
  const double err_min = std::fabs(static_cast<double>(qmin)) - std::fabs(mn / scale);
  const double err_max = std::fabs(static_cast<double>(qmax)) - std::fabs(mx / scale);
  const double initial = err_min < err_max ? from_min : from_max;
  int64_t zp = 0;
  if (!(initial >= static_cast<double>(qmin))) {
    zp = qmin;
  } else if (initial > static_cast<double>(qmax)) {
    zp = qmax;
  } else {
    zp = static_cast<int64_t>(std::nearbyint(static_cast<float>(initial)));
  }
  *scale_out = scale;
  *zp_out = zp;
}

// Float32 input; float64 scale and int64 zero point outputs.
bool check_qparams_dtypes(KernelRuntimeContext& ctx, const char* op, const Tensor& in,
                          const Tensor& scale, const Tensor& zp) {
  return require_dtype_in(ctx, op, in, "input", {ScalarType::Float}) &&
         require_contiguous(ctx, in, op) &&
         require_dtype_in(ctx, op, scale, "scale_out", {ScalarType::Double}) &&
         require_dtype_in(ctx, op, zp, "zero_point_out", {ScalarType::Long});
}

// Computes token t's parameters into scale[t] and zp[t].
bool choose_for_rows(KernelRuntimeContext& ctx, const char* op, const Tensor& in, int64_t rows,
                     int64_t cols, int64_t qmin, int64_t qmax, Tensor& scale, Tensor& zp) {
  const float* x = in.const_data_ptr<float>();
  double* s = scale.mutable_data_ptr<double>();
  int64_t* z = zp.mutable_data_ptr<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    float mn = 0, mx = 0;
    if (!finite_min_max(x + r * cols, cols, &mn, &mx)) {
      PK_FAIL(ctx, op, "the input (row %lld) is empty or has a non-finite value",
              static_cast<long long>(r));
      return false;
    }
    scale_and_zero_point(mn, mx, qmin, qmax, &s[r], &z[r]);
  }
  return true;
}

// choose_qparams.Tensor_out(input, int quant_min, int quant_max, float eps,
//   ScalarType dtype, *, scale_out, zero_point_out) -> (scale_out,
//   zero_point_out); eps is unused, as upstream.
void choose_qparams_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::choose_qparams.Tensor_out";
  if (!check_nargs_multi_out(ctx, args, 5, 2, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  int64_t qmin = 0, qmax = 0;
  double eps = 0;
  ScalarType dtype = ScalarType::Undefined;
  if (in == nullptr || !get_int(ctx, args, 1, name, &qmin) || !get_int(ctx, args, 2, name, &qmax) ||
      !get_double(ctx, args, 3, name, &eps) || !get_dtype(ctx, args, 4, name, &dtype)) {
    return;
  }
  Tensor* scale = get_tensor(ctx, args, 5, name);
  Tensor* zp = scale != nullptr ? get_tensor(ctx, args, 6, name) : nullptr;
  if (zp == nullptr || !check_qparams_dtypes(ctx, name, *in, *scale, *zp) ||
      !check_quant_range(ctx, name, dtype, qmin, qmax)) {
    return;
  }
  if (qmin == qmax || scale->numel() != 1 || zp->numel() != 1) {
    PK_FAIL(ctx, name, "quant_min must be below quant_max and the outputs have one element");
    return;
  }
  choose_for_rows(ctx, name, *in, 1, in->numel(), qmin, qmax, *scale, *zp);
}

// choose_qparams_per_token_asymmetric.out(input, ScalarType dtype, *,
//   scale_out, zero_point_out) -> (scale_out, zero_point_out): outputs of
//   shape input.shape[:-1] + [1]; the range is [-128, 127] whatever dtype.
void choose_qparams_per_token_asymmetric_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::choose_qparams_per_token_asymmetric.out";
  if (!check_nargs_multi_out(ctx, args, 2, 2, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  ScalarType dtype = ScalarType::Undefined;
  AxisSplit s;
  if (in == nullptr || !get_dtype(ctx, args, 1, name, &dtype) || !token_split(ctx, name, *in, &s)) {
    return;
  }
  Tensor* scale = get_tensor(ctx, args, 2, name);
  Tensor* zp = scale != nullptr ? get_tensor(ctx, args, 3, name) : nullptr;
  if (zp == nullptr || !check_qparams_dtypes(ctx, name, *in, *scale, *zp)) return;
  Shape sh = shape_of(*in);
  sh.s[sh.n - 1] = 1;
  if (!resize_out(ctx, *scale, sh, name) || !resize_out(ctx, *zp, sh, name)) return;
  choose_for_rows(ctx, name, *in, s.channels, s.inner, -128, 127, *scale, *zp);
}

const Kernel kChooseQparamsKernels[] = {
    Kernel("quantized_decomposed::choose_qparams.Tensor_out", choose_qparams_tensor_out),
    Kernel("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
           choose_qparams_per_token_asymmetric_out),
};

} // namespace

Span<const Kernel> choose_qparams_kernels() {
  return Span<const Kernel>(kChooseQparamsKernels,
                            sizeof(kChooseQparamsKernels) / sizeof(kChooseQparamsKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
