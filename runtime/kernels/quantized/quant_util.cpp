#include "quant_util.h"

namespace executorch {
namespace runtime {
namespace quantized {

bool get_dtype(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarType* out) {
  int64_t v = 0;
  if (!get_int(ctx, args, i, op, &v)) return false;
  if (v < 0 || v >= static_cast<int64_t>(ScalarType::NumOptions)) {
    PK_FAIL(ctx, op, "argument %zu is not a dtype: %lld", i, static_cast<long long>(v));
    return false;
  }
  *out = static_cast<ScalarType>(v);
  return true;
}

bool get_opt_dtype(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarType* out,
                   bool* has) {
  *has = !args[i]->isNone();
  return !*has || get_dtype(ctx, args, i, op, out);
}

bool quant_bounds(ScalarType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case ScalarType::Byte:
      *lo = 0;
      *hi = 255;
      return true;
    case ScalarType::Char:
      *lo = -128;
      *hi = 127;
      return true;
    case ScalarType::Short:
      *lo = std::numeric_limits<int16_t>::min();
      *hi = std::numeric_limits<int16_t>::max();
      return true;
    case ScalarType::Int:
      *lo = std::numeric_limits<int32_t>::min();
      *hi = std::numeric_limits<int32_t>::max();
      return true;
    default:
      return false;
  }
}

bool check_quant_range(KernelRuntimeContext& ctx, const char* op, ScalarType dtype,
                       int64_t quant_min, int64_t quant_max) {
  int64_t lo = 0, hi = 0;
  if (!quant_bounds(dtype, &lo, &hi)) {
    PK_FAIL(ctx, op, "dtype %s is not a quantized dtype (uint8, int8, int16, int32)",
            toString(dtype));
    return false;
  }
  if (quant_min < lo || quant_max > hi || quant_min > quant_max) {
    PK_FAIL(ctx, op, "quant range [%lld, %lld] is not within %s's [%lld, %lld] or is empty",
            static_cast<long long>(quant_min), static_cast<long long>(quant_max), toString(dtype),
            static_cast<long long>(lo), static_cast<long long>(hi));
    return false;
  }
  return true;
}

bool require_dtype_in(KernelRuntimeContext& ctx, const char* op, const Tensor& t, const char* what,
                      std::initializer_list<ScalarType> allowed) {
  for (ScalarType a : allowed) {
    if (t.scalar_type() == a) return true;
  }
  PK_FAIL(ctx, op, "%s has unsupported dtype %s", what, toString(t.scalar_type()));
  return false;
}

bool check_zero_point(KernelRuntimeContext& ctx, const char* op, int64_t zp) {
  if (zp < std::numeric_limits<int32_t>::min() || zp > std::numeric_limits<int32_t>::max()) {
    PK_FAIL(ctx, op, "zero point %lld does not fit int32", static_cast<long long>(zp));
    return false;
  }
  return true;
}

bool inverse_scale(KernelRuntimeContext& ctx, const char* op, double scale, float* inv) {
  const float s = static_cast<float>(scale);
  const float r = 1.0f / s;
  if (!std::isfinite(s) || s == 0.0f || !std::isfinite(r)) {
    PK_FAIL(ctx, op, "scale %g is zero, not finite or its inverse overflows float", scale);
    return false;
  }
  *inv = r;
  return true;
}

bool check_channel_tensor(KernelRuntimeContext& ctx, const char* op, const Tensor& t,
                          const char* what, int64_t n, std::initializer_list<ScalarType> allowed) {
  if (!require_dtype_in(ctx, op, t, what, allowed) || !require_contiguous(ctx, t, op)) {
    return false;
  }
  if (t.numel() != n) {
    PK_FAIL(ctx, op, "%s has %zd elements, expected %lld", what, static_cast<ssize_t>(t.numel()),
            static_cast<long long>(n));
    return false;
  }
  return true;
}

bool check_channel_zero_points(KernelRuntimeContext& ctx, const char* op, const ChannelParams& p,
                               int64_t n) {
  if (p.zero_point == nullptr) return true;
  for (int64_t c = 0; c < n; ++c) {
    if (!check_zero_point(ctx, op, p.zero_point_at(static_cast<size_t>(c)))) return false;
  }
  return true;
}

AxisSplit split_at_axis(const Tensor& t, int64_t axis) {
  AxisSplit s;
  // With no elements the other dims' product may not fit int64: loop over nothing.
  if (t.numel() == 0) {
    s.outer = 0;
    return s;
  }
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (d < axis) s.outer *= t.size(d);
    if (d == axis) s.channels = t.size(d);
    if (d > axis) s.inner *= t.size(d);
  }
  return s;
}

bool token_split(KernelRuntimeContext& ctx, const char* op, const Tensor& t, AxisSplit* s) {
  if (t.dim() < 1) {
    PK_FAIL(ctx, op, "the input must have at least one dim");
    return false;
  }
  // Every dim but the last is a token dim; the products are bounded by the
  // tensor's numel (checked when it was made), unless a dim is zero.
  s->outer = 1;
  for (int64_t d = 0; d + 1 < t.dim(); ++d) {
    if (!::executorch::runtime::internal::checked_mul<int64_t>(s->outer, t.size(d), &s->outer)) {
      PK_FAIL(ctx, op, "the token count overflows int64");
      return false;
    }
  }
  s->channels = s->outer;
  s->inner = t.size(t.dim() - 1);
  s->outer = 1;
  return true;
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
