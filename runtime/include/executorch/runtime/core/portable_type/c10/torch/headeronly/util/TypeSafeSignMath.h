// Sign tests that compile without warnings for unsigned types (c10's
// TypeSafeSignMath): is_negative, signum, signs_differ, and the range
// checks greater_than_max / less_than_lowest used by overflow checks.
#pragma once

#include <limits>
#include <type_traits>

namespace c10 {

template <typename T>
constexpr bool is_negative(const T& x) {
  if constexpr (std::is_unsigned<T>::value) {
    (void)x;
    return false;
  } else {
    return x < T(0);
  }
}

// -1, 0 or 1.
template <typename T>
constexpr int signum(const T& x) {
  if constexpr (std::is_unsigned<T>::value) {
    return T(0) < x;
  } else {
    return (T(0) < x) - (x < T(0));
  }
}

template <typename T, typename U>
constexpr bool signs_differ(const T& a, const U& b) {
  return is_negative(a) != is_negative(b);
}

// Whether x is above the largest value of Limit (x of another type).
template <typename Limit, typename T>
constexpr bool greater_than_max(const T& x) {
  constexpr bool can_overflow = std::numeric_limits<T>::digits > std::numeric_limits<Limit>::digits;
  if constexpr (can_overflow) {
    return x > static_cast<T>(std::numeric_limits<Limit>::max());
  } else {
    (void)x;
    return false;
  }
}

// Whether x is below the lowest value of Limit.
template <typename Limit, typename T>
constexpr bool less_than_lowest(const T& x) {
  if constexpr (std::is_unsigned<T>::value) {
    (void)x;
    return false;
  } else if constexpr (std::is_unsigned<Limit>::value) {
    return x < T(0);
  } else if constexpr (std::numeric_limits<T>::digits > std::numeric_limits<Limit>::digits ||
                       std::is_floating_point<T>::value) {
    return x < static_cast<T>(std::numeric_limits<Limit>::lowest());
  } else {
    (void)x;
    return false;
  }
}

} // namespace c10
