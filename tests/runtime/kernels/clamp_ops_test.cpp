// clamp.out (scalar bounds, either may be None), clamp.Tensor_out
// (broadcast tensor bounds), hardtanh.out: float and integer dtypes, NaN,
// min > max, the result-dtype rule and the errors.
#include <cmath>

#include "dtype_test_util.h"

namespace {

using namespace kt;

double clampd(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

TEST(Clamp, ScalarBoundsInEveryRealDtype) {
  const std::vector<double> v{-5, -1, 0, 2, 6, 3};
  for (ScalarType t : all_dtypes()) {
    if (t == ScalarType::Bool || t == ScalarType::Byte) continue;
    auto x = tensor_of(t, {2, 3}, v);
    auto out = out_of(t, {2, 3});
    std::vector<EValue> a{x->tensor(), EValue(int64_t(-1)), EValue(int64_t(3)), out->tensor()};
    ASSERT_EQ(call_out("aten::clamp.out", a, *out), Error::Ok) << dtype_name(t);
    std::vector<double> want;
    for (double e : v) want.push_back(clampd(e, -1, 3));
    EXPECT_EQ(logical(*out), want) << dtype_name(t);
    // Only a max; then only a min.
    std::vector<EValue> b{x->tensor(), EValue(), EValue(int64_t(0)), out->tensor()};
    ASSERT_EQ(call_out("aten::clamp.out", b, *out), Error::Ok);
    EXPECT_EQ(logical(*out), (std::vector<double>{-5, -1, 0, 0, 0, 0})) << dtype_name(t);
    std::vector<EValue> c{x->tensor(), EValue(int64_t(2)), EValue(), out->tensor()};
    ASSERT_EQ(call_out("aten::clamp.out", c, *out), Error::Ok);
    EXPECT_EQ(logical(*out), (std::vector<double>{2, 2, 2, 2, 6, 3})) << dtype_name(t);
  }
}

TEST(Clamp, FloatBoundsNaNAndMinAboveMax) {
  auto x = tensor_of(ScalarType::Float, {4}, {NAN, -1, 0.25, 9});
  auto out = out_of(ScalarType::Float, {4});
  std::vector<EValue> a{x->tensor(), EValue(0.0), EValue(6.0), out->tensor()};
  ASSERT_EQ(call_out("aten::clamp.out", a, *out), Error::Ok);
  auto got = logical(*out);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(std::vector<double>(got.begin() + 1, got.end()), (std::vector<double>{0, 0.25, 6}));
  // min > max: everything becomes max.
  std::vector<EValue> b{x->tensor(), EValue(5.0), EValue(1.0), out->tensor()};
  ASSERT_EQ(call_out("aten::clamp.out", b, *out), Error::Ok);
  got = logical(*out);
  EXPECT_EQ(std::vector<double>(got.begin() + 1, got.end()), (std::vector<double>{1, 1, 1}));
}

TEST(Clamp, Hardtanh) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16,
                       ScalarType::Double, ScalarType::Int}) {
    auto x = tensor_of(t, {1, 5}, {-8, -1, 0, 5, 7});
    auto out = out_of(t, {1, 5});
    std::vector<EValue> a{x->tensor(), EValue(0.0), EValue(6.0), out->tensor()};
    ASSERT_EQ(call_out("aten::hardtanh.out", a, *out), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*out), (std::vector<double>{0, 0, 0, 5, 6})) << dtype_name(t);
  }
}

TEST(Clamp, TensorBoundsBroadcast) {
  auto x = tensor_of(ScalarType::Float, {2, 3}, {-3, 0, 3, 6, 9, 12});
  auto lo = tensor_of(ScalarType::Float, {3}, {0, 1, 2});
  auto hi = tensor_of(ScalarType::Int, {2, 1}, {4, 10});
  auto out = out_of(ScalarType::Float, {2, 3});
  std::vector<EValue> a{x->tensor(), lo->tensor(), hi->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::clamp.Tensor_out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 1, 3, 6, 9, 10}));
  std::vector<EValue> b{x->tensor(), EValue(), hi->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::clamp.Tensor_out", b, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-3, 0, 3, 6, 9, 10}));
}

TEST(Clamp, Errors) {
  auto x = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto out = out_of(ScalarType::Int, {2});
  std::vector<EValue> a{x->tensor(), EValue(), EValue(), out->tensor()};
  EXPECT_EQ(call_out("aten::clamp.out", a, *out), Error::InvalidArgument); // no bound
  std::vector<EValue> b{x->tensor(), EValue(0.5), EValue(), out->tensor()};
  EXPECT_EQ(call_out("aten::clamp.out", b, *out), Error::InvalidArgument); // float result
  auto c8 = tensor_of(ScalarType::Char, {2}, {1, 2});
  auto o8 = out_of(ScalarType::Char, {2});
  std::vector<EValue> c{c8->tensor(), EValue(int64_t(300)), EValue(), o8->tensor()};
  EXPECT_EQ(call_out("aten::clamp.out", c, *o8), Error::InvalidArgument); // bound range
  auto bl = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto bo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> d{bl->tensor(), EValue(0.0), EValue(1.0), bo->tensor()};
  EXPECT_EQ(call_out("aten::hardtanh.out", d, *bo), Error::InvalidArgument);
  std::vector<EValue> e{x->tensor(), EValue(), EValue(), out->tensor()};
  EXPECT_EQ(call_out("aten::clamp.Tensor_out", e, *out), Error::InvalidArgument);
}

} // namespace
