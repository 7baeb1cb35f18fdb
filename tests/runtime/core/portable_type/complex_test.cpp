// complex.h: executorch::aten::complex, the ComplexFloat/ComplexDouble
// element type, laid out and computing like std::complex.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/portable_type/complex.h>

using ::executorch::aten::complex;
using ::executorch::aten::Half;

TEST(ComplexTest, LayoutMatchesStdComplex) {
  static_assert(sizeof(complex<float>) == sizeof(std::complex<float>));
  static_assert(alignof(complex<double>) == 16);
  static_assert(sizeof(complex<Half>) == 4);
  const std::complex<float> s(1.5f, -2.0f);
  complex<float> c;
  std::memcpy(static_cast<void*>(&c), &s, sizeof(c));
  EXPECT_EQ(c.real(), 1.5f);
  EXPECT_EQ(c.imag(), -2.0f);
}

TEST(ComplexTest, ArithmeticMatchesStdComplex) {
  const complex<double> a(1.0, 2.0), b(3.0, -1.0);
  const std::complex<double> sa(1.0, 2.0), sb(3.0, -1.0);
  auto same = [](complex<double> x, std::complex<double> y) {
    EXPECT_DOUBLE_EQ(x.real(), y.real());
    EXPECT_DOUBLE_EQ(x.imag(), y.imag());
  };
  same(a + b, sa + sb);
  same(a - b, sa - sb);
  same(a * b, sa * sb);
  same(a / b, sa / sb);
  same(-a, -sa);
  same(a * 2.0, sa * 2.0);
  same(2.0 * a, 2.0 * sa);
  same(a / 4.0, sa / 4.0);
  complex<double> c = a;
  c *= b;
  same(c, sa * sb);
  EXPECT_TRUE(a == complex<double>(1.0, 2.0));
  EXPECT_TRUE(a != b);
  complex<double> d;
  d.real(5.0);
  d.imag(6.0);
  same(d, {5.0, 6.0});
  same(complex<double>(complex<float>(0.5f, 0.25f)), {0.5, 0.25});
}
