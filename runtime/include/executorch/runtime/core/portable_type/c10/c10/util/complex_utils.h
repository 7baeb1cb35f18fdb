// c10::is_complex<T> and c10::scalar_value_type<T> (the part type of a
// complex, else T itself).
#pragma once

#include <complex>
#include <type_traits>

#include <c10/util/complex.h>

namespace c10 {

template <typename T>
struct is_complex : public std::false_type {};
template <typename T>
struct is_complex<std::complex<T>> : public std::true_type {};
template <typename T>
struct is_complex<::executorch::runtime::etensor::complex<T>> : public std::true_type {};

template <typename T>
struct scalar_value_type {
  using type = T;
};
template <typename T>
struct scalar_value_type<std::complex<T>> {
  using type = T;
};
template <typename T>
struct scalar_value_type<::executorch::runtime::etensor::complex<T>> {
  using type = T;
};

} // namespace c10
