// bfloat16.h: conversions and rounding, arithmetic in all mixes, limits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <executorch/runtime/core/portable_type/bfloat16.h>

using ::torch::executor::BFloat16;
namespace in = ::torch::executor::internal;

TEST(BFloat16Test, TruncateAndRoundToNearestEven) {
  // 1.00390625 = 0x3F808000: exactly between 0x3F80 and 0x3F81, ties to even.
  EXPECT_EQ(in::round_to_nearest_even(in::f32_from_bits(0)), 0);
  float tie;
  const uint32_t tie_bits = 0x3F808000u;
  std::memcpy(&tie, &tie_bits, 4);
  EXPECT_EQ(in::round_to_nearest_even(tie), 0x3F80);
  EXPECT_EQ(in::bits_from_f32(tie), 0x3F80);
  const uint32_t above_bits = 0x3F808001u;
  float above;
  std::memcpy(&above, &above_bits, 4);
  EXPECT_EQ(in::round_to_nearest_even(above), 0x3F81);
  EXPECT_EQ(in::bits_from_f32(above), 0x3F80); // truncation
  const uint32_t odd_tie_bits = 0x3F818000u;
  float odd_tie;
  std::memcpy(&odd_tie, &odd_tie_bits, 4);
  EXPECT_EQ(in::round_to_nearest_even(odd_tie), 0x3F82);
  EXPECT_EQ(in::f32_from_bits(0x4049), 3.140625f);
  EXPECT_TRUE(std::isnan(in::f32_from_bits(in::round_to_nearest_even(NAN))));
  EXPECT_TRUE(std::isinf(static_cast<float>(BFloat16(INFINITY))));
}

TEST(BFloat16Test, ArithmeticMixes) {
  BFloat16 b(3.125f);
  static_assert(std::is_same<decltype(b + b), BFloat16>::value);
  static_assert(std::is_same<decltype(b - 5), BFloat16>::value);
  static_assert(std::is_same<decltype(b * 1.0f), float>::value);
  static_assert(std::is_same<decltype(2.0 / b), double>::value);
  EXPECT_EQ(static_cast<float>(b + b), 6.25f);
  EXPECT_EQ(static_cast<float>(BFloat16(7.625f) - 5), 2.625f);
  EXPECT_EQ(static_cast<float>(int64_t(2) * b), 6.25f);
  EXPECT_EQ(b * 0.5f, 1.5625f);
  EXPECT_EQ(10.0 - b, 6.875);
  BFloat16 c(1.0f);
  c += BFloat16(2.0f);
  c *= BFloat16(3.0f);
  c -= BFloat16(1.0f);
  c /= BFloat16(2.0f);
  EXPECT_EQ(static_cast<float>(c), 4.0f);
  float acc = 0.5f;
  acc += b;
  EXPECT_EQ(acc, 3.625f);
  EXPECT_EQ(static_cast<float>(-b), -3.125f);
}

TEST(BFloat16Test, NumericLimits) {
  using L = std::numeric_limits<BFloat16>;
  static_assert(L::is_specialized && L::digits == 8);
  EXPECT_EQ(static_cast<float>(L::max()), 3.38953139e38f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -3.38953139e38f);
  EXPECT_EQ(static_cast<float>(L::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(static_cast<float>(L::epsilon()), std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
}
