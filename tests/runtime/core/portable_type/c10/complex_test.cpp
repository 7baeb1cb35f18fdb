// c10/util/complex.h, complex_utils.h, complex_math.h.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <type_traits>

#include <c10/util/complex.h>
#include <c10/util/complex_math.h>
#include <c10/util/complex_utils.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <torch/headeronly/util/complex.h>

TEST(C10ComplexTest, SameTemplateAsExecutorch) {
  static_assert(std::is_same<c10::complex<float>, ::executorch::aten::complex<float>>::value);
  static_assert(std::is_same<torch::headeronly::complex<double>, c10::complex<double>>::value);
  static_assert(c10::is_complex<c10::complex<float>>::value);
  static_assert(c10::is_complex<std::complex<double>>::value);
  static_assert(!c10::is_complex<float>::value);
  static_assert(std::is_same<c10::scalar_value_type<c10::complex<double>>::type, double>::value);
  static_assert(std::is_same<c10::scalar_value_type<int>::type, int>::value);
  EXPECT_EQ((c10::complex<float>(1, 2) * c10::complex<float>(3, 4)).imag(), 10.0f);
}

TEST(C10ComplexTest, Math) {
  const c10::complex<double> z(3.0, 4.0);
  EXPECT_DOUBLE_EQ(c10_complex_math::abs(z), 5.0);
  EXPECT_DOUBLE_EQ(abs(z), 5.0); // found by ADL
  EXPECT_DOUBLE_EQ(c10_complex_math::norm(z), 25.0);
  EXPECT_DOUBLE_EQ(c10_complex_math::conj(z).imag(), -4.0);
  const auto root = c10_complex_math::sqrt(c10::complex<double>(-4.0, 0.0));
  EXPECT_NEAR(root.real(), 0.0, 1e-12);
  EXPECT_NEAR(root.imag(), 2.0, 1e-12);
  const auto e = c10_complex_math::exp(c10::complex<double>(0.0, M_PI));
  EXPECT_NEAR(e.real(), -1.0, 1e-12);
  EXPECT_NEAR(c10_complex_math::arg(c10::complex<float>(0.0f, 1.0f)), M_PI / 2, 1e-6);
}
