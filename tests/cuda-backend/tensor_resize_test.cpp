// resize_to / resize_like: how the delegate and the et_copy kernels give a
// planned tensor the shape its data arrives in (dynamic shapes), without a
// GPU: planned tensors over host memory.
#include <string>
#include <vector>

#include <executorch/runtime/core/portable_type/tensor.h>
#include <executorch/runtime/platform/log.h>

#include <gtest/gtest.h>

#include "error_log.h"

#include "tensor_resize.h"

using executorch::backends::cuda::resize_like;
using executorch::backends::cuda::resize_to;
using executorch::runtime::Error;
using executorch::runtime::LogLevel;
using executorch::runtime::TensorShapeDynamism;
using executorch::runtime::etensor::ScalarType;
using executorch::runtime::etensor::Tensor;
using executorch::runtime::etensor::TensorImpl;

namespace {

// A float tensor planned as `sizes` (its bound) over host memory.
struct Planned {
  std::vector<TensorImpl::SizesType> sizes;
  std::vector<float> data;
  TensorImpl impl;
  Tensor t;
  Planned(std::vector<TensorImpl::SizesType> s, TensorShapeDynamism d)
      : sizes(std::move(s)),
        data(64),
        impl(ScalarType::Float, static_cast<ssize_t>(sizes.size()), sizes.data(), data.data(),
             nullptr, nullptr, d),
        t(&impl) {}
};

class TensorResize : public ::testing::Test {
 protected:
  static std::string only_line() { return et_test::ErrorLog::only_line(); }

 private:
  et_test::ErrorLog log_;
};

TEST_F(TensorResize, ShrinksWithinTheBound) {
  Planned out({1, 63, 4}, TensorShapeDynamism::DYNAMIC_BOUND);
  const int64_t seq8[3] = {1, 8, 4};
  ASSERT_EQ(resize_to(out.t, seq8, 3, "out"), Error::Ok);
  EXPECT_EQ(out.t.size(1), 8);
  EXPECT_EQ(out.t.numel(), 32);
  EXPECT_EQ(out.t.nbytes(), 128u);
  EXPECT_EQ(out.t.strides()[0], 32);
  // And grows back up to the bound.
  const int64_t full[3] = {1, 63, 4};
  EXPECT_EQ(resize_to(out.t, full, 3, "out"), Error::Ok);
  EXPECT_EQ(out.t.numel(), 252);
  EXPECT_TRUE(et_test::error_lines().empty());
}

TEST_F(TensorResize, LikeTakesTheSourceShape) {
  Planned src({1, 5}, TensorShapeDynamism::STATIC);
  Planned dst({1, 63}, TensorShapeDynamism::DYNAMIC_BOUND);
  ASSERT_EQ(resize_like(dst.t, src.t, "et_copy"), Error::Ok);
  EXPECT_EQ(dst.t.size(1), 5);
  EXPECT_EQ(dst.t.nbytes(), src.t.nbytes());
}

TEST_F(TensorResize, SameShapeIsFineEvenWhenStatic) {
  Planned out({2, 3}, TensorShapeDynamism::STATIC);
  const int64_t same[2] = {2, 3};
  EXPECT_EQ(resize_to(out.t, same, 2, "out"), Error::Ok);
  EXPECT_TRUE(et_test::error_lines().empty());
}

TEST_F(TensorResize, StaticTensorRefusesAnotherShape) {
  Planned out({2, 3}, TensorShapeDynamism::STATIC);
  const int64_t other[2] = {2, 2};
  EXPECT_EQ(resize_to(out.t, other, 2, "CudaBackend[forward] output 0"), Error::InvalidArgument);
  const std::string l = only_line();
  EXPECT_NE(l.find("CudaBackend[forward] output 0"), std::string::npos) << l;
  EXPECT_NE(l.find("[2,2]"), std::string::npos) << l;
  EXPECT_NE(l.find("[2,3]"), std::string::npos) << l;
  EXPECT_NE(l.find("static"), std::string::npos) << l;
  EXPECT_EQ(out.t.size(1), 3);
}

TEST_F(TensorResize, BeyondTheBoundIsRefused) {
  Planned out({1, 63, 4}, TensorShapeDynamism::DYNAMIC_BOUND);
  const int64_t seq64[3] = {1, 64, 4};
  EXPECT_EQ(resize_to(out.t, seq64, 3, "out"), Error::InvalidArgument);
  EXPECT_NE(only_line().find("room for 252 elements"), std::string::npos) << only_line();
  EXPECT_EQ(out.t.size(1), 63);
}

TEST_F(TensorResize, RankCannotChange) {
  Planned out({1, 63, 4}, TensorShapeDynamism::DYNAMIC_BOUND);
  const int64_t two[2] = {1, 4};
  EXPECT_EQ(resize_to(out.t, two, 2, "out"), Error::InvalidArgument);
  EXPECT_NE(only_line().find("ranks differ"), std::string::npos) << only_line();
}

TEST_F(TensorResize, NegativeOrHugeSizesAreRefused) {
  Planned out({4, 4}, TensorShapeDynamism::DYNAMIC_BOUND);
  const int64_t negative[2] = {-1, 4};
  EXPECT_EQ(resize_to(out.t, negative, 2, "out"), Error::InvalidArgument);
  const int64_t huge[2] = {int64_t{1} << 40, 0};
  EXPECT_EQ(resize_to(out.t, huge, 2, "out"), Error::InvalidArgument);
  const int64_t wraps[2] = {int64_t{1} << 31, int64_t{1} << 31};
  EXPECT_EQ(resize_to(out.t, wraps, 2, "out"), Error::InvalidArgument);
  EXPECT_EQ(out.t.numel(), 16);
}

TEST_F(TensorResize, EmptyIsAShape) {
  Planned out({1, 63}, TensorShapeDynamism::DYNAMIC_BOUND);
  const int64_t none[2] = {1, 0};
  EXPECT_EQ(resize_to(out.t, none, 2, "out"), Error::Ok);
  EXPECT_EQ(out.t.numel(), 0);
}

} // namespace
