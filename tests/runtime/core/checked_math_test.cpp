// runtime/src/core/checked_math.h: narrowing 64-bit file fields to size_t.
// A 64-bit host cannot produce a value over SIZE_MAX, so the `limit`
// argument plays a 32-bit one (UINT32_MAX) there.
#include <cstddef>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "core/checked_math.h"
#include "executor/program_validation.h"

namespace {

using ::executorch::runtime::internal::fits_size_t;
using ::executorch::runtime::internal::kSizeMax;
using ::executorch::runtime::internal::to_size;
using ::executorch::runtime::internal::to_size_signed;

constexpr uint64_t k32 = std::numeric_limits<uint32_t>::max();
constexpr size_t kUntouched = 12345;

TEST(CheckedMath, FitsSizeTAtThe32BitBoundary) {
  EXPECT_TRUE(fits_size_t(0, k32));
  EXPECT_TRUE(fits_size_t(k32, k32));
  EXPECT_FALSE(fits_size_t(k32 + 1, k32));
  EXPECT_FALSE(fits_size_t(uint64_t(1) << 40, k32));
  EXPECT_FALSE(fits_size_t(std::numeric_limits<uint64_t>::max(), k32));
}

TEST(CheckedMath, FitsSizeTAtThisHostsBoundary) {
  EXPECT_TRUE(fits_size_t(kSizeMax));
  EXPECT_EQ(fits_size_t(uint64_t(1) << 32), sizeof(size_t) >= 8);
  if (kSizeMax < std::numeric_limits<uint64_t>::max()) {
    EXPECT_FALSE(fits_size_t(kSizeMax + 1));
  }
  // A limit above SIZE_MAX does not widen size_t.
  EXPECT_EQ(fits_size_t(std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()),
            sizeof(size_t) >= 8);
}

TEST(CheckedMath, ToSizeConvertsWhatFits) {
  size_t out = kUntouched;
  ASSERT_TRUE(to_size(k32, &out, k32));
  EXPECT_EQ(out, size_t(k32));
  ASSERT_TRUE(to_size(0, &out, k32));
  EXPECT_EQ(out, 0u);
  ASSERT_TRUE(to_size(kSizeMax, &out));
  EXPECT_EQ(out, std::numeric_limits<size_t>::max());
}

TEST(CheckedMath, ToSizeLeavesOutUntouchedOnFailure) {
  size_t out = kUntouched;
  // 4 GiB + 16: what a 32-bit cast would wrap to 16.
  EXPECT_FALSE(to_size((uint64_t(1) << 32) + 16, &out, k32));
  EXPECT_EQ(out, kUntouched);
  EXPECT_FALSE(to_size(k32 + 1, &out, k32));
  EXPECT_EQ(out, kUntouched);
}

TEST(CheckedMath, ToSizeSignedRejectsNegativesAndLargeValues) {
  size_t out = kUntouched;
  EXPECT_FALSE(to_size_signed(-1, &out));
  EXPECT_FALSE(to_size_signed(std::numeric_limits<int64_t>::min(), &out));
  EXPECT_FALSE(to_size_signed(int64_t(k32) + 1, &out, k32));
  EXPECT_EQ(out, kUntouched);
  ASSERT_TRUE(to_size_signed(int64_t(k32), &out, k32));
  EXPECT_EQ(out, size_t(k32));
  ASSERT_TRUE(to_size_signed(0, &out, k32));
  EXPECT_EQ(out, 0u);
}

TEST(CheckedMath, HostTensorLimitFitsTheAddressSpace) {
  using ::executorch::runtime::internal::kMaxHostTensorBytes;
  using ::executorch::runtime::internal::kMaxTensorBytes;
  EXPECT_LE(kMaxHostTensorBytes, uint64_t(kMaxTensorBytes));
  EXPECT_LE(kMaxHostTensorBytes, uint64_t(PTRDIFF_MAX));
  EXPECT_TRUE(fits_size_t(kMaxHostTensorBytes));
  if (sizeof(size_t) >= 8) {
    EXPECT_EQ(kMaxHostTensorBytes, uint64_t(kMaxTensorBytes));
  }
}

} // namespace
