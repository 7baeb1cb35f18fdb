// half.h: conversions, arithmetic with Half, float, double and integers,
// compound assignment, limits; written the way kernel code uses Half.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <executorch/runtime/core/portable_type/half.h>

using ::torch::executor::Half;

namespace {
// Half keeps 11 significant bits: within 2^-10 relative of the exact value.
void expect_half_close(float got, float want) {
  EXPECT_LE(std::fabs(got - want), std::ldexp(std::fabs(want), -10)) << got << " vs " << want;
}
} // namespace

TEST(HalfTest, RoundTripsExactValues) {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f, 1024.0f}) {
    EXPECT_EQ(static_cast<float>(Half(v)), v);
  }
  EXPECT_EQ(Half(1.0f).x, 0x3C00);
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(1e6f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(NAN))));
}

TEST(HalfTest, HalfWithHalf) {
  Half a(104.35f), b(72.5f);
  static_assert(std::is_same<decltype(a + b), Half>::value);
  expect_half_close(a + b, 176.85f);
  expect_half_close(a - b, 31.85f);
  expect_half_close(a * b, 7565.375f);
  expect_half_close(a / b, 1.43931f);
  expect_half_close(-a, -104.35f);
  Half c = a;
  c += b;
  expect_half_close(c, 176.85f);
  c -= b;
  expect_half_close(c, 104.35f);
  c *= Half(2.0f);
  expect_half_close(c, 208.7f);
  c /= Half(4.0f);
  expect_half_close(c, 52.175f);
}

TEST(HalfTest, WidensWithFloatAndDouble) {
  const Half h(12.5f);
  static_assert(std::is_same<decltype(h + 1.0f), float>::value);
  static_assert(std::is_same<decltype(2.0f * h), float>::value);
  static_assert(std::is_same<decltype(h - 1.0), double>::value);
  static_assert(std::is_same<decltype(3.0 / h), double>::value);
  // Computed in the wide type: no rounding to half in between.
  EXPECT_EQ(h + 0.0001f, 12.5001f);
  EXPECT_EQ(h * 3.0, 37.5);
  EXPECT_EQ(1.0f / h, 0.08f);
  EXPECT_EQ(100.0 - h, 87.5);
}

TEST(HalfTest, StaysHalfWithIntegers) {
  const Half h(31.4f);
  static_assert(std::is_same<decltype(h + 1), Half>::value);
  static_assert(std::is_same<decltype(int64_t(2) * h), Half>::value);
  expect_half_close(h + 20, 51.4f);
  expect_half_close(20 - h, -11.4f);
  expect_half_close(h * int64_t(17), 533.8f);
  expect_half_close(int64_t(12) / h, 0.38217f);
}

TEST(HalfTest, FloatAccumulator) {
  float acc = 1.0f;
  acc += Half(2.0f);
  acc *= Half(3.0f);
  acc -= Half(1.0f);
  acc /= Half(4.0f);
  EXPECT_EQ(acc, 2.0f);
}

TEST(HalfTest, ComparesThroughFloat) {
  EXPECT_TRUE(Half(1.0f) < Half(2.0f));
  EXPECT_TRUE(Half(2.0f) == 2.0f);
  EXPECT_TRUE(Half(0.1f) != 0.1f); // 0.1 is not representable
}

TEST(HalfTest, NumericLimits) {
  using L = std::numeric_limits<Half>;
  static_assert(L::is_specialized && L::is_signed && L::has_infinity);
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, -14));
  EXPECT_EQ(static_cast<float>(L::epsilon()), std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(L::denorm_min()), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_EQ(L::digits, 11);
}

TEST(HalfTest, BitHelpers) {
  namespace in = ::torch::executor::internal;
  EXPECT_EQ(in::fp16_ieee_from_fp32_value(-2.0f), 0xC000);
  EXPECT_EQ(in::fp16_ieee_to_fp32_value(0x3555),
            static_cast<float>(Half(0x3555, Half::from_bits())));
  EXPECT_EQ(in::fp16_ieee_to_fp32_bits(0x3C00), 0x3F800000u);
  EXPECT_EQ(in::fp32_to_bits(in::fp32_from_bits(0x40490FDBu)), 0x40490FDBu);
}
