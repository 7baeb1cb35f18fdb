// <cmath> functions for Half and BFloat16 (PyTorch's c10 BFloat16-math.h
// set): each computes in float and rounds back, so kernel templates can call
// std::exp(x) for any floating CTYPE. nextafter steps the 16-bit value.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>

namespace executorch {
namespace runtime {
namespace etensor {
namespace internal {

template <typename T>
struct is_reduced_float : std::integral_constant<bool, std::is_same<T, Half>::value ||
                                                           std::is_same<T, BFloat16>::value> {};

// The next representable value after `from` towards `to` (IEEE nextafter on
// the 16-bit encoding: sign-magnitude, so one step is +-1 on the bits).
template <typename T>
T reduced_float_nextafter(T from, T to) {
  const float f = static_cast<float>(from);
  const float t = static_cast<float>(to);
  if (std::isnan(f) || std::isnan(t)) {
    return T(f + t);
  }
  if (f == t) {
    return to;
  }
  if (f == 0.0f) { // the smallest subnormal with the sign of the direction
    return T(static_cast<uint16_t>(t > 0.0f ? 0x0001 : 0x8001), T::from_bits());
  }
  const bool away_from_zero = (f < t) == (f > 0.0f);
  return T(static_cast<uint16_t>(away_from_zero ? from.x + 1 : from.x - 1), T::from_bits());
}

} // namespace internal
} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace std {

#define ET_INTERNAL_REDUCED_FLOAT_UNARY_(fn)                                                      \
  template <typename T, typename std::enable_if<                                                  \
                            ::executorch::runtime::etensor::internal::is_reduced_float<T>::value, \
                            int>::type = 0>                                                       \
  inline T fn(T a) {                                                                              \
    return T(std::fn(static_cast<float>(a)));                                                     \
  }
ET_INTERNAL_REDUCED_FLOAT_UNARY_(acos)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(asin)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(atan)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(atanh)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(erf)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(erfc)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(exp)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(expm1)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(log)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(log10)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(log1p)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(log2)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(ceil)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(cos)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(floor)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(nearbyint)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(round)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(sin)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(tan)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(sinh)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(cosh)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(tanh)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(trunc)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(lgamma)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(sqrt)
ET_INTERNAL_REDUCED_FLOAT_UNARY_(abs)
#undef ET_INTERNAL_REDUCED_FLOAT_UNARY_

template <typename T,
          typename std::enable_if<
              ::executorch::runtime::etensor::internal::is_reduced_float<T>::value, int>::type = 0>
inline T pow(T a, double b) {
  return T(std::pow(static_cast<float>(a), static_cast<float>(b)));
}
template <typename T,
          typename std::enable_if<
              ::executorch::runtime::etensor::internal::is_reduced_float<T>::value, int>::type = 0>
inline T pow(T a, T b) {
  return T(std::pow(static_cast<float>(a), static_cast<float>(b)));
}
template <typename T,
          typename std::enable_if<
              ::executorch::runtime::etensor::internal::is_reduced_float<T>::value, int>::type = 0>
inline T fmod(T a, T b) {
  return T(std::fmod(static_cast<float>(a), static_cast<float>(b)));
}
template <typename T,
          typename std::enable_if<
              ::executorch::runtime::etensor::internal::is_reduced_float<T>::value, int>::type = 0>
inline T nextafter(T from, T to) {
  return ::executorch::runtime::etensor::internal::reduced_float_nextafter(from, to);
}

} // namespace std

namespace executorch {
namespace runtime {
namespace etensor {
// 1 / sqrt(a), as c10::rsqrt.
template <typename T, typename std::enable_if<internal::is_reduced_float<T>::value, int>::type = 0>
inline T rsqrt(T a) {
  return T(1.0f / std::sqrt(static_cast<float>(a)));
}
} // namespace etensor
} // namespace runtime
} // namespace executorch

// c10's spelling of the same functions and traits (c10::rsqrt,
// c10::is_reduced_floating_point_v), which upstream's headers also make
// visible here; last, because it builds on the declarations above. Only
// where the c10 root is on the include path (pkg-config and CMake put it
// there), so -I<includedir> alone still works.
#if __has_include(<c10/util/BFloat16-math.h>)
#include <c10/util/BFloat16-math.h>
#endif
