// bitwise_and/or/xor (Tensor_out, Scalar_out), bitwise_not and the shifts
// (Tensor_out, Tensor_Scalar_out): the integer dtypes and bool, promotion,
// broadcasting, dim orders, and the errors.
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

// ATen's shifts: amounts outside [0, bit width) shift every bit out (0, or -1
// for a negative value shifted right).
int64_t shift_ref(bool left, int bits, int64_t a, int64_t b) {
  if (b < 0 || b >= bits) return !left && a < 0 ? -1 : 0;
  return left ? static_cast<int64_t>(static_cast<uint64_t>(a) << b) : a >> b;
}

// r narrowed to the integer dtype t as a C cast would.
double narrow(ScalarType t, int64_t r) {
  switch (t) {
    case ScalarType::Byte:
      return uint8_t(r);
    case ScalarType::Char:
      return int8_t(r);
    case ScalarType::Short:
      return int16_t(r);
    case ScalarType::Int:
      return int32_t(r);
    default:
      return double(r);
  }
}

TEST(Bitwise, ShiftsInEveryIntegerDtype) {
  const std::vector<double> av{1, 3, 100, 7, 64, 5}, bv{0, 1, 2, 3, 7, 9};
  for (ScalarType t : int_dtypes()) {
    const int bits = static_cast<int>(::executorch::runtime::elementSize(t)) * 8;
    auto a = tensor_of(t, {2, 3}, av);
    auto b = tensor_of(t, {2, 3}, bv);
    for (const bool left : {true, false}) {
      const std::string op = left ? "aten::bitwise_left_shift" : "aten::bitwise_right_shift";
      auto out = out_of(t, {2, 3});
      const std::string tn = op + ".Tensor_out";
      ASSERT_EQ(call_out(tn.c_str(), {a->tensor(), b->tensor(), out->tensor()}, *out), Error::Ok)
          << tn << " " << dtype_name(t);
      std::vector<double> want;
      for (int i = 0; i < 6; ++i) {
        const int64_t r = shift_ref(left, bits, int64_t(av[i]), int64_t(bv[i]));
        want.push_back(narrow(t, r));
      }
      EXPECT_EQ(logical(*out), want) << tn << " " << dtype_name(t);
      const std::string sn = op + ".Tensor_Scalar_out";
      ASSERT_EQ(call_out(sn.c_str(), {a->tensor(), EValue(int64_t(2)), out->tensor()}, *out),
                Error::Ok)
          << sn;
      want.clear();
      for (double x : av) {
        const int64_t r = shift_ref(left, bits, int64_t(x), 2);
        want.push_back(narrow(t, r));
      }
      EXPECT_EQ(logical(*out), want) << sn << " " << dtype_name(t);
    }
  }
}

TEST(Bitwise, ShiftEdgesBroadcastAndChannelsLast) {
  // Negative values, out-of-range amounts, a broadcast amount.
  auto a = tensor_of(ScalarType::Int, {2, 2}, {-8, 8, -1, 1});
  auto b = tensor_of(ScalarType::Long, {2}, {1, 40});
  auto out = out_of(ScalarType::Long, {2, 2});
  ASSERT_EQ(call_out("aten::bitwise_right_shift.Tensor_out",
                     {a->tensor(), b->tensor(), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-4, 0, -1, 0}));
  ASSERT_EQ(call_out("aten::bitwise_left_shift.Tensor_out",
                     {a->tensor(), b->tensor(), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out),
            (std::vector<double>{-16, double(int64_t(8) << 40), -2, double(int64_t(1) << 40)}));
  auto n = tensor_of(ScalarType::Char, {2}, {-3, 3});
  auto no = out_of(ScalarType::Char, {2});
  ASSERT_EQ(call_out("aten::bitwise_left_shift.Tensor_Scalar_out",
                     {n->tensor(), EValue(int64_t(-1)), no->tensor()}, *no),
            Error::Ok);
  EXPECT_EQ(logical(*no), (std::vector<double>{0, 0}));
  ASSERT_EQ(call_out("aten::bitwise_left_shift.Tensor_Scalar_out",
                     {n->tensor(), EValue(int64_t(6)), no->tensor()}, *no),
            Error::Ok);
  EXPECT_EQ(logical(*no), (std::vector<double>{int8_t(-3 * 64), int8_t(3 * 64)}));
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto c = tensor_of(ScalarType::Short, {1, 2, 1, 2}, {1, 2, 3, 4}, cl);
  auto co = out_of(ScalarType::Short, {1, 2, 1, 2}, cl);
  ASSERT_EQ(call_out("aten::bitwise_left_shift.Tensor_out",
                     {c->tensor(), c->tensor(), co->tensor()}, *co),
            Error::Ok);
  EXPECT_EQ(logical(*co), (std::vector<double>{2, 8, 24, 64}));
}

TEST(Bitwise, ShiftErrors) {
  auto f = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto fo = out_of(ScalarType::Float, {2});
  EXPECT_EQ(call_out("aten::bitwise_left_shift.Tensor_out",
                     {f->tensor(), f->tensor(), fo->tensor()}, *fo),
            Error::InvalidArgument);
  auto b = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto bo = out_of(ScalarType::Bool, {2});
  EXPECT_EQ(call_out("aten::bitwise_right_shift.Tensor_out",
                     {b->tensor(), b->tensor(), bo->tensor()}, *bo),
            Error::InvalidArgument);
  auto i = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto io = out_of(ScalarType::Int, {2});
  EXPECT_EQ(call_out("aten::bitwise_right_shift.Tensor_Scalar_out",
                     {i->tensor(), EValue(1.5), io->tensor()}, *io),
            Error::InvalidArgument);
}

} // namespace
