// eq/ne/lt/le/gt/ge (Tensor_out and Scalar_out): every dtype, broadcasting,
// promotion between operand dtypes and with scalars, any out dtype, a
// channels-last operand, and the errors.
#include <functional>

#include "dtype_test_util.h"

namespace {

using namespace kt;

struct CmpOp {
  const char* op;
  std::function<bool(double, double)> f;
};
const std::vector<CmpOp> kOps = {
    {"eq", [](double a, double b) { return a == b; }},
    {"ne", [](double a, double b) { return a != b; }},
    {"lt", [](double a, double b) { return a < b; }},
    {"le", [](double a, double b) { return a <= b; }},
    {"gt", [](double a, double b) { return a > b; }},
    {"ge", [](double a, double b) { return a >= b; }},
};

TEST(Comparison, TensorOutBroadcastsInEveryDtype) {
  // Values every dtype holds exactly (bool: 0/1).
  const std::vector<double> av{0, 1, 2, 3, 1, 0}, bv{1, 2, 0};
  for (ScalarType t : all_dtypes()) {
    const bool is_bool = t == ScalarType::Bool;
    std::vector<double> a = av, b = bv;
    if (is_bool) {
      for (double& x : a) x = x != 0;
      for (double& x : b) x = x != 0;
    }
    auto ta = tensor_of(t, {2, 3}, a);
    auto tb = tensor_of(t, {3}, b);
    for (const CmpOp& c : kOps) {
      auto out = out_of(ScalarType::Bool, {1, 1}, {}, 6);
      const std::string name = std::string("aten::") + c.op + ".Tensor_out";
      std::vector<EValue> v{ta->tensor(), tb->tensor(), out->tensor()};
      ASSERT_EQ(call_out(name.c_str(), v, *out), Error::Ok) << name << " " << dtype_name(t);
      EXPECT_EQ(out->shape(), (std::vector<int32_t>{2, 3}));
      std::vector<double> want;
      for (int i = 0; i < 6; ++i) want.push_back(c.f(a[i], b[i % 3]) ? 1 : 0);
      EXPECT_EQ(logical(*out), want) << name << " " << dtype_name(t);
    }
  }
}

TEST(Comparison, PromotesMixedDtypesAndScalars) {
  // int32 vs float: compared as float (2 == 2.0, 2 < 2.5).
  auto ti = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  auto tf = tensor_of(ScalarType::Float, {3}, {1, 2.5, 2});
  auto out = out_of(ScalarType::Bool, {3});
  std::vector<EValue> v{ti->tensor(), tf->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::lt.Tensor_out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 1, 0}));
  // An int tensor against a float scalar compares as float.
  std::vector<EValue> s{ti->tensor(), EValue(2.5), out->tensor()};
  ASSERT_EQ(call_out("aten::ge.Scalar_out", s, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 0, 1}));
  // Bool tensor against an int scalar; out of dtype float gets 0/1.
  auto tb = tensor_of(ScalarType::Bool, {3}, {1, 0, 1});
  auto fo = out_of(ScalarType::Float, {3});
  std::vector<EValue> s2{tb->tensor(), EValue(int64_t(1)), fo->tensor()};
  ASSERT_EQ(call_out("aten::eq.Scalar_out", s2, *fo), Error::Ok);
  EXPECT_EQ(logical(*fo), (std::vector<double>{1, 0, 1}));
}

TEST(Comparison, ScalarOutInEveryDtypeAndInfinity) {
  for (ScalarType t : all_dtypes()) {
    auto ta = tensor_of(t, {4}, {0, 1, 1, 0});
    for (const CmpOp& c : kOps) {
      auto out = out_of(ScalarType::Bool, {4});
      const std::string name = std::string("aten::") + c.op + ".Scalar_out";
      std::vector<EValue> v{ta->tensor(), EValue(int64_t(1)), out->tensor()};
      ASSERT_EQ(call_out(name.c_str(), v, *out), Error::Ok) << name << " " << dtype_name(t);
      std::vector<double> want;
      for (double x : {0, 1, 1, 0}) want.push_back(c.f(x, 1) ? 1 : 0);
      EXPECT_EQ(logical(*out), want) << name << " " << dtype_name(t);
    }
  }
  // The attention mask pattern: x == -inf.
  auto m = tensor_of(ScalarType::Float, {3}, {-INFINITY, 0, INFINITY});
  auto out = out_of(ScalarType::Bool, {3});
  std::vector<EValue> v{m->tensor(), EValue(-INFINITY), out->tensor()};
  ASSERT_EQ(call_out("aten::eq.Scalar_out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 0, 0}));
}

TEST(Comparison, ChannelsLastOperandsAndNaN) {
  std::vector<double> a, b;
  for (int i = 0; i < 12; ++i) {
    a.push_back(i % 5);
    b.push_back((i * 7) % 4);
  }
  a[3] = NAN;
  auto ta = tensor_of(ScalarType::Float, {1, 3, 2, 2}, a, {0, 2, 3, 1});
  auto tb = tensor_of(ScalarType::Float, {1, 3, 2, 2}, b);
  auto out = out_of(ScalarType::Bool, {1, 3, 2, 2}, {0, 2, 3, 1});
  std::vector<EValue> v{ta->tensor(), tb->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::ne.Tensor_out", v, *out), Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < 12; ++i) want.push_back(a[i] != b[i] ? 1 : 0);
  EXPECT_EQ(logical(*out), want);
}

TEST(Comparison, Errors) {
  auto a = tensor_of(ScalarType::Float, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto b = tensor_of(ScalarType::Float, {2}, {0, 1});
  auto out = out_of(ScalarType::Bool, {2, 3});
  std::vector<EValue> v{a->tensor(), b->tensor(), out->tensor()};
  EXPECT_EQ(call_out("aten::eq.Tensor_out", v, *out), Error::InvalidArgument);
  // An output that cannot take the result's shape.
  auto small = std::make_unique<TT>(ScalarType::Bool, std::vector<int32_t>{2, 2}, 0,
                                    TensorShapeDynamism::STATIC);
  std::vector<EValue> w{a->tensor(), EValue(1.0), small->tensor()};
  EXPECT_EQ(call_out("aten::eq.Scalar_out", w, *small), Error::InvalidArgument);
  // A string where the scalar goes; the wrong argument count.
  std::vector<EValue> x{a->tensor(), str("1"), out->tensor()};
  EXPECT_EQ(call_out("aten::lt.Scalar_out", x, *out), Error::InvalidArgument);
  std::vector<EValue> y{a->tensor(), out->tensor()};
  EXPECT_EQ(call("aten::gt.Scalar_out", y), Error::InvalidArgument);
}

} // namespace
