// tensor_shape_to_c_string.h: shapes print as "(2, 3)" in a fixed-size
// array; sizes it cannot print and shapes past the dimension limit say ERR.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>

using ::executorch::aten::SizesType;
using ::executorch::runtime::kTensorDimensionLimit;
using ::executorch::runtime::kTensorShapeStringSizeLimit;
using ::executorch::runtime::Span;
using ::executorch::runtime::tensor_shape_to_c_string;
using ::executorch::runtime::internal::kMaximumPrintableTensorShapeElement;

namespace {

template <typename T, size_t N>
std::string shape_string(const std::array<T, N>& sizes) {
  return tensor_shape_to_c_string(Span<const T>(sizes.data(), sizes.size())).data();
}

TEST(TensorShapeToCStringTest, PrintsSizesInParentheses) {
  EXPECT_EQ(shape_string(std::array<SizesType, 3>{2, 30, 400}), "(2, 30, 400)");
  EXPECT_EQ(shape_string(std::array<SizesType, 1>{0}), "(0)");
  EXPECT_EQ(shape_string(std::array<SizesType, 0>{}), "()");
  EXPECT_EQ(shape_string(std::array<int64_t, 2>{7, 1}), "(7, 1)");
}

TEST(TensorShapeToCStringTest, UnprintableSizesSayErr) {
  EXPECT_EQ(shape_string(std::array<SizesType, 3>{-1, 5, -2147483647}), "(ERR, 5, ERR)");
  const int64_t too_big = int64_t(kMaximumPrintableTensorShapeElement) + 1;
  EXPECT_EQ(shape_string(std::array<int64_t, 2>{too_big, -3}), "(ERR, ERR)");
  EXPECT_EQ(shape_string(std::array<int64_t, 1>{int64_t(kMaximumPrintableTensorShapeElement)}),
            "(" + std::to_string(kMaximumPrintableTensorShapeElement) + ")");
}

TEST(TensorShapeToCStringTest, TheLongestShapeFits) {
  std::array<SizesType, kTensorDimensionLimit> sizes;
  sizes.fill(std::numeric_limits<SizesType>::max());
  std::string expected = "(";
  for (size_t i = 0; i < sizes.size(); ++i) {
    expected += (i == 0 ? "" : ", ") + std::to_string(sizes[i]);
  }
  expected += ")";
  const std::string printed = shape_string(sizes);
  EXPECT_EQ(printed, expected);
  EXPECT_LT(printed.size(), kTensorShapeStringSizeLimit);
}

TEST(TensorShapeToCStringTest, TooManyDimsSayErr) {
  std::array<SizesType, kTensorDimensionLimit + 1> sizes;
  sizes.fill(1);
  EXPECT_EQ(shape_string(sizes), "(ERR: tensor ndim exceeds limit)");
}

} // namespace
