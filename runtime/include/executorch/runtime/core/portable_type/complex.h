// complex<T>: a pair of real and imaginary parts laid out like std::complex
// (and like c10::complex, so ComplexFloat tensors share their bytes with
// PyTorch's). The element type of ComplexHalf/ComplexFloat/ComplexDouble.
#pragma once

#include <executorch/runtime/core/portable_type/half.h>

namespace executorch {
namespace runtime {
namespace etensor {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  // Between precisions, explicitly (as c10::complex does).
  template <typename U>
  explicit constexpr complex(const complex<U>& other)
      : real_(static_cast<T>(other.real())), imag_(static_cast<T>(other.imag())) {}

  constexpr T real() const { return real_; }
  constexpr void real(T value) { real_ = value; }
  constexpr T imag() const { return imag_; }
  constexpr void imag(T value) { imag_ = value; }

  constexpr complex& operator+=(const complex& o) {
    real_ = real_ + o.real_;
    imag_ = imag_ + o.imag_;
    return *this;
  }
  constexpr complex& operator-=(const complex& o) {
    real_ = real_ - o.real_;
    imag_ = imag_ - o.imag_;
    return *this;
  }
  constexpr complex& operator*=(const complex& o) {
    const T re = real_ * o.real_ - imag_ * o.imag_;
    imag_ = real_ * o.imag_ + imag_ * o.real_;
    real_ = re;
    return *this;
  }
  // Textbook division; callers needing Smith's scaling use std::complex.
  constexpr complex& operator/=(const complex& o) {
    const T denom = o.real_ * o.real_ + o.imag_ * o.imag_;
    const T re = (real_ * o.real_ + imag_ * o.imag_) / denom;
    imag_ = (imag_ * o.real_ - real_ * o.imag_) / denom;
    real_ = re;
    return *this;
  }
};

template <typename T>
constexpr complex<T> operator+(const complex<T>& v) {
  return v;
}
template <typename T>
constexpr complex<T> operator-(const complex<T>& v) {
  return complex<T>(-v.real(), -v.imag());
}
template <typename T>
constexpr complex<T> operator+(complex<T> a, const complex<T>& b) {
  return a += b;
}
template <typename T>
constexpr complex<T> operator-(complex<T> a, const complex<T>& b) {
  return a -= b;
}
template <typename T>
constexpr complex<T> operator*(complex<T> a, const complex<T>& b) {
  return a *= b;
}
template <typename T>
constexpr complex<T> operator/(complex<T> a, const complex<T>& b) {
  return a /= b;
}
// With a real scalar of the part type.
template <typename T>
constexpr complex<T> operator*(const complex<T>& a, const T& s) {
  return complex<T>(a.real() * s, a.imag() * s);
}
template <typename T>
constexpr complex<T> operator*(const T& s, const complex<T>& a) {
  return a * s;
}
template <typename T>
constexpr complex<T> operator/(const complex<T>& a, const T& s) {
  return complex<T>(a.real() / s, a.imag() / s);
}
template <typename T>
constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
constexpr bool operator!=(const complex<T>& a, const complex<T>& b) {
  return !(a == b);
}

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::complex;
} // namespace executor
} // namespace torch
