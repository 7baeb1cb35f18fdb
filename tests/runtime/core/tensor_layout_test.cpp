// executorch/runtime/core/tensor_layout.h: TensorLayout::create checks.
#include <executorch/runtime/core/tensor_layout.h>

#include <cstdint>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::aten::ScalarType;
using executorch::runtime::Error;
using executorch::runtime::Result;
using executorch::runtime::Span;
using executorch::runtime::TensorLayout;

class TensorLayoutTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(TensorLayoutTest, DescribesTheTensor) {
  const int32_t sizes[3] = {2, 3, 4};
  const uint8_t dim_order[3] = {0, 2, 1};
  Result<const TensorLayout> layout =
      TensorLayout::create({sizes, 3}, {dim_order, 3}, ScalarType::Half);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->nbytes(), 2u * 3 * 4 * 2);
  EXPECT_EQ(layout->scalar_type(), ScalarType::Half);
  EXPECT_EQ(layout->sizes().size(), 3u);
  EXPECT_EQ(layout->sizes()[2], 4);
  EXPECT_EQ(layout->dim_order()[1], 2);
}

TEST_F(TensorLayoutTest, ScalarAndEmptyTensors) {
  auto scalar = TensorLayout::create({}, {}, ScalarType::Double);
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->nbytes(), 8u);
  const int32_t sizes[2] = {0, 5};
  const uint8_t dim_order[2] = {0, 1};
  auto empty = TensorLayout::create({sizes, 2}, {dim_order, 2}, ScalarType::Float);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->nbytes(), 0u);
}

TEST_F(TensorLayoutTest, RejectsInconsistentInput) {
  const int32_t sizes[2] = {2, 3};
  const uint8_t dim_order[2] = {0, 1};
  const uint8_t bad_order[2] = {0, 2};
  const int32_t negative[2] = {2, -1};
  const int32_t huge[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
  const uint8_t order3[3] = {0, 1, 2};
  EXPECT_EQ(TensorLayout::create({sizes, 2}, {dim_order, 1}, ScalarType::Float).error(),
            Error::InvalidArgument);
  EXPECT_EQ(TensorLayout::create({sizes, 2}, {bad_order, 2}, ScalarType::Float).error(),
            Error::InvalidArgument);
  EXPECT_EQ(TensorLayout::create({negative, 2}, {dim_order, 2}, ScalarType::Float).error(),
            Error::InvalidArgument);
  EXPECT_EQ(TensorLayout::create({huge, 3}, {order3, 3}, ScalarType::Double).error(),
            Error::InvalidArgument);
  EXPECT_EQ(TensorLayout::create({sizes, 2}, {dim_order, 2}, static_cast<ScalarType>(100)).error(),
            Error::InvalidArgument);
}
