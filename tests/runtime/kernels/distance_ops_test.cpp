// _pdist_forward.out and _cdist_forward.out: hand-derived distances for
// p = 0, 1, 2, 3, inf, float dtypes, broadcast batches, channels-last, and
// the errors.
#include <cmath>

#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(Distance, PdistEveryNorm) {
  // Rows (0,0), (3,4), (6,8): pairs (0,1), (0,2), (1,2).
  const std::vector<std::pair<double, std::vector<double>>> cases{
      {2, {5, 10, 5}},
      {1, {7, 14, 7}},
      {INFINITY, {4, 8, 4}},
      {0, {2, 2, 2}},
      {3, {std::cbrt(91.0), std::cbrt(728.0), std::cbrt(91.0)}}};
  for (ScalarType t : float_dtypes()) {
    auto self = tensor_of(t, {3, 2}, {0, 0, 3, 4, 6, 8});
    for (const auto& c : cases) {
      auto out = out_of(t, {1}, {}, 8);
      ASSERT_EQ(call_out("aten::_pdist_forward.out",
                         {self->tensor(), EValue(c.first), out->tensor()}, *out),
                Error::Ok)
          << dtype_name(t) << " p=" << c.first;
      EXPECT_EQ(out->shape(), (std::vector<int32_t>{3}));
      expect_close(logical(*out), c.second, tolerance(t), tolerance(t));
    }
  }
  // One row: no pairs.
  auto one = tensor_of(ScalarType::Float, {1, 3}, {1, 2, 3});
  auto out = out_of(ScalarType::Float, {2});
  ASSERT_EQ(call_out("aten::_pdist_forward.out", {one->tensor(), EValue(2.0), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(out->shape(), (std::vector<int32_t>{0}));
}

TEST(Distance, CdistBroadcastsBatches) {
  auto x1 = tensor_of(ScalarType::Float, {1, 2, 2}, {0, 0, 1, 1});
  auto x2 = tensor_of(ScalarType::Float, {2, 3, 2}, {1, 0, 0, 2, 3, 4, 1, 1, 0, 0, 2, 2});
  auto out = out_of(ScalarType::Float, {2, 2, 3});
  ASSERT_EQ(call_out("aten::_cdist_forward.out",
                     {x1->tensor(), x2->tensor(), EValue(2.0), EValue(), out->tensor()}, *out),
            Error::Ok);
  const double r2 = std::sqrt(2.0);
  expect_close(logical(*out), {1, 2, 5, 1, r2, std::sqrt(13.0), r2, 0, std::sqrt(8.0), 0, r2, r2});
  ASSERT_EQ(
      call_out("aten::_cdist_forward.out",
               {x1->tensor(), x2->tensor(), EValue(1.0), EValue(int64_t(1)), out->tensor()}, *out),
      Error::Ok);
  expect_close(logical(*out), {1, 2, 7, 1, 2, 5, 2, 0, 4, 0, 2, 2});
}

// A channels-last [1, 2, 3, 2] x1 against a contiguous [2, 2, 2] x2, checked
// against the distances computed here.
TEST(Distance, CdistChannelsLast) {
  std::vector<double> a, b;
  for (int i = 0; i < 12; ++i) a.push_back(0.5 * i - 2);
  for (int i = 0; i < 8; ++i) b.push_back(1.0 - 0.25 * i * i);
  for (ScalarType t : {ScalarType::Float, ScalarType::Double}) {
    auto x1 = tensor_of(t, {1, 2, 3, 2}, a, {0, 2, 3, 1});
    auto x2 = tensor_of(t, {2, 2, 2}, b);
    auto out = out_of(t, {1, 2, 3, 2}, {0, 2, 3, 1});
    ASSERT_EQ(call_out("aten::_cdist_forward.out",
                       {x1->tensor(), x2->tensor(), EValue(3.0), EValue(), out->tensor()}, *out),
              Error::Ok)
        << dtype_name(t);
    std::vector<double> want;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
          double acc = 0;
          for (int k = 0; k < 2; ++k) {
            acc += std::pow(std::fabs(a[(c * 3 + i) * 2 + k] - b[(c * 2 + j) * 2 + k]), 3);
          }
          want.push_back(std::cbrt(acc));
        }
    expect_close(logical(*out), want, tolerance(t), tolerance(t));
  }
}

TEST(Distance, Errors) {
  auto f = tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto out = out_of(ScalarType::Float, {4});
  EXPECT_EQ(call_out("aten::_pdist_forward.out", {f->tensor(), EValue(-1.0), out->tensor()}, *out),
            Error::InvalidArgument);
  auto r3 = tensor_of(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(call_out("aten::_pdist_forward.out", {r3->tensor(), EValue(2.0), out->tensor()}, *out),
            Error::InvalidArgument);
  auto i = tensor_of(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto io = out_of(ScalarType::Int, {1});
  EXPECT_EQ(call_out("aten::_pdist_forward.out", {i->tensor(), EValue(2.0), io->tensor()}, *io),
            Error::InvalidArgument);
  auto m3 = tensor_of(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto co = out_of(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_out("aten::_cdist_forward.out",
                     {f->tensor(), m3->tensor(), EValue(2.0), EValue(), co->tensor()}, *co),
            Error::InvalidArgument);
  auto b3 = tensor_of(ScalarType::Float, {3, 2, 2}, std::vector<double>(12, 0));
  auto b2 = tensor_of(ScalarType::Float, {2, 2, 2}, std::vector<double>(8, 0));
  auto bo = out_of(ScalarType::Float, {3, 2, 2});
  EXPECT_EQ(call_out("aten::_cdist_forward.out",
                     {b3->tensor(), b2->tensor(), EValue(2.0), EValue(), bo->tensor()}, *bo),
            Error::InvalidArgument);
}

} // namespace
