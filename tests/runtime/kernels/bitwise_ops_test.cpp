// bitwise_and/or/xor (Tensor_out, Scalar_out) and bitwise_not: the integer
// dtypes and bool, promotion, broadcasting, and the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

int64_t apply(const std::string& op, int64_t a, int64_t b) {
  return op == "and" ? (a & b) : op == "or" ? (a | b) : (a ^ b);
}

TEST(Bitwise, TensorAndScalarFormsInEveryIntegerDtype) {
  const std::vector<double> av{0, 5, 12, 127, 3, 96}, bv{6, 3, 10};
  for (ScalarType t : int_dtypes()) {
    auto a = tensor_of(t, {2, 3}, av);
    auto b = tensor_of(t, {3}, bv);
    for (const std::string op : {"and", "or", "xor"}) {
      auto out = out_of(t, {2, 3});
      const std::string tn = "aten::bitwise_" + op + ".Tensor_out";
      std::vector<EValue> v{a->tensor(), b->tensor(), out->tensor()};
      ASSERT_EQ(call_out(tn.c_str(), v, *out), Error::Ok) << tn << " " << dtype_name(t);
      std::vector<double> want;
      for (int i = 0; i < 6; ++i) {
        want.push_back(double(apply(op, int64_t(av[i]), int64_t(bv[i % 3]))));
      }
      EXPECT_EQ(logical(*out), want) << tn << " " << dtype_name(t);
      const std::string sn = "aten::bitwise_" + op + ".Scalar_out";
      std::vector<EValue> s{a->tensor(), EValue(int64_t(9)), out->tensor()};
      ASSERT_EQ(call_out(sn.c_str(), s, *out), Error::Ok) << sn;
      want.clear();
      for (double x : av) want.push_back(double(apply(op, int64_t(x), 9)));
      EXPECT_EQ(logical(*out), want) << sn << " " << dtype_name(t);
    }
  }
}

TEST(Bitwise, BoolAndPromotion) {
  // The causal-mask pattern: a 0-dim bool and a [1,1,3,3] bool.
  auto s = tensor_of(ScalarType::Bool, {}, {1});
  auto m = tensor_of(ScalarType::Bool, {1, 1, 2, 2}, {1, 0, 1, 1});
  auto out = out_of(ScalarType::Bool, {1, 1, 2, 2});
  std::vector<EValue> v{s->tensor(), m->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::bitwise_and.Tensor_out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 0, 1, 1}));
  // uint8 with int8 promotes to int16: 255 | -1 == -1.
  auto u = tensor_of(ScalarType::Byte, {1}, {255});
  auto c = tensor_of(ScalarType::Char, {1}, {-1});
  auto o16 = out_of(ScalarType::Short, {1});
  std::vector<EValue> w{u->tensor(), c->tensor(), o16->tensor()};
  ASSERT_EQ(call_out("aten::bitwise_or.Tensor_out", w, *o16), Error::Ok);
  EXPECT_EQ(logical(*o16), (std::vector<double>{-1}));
}

TEST(Bitwise, Not) {
  auto a = tensor_of(ScalarType::Int, {3}, {0, 5, -1});
  auto out = out_of(ScalarType::Int, {3});
  std::vector<EValue> v{a->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::bitwise_not.out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-1, -6, 0}));
  auto u = tensor_of(ScalarType::Byte, {2}, {0, 200});
  auto uo = out_of(ScalarType::Byte, {2});
  std::vector<EValue> w{u->tensor(), uo->tensor()};
  ASSERT_EQ(call_out("aten::bitwise_not.out", w, *uo), Error::Ok);
  EXPECT_EQ(logical(*uo), (std::vector<double>{255, 55}));
  auto b = tensor_of(ScalarType::Bool, {2}, {0, 1});
  auto bo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> x{b->tensor(), bo->tensor()};
  ASSERT_EQ(call_out("aten::bitwise_not.out", x, *bo), Error::Ok);
  EXPECT_EQ(logical(*bo), (std::vector<double>{1, 0}));
}

TEST(Bitwise, Errors) {
  auto f = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto i = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto out = out_of(ScalarType::Int, {2});
  std::vector<EValue> v{f->tensor(), i->tensor(), out->tensor()};
  EXPECT_EQ(call_out("aten::bitwise_and.Tensor_out", v, *out), Error::InvalidArgument);
  std::vector<EValue> w{i->tensor(), EValue(1.5), out->tensor()};
  EXPECT_EQ(call_out("aten::bitwise_xor.Scalar_out", w, *out), Error::InvalidArgument);
  // A bool out cannot take an integer result; bitwise_not keeps the dtype.
  auto bo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> x{i->tensor(), i->tensor(), bo->tensor()};
  EXPECT_EQ(call_out("aten::bitwise_or.Tensor_out", x, *bo), Error::InvalidArgument);
  auto lo = out_of(ScalarType::Long, {2});
  std::vector<EValue> y{i->tensor(), lo->tensor()};
  EXPECT_EQ(call_out("aten::bitwise_not.out", y, *lo), Error::InvalidArgument);
}

} // namespace
