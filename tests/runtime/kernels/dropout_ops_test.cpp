// native_dropout.out, called as upstream emits it (3 inputs, out, mask and
// the returned tuple): no drop outside training or at p = 0, everything
// dropped at p = 1, kept values scaled by 1 / (1 - p) and matching the
// mask, a keep rate near 1 - p, channels-last, and the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

Error dropout(const TT& in, double p, EValue train, const TT& out, const TT& mask) {
  TensorListArg ret({const_cast<TT*>(&out), const_cast<TT*>(&mask)});
  std::vector<EValue> v{in.tensor(), EValue(p), train, out.tensor(), mask.tensor(), ret.ev()};
  return call("aten::native_dropout.out", v);
}

std::vector<double> iota_values(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(i + 1);
  return v;
}

TEST(Dropout, NoDropAndAllDropped) {
  for (ScalarType t : float_dtypes()) {
    auto in = tensor_of(t, {2, 3}, iota_values(6));
    auto out = out_of(t, {2, 3});
    auto mask = out_of(ScalarType::Bool, {2, 3});
    ASSERT_EQ(dropout(*in, 0.5, EValue(false), *out, *mask), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*out), iota_values(6));
    EXPECT_EQ(logical(*mask), std::vector<double>(6, 1));
    ASSERT_EQ(dropout(*in, 0.0, EValue(true), *out, *mask), Error::Ok);
    EXPECT_EQ(logical(*out), iota_values(6));
    ASSERT_EQ(dropout(*in, 1.0, EValue(), *out, *mask), Error::Ok); // None: training
    EXPECT_EQ(logical(*out), std::vector<double>(6, 0));
    EXPECT_EQ(logical(*mask), std::vector<double>(6, 0));
  }
}

TEST(Dropout, KeptValuesScaledAndMatchTheMask) {
  const int n = 4000;
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto in = tensor_of(ScalarType::Float, {1, 4, 1, n / 4}, iota_values(n), cl);
  auto out = out_of(ScalarType::Float, {1, 4, 1, n / 4}, cl);
  auto mask = out_of(ScalarType::Bool, {1, 4, 1, n / 4});
  ASSERT_EQ(dropout(*in, 0.25, EValue(true), *out, *mask), Error::Ok);
  const std::vector<double> o = logical(*out), m = logical(*mask);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    if (m[i] != 0) {
      ++kept;
      EXPECT_NEAR(o[i], (i + 1) / 0.75, 1e-6 * (i + 1)) << i;
    } else {
      EXPECT_EQ(o[i], 0) << i;
    }
  }
  // 3000 expected; the binomial's standard deviation is about 27.
  EXPECT_GT(kept, 2800);
  EXPECT_LT(kept, 3200);
}

TEST(Dropout, Errors) {
  auto in = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto out = out_of(ScalarType::Float, {2});
  auto mask = out_of(ScalarType::Bool, {2});
  EXPECT_EQ(dropout(*in, 1.5, EValue(true), *out, *mask), Error::InvalidArgument);
  EXPECT_EQ(dropout(*in, -0.1, EValue(true), *out, *mask), Error::InvalidArgument);
  auto fmask = out_of(ScalarType::Float, {2});
  EXPECT_EQ(dropout(*in, 0.5, EValue(true), *out, *fmask), Error::InvalidArgument);
  auto i = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto io = out_of(ScalarType::Int, {2});
  EXPECT_EQ(dropout(*i, 0.5, EValue(true), *io, *mask), Error::InvalidArgument);
  auto small = out_of(ScalarType::Bool, {1});
  EXPECT_EQ(dropout(*in, 0.5, EValue(true), *out, *small), Error::InvalidArgument);
  std::vector<EValue> v{in->tensor(), EValue(0.5), EValue(true), out->tensor(), mask->tensor()};
  EXPECT_EQ(call("aten::native_dropout.out", v), Error::InvalidArgument);
}

} // namespace
