// TensorImpl::internal_resize_contiguous on hostile sizes: an element count
// or a stride that overflows is an Error, and a failed resize leaves the
// tensor exactly as it was.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/runtime.h>

namespace {

using ::executorch::runtime::Error;
using ::executorch::runtime::TensorShapeDynamism;
using ::executorch::runtime::etensor::ScalarType;
using ::executorch::runtime::etensor::TensorImpl;
using Sizes = std::vector<TensorImpl::SizesType>;

struct Snapshot {
  Sizes sizes;
  std::vector<TensorImpl::StridesType> strides;
  ssize_t numel;
};

Snapshot snapshot(const TensorImpl& t) {
  return {Sizes(t.sizes().begin(), t.sizes().end()),
          std::vector<TensorImpl::StridesType>(t.strides().begin(), t.strides().end()), t.numel()};
}

void expect_unchanged(const TensorImpl& t, const Snapshot& before) {
  const Snapshot now = snapshot(t);
  EXPECT_EQ(now.sizes, before.sizes);
  EXPECT_EQ(now.strides, before.strides);
  EXPECT_EQ(now.numel, before.numel);
}

class TensorResize : public ::testing::Test {
 protected:
  void SetUp() override { ::executorch::runtime::runtime_init(); }
};

TEST_F(TensorResize, ElementCountOverflowIsAnErrorAndChangesNothing) {
  // Rank 16: 16 sizes of 2^30 multiply far past int64.
  Sizes sizes(16, 1);
  TensorImpl t(ScalarType::Float, 16, sizes.data(), nullptr, nullptr, nullptr,
               TensorShapeDynamism::DYNAMIC_BOUND);
  const Snapshot before = snapshot(t);
  const Sizes huge(16, int32_t(1) << 30);
  EXPECT_EQ(t.internal_resize_contiguous({huge.data(), huge.size()}), Error::InvalidArgument);
  expect_unchanged(t, before);
}

TEST_F(TensorResize, StrideOverflowWithinCapacityIsAnErrorAndChangesNothing) {
  // Capacity 2^31 elements; the new sizes hold 0 elements, but a size of 0
  // counts as 1 in the strides and dim 0's stride would be 2^40.
  Sizes sizes{2, int32_t(1) << 15, int32_t(1) << 15};
  TensorImpl t(ScalarType::Byte, 3, sizes.data(), nullptr, nullptr, nullptr,
               TensorShapeDynamism::DYNAMIC_BOUND);
  const Snapshot before = snapshot(t);
  const Sizes zero_but_wide{0, int32_t(1) << 20, int32_t(1) << 20};
  EXPECT_EQ(t.internal_resize_contiguous({zero_but_wide.data(), zero_but_wide.size()}),
            Error::InvalidArgument);
  expect_unchanged(t, before);
}

TEST_F(TensorResize, OverCapacityAndNegativeSizesChangeNothing) {
  Sizes sizes{4, 4};
  TensorImpl t(ScalarType::Float, 2, sizes.data(), nullptr, nullptr, nullptr,
               TensorShapeDynamism::DYNAMIC_BOUND);
  const Snapshot before = snapshot(t);
  const Sizes bigger{4, 5};
  EXPECT_EQ(t.internal_resize_contiguous({bigger.data(), bigger.size()}), Error::NotSupported);
  expect_unchanged(t, before);
  const Sizes negative{-1, 4};
  EXPECT_EQ(t.internal_resize_contiguous({negative.data(), negative.size()}),
            Error::InvalidArgument);
  expect_unchanged(t, before);
}

TEST_F(TensorResize, ValidResizeUpdatesSizesStridesAndNumel) {
  Sizes sizes{4, 4};
  TensorImpl t(ScalarType::Float, 2, sizes.data(), nullptr, nullptr, nullptr,
               TensorShapeDynamism::DYNAMIC_BOUND);
  const Sizes smaller{2, 3};
  ASSERT_EQ(t.internal_resize_contiguous({smaller.data(), smaller.size()}), Error::Ok);
  const Snapshot now = snapshot(t);
  EXPECT_EQ(now.sizes, smaller);
  EXPECT_EQ(now.strides, (std::vector<TensorImpl::StridesType>{3, 1}));
  EXPECT_EQ(now.numel, 6);
}

// Upstream's deprecated spelling resizes the same way, and aborts (with a
// message) where internal_resize_contiguous returns an Error.
TEST_F(TensorResize, DeprecatedSetSizesContiguous) {
  Sizes sizes{4, 4};
  TensorImpl t(ScalarType::Float, 2, sizes.data(), nullptr, nullptr, nullptr,
               TensorShapeDynamism::DYNAMIC_BOUND);
  const Sizes smaller{2, 3};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  t.set_sizes_contiguous({smaller.data(), smaller.size()});
  EXPECT_EQ(snapshot(t).numel, 6);
  const Sizes bigger{4, 5};
  EXPECT_DEATH(t.set_sizes_contiguous({bigger.data(), bigger.size()}), "resize");
#pragma GCC diagnostic pop
}

} // namespace
