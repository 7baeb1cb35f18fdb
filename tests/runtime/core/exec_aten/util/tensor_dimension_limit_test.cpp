// tensor_dimension_limit.h: kTensorDimensionLimit matches the largest rank
// a TensorImpl accepts, so fixed arrays of that size hold any tensor's
// sizes.
#include <gtest/gtest.h>

#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>

namespace {

using ::executorch::aten::ScalarType;
using ::executorch::aten::SizesType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using ::executorch::runtime::kTensorDimensionLimit;

static_assert(kTensorDimensionLimit == static_cast<size_t>(TensorImpl::kMaxDim),
              "the dimension limit is the TensorImpl rank limit");
static_assert(torch::executor::kTensorDimensionLimit == kTensorDimensionLimit,
              "the legacy alias names the same constant");

TEST(TensorDimensionLimitTest, TensorOfTheLimitingRankFitsFixedArrays) {
  std::vector<SizesType> sizes(kTensorDimensionLimit, 1);
  sizes.back() = 3;
  float data[3] = {};
  TensorImpl impl(ScalarType::Float, static_cast<ssize_t>(sizes.size()), sizes.data(), data);
  Tensor t(&impl);
  size_t memo[kTensorDimensionLimit];
  ::executorch::runtime::memoizeTrailingDims(t, memo);
  EXPECT_EQ(memo[0], 3u);
  EXPECT_EQ(memo[kTensorDimensionLimit - 1], 1u);
  size_t coordinate[kTensorDimensionLimit] = {};
  ::executorch::runtime::indexToCoordinate(t, 2, coordinate);
  EXPECT_EQ(coordinate[kTensorDimensionLimit - 1], 2u);
  EXPECT_EQ(::executorch::runtime::coordinateToIndex(t, coordinate), 2u);
}

} // namespace
