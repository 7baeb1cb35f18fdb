// Shared helpers of the quantized_decomposed kernels (upstream's
// kernels/quantized/quantized.yaml): argument checks for dtypes, quant
// ranges and quantization parameters, and the element rounding rules. Like
// the portable helpers they never abort: a bad argument fails the context.
#pragma once

#include "../portable/kernel_util.h"

namespace executorch {
namespace runtime {
namespace quantized {

using namespace ::executorch::runtime::portable; // NOLINT: the sibling family's helpers

// A ScalarType argument (an Int EValue naming a dtype the kernels know).
bool get_dtype(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarType* out);
// A ScalarType? argument: None -> has=false.
bool get_opt_dtype(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarType* out,
                   bool* has);

// The quantized integer dtypes: uint8, int8, int16, int32. Sets their range.
bool quant_bounds(ScalarType t, int64_t* lo, int64_t* hi);

// Fails unless dtype is a quantized integer dtype and
// lo(dtype) <= quant_min <= quant_max <= hi(dtype).
bool check_quant_range(KernelRuntimeContext& ctx, const char* op, ScalarType dtype,
                       int64_t quant_min, int64_t quant_max);

// float16, bfloat16, float32 or float64.
inline bool is_float_dtype(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || t == ScalarType::Float ||
         t == ScalarType::Double;
}
// Fails unless t has one of the listed dtypes; `what` names the argument.
bool require_dtype_in(KernelRuntimeContext& ctx, const char* op, const Tensor& t, const char* what,
                      std::initializer_list<ScalarType> allowed);

// Fails unless the zero point fits int32 (upstream computes with int32).
bool check_zero_point(KernelRuntimeContext& ctx, const char* op, int64_t zp);

// 1 / scale in float, as upstream; fails unless it and scale are finite and
// non-zero (the quantize kernels divide by it).
bool inverse_scale(KernelRuntimeContext& ctx, const char* op, double scale, float* inv);

// The scaled value before rounding: upstream multiplies by the float inverse
// scale in float (the input's precision for float64, then narrowed).
inline float scale_value(ScalarType in_t, double x, float inv) {
  if (in_t == ScalarType::Double) return static_cast<float>(static_cast<double>(inv) * x);
  return inv * static_cast<float>(x);
}

// round-half-even(v) + zp in float (upstream adds the int32 zero point to
// the rounded float), converted to int64 and clamped to [qmin, qmax]; NaN ->
// qmin (what upstream's int64 conversion gives on x86), +-inf -> the ends.
inline int64_t quantize_scaled(float v, int64_t zp, int64_t qmin, int64_t qmax) {
  const float r = std::nearbyint(v) + static_cast<float>(zp);
  constexpr float kInt64Edge = 9223372036854775808.0f; // 2^63: below it the cast is defined
  if (!(r > -kInt64Edge)) return qmin;
  if (r >= kInt64Edge) return qmax;
  const int64_t q = static_cast<int64_t>(r);
  return q < qmin ? qmin : q > qmax ? qmax : q;
}

// (q - zp) * scale computed in float, as upstream.
inline float dequantize_value(int64_t q, int64_t zp, float scale) {
  return static_cast<float>(q - zp) * scale;
}

// Per-channel parameters: scale and (optional) zero point tensors of `n`
// elements, read in their own dtypes.
struct ChannelParams {
  const Tensor* scale = nullptr;
  const Tensor* zero_point = nullptr; // null: all zero
  double scale_at(size_t c) const {
    return load_d(scale->scalar_type(), scale->const_data_ptr(), c);
  }
  int64_t zero_point_at(size_t c) const {
    return zero_point == nullptr
               ? 0
               : load_i(zero_point->scalar_type(), zero_point->const_data_ptr(), c);
  }
};

// Checks a per-channel parameter tensor: dtype in `allowed`, contiguous,
// exactly n elements; `what` names it.
bool check_channel_tensor(KernelRuntimeContext& ctx, const char* op, const Tensor& t,
                          const char* what, int64_t n, std::initializer_list<ScalarType> allowed);

// Checks every zero point of p fits int32 (n of them).
bool check_channel_zero_points(KernelRuntimeContext& ctx, const char* op, const ChannelParams& p,
                               int64_t n);

// Splits a contiguous shape at `axis`: outer * size(axis) * inner elements.
struct AxisSplit {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};
AxisSplit split_at_axis(const Tensor& t, int64_t axis);

// The tokens of a per-token op: every dim but the last, flattened. Fails for
// a rank-0 input.
bool token_split(KernelRuntimeContext& ctx, const char* op, const Tensor& t, AxisSplit* s);

} // namespace quantized
} // namespace runtime
} // namespace executorch
