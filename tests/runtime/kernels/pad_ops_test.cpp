// reflection_pad{1,2,3}d and replication_pad{1,2,3}d: hand-derived values,
// negative padding (a crop), every dtype, channels-last, and the errors.
#include <algorithm>

#include "dtype_test_util.h"

namespace {

using namespace kt;

Error pad(const char* name, const TT& in, std::vector<int64_t> padding, const TT& out) {
  IntListArg p(std::move(padding));
  return call_out(name, {in.tensor(), p.ev(), out.tensor()}, out);
}

TEST(PadOps, OneDimensional) {
  auto x = tensor_of(ScalarType::Float, {1, 4}, {1, 2, 3, 4});
  auto o = out_of(ScalarType::Float, {1, 7});
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *x, {2, 1}, *o), Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{3, 2, 1, 2, 3, 4, 3}));
  ASSERT_EQ(pad("aten::replication_pad1d.out", *x, {2, 1}, *o), Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{1, 1, 1, 2, 3, 4, 4}));
  // A negative padding crops; the out shrinks within its capacity.
  ASSERT_EQ(pad("aten::reflection_pad1d.out", *x, {-1, 2}, *o), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{1, 5}));
  EXPECT_EQ(logical(*o), (std::vector<double>{2, 3, 4, 3, 2}));
}

TEST(PadOps, TwoDimensionalEveryDtype) {
  for (ScalarType t : all_dtypes()) {
    auto x = tensor_of(t, {1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto o = out_of(t, {1, 5, 5});
    ASSERT_EQ(pad("aten::reflection_pad2d.out", *x, {1, 1, 1, 1}, *o), Error::Ok);
    std::vector<double> want{5, 4, 5, 6, 5, 2, 1, 2, 3, 2, 5, 4, 5,
                             6, 5, 8, 7, 8, 9, 8, 5, 4, 5, 6, 5};
    if (t == ScalarType::Bool) {
      for (double& v : want) v = 1;
    }
    EXPECT_EQ(logical(*o), want) << dtype_name(t);
  }
  // Width padded (0, 2), height (1, 0), replicating the edges.
  auto x = tensor_of(ScalarType::Int, {1, 2, 2}, {1, 2, 3, 4});
  auto o = out_of(ScalarType::Int, {1, 3, 4});
  ASSERT_EQ(pad("aten::replication_pad2d.out", *x, {0, 2, 1, 0}, *o), Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{1, 2, 2, 2, 1, 2, 2, 2, 3, 4, 4, 4}));
}

// 3d replication in channels-last against indices clamped here.
TEST(PadOps, ThreeDimensionalChannelsLast) {
  const int C = 2, D = 2, H = 2, W = 3;
  std::vector<double> v;
  for (int i = 0; i < C * D * H * W; ++i) v.push_back(i);
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Long}) {
    auto x = tensor_of(t, {1, C, D, H, W}, v, {0, 2, 3, 4, 1});
    const int OD = D + 1, OH = H + 3, OW = W + 2;
    auto o = out_of(t, {1, C, OD, OH, OW}, {0, 2, 3, 4, 1});
    // (left 1, right 1, top 2, bottom 1, front 0, back 1)
    ASSERT_EQ(pad("aten::replication_pad3d.out", *x, {1, 1, 2, 1, 0, 1}, *o), Error::Ok);
    std::vector<double> want;
    for (int c = 0; c < C; ++c)
      for (int d = 0; d < OD; ++d)
        for (int h = 0; h < OH; ++h)
          for (int w = 0; w < OW; ++w) {
            const int sd = std::min(d, D - 1), sh = std::clamp(h - 2, 0, H - 1),
                      sw = std::clamp(w - 1, 0, W - 1);
            want.push_back(v[((c * D + sd) * H + sh) * W + sw]);
          }
    EXPECT_EQ(logical(*o), want) << dtype_name(t);
  }
  // Reflection in 3d on a contiguous 4-d input: depth (1, 0) reflects.
  auto x = tensor_of(ScalarType::Double, {1, 2, 1, 2}, {1, 2, 3, 4});
  auto o = out_of(ScalarType::Double, {1, 3, 1, 2});
  ASSERT_EQ(pad("aten::reflection_pad3d.out", *x, {0, 0, 0, 0, 1, 0}, *o), Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{3, 4, 1, 2, 3, 4}));
}

TEST(PadOps, Errors) {
  auto x = tensor_of(ScalarType::Float, {1, 3}, {1, 2, 3});
  auto o = out_of(ScalarType::Float, {1, 9});
  // Reflection padding must be smaller than the dim.
  EXPECT_EQ(pad("aten::reflection_pad1d.out", *x, {3, 0}, *o), Error::InvalidArgument);
  // Wrong padding length; wrong rank.
  EXPECT_EQ(pad("aten::replication_pad1d.out", *x, {1, 1, 1}, *o), Error::InvalidArgument);
  EXPECT_EQ(pad("aten::replication_pad2d.out", *x, {1, 1, 1, 1}, *o), Error::InvalidArgument);
  // A crop past the size; an empty dim padded by replication.
  EXPECT_EQ(pad("aten::replication_pad1d.out", *x, {-2, -2}, *o), Error::InvalidArgument);
  auto e = tensor_of(ScalarType::Float, {2, 0}, {});
  EXPECT_EQ(pad("aten::replication_pad1d.out", *e, {1, 1}, *o), Error::InvalidArgument);
  // The out's dtype; an out too small.
  auto io = out_of(ScalarType::Int, {1, 5});
  EXPECT_EQ(pad("aten::replication_pad1d.out", *x, {1, 1}, *io), Error::InvalidArgument);
  auto small = out_of(ScalarType::Float, {1, 3});
  EXPECT_EQ(pad("aten::replication_pad1d.out", *x, {1, 1}, *small), Error::InvalidArgument);
}

} // namespace
