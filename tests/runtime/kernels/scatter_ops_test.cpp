// scatter.src_out, scatter.value_out, scatter_add.out, select_scatter.out
// and slice_scatter.out: hand-derived values, dtypes, channels-last, errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

EValue I(int64_t v) { return EValue(v); }

TEST(ScatterOps, ScatterSrcAlongEitherDim) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Int, ScalarType::Bool}) {
    auto self = tensor_of(t, {3, 3}, std::vector<double>(9, 0));
    auto index = tensor_of(ScalarType::Long, {2, 3}, {0, 1, 2, 2, 0, 1});
    auto src = tensor_of(t, {2, 3}, {1, 2, 3, 4, 5, 6});
    auto out = out_of(t, {3, 3});
    ASSERT_EQ(call_out("aten::scatter.src_out",
                       {self->tensor(), I(0), index->tensor(), src->tensor(), out->tensor()}, *out),
              Error::Ok)
        << dtype_name(t);
    std::vector<double> want{1, 5, 0, 0, 2, 6, 4, 0, 3};
    for (double& v : want) v = as_dtype(t, v);
    EXPECT_EQ(logical(*out), want) << dtype_name(t);
  }
  // Along dim 1 with an index smaller than src.
  auto self = tensor_of(ScalarType::Float, {2, 3}, {1, 1, 1, 1, 1, 1});
  auto index = tensor_of(ScalarType::Long, {2, 1}, {2, 0});
  auto src = tensor_of(ScalarType::Float, {2, 3}, {7, -1, -1, 8, -1, -1});
  auto out = out_of(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_out("aten::scatter.src_out",
                     {self->tensor(), I(-1), index->tensor(), src->tensor(), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 1, 7, 8, 1, 1}));
}

TEST(ScatterOps, ScatterValueAndAdd) {
  auto self = tensor_of(ScalarType::Long, {2, 2}, {1, 2, 3, 4});
  auto index = tensor_of(ScalarType::Long, {2, 1}, {1, 0});
  auto out = out_of(ScalarType::Long, {2, 2});
  ASSERT_EQ(call_out("aten::scatter.value_out",
                     {self->tensor(), I(1), index->tensor(), I(9), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 9, 9, 4}));
  // Repeated positions accumulate.
  for (ScalarType t : {ScalarType::Float, ScalarType::BFloat16, ScalarType::Double,
                       ScalarType::Char, ScalarType::Long}) {
    auto s = tensor_of(t, {3}, {1, 1, 1});
    auto ix = tensor_of(ScalarType::Long, {4}, {0, 0, 2, 0});
    auto src = tensor_of(t, {4}, {1, 2, 3, 4});
    auto o = out_of(t, {3});
    ASSERT_EQ(call_out("aten::scatter_add.out",
                       {s->tensor(), I(0), ix->tensor(), src->tensor(), o->tensor()}, *o),
              Error::Ok)
        << dtype_name(t);
    EXPECT_EQ(logical(*o), (std::vector<double>{8, 1, 4})) << dtype_name(t);
  }
  auto b = tensor_of(ScalarType::Bool, {2}, {0, 0});
  auto bix = tensor_of(ScalarType::Long, {2}, {1, 1});
  auto bsrc = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto bo = out_of(ScalarType::Bool, {2});
  ASSERT_EQ(call_out("aten::scatter_add.out",
                     {b->tensor(), I(0), bix->tensor(), bsrc->tensor(), bo->tensor()}, *bo),
            Error::Ok);
  EXPECT_EQ(logical(*bo), (std::vector<double>{0, 1}));
}

TEST(ScatterOps, ScatterChannelsLast) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto self = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4}, cl);
  auto index = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {1, 0});
  auto src = tensor_of(ScalarType::Float, {1, 1, 1, 2}, {10, 20}, cl);
  auto out = out_of(ScalarType::Float, {1, 2, 1, 2}, cl);
  ASSERT_EQ(call_out("aten::scatter.src_out",
                     {self->tensor(), I(1), index->tensor(), src->tensor(), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 20, 10, 4}));
}

TEST(ScatterOps, ScatterErrors) {
  auto self = tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto src = tensor_of(ScalarType::Float, {2, 2}, {5, 6, 7, 8});
  auto out = out_of(ScalarType::Float, {2, 2});
  auto run = [&](const TT& index, const TT& s) {
    return call_out("aten::scatter.src_out",
                    {self->tensor(), I(0), index.tensor(), s.tensor(), out->tensor()}, *out);
  };
  auto far = tensor_of(ScalarType::Long, {1, 2}, {0, 2});
  EXPECT_EQ(run(*far, *src), Error::InvalidArgument);
  auto neg = tensor_of(ScalarType::Long, {1, 2}, {-1, 0});
  EXPECT_EQ(run(*neg, *src), Error::InvalidArgument);
  auto f = tensor_of(ScalarType::Float, {1, 2}, {0, 1});
  EXPECT_EQ(run(*f, *src), Error::InvalidArgument);
  auto big = tensor_of(ScalarType::Long, {3, 2}, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(run(*big, *src), Error::InvalidArgument);
  auto flat = tensor_of(ScalarType::Long, {2}, {0, 1});
  EXPECT_EQ(run(*flat, *src), Error::InvalidArgument);
  auto isrc = tensor_of(ScalarType::Int, {2, 2}, {5, 6, 7, 8});
  auto ok = tensor_of(ScalarType::Long, {1, 2}, {0, 1});
  EXPECT_EQ(run(*ok, *isrc), Error::InvalidArgument);
}

TEST(ScatterOps, SelectScatter) {
  auto self = tensor_of(ScalarType::Float, {2, 3}, std::vector<double>(6, 0));
  auto row = tensor_of(ScalarType::Float, {3}, {1, 2, 3});
  auto out = out_of(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_out("aten::select_scatter.out",
                     {self->tensor(), row->tensor(), I(0), I(-1), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 0, 0, 1, 2, 3}));
  auto col = tensor_of(ScalarType::Float, {2}, {7, 8});
  ASSERT_EQ(call_out("aten::select_scatter.out",
                     {self->tensor(), col->tensor(), I(1), I(1), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 7, 0, 0, 8, 0}));
  EXPECT_EQ(call_out("aten::select_scatter.out",
                     {self->tensor(), row->tensor(), I(1), I(1), out->tensor()}, *out),
            Error::InvalidArgument);
  EXPECT_EQ(call_out("aten::select_scatter.out",
                     {self->tensor(), col->tensor(), I(1), I(3), out->tensor()}, *out),
            Error::InvalidArgument);
}

TEST(ScatterOps, SliceScatter) {
  auto self = tensor_of(ScalarType::Int, {6}, std::vector<double>(6, 0));
  auto src = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  auto out = out_of(ScalarType::Int, {6});
  ASSERT_EQ(
      call_out("aten::slice_scatter.out",
               {self->tensor(), src->tensor(), I(0), I(1), EValue(), I(2), out->tensor()}, *out),
      Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 1, 0, 2, 0, 3}));
  // The last two columns of a channels-last [1,2,1,4] (start -2, no end).
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto s2 = tensor_of(ScalarType::Half, {1, 2, 1, 4}, std::vector<double>(8, 0), cl);
  auto src2 = tensor_of(ScalarType::Half, {1, 2, 1, 2}, {1, 2, 3, 4});
  auto o2 = out_of(ScalarType::Half, {1, 2, 1, 4}, cl);
  ASSERT_EQ(
      call_out("aten::slice_scatter.out",
               {s2->tensor(), src2->tensor(), I(3), I(-2), EValue(), I(1), o2->tensor()}, *o2),
      Error::Ok);
  EXPECT_EQ(logical(*o2), (std::vector<double>{0, 0, 1, 2, 0, 0, 3, 4}));
  // A huge step takes one element; src of the wrong shape; step 0.
  auto one = tensor_of(ScalarType::Int, {1}, {9});
  ASSERT_EQ(
      call_out("aten::slice_scatter.out",
               {self->tensor(), one->tensor(), I(0), I(2), EValue(), I(INT64_MAX), out->tensor()},
               *out),
      Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 0, 9, 0, 0, 0}));
  EXPECT_EQ(
      call_out("aten::slice_scatter.out",
               {self->tensor(), src->tensor(), I(0), I(0), EValue(), I(1), out->tensor()}, *out),
      Error::InvalidArgument);
  EXPECT_EQ(call_out("aten::slice_scatter.out",
                     {self->tensor(), src->tensor(), I(0), I(0), I(3), I(0), out->tensor()}, *out),
            Error::InvalidArgument);
}

} // namespace
