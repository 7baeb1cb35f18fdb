// pow, remainder, fmod, floor_divide, maximum, minimum, atan2, div with a
// rounding mode and rsub.Scalar: float and integer dtypes, broadcasting,
// promotion with scalars, integer division by zero, and the errors.
// References are computed here in double (Python's semantics for % and //).
#include <cmath>
#include <functional>

#include "dtype_test_util.h"

namespace {

using namespace kt;

double py_mod(double a, double b) {
  const double m = std::fmod(a, b);
  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

struct Op {
  const char* name;
  std::function<double(double, double)> f;
};

const std::vector<double> kA{-7, -3.5, -1, 0, 2.5, 9}, kB{2, -3};

void check_tensor_op(const Op& op, ScalarType t, const std::vector<double>& a,
                     const std::vector<double>& b) {
  auto ta = tensor_of(t, {3, 2}, a);
  auto tb = tensor_of(t, {2}, b);
  auto out = out_of(t, {3, 2});
  std::vector<EValue> v{ta->tensor(), tb->tensor(), out->tensor()};
  ASSERT_EQ(call_out(op.name, v, *out), Error::Ok) << op.name << " " << dtype_name(t);
  const auto got = logical(*out);
  for (size_t i = 0; i < a.size(); ++i) {
    const double want = as_dtype(t, op.f(as_dtype(t, a[i]), as_dtype(t, b[i % 2])));
    EXPECT_NEAR(got[i], want, tolerance(t) * std::fabs(want))
        << op.name << " " << dtype_name(t) << " at " << i;
  }
}

TEST(BinaryMath, FloatingTensorForms) {
  const std::vector<Op> ops = {
      {"aten::remainder.Tensor_out", py_mod},
      {"aten::fmod.Tensor_out", [](double a, double b) { return std::fmod(a, b); }},
      {"aten::floor_divide.out", [](double a, double b) { return std::floor(a / b); }},
      {"aten::maximum.out", [](double a, double b) { return std::max(a, b); }},
      {"aten::minimum.out", [](double a, double b) { return std::min(a, b); }},
      {"aten::atan2.out", [](double a, double b) { return std::atan2(a, b); }},
  };
  for (const Op& op : ops) {
    for (ScalarType t : float_dtypes()) check_tensor_op(op, t, kA, kB);
  }
  const Op pow{"aten::pow.Tensor_Tensor_out", [](double a, double b) { return std::pow(a, b); }};
  for (ScalarType t : float_dtypes()) check_tensor_op(pow, t, {0.5, 2, 3, 1.5, 4, 9}, {2, 0.5});
}

TEST(BinaryMath, IntegerTensorForms) {
  const std::vector<Op> ops = {
      {"aten::remainder.Tensor_out", py_mod},
      {"aten::fmod.Tensor_out", [](double a, double b) { return std::fmod(a, b); }},
      {"aten::floor_divide.out", [](double a, double b) { return std::floor(a / b); }},
      {"aten::maximum.out", [](double a, double b) { return std::max(a, b); }},
      {"aten::minimum.out", [](double a, double b) { return std::min(a, b); }},
      {"aten::pow.Tensor_Tensor_out", [](double a, double b) { return std::pow(a, b); }},
  };
  const std::vector<double> a{-7, -3, -1, 0, 2, 5}; // 5^3 fits int8
  for (const Op& op : ops) {
    for (ScalarType t : {ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
      check_tensor_op(op, t, a, {2, 3});
    }
  }
  // Negative integer exponents: 1 and -1 keep their magnitude, others give 0.
  auto base = tensor_of(ScalarType::Long, {3}, {1, -1, 2});
  auto out = out_of(ScalarType::Long, {3});
  std::vector<EValue> v{base->tensor(), EValue(int64_t(-3)), out->tensor()};
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, -1, 0}));
}

TEST(BinaryMath, ScalarForms) {
  auto x = tensor_of(ScalarType::Float, {4}, {-3, -1.5, 2, 5});
  auto out = out_of(ScalarType::Float, {4});
  std::vector<EValue> p{x->tensor(), EValue(int64_t(2)), out->tensor()};
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", p, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{9, 2.25, 4, 25}));
  std::vector<EValue> r{x->tensor(), EValue(2.0), out->tensor()};
  ASSERT_EQ(call_out("aten::remainder.Scalar_out", r, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 0.5, 0, 1}));
  std::vector<EValue> f{x->tensor(), EValue(2.0), out->tensor()};
  ASSERT_EQ(call_out("aten::fmod.Scalar_out", f, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-1, -1.5, 0, 1}));
  // pow.Scalar_out: a scalar base, a tensor exponent.
  auto e = tensor_of(ScalarType::Int, {3}, {0, 1, 3});
  auto eo = out_of(ScalarType::Int, {3});
  std::vector<EValue> s{EValue(int64_t(2)), e->tensor(), eo->tensor()};
  ASSERT_EQ(call_out("aten::pow.Scalar_out", s, *eo), Error::Ok);
  EXPECT_EQ(logical(*eo), (std::vector<double>{1, 2, 8}));
  // An int tensor with a float scalar promotes to float.
  auto fo = out_of(ScalarType::Float, {3});
  std::vector<EValue> s2{e->tensor(), EValue(0.5), fo->tensor()};
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", s2, *fo), Error::Ok);
  const auto got = logical(*fo);
  EXPECT_NEAR(got[2], std::sqrt(3.0), 1e-6);
  // rsub: other - alpha * self.
  std::vector<EValue> rs{x->tensor(), EValue(1.0), EValue(int64_t(2)), out->tensor()};
  ASSERT_EQ(call_out("aten::rsub.Scalar_out", rs, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{7, 4, -3, -9}));
}

TEST(BinaryMath, DivRoundingModes) {
  auto a = tensor_of(ScalarType::Int, {4}, {7, -7, 7, -7});
  auto b = tensor_of(ScalarType::Int, {4}, {2, 2, -2, -2});
  auto io = out_of(ScalarType::Int, {4});
  std::vector<EValue> t{a->tensor(), b->tensor(), str("trunc"), io->tensor()};
  ASSERT_EQ(call_out("aten::div.out_mode", t, *io), Error::Ok);
  EXPECT_EQ(logical(*io), (std::vector<double>{3, -3, -3, 3}));
  std::vector<EValue> f{a->tensor(), b->tensor(), str("floor"), io->tensor()};
  ASSERT_EQ(call_out("aten::div.out_mode", f, *io), Error::Ok);
  EXPECT_EQ(logical(*io), (std::vector<double>{3, -4, -4, 3}));
  auto fo = out_of(ScalarType::Float, {4});
  std::vector<EValue> n{a->tensor(), b->tensor(), EValue(), fo->tensor()};
  ASSERT_EQ(call_out("aten::div.out_mode", n, *fo), Error::Ok);
  EXPECT_EQ(logical(*fo), (std::vector<double>{3.5, -3.5, -3.5, 3.5}));
  std::vector<EValue> s{a->tensor(), EValue(int64_t(-2)), str("floor"), io->tensor()};
  ASSERT_EQ(call_out("aten::div.Scalar_mode_out", s, *io), Error::Ok);
  EXPECT_EQ(logical(*io), (std::vector<double>{-4, 3, -4, 3}));
  std::vector<EValue> bad{a->tensor(), b->tensor(), str("round"), io->tensor()};
  EXPECT_EQ(call_out("aten::div.out_mode", bad, *io), Error::InvalidArgument);
}

TEST(BinaryMath, MaximumPropagatesNaN) {
  auto a = tensor_of(ScalarType::Float, {3}, {NAN, 1, 2});
  auto b = tensor_of(ScalarType::Float, {3}, {0, NAN, 3});
  auto out = out_of(ScalarType::Float, {3});
  std::vector<EValue> v{a->tensor(), b->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::maximum.out", v, *out), Error::Ok);
  const auto got = logical(*out);
  EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1]));
  EXPECT_EQ(got[2], 3);
}

TEST(BinaryMath, Errors) {
  auto a = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto z = tensor_of(ScalarType::Int, {2}, {1, 0});
  auto out = out_of(ScalarType::Int, {2});
  for (const char* op :
       {"aten::remainder.Tensor_out", "aten::fmod.Tensor_out", "aten::floor_divide.out"}) {
    std::vector<EValue> v{a->tensor(), z->tensor(), out->tensor()};
    EXPECT_EQ(call_out(op, v, *out), Error::InvalidArgument) << op;
  }
  auto f = tensor_of(ScalarType::Float, {2}, {1, 2});
  std::vector<EValue> w{f->tensor(), a->tensor(), out->tensor()}; // float into int
  EXPECT_EQ(call_out("aten::maximum.out", w, *out), Error::InvalidArgument);
  auto b = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto bo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> x{b->tensor(), b->tensor(), bo->tensor()};
  EXPECT_EQ(call_out("aten::pow.Tensor_Tensor_out", x, *bo), Error::InvalidArgument);
  auto c = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  std::vector<EValue> y{a->tensor(), c->tensor(), out->tensor()}; // shapes
  EXPECT_EQ(call_out("aten::minimum.out", y, *out), Error::InvalidArgument);
}

} // namespace
