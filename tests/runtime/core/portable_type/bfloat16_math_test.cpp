// bfloat16_math.h: std:: math on Half and BFloat16, nextafter on the bits.
#include <gtest/gtest.h>

#include <cmath>

#include <executorch/runtime/core/portable_type/bfloat16_math.h>

using ::executorch::runtime::etensor::BFloat16;
using ::executorch::runtime::etensor::Half;

TEST(ReducedFloatMathTest, FunctionsKeepTheType) {
  static_assert(std::is_same<decltype(std::exp(BFloat16(1.0f))), BFloat16>::value);
  static_assert(std::is_same<decltype(std::sqrt(Half(4.0f))), Half>::value);
  EXPECT_EQ(static_cast<float>(std::sqrt(Half(4.0f))), 2.0f);
  EXPECT_EQ(static_cast<float>(std::floor(BFloat16(2.75f))), 2.0f);
  EXPECT_EQ(static_cast<float>(std::abs(Half(-3.0f))), 3.0f);
  EXPECT_EQ(static_cast<float>(std::pow(BFloat16(2.0f), 3.0)), 8.0f);
  EXPECT_EQ(static_cast<float>(std::fmod(Half(7.0f), Half(4.0f))), 3.0f);
  EXPECT_NEAR(static_cast<float>(std::exp(BFloat16(1.0f))), 2.71828f, 0.02f);
  EXPECT_NEAR(static_cast<float>(std::tanh(Half(0.5f))), 0.46212f, 0.001f);
  EXPECT_EQ(static_cast<float>(::executorch::runtime::etensor::rsqrt(Half(16.0f))), 0.25f);
}

TEST(ReducedFloatMathTest, NextAfterStepsOneUlp) {
  const BFloat16 zero(0.0f);
  // Bitwise results, including the sign of zero.
  EXPECT_EQ(std::nextafter(zero, zero).x, zero.x);
  EXPECT_EQ(std::nextafter(zero, -zero).x, (-zero).x);
  EXPECT_EQ(std::nextafter(-zero, zero).x, zero.x);
  EXPECT_EQ(std::nextafter(zero, BFloat16(1.0f)).x, 0x0001);
  EXPECT_EQ(std::nextafter(zero, BFloat16(-1.0f)).x, 0x8001);
  EXPECT_EQ(std::nextafter(BFloat16(1.0f), BFloat16(2.0f)).x, 0x3F81);
  EXPECT_EQ(std::nextafter(BFloat16(1.0f), BFloat16(0.0f)).x, 0x3F7F);
  EXPECT_EQ(std::nextafter(BFloat16(-1.0f), BFloat16(-2.0f)).x, 0xBF81);
  EXPECT_EQ(std::nextafter(Half(1.0f), Half(2.0f)).x, 0x3C01);
  EXPECT_TRUE(std::isnan(static_cast<float>(std::nextafter(Half(NAN), Half(1.0f)))));
}
