// elu, leaky_relu, logit and glu over the floating dtypes, with references
// computed here, and their errors.
#include <cmath>

#include "dtype_test_util.h"

namespace {

using namespace kt;

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want, ScalarType t,
                     const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-6 + tolerance(t) * std::fabs(want[i]))
        << what << " " << dtype_name(t) << " at " << i;
  }
}

const std::vector<double> kX{-3, -0.5, 0, 0.75, 2, 4};

TEST(Activation, EluAndLeakyRelu) {
  for (ScalarType t : float_dtypes()) {
    auto x = tensor_of(t, {2, 3}, kX);
    auto out = out_of(t, {2, 3});
    std::vector<EValue> e{x->tensor(), EValue(0.5), EValue(2.0), EValue(int64_t(3)), out->tensor()};
    ASSERT_EQ(call_out("aten::elu.out", e, *out), Error::Ok);
    std::vector<double> want;
    for (double v : kX) want.push_back(v > 0 ? 2 * v : 2 * 0.5 * (std::exp(3 * v) - 1));
    expect_near_all(logical(*out), want, t, "elu");
    std::vector<EValue> l{x->tensor(), EValue(0.1), out->tensor()};
    ASSERT_EQ(call_out("aten::leaky_relu.out", l, *out), Error::Ok);
    want.clear();
    for (double v : kX) want.push_back(v > 0 ? v : as_dtype(t, v) * 0.1);
    expect_near_all(logical(*out), want, t, "leaky_relu");
  }
}

TEST(Activation, Logit) {
  const std::vector<double> p{0.1, 0.5, 0.9, 0.0};
  for (ScalarType t : float_dtypes()) {
    auto x = tensor_of(t, {4}, p);
    auto out = out_of(t, {4});
    std::vector<EValue> a{x->tensor(), EValue(0.2), out->tensor()};
    ASSERT_EQ(call_out("aten::logit.out", a, *out), Error::Ok);
    std::vector<double> want;
    for (double v : p) {
      const double c = std::min(std::max(as_dtype(t, v), 0.2), 0.8);
      want.push_back(std::log(c / (1 - c)));
    }
    expect_near_all(logical(*out), want, t, "logit eps");
  }
  // Without eps, 0 gives -inf; an integer input gives a float out.
  auto x = tensor_of(ScalarType::Int, {2}, {0, 1});
  auto out = out_of(ScalarType::Float, {2});
  std::vector<EValue> a{x->tensor(), EValue(), out->tensor()};
  ASSERT_EQ(call_out("aten::logit.out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-INFINITY, INFINITY}));
}

TEST(Activation, GluHalvesAnyDim) {
  for (ScalarType t : float_dtypes()) {
    auto x = tensor_of(t, {2, 4}, {1, 2, 3, 4, -1, -2, 0.5, 0});
    auto out = out_of(t, {1, 1}, {}, 4);
    std::vector<EValue> a{x->tensor(), EValue(int64_t(-1)), out->tensor()};
    ASSERT_EQ(call_out("aten::glu.out", a, *out), Error::Ok);
    EXPECT_EQ(out->shape(), (std::vector<int32_t>{2, 2}));
    auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
    expect_near_all(logical(*out), {1 * sig(3), 2 * sig(4), -1 * sig(0.5), -2 * sig(0)}, t,
                    "glu dim -1");
    auto out0 = out_of(t, {1, 4});
    std::vector<EValue> b{x->tensor(), EValue(int64_t(0)), out0->tensor()};
    ASSERT_EQ(call_out("aten::glu.out", b, *out0), Error::Ok);
    expect_near_all(logical(*out0), {1 * sig(-1), 2 * sig(-2), 3 * sig(0.5), 4 * sig(0)}, t,
                    "glu dim 0");
  }
}

TEST(Activation, Errors) {
  auto i = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto io = out_of(ScalarType::Int, {2});
  std::vector<EValue> a{i->tensor(), EValue(0.1), io->tensor()};
  EXPECT_EQ(call_out("aten::leaky_relu.out", a, *io), Error::InvalidArgument);
  auto f = tensor_of(ScalarType::Float, {3}, {1, 2, 3});
  auto fo = out_of(ScalarType::Float, {3});
  std::vector<EValue> b{f->tensor(), EValue(int64_t(0)), fo->tensor()};
  EXPECT_EQ(call_out("aten::glu.out", b, *fo), Error::InvalidArgument); // odd size
  std::vector<EValue> c{f->tensor(), EValue(int64_t(1)), fo->tensor()};
  EXPECT_EQ(call_out("aten::glu.out", c, *fo), Error::InvalidArgument); // bad dim
  auto d = out_of(ScalarType::Double, {3});
  std::vector<EValue> e{f->tensor(), EValue(1.0), EValue(1.0), EValue(1.0), d->tensor()};
  EXPECT_EQ(call_out("aten::elu.out", e, *d), Error::InvalidArgument); // dtype change
}

} // namespace
