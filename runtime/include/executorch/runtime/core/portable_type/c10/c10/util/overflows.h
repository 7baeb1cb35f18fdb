// c10::overflows<To>(f): whether f is outside the range of To (for
// floating To, only finite values beyond its range count; inf and NaN
// do not overflow a type that has them).
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include <c10/util/TypeSafeSignMath.h>
#include <c10/util/complex.h>

namespace c10 {

template <typename To, typename From>
std::enable_if_t<std::is_same<From, bool>::value, bool> overflows(From, bool = false) {
  return false;
}

template <typename To, typename From>
std::enable_if_t<std::is_integral<From>::value && !std::is_same<From, bool>::value, bool> overflows(
    From f, bool strict_unsigned = false) {
  using limit = std::numeric_limits<To>;
  if (!strict_unsigned && std::is_unsigned<To>::value && std::is_signed<From>::value) {
    // Wrapping a negative into an unsigned type is allowed (as for uint8 x = -1).
    return greater_than_max<To>(f) ||
           (is_negative(f) &&
            -static_cast<long double>(f) > static_cast<long double>(limit::max()));
  }
  return !limit::is_integer ? false : (less_than_lowest<To>(f) || greater_than_max<To>(f));
}

template <typename To, typename From>
std::enable_if_t<std::is_floating_point<From>::value, bool> overflows(From f, bool = false) {
  using limit = std::numeric_limits<To>;
  if (limit::has_infinity && std::isinf(static_cast<double>(f))) {
    return false;
  }
  if (!limit::has_quiet_NaN && f != f) {
    return true;
  }
  return f < static_cast<From>(limit::lowest()) || f > static_cast<From>(limit::max());
}

} // namespace c10
