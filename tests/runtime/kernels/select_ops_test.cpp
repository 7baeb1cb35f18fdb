// where.self_out and masked_fill.Scalar_out: broadcasting of all operands,
// promotion, dim orders, and the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(SelectOps, WhereBroadcastsAndPromotes) {
  auto c = tensor_of(ScalarType::Bool, {2, 1}, {1, 0});
  auto a = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  for (ScalarType t : float_dtypes()) {
    auto b = tensor_of(t, {1}, {-1.5});
    auto o = out_of(t, {2, 3});
    ASSERT_EQ(
        call_out("aten::where.self_out", {c->tensor(), a->tensor(), b->tensor(), o->tensor()}, *o),
        Error::Ok)
        << dtype_name(t);
    EXPECT_EQ(logical(*o), (std::vector<double>{1, 2, 3, -1.5, -1.5, -1.5})) << dtype_name(t);
  }
  // A uint8 condition; integer operands promote to int64.
  auto cu = tensor_of(ScalarType::Byte, {3}, {0, 7, 1});
  auto l = tensor_of(ScalarType::Long, {3}, {10, 20, 30});
  auto o = out_of(ScalarType::Long, {3});
  ASSERT_EQ(
      call_out("aten::where.self_out", {cu->tensor(), a->tensor(), l->tensor(), o->tensor()}, *o),
      Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{10, 2, 3}));
}

TEST(SelectOps, WhereChannelsLast) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  std::vector<double> cv, av, bv;
  for (int i = 0; i < 8; ++i) {
    cv.push_back(i % 3 == 0);
    av.push_back(i);
    bv.push_back(-i);
  }
  auto c = tensor_of(ScalarType::Bool, {1, 2, 2, 2}, cv);
  auto a = tensor_of(ScalarType::Float, {1, 2, 2, 2}, av, cl);
  auto b = tensor_of(ScalarType::Float, {1, 2, 2, 2}, bv, cl);
  auto o = out_of(ScalarType::Float, {1, 2, 2, 2}, cl);
  ASSERT_EQ(
      call_out("aten::where.self_out", {c->tensor(), a->tensor(), b->tensor(), o->tensor()}, *o),
      Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < 8; ++i) want.push_back(cv[i] != 0 ? av[i] : bv[i]);
  EXPECT_EQ(logical(*o), want);
}

TEST(SelectOps, MaskedFillEveryDtype) {
  // The attention-mask pattern: a [2,3] tensor and a broadcast [3] mask.
  auto m = tensor_of(ScalarType::Bool, {3}, {0, 1, 0});
  for (ScalarType t : all_dtypes()) {
    auto a = tensor_of(t, {2, 3}, {1, 0, 3, 4, 1, 6});
    auto o = out_of(t, {2, 3});
    const bool fp = ::executorch::runtime::isFloatingType(t);
    const EValue value = t == ScalarType::Bool ? EValue(true)
                         : fp                  ? EValue(-2.5)
                                               : EValue(int64_t(5));
    ASSERT_EQ(call_out("aten::masked_fill.Scalar_out",
                       {a->tensor(), m->tensor(), value, o->tensor()}, *o),
              Error::Ok)
        << dtype_name(t);
    const double f = t == ScalarType::Bool ? 1 : as_dtype(t, fp ? -2.5 : 5);
    std::vector<double> want{as_dtype(t, 1), f, as_dtype(t, 3), as_dtype(t, 4), f, as_dtype(t, 6)};
    EXPECT_EQ(logical(*o), want) << dtype_name(t);
  }
}

TEST(SelectOps, MaskedFillBroadcastsSelfAndChannelsLast) {
  // self [1,3] with mask [2,1]: the out takes the broadcast shape [2,3].
  auto a = tensor_of(ScalarType::Float, {1, 3}, {1, 2, 3});
  auto m = tensor_of(ScalarType::Bool, {2, 1}, {1, 0});
  auto o = out_of(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {a->tensor(), m->tensor(), EValue(-INFINITY), o->tensor()}, *o),
            Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{-INFINITY, -INFINITY, -INFINITY, 1, 2, 3}));
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto x = tensor_of(ScalarType::Half, {1, 2, 1, 2}, {1, 2, 3, 4}, cl);
  auto mm = tensor_of(ScalarType::Bool, {1, 2, 1, 2}, {1, 0, 0, 1}, cl);
  auto xo = out_of(ScalarType::Half, {1, 2, 1, 2}, cl);
  ASSERT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {x->tensor(), mm->tensor(), EValue(0.5), xo->tensor()}, *xo),
            Error::Ok);
  EXPECT_EQ(logical(*xo), (std::vector<double>{0.5, 2, 3, 0.5}));
}

TEST(SelectOps, Errors) {
  auto f = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto o = out_of(ScalarType::Float, {2});
  // A float condition / mask.
  EXPECT_EQ(
      call_out("aten::where.self_out", {f->tensor(), f->tensor(), f->tensor(), o->tensor()}, *o),
      Error::InvalidArgument);
  EXPECT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {f->tensor(), f->tensor(), EValue(1.0), o->tensor()}, *o),
            Error::InvalidArgument);
  // A float result into an int out; shapes that do not broadcast.
  auto c = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto io = out_of(ScalarType::Int, {2});
  EXPECT_EQ(
      call_out("aten::where.self_out", {c->tensor(), f->tensor(), f->tensor(), io->tensor()}, *io),
      Error::InvalidArgument);
  auto c3 = tensor_of(ScalarType::Bool, {3}, {1, 0, 1});
  EXPECT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {f->tensor(), c3->tensor(), EValue(1.0), o->tensor()}, *o),
            Error::InvalidArgument);
  // masked_fill keeps self's dtype; a missing argument.
  EXPECT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {f->tensor(), c->tensor(), EValue(1.0), io->tensor()}, *io),
            Error::InvalidArgument);
  EXPECT_EQ(call_out("aten::where.self_out", {c->tensor(), f->tensor(), o->tensor()}, *o),
            Error::InvalidArgument);
}

} // namespace
