// Math on c10::complex<float/double>, computed by std::complex (same
// layout): abs, arg, norm, conj, exp, log, sqrt, pow, sin, cos, tanh.
#pragma once

#include <complex>

#include <c10/util/complex.h>

namespace c10_complex_math {

template <typename T>
std::complex<T> to_std(const c10::complex<T>& z) {
  return std::complex<T>(z.real(), z.imag());
}
template <typename T>
c10::complex<T> from_std(const std::complex<T>& z) {
  return c10::complex<T>(z.real(), z.imag());
}

template <typename T>
T abs(const c10::complex<T>& z) {
  return std::abs(to_std(z));
}
template <typename T>
T arg(const c10::complex<T>& z) {
  return std::arg(to_std(z));
}
template <typename T>
T norm(const c10::complex<T>& z) {
  return std::norm(to_std(z));
}
template <typename T>
c10::complex<T> conj(const c10::complex<T>& z) {
  return c10::complex<T>(z.real(), -z.imag());
}
template <typename T>
c10::complex<T> exp(const c10::complex<T>& z) {
  return from_std(std::exp(to_std(z)));
}
template <typename T>
c10::complex<T> log(const c10::complex<T>& z) {
  return from_std(std::log(to_std(z)));
}
template <typename T>
c10::complex<T> sqrt(const c10::complex<T>& z) {
  return from_std(std::sqrt(to_std(z)));
}
template <typename T>
c10::complex<T> pow(const c10::complex<T>& a, const c10::complex<T>& b) {
  return from_std(std::pow(to_std(a), to_std(b)));
}
template <typename T>
c10::complex<T> sin(const c10::complex<T>& z) {
  return from_std(std::sin(to_std(z)));
}
template <typename T>
c10::complex<T> cos(const c10::complex<T>& z) {
  return from_std(std::cos(to_std(z)));
}
template <typename T>
c10::complex<T> tanh(const c10::complex<T>& z) {
  return from_std(std::tanh(to_std(z)));
}

} // namespace c10_complex_math

// Found by ADL too (complex lives in executorch::runtime::etensor).
namespace executorch {
namespace runtime {
namespace etensor {
using ::c10_complex_math::abs;
using ::c10_complex_math::arg;
using ::c10_complex_math::conj;
using ::c10_complex_math::cos;
using ::c10_complex_math::exp;
using ::c10_complex_math::log;
using ::c10_complex_math::norm;
using ::c10_complex_math::pow;
using ::c10_complex_math::sin;
using ::c10_complex_math::sqrt;
using ::c10_complex_math::tanh;
} // namespace etensor
} // namespace runtime
} // namespace executorch
