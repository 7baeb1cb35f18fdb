// c10/util/Half.h, BFloat16.h, BFloat16-math.h and their
// torch/headeronly forms: the same types as executorch::aten's.
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>

#include <c10/util/BFloat16-math.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>

TEST(C10HalfTest, SameTypesAsExecutorch) {
  static_assert(std::is_same<c10::Half, ::executorch::aten::Half>::value);
  static_assert(std::is_same<c10::BFloat16, ::executorch::aten::BFloat16>::value);
  static_assert(std::is_same<torch::headeronly::Half, c10::Half>::value);
  static_assert(std::is_same<torch::headeronly::BFloat16, c10::BFloat16>::value);
  c10::Half h = 1.5f;
  ::executorch::aten::Half& alias = h;
  alias += c10::Half(1.0f);
  EXPECT_EQ(static_cast<float>(h), 2.5f);
}

TEST(C10HalfTest, DetailHelpers) {
  EXPECT_EQ(c10::detail::fp16_ieee_from_fp32_value(1.0f), 0x3C00);
  EXPECT_EQ(c10::detail::fp16_ieee_to_fp32_value(0xC000), -2.0f);
  EXPECT_EQ(c10::detail::round_to_nearest_even(1.0f), 0x3F80);
  EXPECT_EQ(c10::detail::f32_from_bits(0x4000), 2.0f);
  EXPECT_EQ(c10::detail::bits_from_f32(-1.0f), 0xBF80);
}

TEST(C10HalfTest, Math) {
  EXPECT_EQ(static_cast<float>(std::sqrt(c10::BFloat16(9.0f))), 3.0f);
  EXPECT_EQ(static_cast<float>(c10::rsqrt(c10::Half(4.0f))), 0.5f);
}

// c10::is_reduced_floating_point(_v), also reachable through std as
// upstream's BFloat16-math.h makes it.
static_assert(c10::is_reduced_floating_point_v<c10::Half>, "");
static_assert(c10::is_reduced_floating_point<c10::BFloat16>::value, "");
static_assert(!c10::is_reduced_floating_point_v<float>, "");
static_assert(std::is_reduced_floating_point_v<c10::BFloat16>, "");
