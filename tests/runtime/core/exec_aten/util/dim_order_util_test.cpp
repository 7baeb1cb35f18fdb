// dim_order_util.h: dim order <-> strides, validity, and the layout
// predicates, called the way kernels and TensorImpl users call them.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>

using ::executorch::aten::DimOrderType;
using ::executorch::aten::SizesType;
using ::executorch::aten::StridesType;
using ::executorch::runtime::Error;
namespace et = ::executorch::runtime;

namespace {

// Strides from sizes and dim order, as a vector (empty on error).
template <typename S = SizesType, typename D = DimOrderType, typename T = StridesType>
std::vector<T> strides_of(std::vector<S> sizes, std::vector<D> order) {
  std::vector<T> strides(sizes.size(), T(-7));
  if (et::dim_order_to_stride(sizes.data(), order.data(), sizes.size(), strides.data()) !=
      Error::Ok) {
    return {};
  }
  return strides;
}

} // namespace

TEST(DimOrderUtilTest, ContiguousStrides) {
  EXPECT_EQ(strides_of({4}, {0}), (std::vector<StridesType>{1}));
  EXPECT_EQ(strides_of({2, 3, 4}, {0, 1, 2}), (std::vector<StridesType>{12, 4, 1}));
  EXPECT_EQ(strides_of({6, 1, 5, 2, 3}, {0, 1, 2, 3, 4}),
            (std::vector<StridesType>{30, 30, 6, 3, 1}));
}

TEST(DimOrderUtilTest, PermutedStrides) {
  // NCHW sizes laid out channels-last.
  EXPECT_EQ(strides_of({2, 3, 4, 5}, {0, 2, 3, 1}), (std::vector<StridesType>{60, 1, 15, 3}));
  // Fully reversed (column-major).
  EXPECT_EQ(strides_of({2, 3, 4}, {2, 1, 0}), (std::vector<StridesType>{1, 2, 6}));
  EXPECT_EQ(strides_of({3, 7}, {1, 0}), (std::vector<StridesType>{1, 3}));
}

TEST(DimOrderUtilTest, ZeroSizedDimsCountAsOne) {
  EXPECT_EQ(strides_of({4, 0, 3}, {0, 1, 2}), (std::vector<StridesType>{3, 3, 1}));
  EXPECT_EQ(strides_of({4, 0, 3}, {1, 0, 2}), (std::vector<StridesType>{3, 12, 1}));
}

TEST(DimOrderUtilTest, ZeroDimsIsOk) {
  StridesType untouched = 9;
  EXPECT_EQ(et::dim_order_to_stride(static_cast<const SizesType*>(nullptr),
                                    static_cast<const DimOrderType*>(nullptr), 0, &untouched),
            Error::Ok);
  EXPECT_EQ(untouched, 9);
}

TEST(DimOrderUtilTest, OtherElementTypes) {
  // Upstream-style callers keep all three arrays as int32 or int64.
  EXPECT_EQ((strides_of<int32_t, int32_t, int32_t>({2, 5}, {1, 0})), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ((strides_of<int64_t, int64_t, int64_t>({70000, 70000}, {0, 1})),
            (std::vector<int64_t>{70000, 1}));
  EXPECT_EQ((strides_of<uint32_t, uint16_t, uint64_t>({3, 4}, {0, 1})),
            (std::vector<uint64_t>{4, 1}));
}

TEST(DimOrderUtilTest, RejectsInvalidDimOrders) {
  EXPECT_TRUE(strides_of({2, 3}, {0, 2}).empty());       // out of range
  EXPECT_TRUE(strides_of({2, 3, 4}, {0, 1, 1}).empty()); // repeated
  EXPECT_TRUE((strides_of<int32_t, int32_t, int32_t>({2, 3}, {-1, 0})).empty());
  std::vector<SizesType> sizes(300, 1);
  std::vector<uint16_t> order(300);
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint16_t>(i);
  std::vector<StridesType> strides(300);
  EXPECT_EQ(et::dim_order_to_stride(sizes.data(), order.data(), 300, strides.data()),
            Error::InvalidArgument); // more dims than any dim order holds
}

TEST(DimOrderUtilTest, RejectsNegativeSizesAndOverflow) {
  EXPECT_TRUE(strides_of({2, -3}, {0, 1}).empty());
  EXPECT_TRUE(strides_of({-2, 3}, {0, 1}).empty());
  // 65536 * 65536 does not fit an int32 stride; leaves the output untouched.
  std::vector<SizesType> sizes = {2, 65536, 65536};
  std::vector<DimOrderType> order = {0, 1, 2};
  std::vector<StridesType> strides = {-7, -7, -7};
  EXPECT_EQ(et::dim_order_to_stride(sizes.data(), order.data(), 3, strides.data()),
            Error::InvalidArgument);
  EXPECT_EQ(strides, (std::vector<StridesType>{-7, -7, -7}));
  // The same shape fits int64 strides.
  EXPECT_EQ((strides_of<int32_t, uint8_t, int64_t>({2, 65536, 65536}, {0, 1, 2})),
            (std::vector<int64_t>{int64_t(1) << 32, 65536, 1}));
  // The outermost size is never multiplied in, so it may be as large as it likes.
  EXPECT_EQ(strides_of({std::numeric_limits<SizesType>::max(), 2}, {0, 1}),
            (std::vector<StridesType>{2, 1}));
}

// As upstream: more dims than kTensorDimensionLimit are InvalidArgument,
// strides untouched; exactly the limit is fine.
TEST(DimOrderUtilTest, RejectsMoreDimsThanTheLimit) {
  constexpr size_t kLimit = executorch::runtime::kTensorDimensionLimit;
  std::vector<int32_t> sizes(kLimit + 1, 1);
  std::vector<uint8_t> order(kLimit + 1);
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint8_t>(i);
  std::vector<int32_t> strides(kLimit + 1, -7);
  EXPECT_EQ(executorch::runtime::dim_order_to_stride(sizes.data(), order.data(), kLimit + 1,
                                                     strides.data()),
            Error::InvalidArgument);
  EXPECT_EQ(strides[0], -7);
  EXPECT_EQ(
      executorch::runtime::dim_order_to_stride(sizes.data(), order.data(), kLimit, strides.data()),
      Error::Ok);
  EXPECT_EQ(strides[kLimit - 1], 1);
}

TEST(DimOrderUtilTest, NocheckMatchesChecked) {
  const SizesType sizes[4] = {2, 3, 4, 5};
  const DimOrderType order[4] = {3, 0, 2, 1};
  StridesType a[4], b[4];
  et::dim_order_to_stride_nocheck(sizes, order, 4, a);
  ASSERT_EQ(et::dim_order_to_stride(sizes, order, 4, b), Error::Ok);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a[i], b[i]);
  EXPECT_EQ(a[3], 24); // outermost: 2 * 3 * 4
}

TEST(DimOrderUtilTest, StrideToDimOrder) {
  const StridesType strides[3] = {5, 1, 15};
  DimOrderType order[3] = {};
  ASSERT_EQ(et::stride_to_dim_order(strides, 3, order), Error::Ok);
  EXPECT_EQ(std::vector<DimOrderType>(order, order + 3), (std::vector<DimOrderType>{2, 0, 1}));

  // Ties (size-1 dims) keep index order, so contiguous strides round-trip.
  const int64_t tied[5] = {6, 3, 3, 1, 1};
  int32_t tied_order[5] = {};
  ASSERT_EQ(et::stride_to_dim_order(tied, 5, tied_order), Error::Ok);
  EXPECT_EQ(std::vector<int32_t>(tied_order, tied_order + 5),
            (std::vector<int32_t>{0, 1, 2, 3, 4}));

  // Round trip through dim_order_to_stride for a channels-last layout.
  const SizesType sizes[4] = {2, 3, 4, 5};
  const DimOrderType cl[4] = {0, 2, 3, 1};
  StridesType cl_strides[4];
  ASSERT_EQ(et::dim_order_to_stride(sizes, cl, 4, cl_strides), Error::Ok);
  DimOrderType back[4] = {};
  ASSERT_EQ(et::stride_to_dim_order(cl_strides, 4, back), Error::Ok);
  EXPECT_EQ(std::vector<DimOrderType>(back, back + 4), (std::vector<DimOrderType>{0, 2, 3, 1}));
}

TEST(DimOrderUtilTest, StrideToDimOrderErrors) {
  const StridesType strides[17] = {};
  DimOrderType order[17];
  EXPECT_EQ(et::stride_to_dim_order(strides, 17, order), Error::NotSupported);
  EXPECT_EQ(et::stride_to_dim_order(strides, 2, static_cast<DimOrderType*>(nullptr)),
            Error::MemoryAllocationFailed);
}

TEST(DimOrderUtilTest, LayoutPredicates) {
  const DimOrderType contiguous4[4] = {0, 1, 2, 3};
  const DimOrderType cl4[4] = {0, 2, 3, 1};
  const DimOrderType cl5[5] = {0, 2, 3, 4, 1};
  const DimOrderType other4[4] = {0, 3, 2, 1};
  const DimOrderType cl_like6[6] = {0, 2, 3, 4, 5, 1};
  const DimOrderType swapped3[3] = {1, 0, 2};
  EXPECT_TRUE(et::is_contiguous_dim_order(contiguous4, 4));
  EXPECT_TRUE(et::is_contiguous_dim_order(contiguous4, 0));
  EXPECT_FALSE(et::is_contiguous_dim_order(cl4, 4));
  EXPECT_FALSE(et::is_contiguous_dim_order(swapped3, 3));
  EXPECT_TRUE(et::is_channels_last_dim_order(cl4, 4));
  EXPECT_TRUE(et::is_channels_last_dim_order(cl5, 5));
  EXPECT_FALSE(et::is_channels_last_dim_order(contiguous4, 4));
  EXPECT_FALSE(et::is_channels_last_dim_order(other4, 4));
  EXPECT_FALSE(et::is_channels_last_dim_order(cl_like6, 6)); // only 4-D and 5-D
  EXPECT_FALSE(et::is_channels_last_dim_order(swapped3, 3));
  EXPECT_TRUE(::torch::executor::is_default_dim_order(contiguous4, 4));
  EXPECT_TRUE(et::validate_dim_order(other4, 4));
  EXPECT_FALSE(et::validate_dim_order(cl4, 3)); // 3 is out of range
}

// As upstream's header, dim_order_util.h brings kTensorDimensionLimit.
static_assert(::executorch::runtime::kTensorDimensionLimit == 16, "");
