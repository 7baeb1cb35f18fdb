// c10/util/safe_numerics.h, overflows.h, TypeSafeSignMath.h, bit_cast.h,
// floating_point_utils.h.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include <c10/util/TypeSafeSignMath.h>
#include <c10/util/bit_cast.h>
#include <c10/util/floating_point_utils.h>
#include <c10/util/overflows.h>
#include <c10/util/safe_numerics.h>

TEST(C10NumericsTest, SafeArithmetic) {
  uint64_t out = 0;
  EXPECT_FALSE(c10::add_overflows(uint64_t(2), uint64_t(3), &out));
  EXPECT_EQ(out, 5u);
  EXPECT_TRUE(c10::add_overflows(UINT64_MAX, uint64_t(1), &out));
  EXPECT_TRUE(c10::mul_overflows(uint64_t(1) << 40, uint64_t(1) << 40, &out));
  int64_t sout = 0;
  EXPECT_FALSE(c10::mul_overflows(int64_t(-3), int64_t(7), &sout));
  EXPECT_EQ(sout, -21);
  const std::vector<int64_t> sizes = {2, 3, 4};
  EXPECT_FALSE(c10::safe_multiplies_u64(sizes, &out));
  EXPECT_EQ(out, 24u);
  const std::vector<int64_t> huge = {1 << 30, 1 << 30, 1 << 30};
  EXPECT_TRUE(c10::safe_multiplies_u64(huge.begin(), huge.end(), &out));
}

TEST(C10NumericsTest, Overflows) {
  EXPECT_TRUE(c10::overflows<int8_t>(200));
  EXPECT_FALSE(c10::overflows<int8_t>(-128));
  EXPECT_TRUE(c10::overflows<int8_t>(-129));
  EXPECT_FALSE(c10::overflows<uint8_t>(-1)); // wraps, as c10 allows
  EXPECT_TRUE(c10::overflows<uint8_t>(-1, /*strict_unsigned=*/true));
  EXPECT_TRUE(c10::overflows<uint8_t>(256));
  EXPECT_TRUE(c10::overflows<float>(1e300));
  EXPECT_FALSE(c10::overflows<float>(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(c10::overflows<int32_t>(3e9));
  EXPECT_FALSE(c10::overflows<int32_t>(true));
}

TEST(C10NumericsTest, SignMath) {
  EXPECT_TRUE(c10::is_negative(-1));
  EXPECT_FALSE(c10::is_negative(3u));
  EXPECT_EQ(c10::signum(-5), -1);
  EXPECT_EQ(c10::signum(0), 0);
  EXPECT_EQ(c10::signum(7u), 1);
  EXPECT_TRUE(c10::signs_differ(-1, 2u));
  EXPECT_TRUE(c10::greater_than_max<int8_t>(128));
  EXPECT_FALSE(c10::greater_than_max<int64_t>(int8_t(5)));
  EXPECT_TRUE(c10::less_than_lowest<uint32_t>(-1));
  EXPECT_TRUE(c10::less_than_lowest<int16_t>(-40000.0));
}

TEST(C10NumericsTest, BitCasts) {
  EXPECT_EQ(c10::bit_cast<uint32_t>(1.0f), 0x3F800000u);
  EXPECT_EQ(c10::bit_cast<float>(0x40000000u), 2.0f);
  EXPECT_EQ(c10::detail::fp32_to_bits(-0.0f), 0x80000000u);
  EXPECT_EQ(c10::detail::fp32_from_bits(0x3F000000u), 0.5f);
}
