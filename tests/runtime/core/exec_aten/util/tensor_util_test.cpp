// tensor_util.h: the checking macros abort on a mismatch, the bool checks
// log and return false, and the index, resize and data helpers, called the
// way kernel authors call them.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/platform/runtime.h>

using ::executorch::aten::ArrayRef;
using ::executorch::aten::DimOrderType;
using ::executorch::aten::ScalarType;
using ::executorch::aten::SizesType;
using ::executorch::aten::StridesType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using ::executorch::runtime::Error;
using ::executorch::runtime::TensorShapeDynamism;
namespace et = ::executorch::runtime;

namespace {

// Owns the storage behind the tensors a test makes (a deque keeps earlier
// entries in place as more are added).
class Tensors {
 public:
  Tensor make(ScalarType type, std::vector<SizesType> sizes,
              std::vector<DimOrderType> dim_order = {},
              TensorShapeDynamism dynamism = TensorShapeDynamism::STATIC) {
    Entry& e = entries_.emplace_back();
    e.sizes = std::move(sizes);
    e.dim_order = std::move(dim_order);
    int64_t numel = 1;
    for (SizesType s : e.sizes) {
      numel *= s;
    }
    e.data.assign(static_cast<size_t>(numel) * 8 + 8, 0);
    e.strides.assign(e.sizes.size(), 0);
    if (!e.dim_order.empty()) {
      EXPECT_EQ(et::dim_order_to_stride(e.sizes.data(), e.dim_order.data(), e.sizes.size(),
                                        e.strides.data()),
                Error::Ok);
    }
    e.impl.emplace_back(type, static_cast<ssize_t>(e.sizes.size()), e.sizes.data(), e.data.data(),
                        e.dim_order.empty() ? nullptr : e.dim_order.data(),
                        e.dim_order.empty() ? nullptr : e.strides.data(), dynamism);
    return Tensor(&e.impl.back());
  }

  // A one-element tensor holding `value`.
  template <typename T>
  Tensor scalar(ScalarType type, T value, std::vector<SizesType> sizes = {}) {
    Tensor t = make(type, std::move(sizes));
    *t.mutable_data_ptr<T>() = value;
    return t;
  }

 private:
  struct Entry {
    std::vector<SizesType> sizes;
    std::vector<DimOrderType> dim_order;
    std::vector<StridesType> strides;
    std::vector<uint8_t> data;
    std::deque<TensorImpl> impl;
  };
  std::deque<Entry> entries_;
};

class TensorUtilTest : public ::testing::Test {
 protected:
  void SetUp() override { et::runtime_init(); }
  Tensors tf_;
};

TEST_F(TensorUtilTest, SameShapeMacrosPassOnMatchAndAbortOnMismatch) {
  Tensor a = tf_.make(ScalarType::Float, {2, 3});
  Tensor b = tf_.make(ScalarType::Int, {2, 3});
  Tensor c = tf_.make(ScalarType::Float, {2, 3});
  ET_CHECK_SAME_SHAPE2(a, b);
  ET_CHECK_SAME_SHAPE3(a, b, c);
  ET_CHECK_SAME_DTYPE2(a, c);
  ET_CHECK_SAME_DTYPE3(a, c, a);
  ET_CHECK_SAME_SHAPE_AND_DTYPE2(a, c);
  ET_CHECK_SAME_SHAPE_AND_DTYPE3(a, c, a);

  Tensor transposed = tf_.make(ScalarType::Float, {3, 2});
  Tensor flat = tf_.make(ScalarType::Float, {6});
  EXPECT_DEATH(ET_CHECK_SAME_SHAPE2(a, transposed), "");
  EXPECT_DEATH(ET_CHECK_SAME_SHAPE2(a, flat), "");
  EXPECT_DEATH(ET_CHECK_SAME_SHAPE3(a, b, transposed), "");
  EXPECT_DEATH(ET_CHECK_SAME_DTYPE2(a, b), "");
  EXPECT_DEATH(ET_CHECK_SAME_DTYPE3(a, c, b), "");
  EXPECT_DEATH(ET_CHECK_SAME_SHAPE_AND_DTYPE2(a, b), "");
  EXPECT_DEATH(ET_CHECK_SAME_SHAPE_AND_DTYPE3(a, c, transposed), "");
}

TEST_F(TensorUtilTest, OneElementTensorsHaveTheSameShapeWhateverTheirRank) {
  Tensor zero_dim = tf_.make(ScalarType::Float, {});
  Tensor one_by_one = tf_.make(ScalarType::Float, {1, 1});
  Tensor one = tf_.make(ScalarType::Float, {1});
  ET_CHECK_SAME_SHAPE2(zero_dim, one_by_one);
  ET_CHECK_SAME_SHAPE3(zero_dim, one_by_one, one);
  EXPECT_TRUE(et::tensors_have_same_shape(zero_dim, one_by_one));
  EXPECT_TRUE(et::tensors_have_same_shape(zero_dim, one, one_by_one));
  // Empty tensors of different shapes are not alike.
  EXPECT_FALSE(et::tensors_have_same_shape(tf_.make(ScalarType::Float, {0, 2}),
                                           tf_.make(ScalarType::Float, {2, 0})));
}

TEST_F(TensorUtilTest, ContiguousAndStridesMacros) {
  Tensor a = tf_.make(ScalarType::Float, {2, 3, 4});
  Tensor b = tf_.make(ScalarType::Int, {2, 3, 4});
  ET_CHECK_CONTIGUOUS(a);
  ET_CHECK_CONTIGUOUS(tf_.make(ScalarType::Float, {}));
  ET_CHECK_SAME_STRIDES2(a, b);
  ET_CHECK_SAME_STRIDES3(a, b, a);
  Tensor permuted = tf_.make(ScalarType::Float, {2, 3, 4}, {2, 0, 1});
  EXPECT_DEATH(ET_CHECK_CONTIGUOUS(permuted), "");
  EXPECT_DEATH(ET_CHECK_SAME_STRIDES2(a, permuted), "");
  EXPECT_DEATH(ET_CHECK_SAME_STRIDES3(a, b, permuted), "");
  EXPECT_DEATH(ET_CHECK_SAME_STRIDES2(a, tf_.make(ScalarType::Float, {2, 12})), "");
}

TEST_F(TensorUtilTest, DefaultOrChannelsLastDimOrderMacro) {
  ET_CHECK_DEFAULT_OR_CHANNELSLAST_DIMORDER(tf_.make(ScalarType::Float, {2, 3, 4, 5}));
  ET_CHECK_DEFAULT_OR_CHANNELSLAST_DIMORDER(
      tf_.make(ScalarType::Float, {2, 3, 4, 5}, {0, 2, 3, 1}));
  Tensor other = tf_.make(ScalarType::Float, {2, 3, 4, 5}, {0, 3, 2, 1});
  EXPECT_DEATH(ET_CHECK_DEFAULT_OR_CHANNELSLAST_DIMORDER(other), "");
}

TEST_F(TensorUtilTest, BoolChecksReturnFalseWithoutAborting) {
  Tensor f = tf_.make(ScalarType::Float, {2, 3});
  Tensor i = tf_.make(ScalarType::Int, {2, 3});
  Tensor f3 = tf_.make(ScalarType::Float, {3, 2});
  EXPECT_TRUE(et::tensors_have_same_dtype(f, f3));
  EXPECT_FALSE(et::tensors_have_same_dtype(f, i));
  EXPECT_FALSE(et::tensors_have_same_dtype(f, f3, i));
  EXPECT_TRUE(et::tensors_have_same_shape(f, i));
  EXPECT_FALSE(et::tensors_have_same_shape(f, f3));
  EXPECT_FALSE(et::tensors_have_same_shape(f, i, f3));
  EXPECT_TRUE(et::tensors_have_same_shape_and_dtype(f, tf_.make(ScalarType::Float, {2, 3})));
  EXPECT_FALSE(et::tensors_have_same_shape_and_dtype(f, i));
  EXPECT_FALSE(et::tensors_have_same_shape_and_dtype(f, f, f3));
  EXPECT_TRUE(et::tensors_have_same_rank(f, f3));
  EXPECT_FALSE(et::tensors_have_same_rank(f, tf_.make(ScalarType::Float, {6})));
  EXPECT_TRUE(et::tensors_have_same_strides(f, i));
  EXPECT_FALSE(et::tensors_have_same_strides(f, f3));
  EXPECT_FALSE(et::tensors_have_same_strides(f, i, f3));
  EXPECT_TRUE(et::tensors_have_same_size_at_dims(f, 0, f3, 1));
  EXPECT_FALSE(et::tensors_have_same_size_at_dims(f, 0, f3, 0));
  EXPECT_FALSE(et::tensors_have_same_size_at_dims(f, 2, f3, 0));
  const SizesType expected[] = {2, 3};
  EXPECT_TRUE(et::tensor_has_expected_size(f, expected));
  EXPECT_FALSE(et::tensor_has_expected_size(f3, expected));
}

TEST_F(TensorUtilTest, TypeClassChecks) {
  Tensor f = tf_.make(ScalarType::Float, {1});
  Tensor h = tf_.make(ScalarType::Half, {1});
  Tensor bf = tf_.make(ScalarType::BFloat16, {1});
  Tensor b = tf_.make(ScalarType::Bool, {1});
  Tensor l = tf_.make(ScalarType::Long, {1});
  EXPECT_TRUE(et::tensor_is_bool_type(b));
  EXPECT_FALSE(et::tensor_is_bool_type(l));
  EXPECT_TRUE(et::tensor_is_type(f, ScalarType::Float));
  EXPECT_FALSE(et::tensor_is_type(f, ScalarType::Double));
  EXPECT_TRUE(et::tensor_is_type(l, {ScalarType::Int, ScalarType::Long}));
  EXPECT_FALSE(et::tensor_is_type(f, {ScalarType::Int, ScalarType::Long}));
  EXPECT_TRUE(et::tensor_is_type(h, ScalarType::Float, ScalarType::Half));
  EXPECT_FALSE(et::tensor_is_type(bf, ScalarType::Float, ScalarType::Half));
  EXPECT_TRUE(et::tensor_is_type(bf, ScalarType::Float, ScalarType::Half, ScalarType::BFloat16));
  EXPECT_FALSE(et::tensor_is_type(l, ScalarType::Float, ScalarType::Half, ScalarType::BFloat16));
  EXPECT_TRUE(et::tensor_is_integral_type(l));
  EXPECT_FALSE(et::tensor_is_integral_type(b));
  EXPECT_TRUE(et::tensor_is_integral_type(b, /*includeBool=*/true));
  EXPECT_TRUE(et::tensor_is_floating_type(h));
  EXPECT_FALSE(et::tensor_is_floating_type(l));
  EXPECT_TRUE(et::tensor_is_real_type(l));
  EXPECT_FALSE(et::tensor_is_real_type(h));
  EXPECT_TRUE(et::tensor_is_realh_type(h));
  EXPECT_FALSE(et::tensor_is_realh_type(bf));
  EXPECT_TRUE(et::tensor_is_realhbf16_type(bf));
  EXPECT_FALSE(et::tensor_is_realhbf16_type(b));
  EXPECT_TRUE(et::tensor_is_realhb_type(b));
  EXPECT_FALSE(et::tensor_is_realhb_type(bf));
  EXPECT_TRUE(et::tensor_is_realhbbf16_type(bf));
  EXPECT_TRUE(et::tensor_is_realhbbf16_type(b));
  EXPECT_FALSE(et::tensor_is_complex_type(f));
  EXPECT_TRUE(et::tensor_is_complex_type(tf_.make(ScalarType::ComplexFloat, {1})));
  EXPECT_FALSE(et::tensor_is_bits_type(f));
  EXPECT_TRUE(et::tensor_is_bits_type(tf_.make(ScalarType::Bits16, {1})));
  EXPECT_TRUE(et::tensor_can_cast_to(l, ScalarType::Float));
  EXPECT_FALSE(et::tensor_can_cast_to(f, ScalarType::Long));
}

TEST_F(TensorUtilTest, RankAndDimChecks) {
  Tensor t = tf_.make(ScalarType::Float, {2, 0, 4});
  Tensor s = tf_.make(ScalarType::Float, {});
  EXPECT_TRUE(et::tensor_is_rank(t, 3));
  EXPECT_FALSE(et::tensor_is_rank(t, 2));
  EXPECT_TRUE(et::tensor_has_rank_greater_or_equal_to(t, 3));
  EXPECT_FALSE(et::tensor_has_rank_greater_or_equal_to(t, 4));
  EXPECT_TRUE(et::tensor_has_rank_smaller_or_equal_to(t, 3));
  EXPECT_FALSE(et::tensor_has_rank_smaller_or_equal_to(t, 2));
  for (int64_t d : {-3, -1, 0, 2}) {
    EXPECT_TRUE(et::tensor_has_dim(t, d)) << d;
  }
  EXPECT_FALSE(et::tensor_has_dim(t, 3));
  EXPECT_FALSE(et::tensor_has_dim(t, -4));
  EXPECT_TRUE(et::tensor_has_dim(s, 0));
  EXPECT_TRUE(et::tensor_has_dim(s, -1));
  EXPECT_FALSE(et::tensor_has_dim(s, 1));
  EXPECT_TRUE(et::tensor_has_non_empty_dim(t, 0));
  EXPECT_FALSE(et::tensor_has_non_empty_dim(t, 1));
  EXPECT_FALSE(et::tensor_has_non_empty_dim(t, -2));
  EXPECT_FALSE(et::tensor_has_non_empty_dim(t, 5));
  EXPECT_TRUE(et::tensor_dim_has_index(t, 2, 3));
  EXPECT_TRUE(et::tensor_dim_has_index(t, -1, -4));
  EXPECT_FALSE(et::tensor_dim_has_index(t, 2, 4));
  EXPECT_FALSE(et::tensor_dim_has_index(t, 0, -3));
  EXPECT_FALSE(et::tensor_dim_has_index(t, 1, 0));
  EXPECT_DEATH((void)et::tensor_dim_has_index(s, 0, 0), "");
  EXPECT_TRUE(et::dim_is_valid(-3, 3));
  EXPECT_TRUE(et::dim_is_valid(2, 3));
  EXPECT_FALSE(et::dim_is_valid(3, 3));
  EXPECT_FALSE(et::dim_is_valid(-4, 3));
  EXPECT_TRUE(et::tensor_is_scalar(tf_.make(ScalarType::Float, {})));
  EXPECT_FALSE(et::tensor_is_scalar(tf_.make(ScalarType::Float, {1})));
  EXPECT_EQ(et::nonzero_dim(s), 1);
  EXPECT_EQ(et::nonzero_dim(t), 3);
  EXPECT_EQ(et::nonempty_size(s, 0), 1);
  EXPECT_EQ(et::nonempty_size(t, 2), 4);
}

TEST_F(TensorUtilTest, ContiguityAndDimOrderChecks) {
  Tensor contiguous = tf_.make(ScalarType::Float, {2, 3, 4, 5});
  Tensor channels_last = tf_.make(ScalarType::Float, {2, 3, 4, 5}, {0, 2, 3, 1});
  Tensor other = tf_.make(ScalarType::Float, {2, 3, 4, 5}, {1, 0, 2, 3});
  EXPECT_TRUE(et::tensor_is_contiguous(contiguous));
  EXPECT_TRUE(et::tensor_is_contiguous(tf_.make(ScalarType::Float, {})));
  EXPECT_FALSE(et::tensor_is_contiguous(channels_last));
  EXPECT_TRUE(et::tensor_is_default_dim_order(contiguous));
  EXPECT_FALSE(et::tensor_is_default_dim_order(channels_last));
  EXPECT_TRUE(et::tensor_is_channels_last_dim_order(channels_last));
  EXPECT_FALSE(et::tensor_is_channels_last_dim_order(contiguous));
  EXPECT_TRUE(et::tensor_is_default_or_channels_last_dim_order(contiguous));
  EXPECT_TRUE(et::tensor_is_default_or_channels_last_dim_order(channels_last));
  EXPECT_FALSE(et::tensor_is_default_or_channels_last_dim_order(other));
  EXPECT_TRUE(et::tensor_has_valid_dim_order(other));

  Tensor contiguous2 = tf_.make(ScalarType::Int, {5, 4, 3, 2});
  Tensor channels_last2 = tf_.make(ScalarType::Int, {1, 2, 3, 4}, {0, 2, 3, 1});
  EXPECT_TRUE(et::tensors_have_same_dim_order(contiguous, contiguous2));
  EXPECT_TRUE(et::tensors_have_same_dim_order(channels_last, channels_last2, channels_last));
  EXPECT_FALSE(et::tensors_have_same_dim_order(contiguous, channels_last));
  EXPECT_FALSE(et::tensors_have_same_dim_order(contiguous, contiguous2, contiguous, channels_last));
  const Tensor list[] = {contiguous, contiguous2, contiguous};
  EXPECT_TRUE(et::tensors_have_same_dim_order(ArrayRef<Tensor>(list, 3)));

  DimOrderType order[4] = {};
  ASSERT_EQ(et::get_dim_order(channels_last, order, 4), Error::Ok);
  EXPECT_EQ(std::vector<DimOrderType>(order, order + 4), (std::vector<DimOrderType>{0, 2, 3, 1}));
  EXPECT_EQ(et::get_dim_order(channels_last, order, 3), Error::InvalidArgument);
}

TEST_F(TensorUtilTest, LeadingAndTrailingDims) {
  Tensor t = tf_.make(ScalarType::Float, {2, 3, 4, 5});
  EXPECT_EQ(et::getLeadingDims(t, 0), 1u);
  EXPECT_EQ(et::getLeadingDims(t, 2), 6u);
  EXPECT_EQ(et::getLeadingDims(t, 4), 120u);
  EXPECT_EQ(et::getTrailingDims(t, -1), 120u);
  EXPECT_EQ(et::getTrailingDims(t, 1), 20u);
  EXPECT_EQ(et::getTrailingDims(t, 3), 1u);
  EXPECT_DEATH((void)et::getLeadingDims(t, 5), "");
  EXPECT_DEATH((void)et::getLeadingDims(t, -1), "");
  EXPECT_DEATH((void)et::getTrailingDims(t, 4), "");
  EXPECT_DEATH((void)et::getTrailingDims(t, -2), "");
  // A product that does not fit size_t aborts rather than wrapping.
  // (Empty, so it needs no storage; explicit strides, as dense ones would
  // not fit StridesType.)
  SizesType sizes[] = {0, 1 << 30, 1 << 30, 1 << 30};
  DimOrderType order[] = {0, 1, 2, 3};
  StridesType strides[] = {1, 1, 1, 1};
  TensorImpl huge_impl(ScalarType::Byte, 4, sizes, nullptr, order, strides);
  Tensor huge(&huge_impl);
  EXPECT_DEATH((void)et::getTrailingDims(huge, 0), "");
  EXPECT_EQ(et::getLeadingDims(huge, 3), 0u);
}

TEST_F(TensorUtilTest, CoordinatesAndIndicesRoundTrip) {
  Tensor t = tf_.make(ScalarType::Float, {2, 3, 4});
  size_t memo[et::kTensorDimensionLimit];
  et::memoizeTrailingDims(t, memo);
  EXPECT_EQ(memo[0], 12u);
  EXPECT_EQ(memo[2], 1u);
  for (size_t index = 0; index < 24; ++index) {
    size_t coordinate[et::kTensorDimensionLimit] = {};
    et::indexToCoordinate(t, index, coordinate);
    EXPECT_EQ(coordinate[0], index / 12);
    EXPECT_EQ(coordinate[1], (index / 4) % 3);
    EXPECT_EQ(coordinate[2], index % 4);
    EXPECT_EQ(et::coordinateToIndex(t, coordinate), index);
    EXPECT_EQ(et::coordinateToIndexWithTrailingDimsMemo(t, coordinate, memo), index);
  }
  size_t coordinate[et::kTensorDimensionLimit] = {};
  EXPECT_DEATH(et::indexToCoordinate(t, 24, coordinate), "");

  const SizesType at[] = {1, 2, 3};
  Tensor channels_last = tf_.make(ScalarType::Float, {2, 3, 4}, {0, 2, 1});
  // Strides (12, 1, 3): 12 + 2 + 9.
  EXPECT_EQ(et::calculate_linear_index(at, channels_last.strides().data(), 3), 23u);
}

TEST_F(TensorUtilTest, ExtractScalarTensor) {
  int64_t i64 = 0;
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<int32_t>(ScalarType::Int, -7), &i64));
  EXPECT_EQ(i64, -7);
  int8_t i8 = 5;
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<int32_t>(ScalarType::Int, 300), &i8));
  EXPECT_EQ(i8, 5);
  uint8_t u8 = 0;
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<int64_t>(ScalarType::Long, -1), &u8));
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<int64_t>(ScalarType::Long, 255, {1, 1}), &u8));
  EXPECT_EQ(u8, 255);
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<float>(ScalarType::Float, 1.f), &i64));
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.make(ScalarType::Int, {2}), &i64));

  double d = 0;
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<float>(ScalarType::Float, 2.5f), &d));
  EXPECT_EQ(d, 2.5);
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<int64_t>(ScalarType::Long, 3), &d));
  EXPECT_EQ(d, 3.0);
  float f = 0;
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<double>(ScalarType::Double, 1e300), &f));
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<bool>(ScalarType::Bool, true), &f));
  ::executorch::aten::Half h;
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<float>(ScalarType::Float, 1.5f), &h));
  EXPECT_EQ(static_cast<float>(h), 1.5f);
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<float>(ScalarType::Float, 1e6f), &h));
  EXPECT_TRUE(
      et::extract_scalar_tensor(tf_.scalar<::executorch::aten::BFloat16>(
                                    ScalarType::BFloat16, ::executorch::aten::BFloat16(-2.f)),
                                &f));
  EXPECT_EQ(f, -2.f);

  bool b = false;
  EXPECT_TRUE(et::extract_scalar_tensor(tf_.scalar<bool>(ScalarType::Bool, true), &b));
  EXPECT_TRUE(b);
  EXPECT_FALSE(et::extract_scalar_tensor(tf_.scalar<int32_t>(ScalarType::Int, 1), &b));

  Tensor seven = tf_.scalar<int32_t>(ScalarType::Int, 7);
  int32_t out = 0;
  ET_EXTRACT_SCALAR_TENSOR(seven, out);
  EXPECT_EQ(out, 7);
}

TEST_F(TensorUtilTest, ResizeTensor) {
  Tensor t = tf_.make(ScalarType::Float, {4, 6}, {}, TensorShapeDynamism::DYNAMIC_BOUND);
  const SizesType smaller[] = {3, 2};
  ASSERT_EQ(et::resize_tensor(t, smaller), Error::Ok);
  EXPECT_EQ(t.size(0), 3);
  EXPECT_EQ(t.size(1), 2);
  EXPECT_EQ(t.strides()[0], 2);
  EXPECT_EQ(t.numel(), 6);
  const int64_t wide[] = {2, 12};
  ASSERT_EQ(et::resize_tensor(t, ArrayRef<int64_t>(wide, 2)), Error::Ok);
  EXPECT_EQ(t.size(1), 12);
  const int64_t too_big[] = {5, 6};
  EXPECT_NE(et::resize_tensor(t, ArrayRef<int64_t>(too_big, 2)), Error::Ok);
  const int64_t unrepresentable[] = {1, int64_t(1) << 40};
  EXPECT_EQ(et::resize_tensor(t, ArrayRef<int64_t>(unrepresentable, 2)), Error::InvalidArgument);
  const SizesType other_rank[] = {24};
  EXPECT_NE(et::resize_tensor(t, other_rank), Error::Ok);
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(1), 12);

  Tensor fixed = tf_.make(ScalarType::Float, {4, 6});
  EXPECT_EQ(et::resize_tensor(fixed, ArrayRef<SizesType>(fixed.sizes())), Error::Ok);
  EXPECT_NE(et::resize_tensor(fixed, smaller), Error::Ok);
}

TEST_F(TensorUtilTest, TensorDataHelpers) {
  Tensor a = tf_.make(ScalarType::Int, {2, 2});
  Tensor b = tf_.make(ScalarType::Int, {4});
  Tensor c = tf_.make(ScalarType::Int, {3});
  for (int i = 0; i < 4; ++i) {
    b.mutable_data_ptr<int32_t>()[i] = i + 10;
  }
  ASSERT_EQ(et::internal::copy_tensor_data(a, b), Error::Ok);
  EXPECT_EQ(a.const_data_ptr<int32_t>()[3], 13);
  EXPECT_EQ(et::internal::copy_tensor_data(a, c), Error::InvalidArgument);
  ASSERT_EQ(et::internal::share_tensor_data(a, b), Error::Ok);
  EXPECT_EQ(a.const_data_ptr(), b.const_data_ptr());
  EXPECT_EQ(et::internal::share_tensor_data(a, c), Error::InvalidArgument);
  int32_t buffer[4] = {};
  EXPECT_EQ(et::internal::set_tensor_data(a, buffer, sizeof(buffer) - 1), Error::InvalidArgument);
  ASSERT_EQ(et::internal::set_tensor_data(a, buffer, sizeof(buffer)), Error::Ok);
  EXPECT_EQ(a.const_data_ptr(), static_cast<const void*>(buffer));
  et::internal::reset_data_ptr(a);
  EXPECT_EQ(a.const_data_ptr(), nullptr);
  EXPECT_EQ(et::internal::copy_tensor_data(a, b), Error::InvalidArgument);

  // Empty tensors share and copy without data.
  Tensor empty_dst = tf_.make(ScalarType::Int, {0, 3});
  Tensor empty_src = tf_.make(ScalarType::Int, {3, 0});
  et::internal::reset_data_ptr(empty_src);
  ASSERT_EQ(et::internal::share_tensor_data(empty_dst, empty_src), Error::Ok);
  EXPECT_EQ(empty_dst.const_data_ptr(), nullptr);
  EXPECT_EQ(et::internal::copy_tensor_data(empty_dst, empty_src), Error::Ok);
}

// As upstream: a host memcpy cannot reach an accelerator's memory, so a
// tensor on another device than the CPU, either side, is NotSupported.
TEST_F(TensorUtilTest, CopyTensorDataRefusesDeviceTensors) {
  using executorch::aten::DeviceType;
  SizesType sizes[1] = {4};
  DimOrderType dim_order[1] = {0};
  StridesType strides[1] = {1};
  float host[4] = {1, 2, 3, 4}, other[4] = {};
  TensorImpl cpu(ScalarType::Float, 1, sizes, host, dim_order, strides, TensorShapeDynamism::STATIC,
                 DeviceType::CPU);
  TensorImpl cuda(ScalarType::Float, 1, sizes, other, dim_order, strides,
                  TensorShapeDynamism::STATIC, DeviceType::CUDA);
  EXPECT_EQ(et::internal::copy_tensor_data(Tensor(&cuda), Tensor(&cpu)), Error::NotSupported);
  EXPECT_EQ(et::internal::copy_tensor_data(Tensor(&cpu), Tensor(&cuda)), Error::NotSupported);
  EXPECT_EQ(other[0], 0.0f);
  EXPECT_EQ(host[0], 1.0f);
}

// Kernel code written against the legacy namespace compiles unchanged.
TEST_F(TensorUtilTest, TorchExecutorAliases) {
  Tensor a = tf_.make(ScalarType::Float, {2, 3});
  EXPECT_TRUE(torch::executor::tensors_have_same_shape_and_dtype(a, a));
  EXPECT_TRUE(torch::executor::tensor_is_contiguous(a));
  EXPECT_EQ(torch::executor::getTrailingDims(a, 0), 3u);
  EXPECT_EQ(torch::executor::kTensorDimensionLimit, 16u);
  const SizesType same[] = {2, 3};
  EXPECT_EQ(torch::executor::resize_tensor(a, same), Error::Ok);
}

} // namespace
