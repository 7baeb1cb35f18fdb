// The arithmetic Half and BFloat16 share (PyTorch's c10 semantics): with
// each other of the same type the result keeps the type; with float or
// double it widens to that type; with int32_t/int64_t it keeps the type.
// Compound assignment works on the 16-bit type and on a float accumulator.
// Comparisons go through the implicit conversion to float.
// Internal: half.h and bfloat16.h each instantiate it once for their type.
// Also the std::numeric_limits members the two formats share.
#pragma once

#include <cstdint>
#include <limits>

#define ET_INTERNAL_DEFINE_REDUCED_FLOAT_OPS(T)                                 \
  inline T operator+(const T& a, const T& b) { return T(float(a) + float(b)); } \
  inline T operator-(const T& a, const T& b) { return T(float(a) - float(b)); } \
  inline T operator*(const T& a, const T& b) { return T(float(a) * float(b)); } \
  inline T operator/(const T& a, const T& b) { return T(float(a) / float(b)); } \
  inline T operator-(const T& a) { return T(-float(a)); }                       \
  inline T& operator+=(T& a, const T& b) { return a = a + b; }                  \
  inline T& operator-=(T& a, const T& b) { return a = a - b; }                  \
  inline T& operator*=(T& a, const T& b) { return a = a * b; }                  \
  inline T& operator/=(T& a, const T& b) { return a = a / b; }                  \
  ET_INTERNAL_REDUCED_FLOAT_WIDENING_OPS_(T, float)                             \
  ET_INTERNAL_REDUCED_FLOAT_WIDENING_OPS_(T, double)                            \
  ET_INTERNAL_REDUCED_FLOAT_INT_OPS_(T, int32_t)                                \
  ET_INTERNAL_REDUCED_FLOAT_INT_OPS_(T, int64_t)                                \
  inline float& operator+=(float& a, const T& b) { return a += float(b); }      \
  inline float& operator-=(float& a, const T& b) { return a -= float(b); }      \
  inline float& operator*=(float& a, const T& b) { return a *= float(b); }      \
  inline float& operator/=(float& a, const T& b) { return a /= float(b); }

// T op W and W op T computed in W (float or double).
#define ET_INTERNAL_REDUCED_FLOAT_WIDENING_OPS_(T, W)            \
  inline W operator+(T a, W b) { return static_cast<W>(a) + b; } \
  inline W operator-(T a, W b) { return static_cast<W>(a) - b; } \
  inline W operator*(T a, W b) { return static_cast<W>(a) * b; } \
  inline W operator/(T a, W b) { return static_cast<W>(a) / b; } \
  inline W operator+(W a, T b) { return a + static_cast<W>(b); } \
  inline W operator-(W a, T b) { return a - static_cast<W>(b); } \
  inline W operator*(W a, T b) { return a * static_cast<W>(b); } \
  inline W operator/(W a, T b) { return a / static_cast<W>(b); }

// T op I and I op T computed in T (the integer converted to T first).
#define ET_INTERNAL_REDUCED_FLOAT_INT_OPS_(T, I)                        \
  inline T operator+(T a, I b) { return a + T(static_cast<float>(b)); } \
  inline T operator-(T a, I b) { return a - T(static_cast<float>(b)); } \
  inline T operator*(T a, I b) { return a * T(static_cast<float>(b)); } \
  inline T operator/(T a, I b) { return a / T(static_cast<float>(b)); } \
  inline T operator+(I a, T b) { return T(static_cast<float>(a)) + b; } \
  inline T operator-(I a, T b) { return T(static_cast<float>(a)) - b; } \
  inline T operator*(I a, T b) { return T(static_cast<float>(a)) * b; } \
  inline T operator/(I a, T b) { return T(static_cast<float>(a)) / b; }

namespace executorch {
namespace runtime {
namespace etensor {
namespace internal {

// The std::numeric_limits members Half and BFloat16 have in common (signed,
// binary, with infinities and NaNs, rounding and traps as float). Each
// specialization adds its format's precision, exponent range and values.
template <typename T>
class ReducedFloatLimitsBase {
 protected:
  static constexpr T bits(uint16_t b) { return T(b, T::from_bits()); }

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr auto has_denorm = std::numeric_limits<float>::has_denorm;
  static constexpr auto has_denorm_loss = std::numeric_limits<float>::has_denorm_loss;
  static constexpr auto round_style = std::numeric_limits<float>::round_style;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr auto traps = std::numeric_limits<float>::traps;
  static constexpr auto tinyness_before = std::numeric_limits<float>::tinyness_before;
  static constexpr T denorm_min() { return bits(0x0001); }
};

} // namespace internal
} // namespace etensor
} // namespace runtime
} // namespace executorch
