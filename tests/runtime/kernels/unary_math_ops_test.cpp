// Elementwise unary math: the to-floating ops from every input dtype, the
// same-dtype ops (abs, neg, ceil, floor, round, trunc, sign), isinf/isnan,
// a channels-last input, a resized output, and the errors. References are
// computed here in double from the stored input values.
#include <cmath>
#include <functional>

#include "dtype_test_util.h"

namespace {

using namespace kt;

struct FloatOp {
  const char* name;
  std::function<double(double)> f;
  std::vector<double> in; // inside the op's domain
};

std::vector<FloatOp> float_ops() {
  const std::vector<double> unit{0, 0.25, 0.5, 0.75}, pos{1, 2, 3, 0.5}, any{-2, -0.5, 0, 1.5},
      ge1{1, 1.5, 2, 3};
  return {
      {"aten::acos.out", [](double x) { return std::acos(x); }, unit},
      {"aten::acosh.out", [](double x) { return std::acosh(x); }, ge1},
      {"aten::asin.out", [](double x) { return std::asin(x); }, unit},
      {"aten::asinh.out", [](double x) { return std::asinh(x); }, any},
      {"aten::atan.out", [](double x) { return std::atan(x); }, any},
      {"aten::atanh.out", [](double x) { return std::atanh(x); }, unit},
      {"aten::cos.out", [](double x) { return std::cos(x); }, any},
      {"aten::cosh.out", [](double x) { return std::cosh(x); }, any},
      {"aten::erf.out", [](double x) { return std::erf(x); }, any},
      {"aten::exp.out", [](double x) { return std::exp(x); }, any},
      {"aten::expm1.out", [](double x) { return std::expm1(x); }, any},
      {"aten::log.out", [](double x) { return std::log(x); }, pos},
      {"aten::log10.out", [](double x) { return std::log10(x); }, pos},
      {"aten::log1p.out", [](double x) { return std::log1p(x); }, pos},
      {"aten::log2.out", [](double x) { return std::log2(x); }, pos},
      {"aten::reciprocal.out", [](double x) { return 1 / x; }, pos},
      {"aten::rsqrt.out", [](double x) { return 1 / std::sqrt(x); }, pos},
      {"aten::sin.out", [](double x) { return std::sin(x); }, any},
      {"aten::sinh.out", [](double x) { return std::sinh(x); }, any},
      {"aten::sqrt.out", [](double x) { return std::sqrt(x); }, pos},
      {"aten::tan.out", [](double x) { return std::tan(x); }, any},
  };
}

void check_float_op(const FloatOp& op, ScalarType in_t, ScalarType out_t,
                    const std::vector<double>& in) {
  auto x = tensor_of(in_t, {2, 2}, in);
  // A rank-2 out resized from [1, 1] to [2, 2].
  auto out2 = out_of(out_t, {1, 1}, {}, 4);
  std::vector<EValue> v{x->tensor(), out2->tensor()};
  ASSERT_EQ(call_out(op.name, v, *out2), Error::Ok) << op.name << " " << dtype_name(in_t);
  EXPECT_EQ(out2->shape(), (std::vector<int32_t>{2, 2}));
  const auto got = logical(*out2);
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = op.f(as_dtype(in_t, in[i]));
    EXPECT_NEAR(got[i], want, 1e-6 + tolerance(out_t) * std::fabs(want))
        << op.name << " " << dtype_name(in_t) << "->" << dtype_name(out_t) << " at " << i;
  }
}

TEST(UnaryMath, ToFloatingFromEveryFloatDtype) {
  for (const FloatOp& op : float_ops()) {
    for (ScalarType t : float_dtypes()) check_float_op(op, t, t, op.in);
    check_float_op(op, ScalarType::Float, ScalarType::Double, op.in);
  }
}

TEST(UnaryMath, ToFloatingFromIntegersAndBool) {
  // Integer inputs inside every domain but acos/asin/atanh/acosh's.
  for (const FloatOp& op : float_ops()) {
    if (op.in[0] >= 1 || op.in[1] == 0.25) continue;
    for (ScalarType t : {ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
      check_float_op(op, t, ScalarType::Float, {-2, -1, 0, 3});
    }
  }
  for (const FloatOp& op : float_ops()) {
    if (op.in[0] < 1) continue; // the positive domains
    check_float_op(op, ScalarType::Int, ScalarType::Float, {1, 2, 3, 4});
  }
  check_float_op(float_ops()[6], ScalarType::Bool, ScalarType::Float, {0, 1, 1, 0}); // cos
  check_float_op(float_ops()[9], ScalarType::Byte, ScalarType::Half, {0, 1, 2, 3});  // exp
}

TEST(UnaryMath, SameDtypeOps) {
  const std::vector<double> fv{-2.5, -0.5, 0.5, 1.5, 2.5, -1.7};
  struct Op {
    const char* name;
    std::function<double(double)> f;
  };
  const std::vector<Op> ops = {
      {"aten::abs.out", [](double x) { return std::fabs(x); }},
      {"aten::neg.out", [](double x) { return -x; }},
      {"aten::ceil.out", [](double x) { return std::ceil(x); }},
      {"aten::floor.out", [](double x) { return std::floor(x); }},
      {"aten::round.out", [](double x) { return std::nearbyint(x); }}, // half to even
      {"aten::trunc.out", [](double x) { return std::trunc(x); }},
      {"aten::sign.out", [](double x) { return double((x > 0) - (x < 0)); }},
  };
  for (const Op& op : ops) {
    for (ScalarType t : float_dtypes()) {
      auto x = tensor_of(t, {6}, fv);
      auto out = out_of(t, {6});
      std::vector<EValue> v{x->tensor(), out->tensor()};
      ASSERT_EQ(call_out(op.name, v, *out), Error::Ok) << op.name;
      std::vector<double> want;
      for (double e : fv) want.push_back(as_dtype(t, op.f(as_dtype(t, e))));
      EXPECT_EQ(logical(*out), want) << op.name << " " << dtype_name(t);
    }
    for (ScalarType t : {ScalarType::Char, ScalarType::Int, ScalarType::Long}) {
      auto x = tensor_of(t, {4}, {-3, 0, 2, -1});
      auto out = out_of(t, {4});
      std::vector<EValue> v{x->tensor(), out->tensor()};
      ASSERT_EQ(call_out(op.name, v, *out), Error::Ok) << op.name;
      std::vector<double> want;
      for (double e : {-3, 0, 2, -1}) want.push_back(op.f(e));
      EXPECT_EQ(logical(*out), want) << op.name << " " << dtype_name(t);
    }
  }
  // round: halves go to the even neighbour; sign keeps NaN.
  EXPECT_EQ(std::nearbyint(2.5), 2.0);
  auto n = tensor_of(ScalarType::Float, {1}, {NAN});
  auto no = out_of(ScalarType::Float, {1});
  std::vector<EValue> v{n->tensor(), no->tensor()};
  ASSERT_EQ(call_out("aten::sign.out", v, *no), Error::Ok);
  EXPECT_TRUE(std::isnan(logical(*no)[0]));
}

TEST(UnaryMath, IsInfIsNanAndChannelsLast) {
  std::vector<double> v{0, INFINITY, NAN, -INFINITY, 1, 2, 3, NAN};
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Double}) {
    auto x = tensor_of(t, {1, 2, 2, 2}, v, {0, 2, 3, 1});
    auto inf = out_of(ScalarType::Bool, {1, 2, 2, 2});
    auto nan = out_of(ScalarType::Bool, {1, 2, 2, 2}, {0, 2, 3, 1});
    std::vector<EValue> a{x->tensor(), inf->tensor()};
    ASSERT_EQ(call_out("aten::isinf.out", a, *inf), Error::Ok);
    EXPECT_EQ(logical(*inf), (std::vector<double>{0, 1, 0, 1, 0, 0, 0, 0}));
    std::vector<EValue> b{x->tensor(), nan->tensor()};
    ASSERT_EQ(call_out("aten::isnan.out", b, *nan), Error::Ok);
    EXPECT_EQ(logical(*nan), (std::vector<double>{0, 0, 1, 0, 0, 0, 0, 1}));
  }
  auto i = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto o = out_of(ScalarType::Bool, {2});
  std::vector<EValue> c{i->tensor(), o->tensor()};
  ASSERT_EQ(call_out("aten::isnan.out", c, *o), Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{0, 0}));
  // A channels-last input into a contiguous out.
  auto x = tensor_of(ScalarType::Float, {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 2, 3, 1});
  auto y = out_of(ScalarType::Float, {1, 2, 2, 2});
  std::vector<EValue> d{x->tensor(), y->tensor()};
  ASSERT_EQ(call_out("aten::neg.out", d, *y), Error::Ok);
  EXPECT_EQ(logical(*y), (std::vector<double>{-0.0, -1, -2, -3, -4, -5, -6, -7}));
}

TEST(UnaryMath, Errors) {
  auto f = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto i = out_of(ScalarType::Int, {2});
  std::vector<EValue> a{f->tensor(), i->tensor()};
  EXPECT_EQ(call_out("aten::sin.out", a, *i), Error::InvalidArgument); // integer out
  auto d = out_of(ScalarType::Double, {2});
  std::vector<EValue> b{f->tensor(), d->tensor()};
  EXPECT_EQ(call_out("aten::abs.out", b, *d), Error::InvalidArgument); // dtype change
  auto bl = tensor_of(ScalarType::Bool, {2}, {0, 1});
  auto bo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> c{bl->tensor(), bo->tensor()};
  EXPECT_EQ(call_out("aten::neg.out", c, *bo), Error::InvalidArgument);
  auto fo = out_of(ScalarType::Float, {2});
  std::vector<EValue> e{f->tensor(), fo->tensor()};
  EXPECT_EQ(call_out("aten::isinf.out", e, *fo), Error::InvalidArgument); // non-bool out
  auto st = std::make_unique<TT>(ScalarType::Float, std::vector<int32_t>{3}, 0,
                                 TensorShapeDynamism::STATIC);
  std::vector<EValue> g{f->tensor(), st->tensor()};
  EXPECT_EQ(call_out("aten::exp.out", g, *st), Error::InvalidArgument); // cannot resize
}

} // namespace
