// Reference computations of the quantized_decomposed tests, written from
// the operators' definitions (torch.ops.quantized_decomposed and upstream's
// kernels/quantized), not from our kernels: rounding half to even by hand,
// clamping, and the float32 arithmetic the definitions use.
#pragma once

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>

#include "../dtype_test_util.h"

namespace qt {

using namespace kt;

inline EValue dt(ScalarType t) { return EValue(static_cast<int64_t>(t)); }
inline EValue i64(int64_t v) { return EValue(v); }

// Rounds to the nearest integer, ties to the even one (no std::nearbyint).
inline double round_half_even(double v) {
  double f = std::floor(v);
  const double frac = v - f;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(f, 2.0) != 0.0)) f += 1.0;
  return f;
}

struct QRange {
  int64_t lo, hi;
};
inline QRange range_of(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return {0, 255};
    case ScalarType::Char:
      return {-128, 127};
    case ScalarType::Short:
      return {-32768, 32767};
    default:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  }
}

inline std::vector<ScalarType> quant_dtypes() {
  return {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int};
}

// x (already in the input's dtype `it`) quantized with scale and zp: the
// product with the float32 inverse scale in float32 (float64 inputs multiply
// in float64 and narrow), rounded half to even, plus zp, clamped. NaN gives
// quant_min.
inline int64_t ref_quantize(ScalarType it, double x, double scale, int64_t zp, int64_t qmin,
                            int64_t qmax) {
  const float inv = 1.0f / static_cast<float>(scale);
  const float prod = it == ScalarType::Double ? static_cast<float>(static_cast<double>(inv) * x)
                                              : static_cast<float>(x) * inv;
  if (std::isnan(prod)) return qmin;
  if (std::isinf(prod)) return prod > 0 ? qmax : qmin;
  // The definitions add the zero point (as float32) to the rounded float32
  // value, then convert to an integer and clamp.
  const float sum = static_cast<float>(round_half_even(prod)) + static_cast<float>(zp);
  if (std::fabs(sum) > 1e18f) return sum > 0 ? qmax : qmin;
  const int64_t r = static_cast<int64_t>(sum);
  return std::min(std::max(r, qmin), qmax);
}

// (q - zp) * scale in float32, then stored in the out dtype.
inline double ref_dequantize(ScalarType ot, int64_t q, int64_t zp, double scale) {
  const float v = static_cast<float>(q - zp) * static_cast<float>(scale);
  return as_dtype(ot, v);
}

// Element i's coordinate along `axis` of a contiguous shape.
inline int64_t coord(const std::vector<int32_t>& sizes, size_t i, size_t axis) {
  size_t inner = 1;
  for (size_t d = axis + 1; d < sizes.size(); ++d) inner *= static_cast<size_t>(sizes[d]);
  return static_cast<int64_t>((i / inner) % static_cast<size_t>(sizes[axis]));
}

// A deterministic pseudo-random value in [lo, hi).
inline double pseudo(uint32_t* state, double lo, double hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((*state >> 8) / double(1u << 24));
}

} // namespace qt
